/*
 * A growable string: appends that keep it NUL-terminated, and an error
 * that sticks.
 *
 * A string built from many pieces is written as a run of appends checked
 * once at the end: after the first failure every append does nothing and
 * returns the same error, which pp_strbuf_detach and b->err report.
 *
 *     struct pp_strbuf b;
 *
 *     pp_strbuf_init(&b, ctx);
 *     pp_strbuf_add(&b, key, key_len);
 *     pp_strbuf_addf(&b, ":%d", n);
 *     if ((err = pp_strbuf_detach(&b, &s, &len)) < 0)
 *             return err;          // nothing to free
 *     ... s is the caller's (pp_free) ...
 *
 * The bytes may hold NULs (a label's value, whole); len counts them all.
 */
#ifndef PP_UTIL_STRBUF_H
#define PP_UTIL_STRBUF_H

#include <stddef.h>

#include "pprof/error.h"

struct pp_strbuf {
	struct pp_ctx *ctx;
	char *s;    /* NULL until the first append; then NUL-terminated */
	size_t len; /* bytes before the terminating NUL */
	size_t cap; /* bytes allocated */
	int err;    /* the first failure (PP_ENOMEM, PP_EIO); 0 */
};

/* An empty string that allocates on its first append. */
void pp_strbuf_init(struct pp_strbuf *b, struct pp_ctx *ctx);
/* Free the bytes and forget the error. */
void pp_strbuf_release(struct pp_strbuf *b);
/* Empty the string, keeping its memory (and any error). */
void pp_strbuf_reset(struct pp_strbuf *b);

/* Append the n bytes at s / string s / byte c / printf's output; each
 * returns b->err (0 while nothing failed). */
int pp_strbuf_add(struct pp_strbuf *b, const void *s, size_t n);
int pp_strbuf_addstr(struct pp_strbuf *b, const char *s);
int pp_strbuf_addch(struct pp_strbuf *b, char c);
int pp_strbuf_addf(struct pp_strbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;

/* Hand the string over: *out (pp_free; "" when nothing was appended),
 * *len (may be NULL). b is empty again. On an earlier failure returns it,
 * with *out NULL and b released. */
int pp_strbuf_detach(struct pp_strbuf *b, char **out, size_t *len);

#endif
