/* The web UI's own files (src/web/assets/), embedded at build time by
 * src/web/embed.py: the server reads nothing from the file system. */
#ifndef PP_WEB_ASSETS_H
#define PP_WEB_ASSETS_H

#include <stddef.h>

struct pp_web_asset {
	const char *name; /* "app.js": served at /static/app.js */
	const char *content_type;
	const unsigned char *data; /* NUL-terminated, for the html command */
	size_t size;               /* without the NUL */
};

extern const struct pp_web_asset pp_web_assets[];
extern const size_t pp_web_nassets;

/* The asset called name, or NULL. */
const struct pp_web_asset *pp_web_asset_find(const char *name);

#endif
