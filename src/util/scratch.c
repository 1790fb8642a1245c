#include <stdalign.h>
#include <string.h>

#include "util/scratch.h"

static void *scratch_alloc(void *data, size_t size)
{
	struct pp_scratch *s = data;
	size_t align = alignof(max_align_t);
	size_t start = (s->used + align - 1) & ~(align - 1);
	void *p;

#ifndef PP_ARENA_DEBUG
	if (start <= s->size && size <= s->size - start) {
		s->used = start + size;
		return s->block + start;
	}
#else
	(void)start;
#endif
	if (pp_grow(s->ctx, (void **)&s->overflow, &s->cap_overflow,
	            s->noverflow + 1, sizeof(*s->overflow)) < 0) {
		s->failed = 1;
		return NULL;
	}
	p = pp_malloc(s->ctx, size);
	if (!p) {
		s->failed = 1;
		return NULL;
	}
	s->overflow[s->noverflow++] = p;
	return p;
}

static void scratch_free(void *data, void *ptr)
{
	/* Freed in bulk by pp_scratch_reset. */
	(void)data;
	(void)ptr;
}

int pp_scratch_init(struct pp_scratch *s, struct pp_ctx *ctx, size_t size)
{
	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->block = pp_malloc(ctx, size);
	if (!s->block)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	s->size = size;
	s->pbc.alloc = scratch_alloc;
	s->pbc.free = scratch_free;
	s->pbc.allocator_data = s;
	return 0;
}

void pp_scratch_reset(struct pp_scratch *s)
{
	for (size_t i = 0; i < s->noverflow; i++)
		pp_free(s->ctx, s->overflow[i]);
	s->noverflow = 0;
	s->used = 0;
	s->failed = 0;
}

void pp_scratch_release(struct pp_scratch *s)
{
	pp_scratch_reset(s);
	pp_free(s->ctx, s->overflow);
	pp_free(s->ctx, s->block);
	memset(s, 0, sizeof(*s));
}
