#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/error.h"
#include "util/pages.h"

const char *pp_strerror(int code)
{
	switch (code) {
#define PP_ERROR_CASE(name, value, text) \
	case value:                      \
		return text;
		PP_ERROR_LIST(PP_ERROR_CASE)
#undef PP_ERROR_CASE
	}
	return "unknown error";
}

const char *pp_ctx_message(const struct pp_ctx *ctx)
{
	return ctx->message;
}

size_t pp_ctx_message_len(const struct pp_ctx *ctx)
{
	size_t n = strlen(ctx->message);

	/* message_len stands only while the text it measured does: a
	 * message cleared or rewritten in place ends at its own NUL. */
	if (n > 0 && ctx->message_len > n &&
	    ctx->message_len < sizeof(ctx->message) &&
	    ctx->message[ctx->message_len] == '\0')
		return ctx->message_len;
	return n;
}

int pp_error(struct pp_ctx *ctx, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->message, sizeof(ctx->message), fmt, ap);
	va_end(ap);
	ctx->message_len = 0;
	return code;
}

int pp_error_bytes(struct pp_ctx *ctx, int code, const char *msg, size_t n)
{
	if (n > sizeof(ctx->message) - 1)
		n = sizeof(ctx->message) - 1;
	memcpy(ctx->message, msg, n);
	ctx->message[n] = '\0';
	ctx->message_len = n;
	return code;
}

void pp_warn(struct pp_ctx *ctx, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!ctx->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ctx->warn(ctx->warn_data, line);
}

/*
 * Blocks of this size and more ask for huge pages (util/pages.h). The big
 * arrays (the decoded stacks, the trees' nodes, the hash tables) are
 * written once into memory the process never touched, and on a virtual
 * machine the page faults of 4 kB pages are most of that cost: writing
 * fresh memory measured 0.35 GB/s with them, 10 GB/s with 2 MB pages.
 * Smaller blocks are left alone: the last huge page of a growing array is
 * partly empty, which on the small bench profile took the peak memory of
 * `top` past 1.5x the raw size (4 MB: +2 MB; 16 MB: as fast on the large
 * profile, and the small one's peak within 0-1.6 MB of 4 kB pages).
 */
#define HUGE_BLOCK_MIN ((size_t)16 << 20)

static void *advise_big(void *p, size_t size)
{
	if (p && size >= HUGE_BLOCK_MIN)
		pp_pages_huge(p, size);
	return p;
}

/* The hook's memory is the hook's: only the C library's gets advice. */
void *pp_malloc(struct pp_ctx *ctx, size_t size)
{
	if (size == 0)
		size = 1;
	if (ctx->alloc.malloc_fn)
		return ctx->alloc.malloc_fn(ctx->alloc.data, size);
	return advise_big(malloc(size), size);
}

void *pp_calloc(struct pp_ctx *ctx, size_t n, size_t size)
{
	size_t total;
	void *p;

	if (pp_mul_size(n, size, &total) < 0)
		return NULL;
	/* The C library's calloc knows which memory is fresh, hence zero,
	 * and writes only the rest. */
	if (!ctx->alloc.malloc_fn)
		return advise_big(calloc(total ? total : 1, 1), total);
	p = pp_malloc(ctx, total);
	if (p)
		memset(p, 0, total);
	return p;
}

void *pp_realloc(struct pp_ctx *ctx, void *ptr, size_t size)
{
	if (size == 0)
		size = 1;
	if (ctx->alloc.realloc_fn)
		return ctx->alloc.realloc_fn(ctx->alloc.data, ptr, size);
	return advise_big(realloc(ptr, size), size);
}

void pp_free(struct pp_ctx *ctx, void *ptr)
{
	if (!ptr)
		return;
	if (ctx->alloc.free_fn)
		ctx->alloc.free_fn(ctx->alloc.data, ptr);
	else
		free(ptr);
}

void pp_bytes_release(struct pp_ctx *ctx, struct pp_bytes *b)
{
	pp_free(ctx, b->data);
	b->data = NULL;
	b->len = 0;
}

char *pp_strdup(struct pp_ctx *ctx, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = pp_malloc(ctx, n);

	if (d)
		memcpy(d, s, n);
	return d;
}

int pp_error_interrupted(struct pp_ctx *ctx)
{
	return pp_error(ctx, PP_EINTR, "interrupted");
}

int pp_grow__realloc(struct pp_ctx *ctx, void **ptr, size_t *cap, size_t need,
                     size_t elem_size)
{
	size_t ncap = *cap ? *cap : 16, bytes;
	void *np;

	if (need <= *cap)
		return 0;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return pp_error(ctx, PP_ENOMEM, "array size overflow");
		ncap *= 2;
	}
	if (pp_mul_size(ncap, elem_size, &bytes) < 0)
		return pp_error(ctx, PP_ENOMEM, "array size overflow");
	np = pp_realloc(ctx, *ptr, bytes);
	if (!np)
		return pp_error(ctx, PP_ENOMEM,
		                "out of memory growing an array "
		                "to %zu bytes",
		                bytes);
	*ptr = np;
	*cap = ncap;
	return 0;
}
