#!/usr/bin/env bash
# Installs what the build needs, then runs the whole test suite under ThreadSanitizer.
# Extra arguments go to `swift test` (for example `--filter DiskCacheTests`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
swift test --sanitize=thread --scratch-path .build-tsan "$@"
