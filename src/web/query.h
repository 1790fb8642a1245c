/*
 * pprof's web URL parameters (si, f, i, h, s, sf, tf, ti, g, ...), read into
 * a copy of the command line's configuration through the one settings
 * table (cli/settings.h), so a link reproduces a view.
 */
#ifndef PP_WEB_QUERY_H
#define PP_WEB_QUERY_H

#include <stddef.h>
#include <stdio.h>

#include "settings.h"

/* The value of the URL parameter name, or NULL when it is absent. */
typedef const char *(*pp_web_get_fn)(void *data, const char *name);

/*
 * *out = base with the view's parameters applied (release it with
 * pp_cli_config_release). The filters are the URL's alone: base's are
 * cleared first, as in pprof, where the command line's filters only shape
 * the first URL. *key (free()) names the configuration: equal keys, equal
 * reports. A bad value is -1 with a message in err.
 */
int pp_web_query_config(const struct pp_cli_config *base, pp_web_get_fn get,
                        void *data, struct pp_cli_config *out, char **key,
                        char *err, size_t errsize);

/*
 * The query string ("?f=main&si=alloc_space" or "") that opens the web UI
 * on cfg's filters and sample type, URL-encoded; free().
 */
char *pp_web_query_initial(const struct pp_cli_config *cfg);

/* s[0, n) onto out, URL-encoded (every byte but the unreserved ones as
 * %XX, NUL bytes too). */
void pp_web_put_encoded(FILE *out, const char *s, size_t n);

#endif
