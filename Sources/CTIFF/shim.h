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

static inline int ctiff_get_icc_profile(TIFF *tiff, uint32_t *count, void **data) {
    return TIFFGetField(tiff, TIFFTAG_ICCPROFILE, count, data);
}

static inline int ctiff_set_icc_profile(TIFF *tiff, uint32_t count, const void *data) {
    return TIFFSetField(tiff, TIFFTAG_ICCPROFILE, count, data);
}
