#include <lcms2.h>

/* lcms2's pixel-type constants are built from function-like macros, which Swift cannot
   import: these give the ones the project uses a name. */

static const cmsUInt32Number clcms_type_rgba_8 = TYPE_RGBA_8;
static const cmsUInt32Number clcms_type_rgba_16 = TYPE_RGBA_16;
static const cmsUInt32Number clcms_type_cmyk_8 = TYPE_CMYK_8;
static const cmsUInt32Number clcms_type_cmyk_8_reversed = TYPE_CMYK_8_REV;
static const cmsUInt32Number clcms_type_cmyk_16 = TYPE_CMYK_16;
/* Gray in the first byte (or 16-bit word) of a four-channel pixel, the rest left alone:
   a gray image held as RGBA, converted in place. */
static const cmsUInt32Number clcms_type_gray_in_rgba_8 = (COLORSPACE_SH(PT_GRAY)|EXTRA_SH(3)|CHANNELS_SH(1)|BYTES_SH(1));
static const cmsUInt32Number clcms_type_gray_in_rgba_16 = (COLORSPACE_SH(PT_GRAY)|EXTRA_SH(3)|CHANNELS_SH(1)|BYTES_SH(2));
static const cmsUInt32Number clcms_type_lab_double = TYPE_Lab_DBL;
static const cmsUInt32Number clcms_type_rgb_8 = TYPE_RGB_8;
