/*
 * libjpeg's classic API behind return codes: see include/cjpeg_shim.h.
 */
#include "cjpeg_shim.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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
    case CJPEG_PIXELS_GRAY: info->in_color_space = JCS_GRAYSCALE; info->input_components = 1; break;
    default: info->in_color_space = JCS_EXT_RGBA; info->input_components = 4; break;
    }
    jpeg_set_defaults(info);
    jpeg_set_quality(info, quality, TRUE);
    info->dct_method = quality >= 96 ? JDCT_ISLOW : JDCT_FASTEST;
    jpeg_set_colorspace(info, pixels == CJPEG_PIXELS_CMYK ? JCS_YCCK : pixels == CJPEG_PIXELS_GRAY ? JCS_GRAYSCALE : JCS_YCbCr);
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

/* ---- Lossless turns without a second coefficient array ---- */

typedef struct turn_job turn_job;

/* The iMCU rows of the turned picture made at a time. */
#define CJPEG_TURN_BAND_MCU_ROWS 16

/* One component of the turned picture: the handle the encoder is given for its
 * coefficient array, the source's rows of blocks, and the rows handed to the encoder. */
typedef struct {
    turn_job *job;
    int index;
    JBLOCKROW *source_rows;   /* every block row of the source component */
    JBLOCKARRAY band;         /* rows of the turned component made ahead of the encoder */
    JDIMENSION band_capacity; /* the rows `band` holds */
    JDIMENSION band_start;    /* the turned row band[0] is */
    JDIMENSION band_height;   /* how many of its rows are made (0: none yet) */
} turn_component;

struct turn_job {
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct destination;
    shim_error error;
    struct jpeg_progress_mgr progress;
    int transposes;          /* the blocks' rows become columns */
    int mirrors_x, mirrors_y; /* the source block is counted from the right, the bottom */
    int negates_u, negates_v; /* odd horizontal, vertical frequencies change sign */
    turn_component components[MAX_COMPONENTS];
    jvirt_barray_ptr handles[MAX_COMPONENTS];
    unsigned char *buffer;
    unsigned long used;
};

/* One block of coefficients turned: transposed when the job transposes, then each odd
 * horizontal (u) and vertical (v) frequency negated as the job says. Coefficients are
 * stored row by row, v * 8 + u. */
static void turn_block(const turn_job *job, const JCOEF *in, JCOEF *out) {
#if defined(__SSE2__)
    __m128i rows[DCTSIZE];
    for (int v = 0; v < DCTSIZE; v++) rows[v] = _mm_loadu_si128((const __m128i *)(in + v * DCTSIZE));
    if (job->transposes) {
        /* An 8 x 8 transpose of 16-bit lanes: pairs, then quads, then halves interleaved. */
        __m128i a[DCTSIZE], b[DCTSIZE];
        for (int i = 0; i < 4; i++) {
            a[2 * i] = _mm_unpacklo_epi16(rows[2 * i], rows[2 * i + 1]);
            a[2 * i + 1] = _mm_unpackhi_epi16(rows[2 * i], rows[2 * i + 1]);
        }
        for (int i = 0; i < 2; i++) {
            b[4 * i + 0] = _mm_unpacklo_epi32(a[4 * i + 0], a[4 * i + 2]);
            b[4 * i + 1] = _mm_unpackhi_epi32(a[4 * i + 0], a[4 * i + 2]);
            b[4 * i + 2] = _mm_unpacklo_epi32(a[4 * i + 1], a[4 * i + 3]);
            b[4 * i + 3] = _mm_unpackhi_epi32(a[4 * i + 1], a[4 * i + 3]);
        }
        for (int i = 0; i < 4; i++) {
            rows[2 * i] = _mm_unpacklo_epi64(b[i], b[i + 4]);
            rows[2 * i + 1] = _mm_unpackhi_epi64(b[i], b[i + 4]);
        }
    }
    /* x negated where the mask is all ones: (x ^ m) - m. */
    const __m128i odd_u = job->negates_u ? _mm_setr_epi16(0, -1, 0, -1, 0, -1, 0, -1) : _mm_setzero_si128();
    const __m128i all = _mm_set1_epi16(-1);
    for (int v = 0; v < DCTSIZE; v++) {
        __m128i mask = (job->negates_v && (v & 1)) ? _mm_xor_si128(odd_u, all) : odd_u;
        __m128i row = _mm_sub_epi16(_mm_xor_si128(rows[v], mask), mask);
        _mm_storeu_si128((__m128i *)(out + v * DCTSIZE), row);
    }
#else
    for (int v = 0; v < DCTSIZE; v++) {
        for (int u = 0; u < DCTSIZE; u++) {
            JCOEF value = job->transposes ? in[u * DCTSIZE + v] : in[v * DCTSIZE + u];
            int negative = ((u & job->negates_u) ^ (v & job->negates_v)) & 1;
            out[v * DCTSIZE + u] = negative ? (JCOEF)-value : value;
        }
    }
#endif
}

