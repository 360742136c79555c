#!/usr/bin/env bash
# DocC analysis of the GeoAnchorKit and GeoAnchorKitPROJ catalogues: builds both modules' symbol
# graphs (one build of the PROJ target, which compiles the core too), runs `docc convert --analyze`
# on Sources/<Module>/<Module>.docc with that module's graph and exits non-zero on any warning
# (broken ``Symbol`` links, undocumented or misnamed parameters, ambiguous references), printing
# each one. Links into another module cannot resolve in a one-module analysis: the PROJ docs name
# core types in code voice (`GeoidGrid`), not as ``links``. The build uses its own scratch path (.build/docc-check) so that the
# symbol-graph flags do not invalidate the regular debug build.
# Set DOCC to use another docc binary.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docc-check
graphs="$PWD/$scratch/symbol-graphs"
archive="$PWD/$scratch/archive"
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
    swift build --target GeoAnchorKitPROJ --scratch-path "$scratch" \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs"
}
mkdir -p "$graphs"
build
if [ ! -s "$graphs/GeoAnchorKit.symbols.json" ] || [ ! -s "$graphs/GeoAnchorKitPROJ.symbols.json" ]; then
    rm -rf "$scratch"
    mkdir -p "$graphs"
    build
fi

failed=0
for module in GeoAnchorKit GeoAnchorKitPROJ; do
    # The module's own graphs only (GeoAnchorKit.symbols.json, GeoAnchorKit@Swift.symbols.json, …).
    own="$PWD/$scratch/graphs-$module"
    rm -rf "$own" "$archive-$module"
    mkdir -p "$own"
    cp "$graphs/$module".symbols.json "$own/"
    for extension in "$graphs/$module"@*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$own/"
    done
    status=0
    "$docc" convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$own" --analyze \
        --output-path "$archive-$module" --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        >"$log" 2>&1 || status=$?
    warnings=$(grep -c 'warning:' "$log" || true)
    if [ "$status" -ne 0 ] || [ "$warnings" -ne 0 ]; then
        grep -E -A10 '(warning|error):' "$log" || cat "$log"
        echo "docc-check: $module: $warnings warning(s), docc exit status $status" >&2
        failed=1
    fi
done
[ "$failed" -eq 0 ] || exit 1
echo "docc-check: no warnings"
