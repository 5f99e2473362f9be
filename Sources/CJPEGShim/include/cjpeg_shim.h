/*
 * A small C API over libjpeg's classic interface for SwiftWebImage.
 *
 * libjpeg reports fatal errors by calling error_exit, which must not return; Swift
 * cannot catch a longjmp, so every function here that calls into libjpeg sets a jump
 * point first and turns a fatal error into the return value -1 with a message.
 * Warnings (damaged or truncated data that libjpeg decodes anyway) are counted, never
 * printed. A decoder or encoder is used from one thread at a time.
 */
#ifndef CJPEG_SHIM_H
#define CJPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Files with more scans than this are refused, as TurboJPEG's TJFLAG_LIMITSCANS does:
 * each scan of a progressive file costs a pass over the whole coefficient buffer. The
 * lossless transform (WebImageJPEG's JPEGLosslessTransform) holds files to it too. */
#define CJPEG_MAX_SCANS 500

/* The pixel layouts rows are read or written in. */
typedef enum {
    CJPEG_PIXELS_RGBA = 0, /* 4 bytes: red, green, blue, 255 (encoders ignore the 4th byte) */
    CJPEG_PIXELS_RGB = 1,  /* 3 bytes: red, green, blue */
    CJPEG_PIXELS_CMYK = 2, /* 4 bytes of ink as the file stores them (decoding only) */
    CJPEG_PIXELS_GRAY = 3, /* 1 byte of luminance (encoding only) */
} cjpeg_pixels;

/* What a JPEG header declares. */
typedef struct {
    uint32_t width;                 /* stored width */
    uint32_t height;                /* stored height */
    int32_t components;             /* colour components in the file */
    int32_t bits_per_sample;        /* data precision, 8 for ordinary files */
    int32_t is_ink;                 /* CMYK or YCCK data, read out as CMYK */
    int32_t has_multiple_scans;     /* progressive or multi-scan: decoding buffers all coefficients */
    uint64_t coefficient_bytes;     /* size of that whole-image coefficient buffer at full size */
} cjpeg_header;

typedef struct cjpeg_decoder cjpeg_decoder;

/* A decoder over `size` bytes at `data`, which must stay valid until it is destroyed.
 * libjpeg's whole-image buffers may take at most `max_memory` bytes (0: no limit).
 * Returns NULL when memory is short. */
cjpeg_decoder *cjpeg_decoder_create(const void *data, size_t size, uint64_t max_memory);
/* A decoder reading the JPEG from `file` (at its current position) through libjpeg's
 * stdio source, a buffer at a time; the file must stay open until it is destroyed. */
cjpeg_decoder *cjpeg_decoder_create_reading(FILE *file, uint64_t max_memory);
void cjpeg_decoder_destroy(cjpeg_decoder *decoder);

/* Reads the markers up to the first scan. Returns 0, or -1 on a fatal error. */
int cjpeg_decoder_read_header(cjpeg_decoder *decoder, cjpeg_header *header);

/* Starts decompression at scale `scale_numerator`/`scale_denominator` into `pixels` rows and tells the
 * output size. Progressive files are read whole here. Returns 0 or -1. */
int cjpeg_decoder_start(cjpeg_decoder *decoder, uint32_t scale_numerator, uint32_t scale_denominator,
                        cjpeg_pixels pixels, uint32_t *width, uint32_t *height);

/* Decodes up to `count` rows into `rows` (each `stride` bytes apart) and tells how many
 * it wrote. Returns 0 or -1. */
int cjpeg_decoder_read_rows(cjpeg_decoder *decoder, uint8_t *rows, size_t stride, uint32_t count,
                            uint32_t *rows_read);

/* Reads the rest of the data up to the end marker, after the last row. Returns 0 or -1. */
int cjpeg_decoder_finish(cjpeg_decoder *decoder);

/* How many warnings libjpeg gave so far. */
unsigned long cjpeg_decoder_warning_count(const cjpeg_decoder *decoder);
/* Whether any warning said the data ended early (truncation, or a scan cut short). */
int cjpeg_decoder_data_ended_early(const cjpeg_decoder *decoder);
/* The fatal error, else the first warning, else "". */
const char *cjpeg_decoder_message(const cjpeg_decoder *decoder);

typedef struct cjpeg_encoder cjpeg_encoder;

/* An encoder writing into memory it owns. Returns NULL when memory is short. */
cjpeg_encoder *cjpeg_encoder_create(void);
void cjpeg_encoder_destroy(cjpeg_encoder *encoder);

/* Starts a baseline YCbCr JPEG (or YCCK for CMYK rows) of `width` × `height` at
 * `quality` 1–100. The luminance (and black) component is sampled `horizontal_sampling`
 * × `vertical_sampling` times as densely as the chroma ones (1–4 each; 2×2 is 4:2:0,
 * 1×1 is 4:4:4). Returns 0 or -1. */
int cjpeg_encoder_start(cjpeg_encoder *encoder, uint32_t width, uint32_t height, cjpeg_pixels pixels,
                        int quality, int horizontal_sampling, int vertical_sampling);

/* Compresses `count` rows of `rows`, each `stride` bytes apart. Returns 0 or -1. */
int cjpeg_encoder_write_rows(cjpeg_encoder *encoder, const uint8_t *rows, size_t stride, uint32_t count);

/* Ends the file and hands over its bytes: `*data` is the caller's to free(). Returns 0 or -1. */
int cjpeg_encoder_finish(cjpeg_encoder *encoder, uint8_t **data, size_t *size);

/* The last fatal error, or "". */
const char *cjpeg_encoder_message(const cjpeg_encoder *encoder);

/* The seven lossless turns and mirrors, as the stored pixels move. */
typedef enum {
    CJPEG_TURN_MIRROR_HORIZONTALLY = 1, /* left and right swap */
    CJPEG_TURN_MIRROR_VERTICALLY = 2,   /* top and bottom swap */
    CJPEG_TURN_TRANSPOSE = 3,           /* across the top-left to bottom-right diagonal */
    CJPEG_TURN_CLOCKWISE = 4,           /* a quarter turn clockwise */
    CJPEG_TURN_HALF = 5,                /* half a turn */
    CJPEG_TURN_TRANSVERSE = 6,          /* across the top-right to bottom-left diagonal */
    CJPEG_TURN_COUNTERCLOCKWISE = 7,    /* a quarter turn counter-clockwise */
} cjpeg_turn;

/* Turns or mirrors the JPEG of `size` bytes at `data` without decoding its pixels: its
 * DCT coefficients are read whole (libjpeg's whole-image arrays, at most `max_memory`
 * bytes), and each block of the result is moved and its coefficients transposed or
 * negated as the encoder asks for it, so no second whole-image array is held. The
 * result is a baseline JPEG with standard Huffman tables and no markers of the source.
 * Only pictures whose width and height are whole MCUs are turned here.
 * Returns 0 with the result in `*output` (free() it), 1 when the picture is not whole
 * MCUs or libjpeg warned about the data (nothing written), or -1 when libjpeg failed
 * (damaged data, its memory limit) or memory ran out. */
int cjpeg_turn_coefficients(const void *data, size_t size, cjpeg_turn turn, uint64_t max_memory,
                            unsigned char **output, unsigned long *output_size);

#endif
