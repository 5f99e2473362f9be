#include <spng.h>
#include <zlib.h>
