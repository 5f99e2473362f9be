#!/usr/bin/env bash
# libwebp's encoder methods (0 fastest to 6 smallest): bytes at equal Butteraugli distance and
# CPU per encode, relative to the server's WebP encoder (method 4, libwebp's default, which
# Pillow under thumbor uses too), on the corpora's photographs at web sizes. The encodes are
# this project's libwebp (Debian's, through WebPEncode in a small C program built here); the
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

cat > "$work/encode.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <webp/encode.h>

/* Encodes the RGBA file argv[1] (argv[2] × argv[3] pixels) argv[6] times at quality argv[4]
   and method argv[5], as the server's WebPCoder configures libwebp, writes the last encode
   to argv[7] and prints the CPU milliseconds an encode took. */
int main(int argc, char **argv) {
    if (argc != 8) return 2;
    int width = atoi(argv[2]), height = atoi(argv[3]), times = atoi(argv[6]);
    unsigned char *pixels = malloc((size_t)width * height * 4);
    FILE *file = fopen(argv[1], "rb");
    if (!pixels || !file || fread(pixels, 4, (size_t)width * height, file) != (size_t)width * height) return 1;
    fclose(file);
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float)atof(argv[4]))) return 1;
    config.method = atoi(argv[5]);
    if (!WebPValidateConfig(&config)) return 1;
    WebPMemoryWriter writer;
    struct timespec start, end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (int index = 0; index < times; index++) {
        WebPPicture picture;
        if (!WebPPictureInit(&picture)) return 1;
        picture.use_argb = 1;
        picture.width = width;
        picture.height = height;
        if (!WebPPictureImportRGBA(&picture, pixels, width * 4)) return 1;
        if (index > 0) WebPMemoryWriterClear(&writer);
        WebPMemoryWriterInit(&writer);
        picture.writer = WebPMemoryWrite;
        picture.custom_ptr = &writer;
        if (!WebPEncode(&config, &picture)) return 1;
        WebPPictureFree(&picture);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    FILE *output = fopen(argv[7], "wb");
    if (!output || fwrite(writer.mem, 1, writer.size, output) != writer.size) return 1;
    fclose(output);
    WebPMemoryWriterClear(&writer);
    printf("%.3f\n", ((end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6) / times);
    free(pixels);
    return 0;
}
C
gcc -O2 "$work/encode.c" -o "$work/encode" -lwebp
ENCODER="$work/encode" exec "${PYTHON:-python3}" scripts/compare-webp-methods.py "$(cd "$corpora" && pwd)"
