/*
 * libjpeg's classic API behind return codes: see include/cjpeg_shim.h.
 */
#include "cjpeg_shim.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/* Rows handed to libjpeg per call. */
#define CJPEG_ROW_BATCH 16

/* libjpeg's error manager, extended with a jump point and what went wrong. */
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int failed;
    int ended_early;
} shim_error;

static void shim_error_exit(j_common_ptr common) {
    shim_error *error = (shim_error *)common->err;
    common->err->format_message(common, error->message);
    error->failed = 1;
    longjmp(error->jump, 1);
}

static void shim_emit_message(j_common_ptr common, int level) {
    shim_error *error = (shim_error *)common->err;
    if (level >= 0) return; /* trace messages */
    if (common->err->msg_code == JWRN_JPEG_EOF || common->err->msg_code == JWRN_HIT_MARKER) {
        error->ended_early = 1;
    }
    if (common->err->num_warnings == 0 && !error->failed) {
        common->err->format_message(common, error->message);
    }
    common->err->num_warnings++;
}

static void shim_output_message(j_common_ptr common) {
    (void)common;
}

static void shim_error_init(shim_error *error) {
    jpeg_std_error(&error->base);
    error->base.error_exit = shim_error_exit;
    error->base.emit_message = shim_emit_message;
    error->base.output_message = shim_output_message;
}

/* ---------------------------------------------------------------- decoder */

struct cjpeg_decoder {
    struct jpeg_decompress_struct info;
    shim_error error;
    struct jpeg_progress_mgr progress;
    const unsigned char *data;
    size_t size;
    FILE *file;
    int created;
};

static void limit_scans(j_common_ptr common) {
    j_decompress_ptr info = (j_decompress_ptr)common;
    shim_error *error = (shim_error *)common->err;
    if (info->input_scan_number > CJPEG_MAX_SCANS) {
        snprintf(error->message, sizeof error->message, "the JPEG has more than %d scans", CJPEG_MAX_SCANS);
        error->failed = 1;
        longjmp(error->jump, 1);
    }
}