/* The encoder's access to a coefficient array, for the turned components' handles. The
 * rows asked for are made from the source's blocks in bands of several iMCU rows: a
 * transposing turn reads a source column for each turned row, so a band reads each
 * source row's blocks for all its rows at once, side by side in memory, instead of one
 * block a row, a page apart. */
static JBLOCKARRAY turned_rows(j_common_ptr common, jvirt_barray_ptr handle, JDIMENSION start_row,
                               JDIMENSION num_rows, boolean writable) {
    (void)writable;
    turn_component *component = (turn_component *)handle;
    if (start_row < component->band_start || start_row + num_rows > component->band_start + component->band_height) {
        turn_job *job = component->job;
        jpeg_component_info *source = &job->source.comp_info[component->index];
        jpeg_component_info *turned = &((j_compress_ptr)common)->comp_info[component->index];
        JDIMENSION last_x = source->width_in_blocks - 1, last_y = source->height_in_blocks - 1;
        JDIMENSION height = turned->height_in_blocks - start_row;
        if (height > component->band_capacity) height = component->band_capacity;
        for (JDIMENSION outer = 0; outer < (job->transposes ? turned->width_in_blocks : height); outer++) {
            for (JDIMENSION inner = 0; inner < (job->transposes ? height : turned->width_in_blocks); inner++) {
                JDIMENSION x = job->transposes ? outer : inner, row = job->transposes ? inner : outer;
                JDIMENSION y = start_row + row;
                JDIMENSION from_x = job->transposes ? y : x, from_y = job->transposes ? x : y;
                if (job->mirrors_x) from_x = last_x - from_x;
                if (job->mirrors_y) from_y = last_y - from_y;
                turn_block(job, component->source_rows[from_y][from_x], component->band[row][x]);
            }
        }
        component->band_start = start_row;
        component->band_height = height;
    }
    return component->band + (start_row - component->band_start);
}

static void turn_job_destroy(turn_job *job) {
    jpeg_destroy_compress(&job->destination);
    jpeg_destroy_decompress(&job->source);
    free(job->buffer);
    free(job);
}

