/*
 * Folded stacks (flamegraph.pl's "a;b;c 42" lines); see folded.c.
 */
#ifndef PP_PROFILE_FOLDED_H
#define PP_PROFILE_FOLDED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

/* Every non-blank line (of the first 64 KiB) is "STACK COUNT". */
bool pp_folded__is_folded(const uint8_t *data, size_t len);

/* The sample type is ctx->folded_type ("type" or "type/unit"), else
 * samples/count. */
int pp_folded__decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out);

#endif
