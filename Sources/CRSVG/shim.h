#include <cairo.h>
#include <gio/gio.h>
#include <librsvg/rsvg.h>
