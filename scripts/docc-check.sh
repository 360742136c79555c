#!/usr/bin/env bash
# DocC analysis of the GeoAnchorKit catalogue: builds the module's symbol graph, runs
# `docc convert --analyze` on Sources/GeoAnchorKit/GeoAnchorKit.docc and exits non-zero on any
# warning (broken ``Symbol`` links, undocumented or misnamed parameters, ambiguous references),
# printing each one. The build uses its own scratch path (.build/docc-check) so that the
# symbol-graph flags do not invalidate the regular debug build.
# Set DOCC to use another docc binary.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docc-check
graphs="$PWD/$scratch/symbol-graphs"
archive="$PWD/$scratch/GeoAnchorKit.doccarchive"
log="$PWD/$scratch/docc.log"

docc=${DOCC:-}
if [ -z "$docc" ]; then
    docc=$(command -v docc || true)
    [ -z "$docc" ] && [ -x /opt/swift/usr/bin/docc ] && docc=/opt/swift/usr/bin/docc
    [ -z "$docc" ] && docc=$(xcrun --find docc 2>/dev/null || true)
fi
if [ -z "$docc" ]; then
    echo "docc-check: no docc binary found (set DOCC=/path/to/docc)" >&2
    exit 2
fi

# The compiler writes the symbol graph only when it compiles the module: keep the graphs of the
# last build, and start the scratch build afresh when they are missing.
build() {
    swift build --target GeoAnchorKit --scratch-path "$scratch" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
}
mkdir -p "$graphs"
build
if [ ! -s "$graphs/GeoAnchorKit.symbols.json" ]; then
    rm -rf "$scratch"
    mkdir -p "$graphs"
    build
fi
rm -rf "$archive"

status=0
"$docc" convert Sources/GeoAnchorKit/GeoAnchorKit.docc --additional-symbol-graph-dir "$graphs" --analyze \
    --output-path "$archive" --fallback-display-name GeoAnchorKit --fallback-bundle-identifier GeoAnchorKit \
    >"$log" 2>&1 || status=$?
warnings=$(grep -c 'warning:' "$log" || true)
if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
    grep -E -A10 '(warning|error):' "$log" || cat "$log"
    echo "docc-check: $warnings warning(s), docc exit status $status" >&2
    exit 1
fi
echo "docc-check: no warnings"
