#!/usr/bin/env bash
# Installs the system libraries GeoAnchorKit builds against (idempotent; sudo only when not root).
#   apt: libproj-dev libgeos-dev proj-data pkg-config (+ python3, python3-pip when missing)
#   pip: wmm-calculator (NOAA), into .data/pip, for its WMM.COF
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(libproj-dev libgeos-dev proj-data pkg-config)
# python3 + pip fetch NOAA's WMM coefficients below; install them only where they are missing.
command -v python3 >/dev/null 2>&1 || APT_PACKAGES+=(python3)
python3 -m pip --version >/dev/null 2>&1 || APT_PACKAGES+=(python3-pip)

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

# The World Magnetic Model coefficients (WMM.COF) from NOAA's own PyPI package `wmm-calculator`,
# installed into a repo-local target (no user site, no venv) and copied to .data/WMM.COF, where
# GeoAnchorKit's MagneticModel.load() looks by default (override: GEOANCHORKIT_WMM_COF).
WMM_COF=.data/WMM.COF
if [ ! -s "$WMM_COF" ]; then
    mkdir -p .data
    if [ ! -f .data/pip/wmm/coefs/WMM.COF ]; then
        echo "install-deps: installing wmm-calculator (NOAA) into .data/pip" >&2
        python3 -m pip install --quiet --disable-pip-version-check --no-deps --target .data/pip wmm-calculator >&2
    fi
    src=$(find .data/pip -path '*/wmm/coefs/WMM.COF' -print -quit)
    if [ -z "$src" ]; then
        echo "install-deps: wmm-calculator installed but WMM.COF not found under .data/pip" >&2
        exit 1
    fi
    cp "$src" "$WMM_COF.tmp" && mv "$WMM_COF.tmp" "$WMM_COF"
fi
# Verify it is a WMM coefficient file: header "EPOCH WMM-YYYY DATE", degree-12 coefficients, 9s trailer.
if ! head -1 "$WMM_COF" | grep -Eq '^ *[0-9]{4}\.[0-9]+ +WMM-[0-9]{4}' \
   || ! grep -Eq '^ *12 +12 ' "$WMM_COF" || ! grep -q '^999999' "$WMM_COF"; then
    echo "install-deps: $WMM_COF is not a valid WMM coefficient file; delete it and rerun" >&2
    exit 1
fi
