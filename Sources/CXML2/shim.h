// libxml2's headers include ICU's when libxml2 was built with it, and those clash with
// the copy of ICU inside Foundation. Nothing here uses libxml2's ICU converters (whose
// fields end xmlCharEncodingHandler, never touched from Swift), so ICU is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
