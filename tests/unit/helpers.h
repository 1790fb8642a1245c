/*
 * Shared test helpers: an allocator that fails on purpose, a test
 * group's decoded profile, and an empty profile to build on.
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
#include "pprof/profile.h"
#include "pprof/session.h"

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

/* A test group's state: testdata/go/cpu.pb.gz decoded once for the group
 * (profile_fixture_setup and _teardown are cmocka's group setup and
 * teardown). */
struct profile_fixture {
	struct pp_ctx ctx;
	struct pp_profile *prof;
};

static inline int profile_fixture_setup(void **state)
{
	struct profile_fixture *f = calloc(1, sizeof(*f));
	struct pp_ctx init = PP_CTX_INIT;

	if (!f)
		return -1;
	f->ctx = init;
	if (pp_session_decode_file(&f->ctx, "testdata/go/cpu.pb.gz", &f->prof) <
	    0) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static inline int profile_fixture_teardown(void **state)
{
	struct profile_fixture *f = *state;

	pp_profile_free(f->prof);
	free(f);
	return 0;
}

/* An empty profile whose one sample type is samples/count, for tests
 * that add their own functions, locations and samples; NULL when memory
 * is short. */
static inline struct pp_profile *count_profile(struct pp_ctx *ctx)
{
	struct pp_profile *p = pp_profile_new(ctx);

	if (p &&
	    pp_profile_add_sample_type(p, pp_profile_intern(p, "samples"),
	                               pp_profile_intern(p, "count")) < 0) {
		pp_profile_free(p);
		return NULL;
	}
	return p;
}

#endif
