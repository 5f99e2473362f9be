#!/usr/bin/env bash
# thumbor against `webimage serve --dialect thumbor`: the same libthumbor URLs (every
# geometry form and filter of issue 53's list, over three generated images) fetched from
# both, with the same key; prints each case and a table of the mismatches in status,
# format, pixel size and pixels (mean absolute difference under each case's tolerance).
#
# Needs thumbor 7.8 and libthumbor in a virtual environment:
#   python3 -m venv /work/thumbor-venv && /work/thumbor-venv/bin/pip install thumbor==7.8.0 libthumbor
# THUMBOR_VENV (default /work/thumbor-venv) names it; WEBIMAGE (default the release build
# if there is one, else the debug build) names the webimage binary.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${THUMBOR_VENV:-/work/thumbor-venv}
webimage=${WEBIMAGE:-}
if [ -z "$webimage" ]; then
    if [ -x .build/release/webimage ]; then webimage=.build/release/webimage; else webimage=.build/debug/webimage; fi
fi
[ -x "$venv/bin/thumbor" ] || { echo "no thumbor in $venv (see the comment at the top)" >&2; exit 2; }
[ -x "$webimage" ] || { echo "no webimage binary at $webimage: swift build first" >&2; exit 2; }
exec "$venv/bin/python" scripts/compare-thumbor.py "$venv/bin/thumbor" "$(realpath "$webimage")"
