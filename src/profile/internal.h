/* What the files of the profile module share. */
#ifndef PP_PROFILE_INTERNAL_H
#define PP_PROFILE_INTERNAL_H

#include <stddef.h>

#include "pprof/profile.h"

/* A profile as pp_profile_new allocates it: the public struct first, then
 * what only the profile module touches (the builders' capacities of the
 * public arrays; each array is allocated and holds at least one item). */
struct pp_profile__full {
	struct pp_profile pub;
	size_t cap_sample_types, cap_samples, cap_sample_locs, cap_values,
	        cap_labels, cap_locations, cap_lines, cap_functions,
	        cap_mappings, cap_comments, cap_sample_labels;
};

/* p's private part; p must come from pp_profile_new. */
static inline struct pp_profile__full *
pp_profile__in(const struct pp_profile *p)
{
	return (struct pp_profile__full *)p;
}

/* p's location indices 32 bits wide from now on (a builder that writes
 * them as uint32_t; pp_profile_narrow_locs when it is done). PP_ENOMEM. */
int pp_profile__widen_locs(struct pp_profile *p);

/*
 * Note that sample i, the newest of a sample array, has the labels
 * [first, first + count) in *ranges (a pp_profile's sample_labels, or a
 * decoder's own): *ranges is allocated on the first sample with labels,
 * zeros for the samples before it, and stays NULL while none has any.
 * PP_ENOMEM.
 */
int pp_profile__note_labels(struct pp_ctx *ctx, struct pp_label_range **ranges,
                            size_t *cap, size_t i, size_t first, size_t count);

#endif