int cjpeg_turn_coefficients(const void *data, size_t size, cjpeg_turn turn, uint64_t max_memory,
                            unsigned char **output, unsigned long *output_size) {
    turn_job *job = calloc(1, sizeof *job);
    if (!job) return -1;
    shim_error_init(&job->error);
    job->source.err = &job->error.base;
    job->destination.err = &job->error.base;
    if (setjmp(job->error.jump)) {
        turn_job_destroy(job);
        return -1;
    }
    jpeg_create_decompress(&job->source);
    jpeg_create_compress(&job->destination);
    if (max_memory > 0) {
        job->source.mem->max_memory_to_use = max_memory > (uint64_t)LONG_MAX ? LONG_MAX : (long)max_memory;
    }
    job->progress.progress_monitor = limit_scans;
    job->source.progress = &job->progress;
    jpeg_mem_src(&job->source, data, (unsigned long)size);
    jpeg_read_header(&job->source, TRUE);
    struct jpeg_decompress_struct *source = &job->source;
    int whole_mcus = source->image_width % (JDIMENSION)(source->max_h_samp_factor * DCTSIZE) == 0 &&
                     source->image_height % (JDIMENSION)(source->max_v_samp_factor * DCTSIZE) == 0;
    if (!whole_mcus || source->num_components > MAX_COMPONENTS) {
        turn_job_destroy(job);
        return 1;
    }
    jvirt_barray_ptr *source_arrays = jpeg_read_coefficients(source);
    if (job->error.base.num_warnings > 0) {
        turn_job_destroy(job);
        return 1;
    }
    job->transposes = turn == CJPEG_TURN_TRANSPOSE || turn == CJPEG_TURN_CLOCKWISE || turn == CJPEG_TURN_TRANSVERSE ||
                      turn == CJPEG_TURN_COUNTERCLOCKWISE;
    job->mirrors_x = turn == CJPEG_TURN_MIRROR_HORIZONTALLY || turn == CJPEG_TURN_HALF ||
                     turn == CJPEG_TURN_TRANSVERSE || turn == CJPEG_TURN_COUNTERCLOCKWISE;
    job->mirrors_y = turn == CJPEG_TURN_MIRROR_VERTICALLY || turn == CJPEG_TURN_HALF ||
                     turn == CJPEG_TURN_TRANSVERSE || turn == CJPEG_TURN_CLOCKWISE;
    job->negates_u = turn == CJPEG_TURN_MIRROR_HORIZONTALLY || turn == CJPEG_TURN_HALF ||
                     turn == CJPEG_TURN_TRANSVERSE || turn == CJPEG_TURN_CLOCKWISE;
    job->negates_v = turn == CJPEG_TURN_MIRROR_VERTICALLY || turn == CJPEG_TURN_HALF ||
                     turn == CJPEG_TURN_TRANSVERSE || turn == CJPEG_TURN_COUNTERCLOCKWISE;

    struct jpeg_compress_struct *destination = &job->destination;
    jpeg_copy_critical_parameters(source, destination);
    if (job->transposes) {
        destination->image_width = source->image_height;
        destination->image_height = source->image_width;
        for (int index = 0; index < destination->num_components; index++) {
            jpeg_component_info *component = &destination->comp_info[index];
            int horizontal = component->h_samp_factor;
            component->h_samp_factor = component->v_samp_factor;
            component->v_samp_factor = horizontal;
        }
        for (int table = 0; table < NUM_QUANT_TBLS; table++) {
            JQUANT_TBL *quantization = destination->quant_tbl_ptrs[table];
            if (!quantization) continue;
            for (int row = 0; row < DCTSIZE; row++) {
                for (int column = row + 1; column < DCTSIZE; column++) {
                    UINT16 value = quantization->quantval[row * DCTSIZE + column];
                    quantization->quantval[row * DCTSIZE + column] = quantization->quantval[column * DCTSIZE + row];
                    quantization->quantval[column * DCTSIZE + row] = value;
                }
            }
        }
    }
    for (int index = 0; index < source->num_components; index++) {
        turn_component *component = &job->components[index];
        jpeg_component_info *info = &source->comp_info[index];
        component->job = job;
        component->index = index;
        component->source_rows = (JBLOCKROW *)(*source->mem->alloc_small)(
            (j_common_ptr)source, JPOOL_IMAGE, info->height_in_blocks * sizeof(JBLOCKROW));
        for (JDIMENSION row = 0; row < info->height_in_blocks; row++) {
            component->source_rows[row] =
                (*source->mem->access_virt_barray)((j_common_ptr)source, source_arrays[index], row, 1, FALSE)[0];
        }
        job->handles[index] = (jvirt_barray_ptr)component;
    }
    jpeg_mem_dest(destination, &job->buffer, &job->used);
    jpeg_write_coefficients(destination, job->handles);
    for (int index = 0; index < destination->num_components; index++) {
        jpeg_component_info *info = &destination->comp_info[index];
        turn_component *component = &job->components[index];
        component->band_capacity = (JDIMENSION)(CJPEG_TURN_BAND_MCU_ROWS * info->v_samp_factor);
        if (component->band_capacity > info->height_in_blocks) component->band_capacity = info->height_in_blocks;
        component->band = (*destination->mem->alloc_barray)(
            (j_common_ptr)destination, JPOOL_IMAGE, info->width_in_blocks, component->band_capacity);
    }
    destination->mem->access_virt_barray = turned_rows;
    jpeg_finish_compress(destination);
    jpeg_finish_decompress(source);
    *output = job->buffer;
    *output_size = job->used;
    job->buffer = NULL;
    turn_job_destroy(job);
    return 0;
}
