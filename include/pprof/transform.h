/*
 * Transforms: profile -> profile. Merging several profiles into one; later
 * stages (base/diff_base, filters, tags, drop_frames) live here too.
 */
#ifndef PPROF_TRANSFORM_H
#define PPROF_TRANSFORM_H

#include <stddef.h>

#include "pprof/profile.h"

/*
 * Merge n profiles into a new one (*out), as pprof merges them: sample and
 * period types must be equal; mappings, functions and locations that are the
 * same are shared; time is the earliest, duration the sum, period the
 * largest; comments are kept once each. names[] (may be NULL) name the
 * inputs in error messages.
 *
 * As pprof's profile.Merge (which pprof runs even on a single profile):
 * samples whose values are all zero are dropped; samples with the same
 * stack and labels become one with their values summed; the result holds
 * only the mappings (and the first input's first one), functions and
 * locations the samples use, numbered 1.. in the order samples reach them.
 */
int pp_profile_merge(struct pp_ctx *ctx, struct pp_profile *const *profiles,
                     const char *const *names, size_t n,
                     struct pp_profile **out);

/*
 * Apply the profile's drop_frames and keep_frames regexes as pprof does
 * after symbolization (profile.RemoveUninteresting): in each sample, the
 * first location rootward of a kept frame whose function (simplified: no
 * parameters) fully matches drop_frames and not keep_frames is cut, with
 * every frame leafward of it; a match on an inlined line keeps the
 * location's lines rootward of it. Changes p in place; a bad regex is a
 * warning. PP_ENOMEM is the only error.
 */
int pp_profile_remove_uninteresting(struct pp_ctx *ctx, struct pp_profile *p);

#endif
