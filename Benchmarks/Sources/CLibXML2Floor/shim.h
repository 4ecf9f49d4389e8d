// libxml2 for Swift.
//
// Debian's libxml2 is built with ICU, so `libxml/encoding.h` would pull in the system's
// `<unicode/ucnv.h>`, which clashes with Foundation's private ICU module on a clean build.
// Reading `xmlversion.h` first and dropping the ICU switch keeps those headers out.
// Never touch struct fields that follow the ICU-dependent members (`xmlCharEncodingHandler`).
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
