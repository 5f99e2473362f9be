#!/usr/bin/env bash
# Builds the DocC documentation of every Swift library target and fails on any warning (a
# broken symbol link, an unknown parameter, a missing article).
#
# The targets come from the manifest (`swift package dump-package`): every regular target
# outside Tests/ with Swift sources — each library product's targets, the codec targets the
# products re-export and WebImageColor — so a target added later is checked without an edit
# here. A target without a catalog is converted from its symbol graph alone.
#
# The symbol graphs come from the test build: `scripts/test.sh` compiles with
# `-emit-symbol-graph` into .build-tsan/symbol-graphs, so after it this script only runs
# `docc convert` on each catalog (seconds, not a second build). Run alone, it makes that
# same build first. SYMBOL_GRAPHS names another folder of graphs (and DOCS_OUTPUT another
# output folder), e.g. those of a debug build made with the flags of
# scripts/test-build-flags.sh's symbol-graph part. The archives land in
# .build-tsan/docs/<Target>.doccarchive; to read them in a browser:
# `swift package --disable-sandbox preview-documentation --target WebImage`.
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=${SYMBOL_GRAPHS:-.build-tsan/symbol-graphs}
output=${DOCS_OUTPUT:-.build-tsan/docs}
if [ -z "${SYMBOL_GRAPHS:-}" ] && [ ! -f "$graphs/WebImage.symbols.json" ]; then
    scripts/install-system-packages.sh
    swift build --build-tests $(scripts/test-build-flags.sh)
fi
targets=$(swift package dump-package | python3 -c '
import json, os, sys
for target in json.load(sys.stdin)["targets"]:
    path = target.get("path") or "Sources/" + target["name"]
    if target["type"] != "regular" or path.startswith("Tests/"):
        continue
    if any(name.endswith(".swift") for _, _, names in os.walk(path) for name in names):
        print(target["name"])
')
[ -n "$targets" ] || { echo "no targets read from the manifest" >&2; exit 1; }
docc=$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")
status=0
mkdir -p "$output"
for target in $targets; do
    echo "== $target" >&2
    if [ ! -f "$graphs/$target.symbols.json" ]; then
        echo "error: no symbol graph $graphs/$target.symbols.json (is its trait off?)" >&2
        status=1
        continue
    fi
    own=$(mktemp -d)
    cp "$graphs/$target.symbols.json" "$own/"
    cp "$graphs/$target"@*.symbols.json "$own/" 2>/dev/null || true
    catalog=()
    [ -d "Sources/$target/$target.docc" ] && catalog=("Sources/$target/$target.docc")
    "$docc" convert "${catalog[@]}" --additional-symbol-graph-dir "$own" \
        --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
        --output-dir "$output/$target.doccarchive" --warnings-as-errors >&2 || status=1
    rm -rf "$own"
done
[ "$status" -eq 0 ] && echo "docs passed ($(echo $targets | wc -w) targets)" >&2
exit "$status"
