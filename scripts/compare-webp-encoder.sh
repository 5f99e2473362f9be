#!/usr/bin/env bash
# Does thumbor's WebP encoder do the same work as ours? Encodes the same pixels at quality 80
# (libwebp's defaults otherwise: method 4, as both servers write WebP) with the libwebp this
# project links (Debian's, through WebPEncodeRGBA, in a small C program built here) and with
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

cat > "$work/encode.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <webp/encode.h>

/* Encodes the RGBA file argv[1] (argv[2] × argv[3] pixels) argv[4] times at quality 80. */
int main(int argc, char **argv) {
    if (argc != 5) return 2;
    int width = atoi(argv[2]), height = atoi(argv[3]), times = atoi(argv[4]);
    unsigned char *pixels = malloc((size_t)width * height * 4);
    FILE *file = fopen(argv[1], "rb");
    if (!pixels || !file || fread(pixels, 4, (size_t)width * height, file) != (size_t)width * height) return 1;
    fclose(file);
    struct timespec start, end;
    size_t size = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (int index = 0; index < times; index++) {
        uint8_t *output = NULL;
        size = WebPEncodeRGBA(pixels, width, height, width * 4, 80, &output);
        WebPFree(output);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    double milliseconds = ((end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6) / times;
    int version = WebPGetEncoderVersion();
    printf("this project's libwebp %d.%d.%d, %dx%d: %.1f ms an encode, %zu bytes\n", version >> 16, (version >> 8) & 0xFF, version & 0xFF,
           width, height, milliseconds, size);
    free(pixels);
    return size > 0 ? 0 : 1;
}
C
gcc -O2 "$work/encode.c" -o "$work/encode" -lwebp

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
        subprocess.run([f"{work}/encode", path, str(width), str(height), str(times)], check=True)
        start = time.process_time()
        for _ in range(times):
            output = io.BytesIO()
            image.save(output, "WEBP", quality=80)
        milliseconds = (time.process_time() - start) / times * 1000
        print(f"Pillow's libwebp {features.version('webp')}, {width}x{height}: {milliseconds:.1f} ms an encode, {len(output.getvalue())} bytes")
PYTHON
