#!/usr/bin/env bash
# libwebp's encoder methods (0 fastest to 6 smallest): bytes at equal Butteraugli distance and
# CPU per encode, relative to the server's WebP encoder (method 4, libwebp's default, which
# Pillow under thumbor uses too), on the corpora's photographs at web sizes. The encodes are
# this project's libwebp (Debian's, through scripts/webp-encode.c, built here); the
# method is in scripts/compare-webp-methods.py.
#
#   scripts/compare-webp-methods.sh
#   SIZES="640" METHODS="2 4" QUALITIES="70 80 90" scripts/compare-webp-methods.sh
#
# Needs: gcc, libwebp-dev, butteraugli (Debian's butteraugli), python3 with Pillow (PYTHON
# names it), and the corpora in ../shared/corpora (CORPORA=DIR names another).
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${CORPORA:-../shared/corpora}
[ -d "$corpora/large-images" ] || corpora=/work/shared/corpora
[ -d "$corpora/large-images" ] || { echo "needs the image corpora in ../shared/corpora (or CORPORA=DIR)" >&2; exit 1; }
for tool in gcc butteraugli; do
    command -v "$tool" > /dev/null || { echo "needs $tool: apt-get install gcc butteraugli" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 scripts/webp-encode.c -o "$work/encode" -lwebp
ENCODER="$work/encode" exec "${PYTHON:-python3}" scripts/compare-webp-methods.py "$(cd "$corpora" && pwd)"
