#!/usr/bin/env bash
# Installs what the build needs, builds the `webimage` tool and runs its main job. Extra
# arguments replace the default job (for example `info FILE`).
#
# The demo needs no image server, so the tool is built without the `Server` trait (no
# Hummingbird, no swift-prometheus), and in debug: the targets whose work is pixel loops
# (WebImageCore, WebImageProcessing, the GIF coder) are compiled optimised in debug builds
# too, and the codecs are the system's C libraries, so the demo runs in seconds either way,
# while the first build takes about 3 minutes on two cores instead of about 9 for a release
# build (Benchmarks/README.md, "The test suite and the first run"). `scripts/demo.sh serve …`
# builds a release build with the server, as a server should run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-system-packages.sh
if [ "${1:-}" = serve ]; then
    swift build -c release --product webimage
    exec .build/release/webimage "$@"
fi
swift build --product webimage --traits TIFF,AVIF,HEIF,JXL,ColorManagement
if [ $# -eq 0 ]; then
    set -- demo
fi
exec .build/debug/webimage "$@"
