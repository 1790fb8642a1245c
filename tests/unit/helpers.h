/*
 * Shared test helpers: an allocator that fails on purpose.
 *
 * Tests that walk every allocation failure point of a library call run it
 * with the Nth allocation failing, for N = 0, 1, 2, ... until the call
 * makes no allocation that fails: each time it must return PP_ENOMEM,
 * produce no output and (under ASan/valgrind) leak nothing.
 */
#ifndef PP_TEST_HELPERS_H
#define PP_TEST_HELPERS_H

#include <stdbool.h>
#include <stdlib.h>

#include "pprof/error.h"

struct failing_alloc {
	long countdown; /* allocations left before the one that fails */
	bool failed;    /* an allocation was refused */
};

static inline void *failing_malloc(void *data, size_t size)
{
	struct failing_alloc *f = data;

	if (f->countdown-- == 0) {
		f->failed = true;
		return NULL;
	}
	return malloc(size);
}

static inline void *failing_realloc(void *data, void *ptr, size_t size)
{
	struct failing_alloc *f = data;

	if (f->countdown-- == 0) {
		f->failed = true;
		return NULL;
	}
	return realloc(ptr, size);
}

static inline void failing_free(void *data, void *ptr)
{
	(void)data;
	free(ptr);
}

/* Make ctx's allocation number n (0: the first) fail. */
static inline void failing_alloc_install(struct pp_ctx *ctx,
                                         struct failing_alloc *f, long n)
{
	f->countdown = n;
	f->failed = false;
	ctx->alloc.malloc_fn = failing_malloc;
	ctx->alloc.realloc_fn = failing_realloc;
	ctx->alloc.free_fn = failing_free;
	ctx->alloc.data = f;
}

#endif
