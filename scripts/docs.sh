#!/usr/bin/env bash
# Builds the DocC documentation of every public target with swift-docc-plugin and fails on
# any warning (a broken symbol link, an unknown parameter, a missing article).
# The archives land in .build/plugins/Swift-DocC/outputs/<Target>.doccarchive; to read them
# in a browser, run `swift package --disable-sandbox preview-documentation --target WebImage`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
for target in WebImageCore WebImageConversion WebImage WebImageTerminal WebImageServer LoopbackHTTPServer; do
    echo "== $target" >&2
    swift package generate-documentation --target "$target" --warnings-as-errors "$@"
done
echo "docs passed" >&2
