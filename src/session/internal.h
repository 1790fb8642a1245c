/* What the files of the session module share. */
#ifndef PP_SESSION_INTERNAL_H
#define PP_SESSION_INTERNAL_H

#include "pprof/session.h"
#include "pprof/source.h"

/*
 * The load stages for one group of sources (the profiles, or the bases):
 * read or fetch each (data[i] when given), decode, merge (when n > 1),
 * symbolize with executable (may be NULL), drop the profile's uninteresting
 * frames, and tell opts->fetched when a source came over HTTP. *out is the
 * caller's.
 */
int pp_session__load(struct pp_ctx *ctx, const struct pp_load_opts *opts,
                     const char *executable, const char *const *sources,
                     const struct pp_bytes *data, size_t n,
                     struct pp_profile **out);

/* The executable that leads sources, as pprof takes it: an ELF file first
 * of several (`pprof-c top ./server cpu.prof`); else NULL. */
const char *pp_session__leading_executable(const char *const *sources,
                                           size_t n);

/* Decode what a source handed back, taking its bytes over: their pages
 * go back to the system as the decoder passes them. b->name names it in
 * messages. */
int pp_session__decode_bytes(struct pp_ctx *ctx, struct pp_source_bytes *b,
                             struct pp_profile **out);

#endif
