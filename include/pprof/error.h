/*
 * Errors and the library context.
 *
 * libpprof never prints and never exits. A fallible function returns an int:
 * 0 on success, or one of the negative PP_E* codes below. The human-readable
 * detail of the most recent failure ("cpu.pb.gz: truncated gzip stream") is
 * kept in the caller's struct pp_ctx and read with pp_ctx_message().
 *
 * There is no global state: everything a call needs to report (the error
 * slot, the warning callback, resource limits, the allocation hook) lives in
 * a pp_ctx that the caller owns and passes in.
 */
#ifndef PPROF_ERROR_H
#define PPROF_ERROR_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* X-macro list: code name, value, generic description. */
#define PP_ERROR_LIST(X)                            \
	X(PP_OK, 0, "success")                      \
	X(PP_ENOMEM, -1, "out of memory")           \
	X(PP_EIO, -2, "input/output error")         \
	X(PP_EFORMAT, -3, "malformed profile")      \
	X(PP_ELIMIT, -4, "resource limit exceeded") \
	X(PP_EUSAGE, -5, "invalid usage")           \
	X(PP_ENOTFOUND, -6, "not found")            \
	X(PP_EFETCH, -7, "fetch failed")            \
	X(PP_EUNSUPPORTED, -8, "unsupported")       \
	X(PP_EINTR, -9, "interrupted")

enum pp_error_code {
#define PP_ERROR_ENUM(name, value, text) name = value,
	PP_ERROR_LIST(PP_ERROR_ENUM)
#undef PP_ERROR_ENUM
};

/* The generic description of an error code; never NULL. */
const char *pp_strerror(int code);

/* Called for each warning; msg is one line without a trailing newline. */
typedef void (*pp_warn_fn)(void *data, const char *msg);

/*
 * Progress of long work, for a front end to show (libpprof never prints
 * it). what says what is being done ("reading cpu.pb.gz", "symbolizing",
 * "fetching URL", "drawing the call graph"); done of total is how far it
 * is, in unit (a plural noun, "bytes" or "locations"; NULL and total 0
 * when unknown: an elapsed time is all there is to show). what NULL: the
 * work is over, erase what is shown. Called by the thread doing the work,
 * often (cheaply, every megabyte or few thousand items), never from a
 * helper thread; the strings live only for the call.
 */
typedef void (*pp_progress_fn)(void *data, const char *what, const char *unit,
                               uint64_t done, uint64_t total);

/*
 * Allocation hook: every allocation libpprof makes goes through these, so
 * tests can make the Nth allocation fail. NULL members mean the C library.
 */
struct pp_allocator {
	void *(*malloc_fn)(void *data, size_t size);
	void *(*realloc_fn)(void *data, void *ptr, size_t size);
	void (*free_fn)(void *data, void *ptr);
	void *data;
};

/* What draws pictures (pprof/report.h, pp_renderer_new). */
struct pp_renderer;

/* Default cap on a decompressed profile: 4 GiB. */
#define PP_DEFAULT_MAX_SIZE ((uint64_t)4 << 30)

struct pp_ctx {
	/* Detail of the last error; empty when none. */
	char message[1024];
	/* Its length when it runs past a NUL byte (pp_error_bytes: a
	 * profile's names quoted whole); read it with pp_ctx_message_len. */
	size_t message_len;
	/* Warnings; NULL drops them. */
	pp_warn_fn warn;
	void *warn_data;
	/* Largest decompressed (or raw) profile accepted, in bytes.
	 * 0 means PP_DEFAULT_MAX_SIZE. */
	uint64_t max_size;
	/* Allocation hook; all NULL means malloc/realloc/free. */
	struct pp_allocator alloc;
	/* What draws pictures (svg, png, pdf, gif, ps), the caller's
	 * (pprof/report.h, pp_renderer_new); NULL: pictures fail with
	 * PP_EUNSUPPORTED. */
	struct pp_renderer *renderer;
	/* The sample type of folded-stack input, "type" or "type/unit"
	 * (borrowed); NULL means samples/count. */
	const char *folded_type;
	/* Set (by a signal handler) to ask a running report to stop: the
	 * long loops over samples check it and fail with PP_EINTR, leaving
	 * the session as an allocation failure would. NULL: never. */
	const volatile sig_atomic_t *interrupt;
	/* Progress of long work (pp_progress_fn); NULL: none. */
	pp_progress_fn progress;
	void *progress_data;
};