static cjpeg_decoder *decoder_create(const void *data, size_t size, FILE *file, uint64_t max_memory) {
    cjpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->file = file;
    shim_error_init(&decoder->error);
    decoder->info.err = &decoder->error.base;
    if (setjmp(decoder->error.jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->created = 1;
    if (max_memory > 0) {
        decoder->info.mem->max_memory_to_use = max_memory > (uint64_t)LONG_MAX ? LONG_MAX : (long)max_memory;
    }
    decoder->progress.progress_monitor = limit_scans;
    decoder->info.progress = &decoder->progress;
    return decoder;
}

cjpeg_decoder *cjpeg_decoder_create(const void *data, size_t size, uint64_t max_memory) {
    return decoder_create(data, size, NULL, max_memory);
}

cjpeg_decoder *cjpeg_decoder_create_reading(FILE *file, uint64_t max_memory) {
    return decoder_create(NULL, 0, file, max_memory);
}

void cjpeg_decoder_destroy(cjpeg_decoder *decoder) {
    if (!decoder) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

static uint64_t round_up(uint64_t value, uint64_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

int cjpeg_decoder_read_header(cjpeg_decoder *decoder, cjpeg_header *header) {
    if (decoder->error.failed) return -1;
    if (setjmp(decoder->error.jump)) return -1;
    if (decoder->file) {
        jpeg_stdio_src(&decoder->info, decoder->file);
    } else {
        jpeg_mem_src(&decoder->info, decoder->data, (unsigned long)decoder->size);
    }
    jpeg_read_header(&decoder->info, TRUE);
    struct jpeg_decompress_struct *info = &decoder->info;
    memset(header, 0, sizeof *header);
    header->width = info->image_width;
    header->height = info->image_height;
    header->components = info->num_components;
    header->bits_per_sample = info->data_precision;
    header->is_ink = info->jpeg_color_space == JCS_CMYK || info->jpeg_color_space == JCS_YCCK;
    header->has_multiple_scans = jpeg_has_multiple_scans(info) ? 1 : 0;
    uint64_t bytes = 0;
    for (int index = 0; index < info->num_components; index++) {
        jpeg_component_info *component = &info->comp_info[index];
        bytes += round_up(component->width_in_blocks, (uint64_t)component->h_samp_factor) *
                 round_up(component->height_in_blocks, (uint64_t)component->v_samp_factor) * sizeof(JBLOCK);
    }
    header->coefficient_bytes = bytes;
    return 0;
}

int cjpeg_decoder_start(cjpeg_decoder *decoder, uint32_t scale_numerator, uint32_t scale_denominator,
                        cjpeg_pixels pixels, uint32_t *width, uint32_t *height) {
    if (decoder->error.failed) return -1;
    if (setjmp(decoder->error.jump)) return -1;
    struct jpeg_decompress_struct *info = &decoder->info;
    info->scale_num = scale_numerator;
    info->scale_denom = scale_denominator;
    switch (pixels) {
    case CJPEG_PIXELS_RGB: info->out_color_space = JCS_RGB; break;
    case CJPEG_PIXELS_CMYK: info->out_color_space = JCS_CMYK; break;
    default: info->out_color_space = JCS_EXT_RGBA; break;
    }
    jpeg_start_decompress(info);
    *width = info->output_width;
    *height = info->output_height;
    return 0;
}

int cjpeg_decoder_read_rows(cjpeg_decoder *decoder, uint8_t *rows, size_t stride, uint32_t count,
                            uint32_t *rows_read) {
    *rows_read = 0;
    if (decoder->error.failed) return -1;
    if (setjmp(decoder->error.jump)) return -1;
    struct jpeg_decompress_struct *info = &decoder->info;
    uint32_t done = 0;
    while (done < count && info->output_scanline < info->output_height) {
        JSAMPROW pointers[CJPEG_ROW_BATCH];
        uint32_t batch = count - done < CJPEG_ROW_BATCH ? count - done : CJPEG_ROW_BATCH;
        for (uint32_t row = 0; row < batch; row++) pointers[row] = rows + (size_t)(done + row) * stride;
        JDIMENSION read = jpeg_read_scanlines(info, pointers, batch);
        if (read == 0) break;
        done += read;
        *rows_read = done;
    }
    return 0;
}

int cjpeg_decoder_finish(cjpeg_decoder *decoder) {
    if (decoder->error.failed) return -1;
    if (setjmp(decoder->error.jump)) return -1;
    jpeg_finish_decompress(&decoder->info);
    return 0;
}

unsigned long cjpeg_decoder_warning_count(const cjpeg_decoder *decoder) {
    return (unsigned long)decoder->error.base.num_warnings;
}

int cjpeg_decoder_data_ended_early(const cjpeg_decoder *decoder) {
    return decoder->error.ended_early;
}

const char *cjpeg_decoder_message(const cjpeg_decoder *decoder) {
    return decoder->error.message;
}

/* ---------------------------------------------------------------- encoder */

struct cjpeg_encoder {
    struct jpeg_compress_struct info;
    shim_error error;
    struct jpeg_destination_mgr destination;
    uint8_t *buffer;
    size_t capacity;
    size_t used;
    int created;
};

#define CJPEG_FIRST_OUTPUT_BUFFER 65536

static void destination_init(j_compress_ptr info) {
    cjpeg_encoder *encoder = (cjpeg_encoder *)info->client_data;
    if (!encoder->buffer) {
        encoder->buffer = malloc(CJPEG_FIRST_OUTPUT_BUFFER);
        if (!encoder->buffer) ERREXIT1(info, JERR_OUT_OF_MEMORY, 0);
        encoder->capacity = CJPEG_FIRST_OUTPUT_BUFFER;
    }
    encoder->used = 0;
    info->dest->next_output_byte = encoder->buffer;
    info->dest->free_in_buffer = encoder->capacity;
}

/* libjpeg calls this when the buffer is full: double it. */
static boolean destination_grow(j_compress_ptr info) {
    cjpeg_encoder *encoder = (cjpeg_encoder *)info->client_data;
    size_t old_capacity = encoder->capacity;
    uint8_t *grown = realloc(encoder->buffer, old_capacity * 2);
    if (!grown) ERREXIT1(info, JERR_OUT_OF_MEMORY, 1);
    encoder->buffer = grown;
    encoder->capacity = old_capacity * 2;
    info->dest->next_output_byte = grown + old_capacity;
    info->dest->free_in_buffer = encoder->capacity - old_capacity;
    return TRUE;
}

static void destination_term(j_compress_ptr info) {
    cjpeg_encoder *encoder = (cjpeg_encoder *)info->client_data;
    encoder->used = encoder->capacity - info->dest->free_in_buffer;
}

cjpeg_encoder *cjpeg_encoder_create(void) {
    cjpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) return NULL;
    shim_error_init(&encoder->error);
    encoder->info.err = &encoder->error.base;
    if (setjmp(encoder->error.jump)) {
        free(encoder);
        return NULL;
    }
    jpeg_create_compress(&encoder->info);
    encoder->created = 1;
    encoder->info.client_data = encoder;
    encoder->destination.init_destination = destination_init;
    encoder->destination.empty_output_buffer = destination_grow;
    encoder->destination.term_destination = destination_term;
    encoder->info.dest = &encoder->destination;
    return encoder;
}

void cjpeg_encoder_destroy(cjpeg_encoder *encoder) {
    if (!encoder) return;
    if (encoder->created) jpeg_destroy_compress(&encoder->info);
    free(encoder->buffer);
    free(encoder);
}

/* The settings are TurboJPEG 2.1's (tjCompress2), so files match what it wrote. */
int cjpeg_encoder_start(cjpeg_encoder *encoder, uint32_t width, uint32_t height, cjpeg_pixels pixels,
                        int quality, int horizontal_sampling, int vertical_sampling) {
    if (encoder->error.failed) return -1;
    if (setjmp(encoder->error.jump)) return -1;
    struct jpeg_compress_struct *info = &encoder->info;
    info->image_width = width;
    info->image_height = height;
    switch (pixels) {
    case CJPEG_PIXELS_RGB: info->in_color_space = JCS_RGB; info->input_components = 3; break;
    case CJPEG_PIXELS_CMYK: info->in_color_space = JCS_CMYK; info->input_components = 4; break;
    default: info->in_color_space = JCS_EXT_RGBA; info->input_components = 4; break;
    }
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->dct_method = quality >= 96 ? JDCT_ISLOW : JDCT_FASTEST;
    jpeg_set_colorspace(info, pixels == CJPEG_PIXELS_CMYK ? JCS_YCCK : JCS_YCbCr);
    for (int index = 0; index < info->num_components; index++) {
        int luminance = index == 0 || index == 3;
        info->comp_info[index].h_samp_factor = luminance ? horizontal_sampling : 1;
        info->comp_info[index].v_samp_factor = luminance ? vertical_sampling : 1;
    }
    jpeg_start_compress(info, TRUE);
    return 0;
}

int cjpeg_encoder_write_rows(cjpeg_encoder *encoder, const uint8_t *rows, size_t stride, uint32_t count) {
    if (encoder->error.failed) return -1;
    if (setjmp(encoder->error.jump)) return -1;
    uint32_t done = 0;
    while (done < count) {
        JSAMPROW pointers[CJPEG_ROW_BATCH];
        uint32_t batch = count - done < CJPEG_ROW_BATCH ? count - done : CJPEG_ROW_BATCH;
        for (uint32_t row = 0; row < batch; row++) pointers[row] = (JSAMPROW)(rows + (size_t)(done + row) * stride);
        JDIMENSION written = jpeg_write_scanlines(&encoder->info, pointers, batch);
        if (written == 0) break;
        done += written;
    }
    return 0;
}

int cjpeg_encoder_finish(cjpeg_encoder *encoder, uint8_t **data, size_t *size) {
    if (encoder->error.failed) return -1;
    if (setjmp(encoder->error.jump)) return -1;
    jpeg_finish_compress(&encoder->info);
    *data = encoder->buffer;
    *size = encoder->used;
    encoder->buffer = NULL;
    encoder->capacity = 0;
    return 0;
}

const char *cjpeg_encoder_message(const cjpeg_encoder *encoder) {
    return encoder->error.message;
}
