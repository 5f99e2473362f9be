#!/usr/bin/env bash
# libavif's AV1 encoders (aom, rav1e, SVT-AV1) at several speeds: bytes at equal Butteraugli
# distance and CPU per encode, relative to the server's AVIF encoder (aom, speed 8), on the
# corpora's photographs at web sizes. The method is in scripts/compare-avif-encoders.py.
#
#   scripts/compare-avif-encoders.sh
#   SIZES="640" CONFIGURATIONS="aom:8 svt:10" QUANTIZERS="13 20 28" scripts/compare-avif-encoders.sh
#
# Needs: avifenc and avifdec (Debian's libavif-bin, the same libavif 0.11 and codecs the
# server links), butteraugli (Debian's butteraugli), python3 with Pillow (PYTHON names it),
# and the corpora in ../shared/corpora (CORPORA=DIR names another).
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${CORPORA:-../shared/corpora}
[ -d "$corpora/large-images" ] || corpora=/work/shared/corpora
[ -d "$corpora/large-images" ] || { echo "needs the image corpora in ../shared/corpora (or CORPORA=DIR)" >&2; exit 1; }
for tool in avifenc avifdec butteraugli; do
    command -v "$tool" > /dev/null || { echo "needs $tool: apt-get install libavif-bin butteraugli" >&2; exit 1; }
done
exec "${PYTHON:-python3}" scripts/compare-avif-encoders.py "$(cd "$corpora" && pwd)"
