#!/usr/bin/env bash
# The flags of the test build, shared by scripts/test.sh and scripts/docs.sh so the two
# reuse one build: ThreadSanitizer, the import check, and symbol graphs for DocC.
cd "$(dirname "$0")/.."
mkdir -p .build-tsan/symbol-graphs
echo "--sanitize=thread --scratch-path .build-tsan --explicit-target-dependency-import-check error" \
    "-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $PWD/.build-tsan/symbol-graphs" \
    "-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public"
