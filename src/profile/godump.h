/*
 * Go goroutine dumps (debug=2, panics, SIGQUIT) read as goroutine/count
 * profiles; see godump.c for the shape.
 */
#ifndef PP_PROFILE_GODUMP_H
#define PP_PROFILE_GODUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

/* A "goroutine N [state]:" block, a frame and its file line near the top. */
bool pp_godump__is_dump(const uint8_t *data, size_t len);

int pp_godump__decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out);

#endif
