/*
 * What the filters share inside src/transform: a working view of a
 * profile whose frames and samples can be cut without copying the
 * profile, and the step that turns the view into a new profile.
 */
#ifndef PP_TRANSFORM_INTERNAL_H
#define PP_TRANSFORM_INTERNAL_H

#include <stdbool.h>

#include "pprof/transform.h"
#include "util/regex.h"

/*
 * Every cut pprof makes is a subsequence: of a location's lines (hide,
 * show, show_from, prune_from, drop_frames) or of a sample's locations.
 * So each location keeps its lines in its own slot of line_idx (at its
 * line_first in the source, count nlines[l]) and each sample its
 * locations in its slot of locs (from loc_first + skip[s], count
 * nlocs[s]); cuts only shrink or shift within a slot.
 */
struct pp_work {
	struct pp_ctx *ctx;
	const struct pp_profile *src;
	uint32_t *line_idx; /* indices into src->lines */
	uint32_t *nlines;   /* per location */
	/* The stacks as indices into src->locations, made by the first
	 * stage that rewrites them (hide, show: pp_work__own_stacks); NULL
	 * until then, while the stages only cut stacks short, and a stack is
	 * read from src's samples (which may be 16 bits a frame): copying
	 * every frame of a big profile cost more than the filter itself. */
	uint32_t *locs;
	uint32_t *skip;   /* per sample: frames cut on the leaf side */
	uint32_t *nlocs;  /* per sample */
	bool *keep;       /* per sample */
	bool *label_keep; /* per label; NULL = all kept */
	/* For base.c: values to write instead of src's (NULL: src's), and
	 * a string label to set on every sample (NULL: none), replacing
	 * labels with the same key as pprof's SetLabel. */
	const int64_t *values;
	const char *set_key, *set_value;
};

int pp_work_init(struct pp_ctx *ctx, const struct pp_profile *src,
                 struct pp_work *w);
void pp_work_release(struct pp_work *w);

/* The current lines of location l and the current stack of sample s. */
static inline uint32_t *pp_work__lines(const struct pp_work *w, uint32_t l)
{
	return w->line_idx + w->src->locations[l].line_first;
}
/* Frame i of sample s's current stack (0 its leaf). */
static inline uint32_t pp_work__loc(const struct pp_work *w, uint32_t s,
                                    uint32_t i)
{
	size_t at = (size_t)w->src->samples[s].loc_first + w->skip[s] + i;

	return w->locs ? w->locs[at] : pp_profile_loc(w->src, at);
}

/* Make w->locs, so that the stacks can be rewritten in place. */
int pp_work__own_stacks(struct pp_work *w);

/* Sample s's current stack, to rewrite: only once w->locs is made. */
static inline uint32_t *pp_work__stack(const struct pp_work *w, uint32_t s)
{
	return w->locs + w->src->samples[s].loc_first + w->skip[s];
}

/* The view as a new profile: strings, functions and mappings as they are;
 * locations with their remaining lines; the kept samples with their
 * remaining frames and labels. */
int pp_work_build(struct pp_work *w, struct pp_profile **out);

/* tags.c: tagfocus/tagignore and tagshow/taghide on the view. */
int pp_transform__tag_filters(struct pp_work *w,
                              const struct pp_filter_opts *o);

/* pprof's simplifyFunc: the name without a leading '.' and without its
 * argument list (from the first '(' that does not start "(anonymous
 * namespace)" or "operator()"), of the len bytes at name (NUL bytes are
 * ordinary ones). It is a part of name: returns where it starts and sets
 * *out_len to its length. */
const char *pp_transform__simplify(const char *name, size_t len,
                                   size_t *out_len);

/* types.c, what merge.c and base.c share: whether string sa of a and sb
 * of b are the same bytes; the index of b's sample type named as a's type
 * i, or -1; and pprof's ScaleN on one sample's n values (v into d, which
 * may be v): each whose ratio is not 1 multiplied by it, rounded and
 * converted as Go does. true when one of those scaled values is not 0:
 * pprof keeps only such samples. */
bool pp_transform__same_str(const struct pp_profile *a, pp_str sa,
                            const struct pp_profile *b, pp_str sb);
int pp_transform__find_type(const struct pp_profile *a, uint32_t i,
                            const struct pp_profile *b);
bool pp_transform__scale_values(int64_t *d, const int64_t *v,
                                const double *ratios, uint32_t n);

#endif
