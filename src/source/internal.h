/* What the files of src/source share: the TLS setup of a libcurl
 * transfer (http.c), also used by symbolz.c's POST. */
#ifndef PP_SOURCE_INTERNAL_H
#define PP_SOURCE_INTERNAL_H

#include <stdbool.h>

#include "pprof/fetch.h"

/* Set tls's client certificate and CAs on the libcurl easy handle curl
 * (a CURL *); false when libcurl refuses an option. */
bool pp_fetch__set_tls(void *curl, const struct pp_fetch_tls *tls);

#endif
