#!/usr/bin/env bash
# Installs what the build needs, builds the `webimage` tool in release mode and runs
# its main job. Extra arguments replace the default job (for example `info FILE`).
#
# The demo needs no image server, so the tool is built without the `Server` trait (no
# Hummingbird, no swift-prometheus), which shortens a first build; `scripts/demo.sh serve …`
# builds it with the server.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
if [ "${1:-}" = serve ]; then
    swift build -c release --product webimage
else
    swift build -c release --product webimage --traits TIFF,AVIF,HEIF,JXL,ColorManagement
fi
if [ $# -eq 0 ]; then
    set -- demo
fi
exec .build/release/webimage "$@"
