/*
 * `perf script` output (its default text, with call chains); see
 * perfscript.c.
 */
#ifndef PP_PROFILE_PERFSCRIPT_H
#define PP_PROFILE_PERFSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

/* The first non-blank line is a sample header ("COMM PID [CPU] TIME:
 * [PERIOD] EVENT:") and the next a call-chain frame ("\tADDR SYM (DSO)"). */
bool pp_perfscript__is_perf_script(const uint8_t *data, size_t len);

/* Sample types: samples/count, then one per event (its periods). */
int pp_perfscript__decode(struct pp_ctx *ctx, const char *name,
                          const uint8_t *data, size_t len,
                          struct pp_profile **out);

#endif
