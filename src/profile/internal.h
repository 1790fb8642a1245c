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
	        cap_mappings, cap_comments;
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

#endif
