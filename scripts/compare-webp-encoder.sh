#!/usr/bin/env bash
# Does thumbor's WebP encoder do the same work as ours? Encodes the same pixels at quality 80
# (libwebp's defaults otherwise: method 4, as both servers write WebP) with the libwebp this
# project links (Debian's, through scripts/webp-encode.c, built here) and with
# Pillow's own (the libwebp its wheel bundles, through Image.save as thumbor calls it), and
# prints each encode's CPU time and bytes. The pixels: a photograph of the corpora
# (large-images/Kleiber_by_Lukas_Baubkus.jpg), scaled to 640 and 1280 px wide by Pillow.
#
#   PATH=/path/to/venv-with-pillow/bin:$PATH scripts/compare-webp-encoder.sh
#
# Needs: gcc, libwebp-dev, python3 with Pillow, the corpora (../shared/corpora, or CORPORA=DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
corpora=${CORPORA:-../shared/corpora}
[ -d "$corpora/large-images" ] || corpora=/work/shared/corpora
photo="$corpora/large-images/Kleiber_by_Lukas_Baubkus.jpg"
[ -f "$photo" ] || { echo "needs $photo (the corpora in ../shared/corpora, or CORPORA=DIR)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O2 scripts/webp-encode.c -o "$work/encode" -lwebp

python3 - "$photo" "$work" <<'PYTHON'
import io, subprocess, sys, time
from PIL import Image, features

photo, work = sys.argv[1], sys.argv[2]
source = Image.open(photo).convert("RGB")
for width, times in ((640, 40), (1280, 20)):
    height = width * source.height // source.width
    image = source.resize((width, height), Image.LANCZOS)
    path = f"{work}/{width}.rgba"
    with open(path, "wb") as file:
        file.write(image.convert("RGBA").tobytes())
    for _ in range(2):
        milliseconds, size, version = subprocess.run(
            [f"{work}/encode", path, str(width), str(height), "80", "4", str(times)], check=True, capture_output=True, text=True
        ).stdout.split()
        print(f"this project's libwebp {version}, {width}x{height}: {float(milliseconds):.1f} ms an encode, {size} bytes")
        start = time.process_time()
        for _ in range(times):
            output = io.BytesIO()
            image.save(output, "WEBP", quality=80)
        milliseconds = (time.process_time() - start) / times * 1000
        print(f"Pillow's libwebp {features.version('webp')}, {width}x{height}: {milliseconds:.1f} ms an encode, {len(output.getvalue())} bytes")
PYTHON
