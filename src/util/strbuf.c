/* The growable string (util/strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/strbuf.h"

void pp_strbuf_init(struct pp_strbuf *b, struct pp_ctx *ctx)
{
	memset(b, 0, sizeof(*b));
	b->ctx = ctx;
}

void pp_strbuf_release(struct pp_strbuf *b)
{
	pp_free(b->ctx, b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->err = 0;
}

void pp_strbuf_reset(struct pp_strbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

/* Room for n more bytes and the NUL. */
static int make_room(struct pp_strbuf *b, size_t n)
{
	if (b->err)
		return b->err;
	if (n >= SIZE_MAX - b->len)
		return b->err = pp_error(b->ctx, PP_ENOMEM,
		                         "string size overflow");
	if (b->len + n + 1 > b->cap)
		b->err = pp_grow(b->ctx, (void **)&b->s, &b->cap,
		                 b->len + n + 1, 1);
	return b->err;
}

int pp_strbuf_add(struct pp_strbuf *b, const void *s, size_t n)
{
	if (make_room(b, n) < 0)
		return b->err;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int pp_strbuf_addstr(struct pp_strbuf *b, const char *s)
{
	return pp_strbuf_add(b, s, strlen(s));
}

int pp_strbuf_addch(struct pp_strbuf *b, char c)
{
	return pp_strbuf_add(b, &c, 1);
}

int pp_strbuf_addf(struct pp_strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->err)
		return b->err;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return b->err = pp_error(b->ctx, PP_EIO, "format error");
	if (make_room(b, (size_t)n) < 0)
		return b->err;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

int pp_strbuf_detach(struct pp_strbuf *b, char **out, size_t *len)
{
	int err = b->err;

	*out = NULL;
	if (len)
		*len = 0;
	if (!err && !b->s)
		err = make_room(b, 0);
	if (err < 0) {
		pp_strbuf_release(b);
		return err;
	}
	b->s[b->len] = '\0';
	*out = b->s;
	if (len)
		*len = b->len;
	b->s = NULL;
	b->len = b->cap = 0;
	return 0;
}
