#!/usr/bin/env bash
# Installs what the build needs, builds the `webimage` tool in release mode and runs
# its main job. Extra arguments replace the default job (for example `info FILE`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
swift build -c release --product webimage
if [ $# -eq 0 ]; then
    set -- demo
fi
exec .build/release/webimage "$@"
