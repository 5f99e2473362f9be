#!/usr/bin/env bash
# Builds the DocC documentation of every public target and fails on any warning (a broken
# symbol link, an unknown parameter, a missing article).
#
# The symbol graphs come from the test build: `scripts/test.sh` compiles with
# `-emit-symbol-graph` into .build-tsan/symbol-graphs, so after it this script only runs
# `docc convert` on each catalog (seconds, not a second build). Run alone, it makes that
# same build first. The archives land in .build-tsan/docs/<Target>.doccarchive; to read them
# in a browser: `swift package --disable-sandbox preview-documentation --target WebImage`.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=.build-tsan/symbol-graphs
if [ ! -f "$graphs/WebImage.symbols.json" ]; then
    scripts/install-system-packages.sh
    swift build --build-tests $(scripts/test-build-flags.sh)
fi
docc=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
status=0
mkdir -p .build-tsan/docs
for target in WebImageCore WebImageConversion WebImage WebImageTerminal WebImageServer LoopbackHTTPServer; do
    echo "== $target" >&2
    own=$(mktemp -d)
    cp "$graphs/$target.symbols.json" "$own/"
    cp "$graphs/$target"@*.symbols.json "$own/" 2>/dev/null || true
    catalog=()
    [ -d "Sources/$target/$target.docc" ] && catalog=("Sources/$target/$target.docc")
    "$docc" convert "${catalog[@]}" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
        --output-dir ".build-tsan/docs/$target.doccarchive" --warnings-as-errors >&2 || status=1
    rm -rf "$own"
done
[ "$status" -eq 0 ] && echo "docs passed" >&2
exit "$status"
