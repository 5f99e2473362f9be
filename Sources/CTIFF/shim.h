#include <stdarg.h>
#include <stdio.h>
#include <tiffio.h>

/* TIFFGetField and TIFFSetField are variadic, which Swift cannot call: these wrappers
   give each field type the decoder and encoder use its own signature. */

static inline int ctiff_get_uint32(TIFF *tiff, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tiff, tag, value);
}

static inline int ctiff_get_uint16(TIFF *tiff, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tiff, tag, value);
}

static inline int ctiff_get_extra_samples(TIFF *tiff, uint16_t *count, uint16_t **types) {
    return TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, count, types);
}

static inline int ctiff_set_uint32(TIFF *tiff, uint32_t tag, uint32_t value) {
    return TIFFSetField(tiff, tag, value);
}

static inline int ctiff_set_uint16(TIFF *tiff, uint32_t tag, uint16_t value) {
    return TIFFSetField(tiff, tag, (int)value);
}

static inline int ctiff_set_extra_samples(TIFF *tiff, uint16_t count, const uint16_t *types) {
    return TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, count, types);
}

/* Per-handle diagnostics (libtiff 4.5's TIFFOpenOptions): errors are written into the
   caller's buffer of CTIFF_MESSAGE_CAPACITY bytes and warnings are dropped, so libtiff
   never prints to stderr. Returning 1 tells libtiff the message was handled. */

enum { CTIFF_MESSAGE_CAPACITY = 512 };

static inline int ctiff_record_error(TIFF *tiff, void *buffer, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    if (buffer != NULL) {
        vsnprintf((char *)buffer, CTIFF_MESSAGE_CAPACITY, format, arguments);
    }
    return 1;
}

static inline int ctiff_ignore_warning(TIFF *tiff, void *buffer, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)buffer;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;
}
