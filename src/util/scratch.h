/*
 * A bump allocator that protobuf-c unpacks small messages into. It is reset
 * after each message, so unpacking millions of sub-messages costs no malloc
 * churn: memory comes from one block, with a heap fallback for the rare
 * message that does not fit.
 */
#ifndef PP_UTIL_SCRATCH_H
#define PP_UTIL_SCRATCH_H

#include <protobuf-c/protobuf-c.h>

#include "pprof/error.h"

struct pp_scratch {
	struct pp_ctx *ctx;
	unsigned char *block;
	size_t size, used;
	void **overflow; /* heap allocations made when the block was full */
	size_t noverflow, cap_overflow;
	int failed;
	ProtobufCAllocator pbc; /* hands out memory from this scratch */
};

int pp_scratch_init(struct pp_scratch *s, struct pp_ctx *ctx, size_t size);
/* Drop everything allocated since the last reset. */
void pp_scratch_reset(struct pp_scratch *s);
void pp_scratch_release(struct pp_scratch *s);

#endif
