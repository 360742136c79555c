#!/usr/bin/env bash
# Installs the system libraries GeoAnchorKit builds against (idempotent; sudo only when not root).
#   apt: libproj-dev libgeos-dev proj-data pkg-config
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(libproj-dev libgeos-dev proj-data pkg-config)

missing=()
for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    echo "install-deps: installing ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
