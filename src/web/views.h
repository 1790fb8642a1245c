/*
 * The web UI's data: each view's JSON (and the profile download) for a
 * request's parameters, from the session's staged cache (pprof/session.h),
 * so that moving between views, zooming and sorting with the same filters
 * costs nothing proportional to the profile. One per server; not
 * thread-safe (the server answers requests on one thread, and a session
 * is used by one thread at a time).
 */
#ifndef PP_WEB_VIEWS_H
#define PP_WEB_VIEWS_H

#include <stddef.h>

#include "pprof/session.h"
#include "query.h"
#include "settings.h"

struct pp_web_views;

/* base and session are borrowed and must outlive the views. */
int pp_web_views_new(struct pp_ctx *ctx, const struct pp_cli_config *base,
                     struct pp_session *session, struct pp_web_views **out);
void pp_web_views_free(struct pp_web_views *v);

/* What an answer is. */
struct pp_web_answer {
	int status;               /* HTTP status */
	const char *content_type; /* static string */
	char *body;               /* malloc'd; free() */
	size_t size;
	bool attachment; /* a download (Content-Disposition) */
};

/*
 * Answer the data request what ("top", "flame", "download") with the
 * parameters get returns. Errors in the request (a bad regex, an unknown
 * sample type) are answers too: status 400 and {"error": "..."}. -1 only
 * when out of memory.
 */
/* A parameter's value and its length (NUL bytes, %00, included); NULL
 * when absent. */
typedef const char *(*pp_web_get_n_fn)(void *data, const char *name,
                                       size_t *len);

int pp_web_views_answer(struct pp_web_views *v, const char *what,
                        pp_web_get_fn get, pp_web_get_n_fn get_n, void *data,
                        struct pp_web_answer *out);

/*
 * Build what the first page (the flame graph of the options the server
 * was started with) needs, so that its request finds it in the cache: the
 * top of its tree, the frames at least a pixel wide on a page up to
 * PP_WEB_CUT_WIDTH pixels wide (pp_report_flame_cut), which is much less
 * work than the whole tree. Errors are left for that request to answer.
 */
#define PP_WEB_CUT_WIDTH 2048
void pp_web_views_warm(struct pp_web_views *v);
/* Then the whole tree, which zooms, refines and pivots need. */
void pp_web_views_warm_whole(struct pp_web_views *v);
/* Whether a flame graph was answered yet (the first page has its data). */
bool pp_web_views_flame_served(const struct pp_web_views *v);

#endif