/* Every field's zero is its default. */
#define PP_CTX_INIT \
	{           \
		0   \
	}

/* Has the running work been asked to stop (see pp_ctx.interrupt)? */
static inline int pp_interrupted(const struct pp_ctx *ctx)
{
	return ctx->interrupt && *ctx->interrupt;
}

/* PP_EINTR with its message, for the loops that check pp_interrupted. */
int pp_error_interrupted(struct pp_ctx *ctx);

/* For the i-th turn of a long loop: every 1024th turn (i a multiple of
 * 1024, so the first too), PP_EINTR with its message when the work was
 * asked to stop; else 0. Cheap enough for any loop over samples. */
static inline int pp_interrupt_poll(struct pp_ctx *ctx, size_t i)
{
	return (i & 0x3ff) == 0 && pp_interrupted(ctx)
	               ? pp_error_interrupted(ctx)
	               : 0;
}

/* The detail of the last error recorded in ctx ("" when none). */
const char *pp_ctx_message(const struct pp_ctx *ctx);
/* Its length in bytes: past the first NUL when pp_error_bytes recorded
 * one that holds NUL bytes (the text up to it otherwise). */
size_t pp_ctx_message_len(const struct pp_ctx *ctx);

/* Record the n bytes at msg (which may hold NUL bytes: a profile's names,
 * quoted whole as pprof quotes them) as ctx's error detail, cut to fit;
 * return code. */
int pp_error_bytes(struct pp_ctx *ctx, int code, const char *msg, size_t n);

/*
 * Record an error detail in ctx and return code, so callers can write
 * `return pp_error(ctx, PP_EFORMAT, "%s: bad varint", name);`.
 */
int pp_error(struct pp_ctx *ctx, int code, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 3, 4)))
#endif
        ;

/* Pass one formatted warning line to ctx's callback, if any. */
void pp_warn(struct pp_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
        __attribute__((format(printf, 2, 3)))
#endif
        ;

/* Report progress through ctx's callback, if any (pp_progress_fn). */
static inline void pp_progress(struct pp_ctx *ctx, const char *what,
                               const char *unit, uint64_t done, uint64_t total)
{
	if (ctx->progress)
		ctx->progress(ctx->progress_data, what, unit, done, total);
}

/* The work reported by pp_progress is over. */
static inline void pp_progress_done(struct pp_ctx *ctx)
{
	pp_progress(ctx, NULL, NULL, 0, 0);
}

/* Allocation through ctx's hook. pp_free accepts NULL. */
void *pp_malloc(struct pp_ctx *ctx, size_t size);
void *pp_calloc(struct pp_ctx *ctx, size_t n, size_t size);
void *pp_realloc(struct pp_ctx *ctx, void *ptr, size_t size);
void pp_free(struct pp_ctx *ctx, void *ptr);
char *pp_strdup(struct pp_ctx *ctx, const char *s);

/* Bytes read or made through ctx (a file, a fetched body, a source file). */
struct pp_bytes {
	uint8_t *data; /* owned; release with pp_bytes_release */
	size_t len;
};

/* Free b's data and empty it. */
void pp_bytes_release(struct pp_ctx *ctx, struct pp_bytes *b);

/* Overflow-checked size arithmetic: return 0 and set *out, or -1. */
static inline int pp_mul_size(size_t a, size_t b, size_t *out)
{
	if (b != 0 && a > SIZE_MAX / b)
		return -1;
	*out = a * b;
	return 0;
}

static inline int pp_add_size(size_t a, size_t b, size_t *out)
{
	if (a > SIZE_MAX - b)
		return -1;
	*out = a + b;
	return 0;
}

/* pp_grow's reallocation, out of line: called only when *cap < need. */
int pp_grow__realloc(struct pp_ctx *ctx, void **ptr, size_t *cap, size_t need,
                     size_t elem_size);

/*
 * Grow *ptr (an array of elem_size items with capacity *cap) so that it holds
 * at least need items. Capacity doubles; fails cleanly on overflow.
 *
 * Inline because the decoder's appends call it per sample and per field,
 * and the capacity nearly always suffices: the call alone was 3% of `top`
 * on a big profile (issue 16).
 */
static inline int pp_grow(struct pp_ctx *ctx, void **ptr, size_t *cap,
                          size_t need, size_t elem_size)
{
	if (need <= *cap)
		return 0;
	return pp_grow__realloc(ctx, ptr, cap, need, elem_size);
}

#endif
