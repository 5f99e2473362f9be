/* Encodes raw RGBA pixels with this project's libwebp, as the server's WebPCoder configures
   it (lossy, an ARGB picture, libwebp's default preset at the quality given), for
   scripts/compare-webp-encoder.sh and scripts/compare-webp-methods.sh.

     webp-encode PIXELS WIDTH HEIGHT QUALITY METHOD TIMES [OUTPUT]

   Encodes the RGBA file PIXELS (WIDTH × HEIGHT) TIMES times, writes the last encode to
   OUTPUT when given, and prints the CPU milliseconds an encode took, its bytes and
   libwebp's version. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <webp/encode.h>

int main(int argc, char **argv) {
    if (argc != 7 && argc != 8) return 2;
    int width = atoi(argv[2]), height = atoi(argv[3]), times = atoi(argv[6]);
    unsigned char *pixels = malloc((size_t)width * height * 4);
    FILE *file = fopen(argv[1], "rb");
    if (!pixels || !file || fread(pixels, 4, (size_t)width * height, file) != (size_t)width * height) return 1;
    fclose(file);
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, (float)atof(argv[4]))) return 1;
    config.method = atoi(argv[5]);
    if (!WebPValidateConfig(&config) || times < 1) return 1;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    struct timespec start, end;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
    for (int index = 0; index < times; index++) {
        WebPPicture picture;
        if (!WebPPictureInit(&picture)) return 1;
        picture.use_argb = 1;
        picture.width = width;
        picture.height = height;
        if (!WebPPictureImportRGBA(&picture, pixels, width * 4)) return 1;
        WebPMemoryWriterClear(&writer);
        WebPMemoryWriterInit(&writer);
        picture.writer = WebPMemoryWrite;
        picture.custom_ptr = &writer;
        if (!WebPEncode(&config, &picture)) return 1;
        WebPPictureFree(&picture);
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
    if (argc == 8) {
        FILE *output = fopen(argv[7], "wb");
        if (!output || fwrite(writer.mem, 1, writer.size, output) != writer.size) return 1;
        fclose(output);
    }
    int version = WebPGetEncoderVersion();
    printf("%.3f %zu %d.%d.%d\n", ((end.tv_sec - start.tv_sec) * 1e3 + (end.tv_nsec - start.tv_nsec) / 1e6) / times, writer.size,
           version >> 16, (version >> 8) & 0xFF, version & 0xFF);
    WebPMemoryWriterClear(&writer);
    free(pixels);
    return 0;
}
