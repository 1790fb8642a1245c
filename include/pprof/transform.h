/*
 * Transforms: profile -> profile. Merging several profiles into one; later
 * stages (base/diff_base, filters, tags, drop_frames) live here too.
 */
#ifndef PPROF_TRANSFORM_H
#define PPROF_TRANSFORM_H

#include <stdbool.h>
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
 * The same merge one profile at a time, for a caller that reads many and
 * would hold only the merged one and the next (files merged as they are
 * read): pp_merger_new takes the header (sample and period types) from
 * first, which it does not merge; pp_merger_add merges each in turn (the
 * first too), PP_EUSAGE when one is not compatible; pp_merger_finish
 * hands over the result (*out), after which the merger is only freed.
 * pp_profile_merge is these three, with every input checked first.
 */
struct pp_merger;
int pp_merger_new(struct pp_ctx *ctx, const struct pp_profile *first,
                  struct pp_merger **out);
int pp_merger_add(struct pp_merger *m, const struct pp_profile *p,
                  const char *name);
int pp_merger_finish(struct pp_merger *m, struct pp_profile **out);
void pp_merger_free(struct pp_merger *m);

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

/* ---- base and diff_base ------------------------------------------------- */

/*
 * Combine prof with a base profile as pprof's -base and -diff_base do, into
 * a new profile (*out): the base's values are negated and the two merged
 * (pp_profile_merge), so reports show prof - base.
 *
 * diff: mark every base sample with the string label pprof::base=true (as
 * -diff_base does). Reports then take their total, and so every percentage,
 * from the base samples alone, and identical stacks of the two profiles stay
 * apart instead of cancelling out.
 *
 * normalize: first scale prof's values so that each sample type's total
 * equals the base's (pprof's Profile.Normalize); a type whose total in
 * prof is zero scales to zero.
 *
 * Both inputs are borrowed. The merge keeps the sample types both have,
 * each in the smaller unit, as pprof's; with no type in common, or any
 * difference under normalize, it fails with PP_EUSAGE naming both lists;
 * names (may be NULL) name the two in errors.
 */
int pp_profile_apply_base(struct pp_ctx *ctx, const struct pp_profile *prof,
                          const struct pp_profile *base, bool diff,
                          bool normalize, const char *const names[2],
                          struct pp_profile **out);

/*
 * PP_EUSAGE naming both lists of sample types if base's differ from
 * prof's at all (names as in pp_profile_apply_base), else 0: check's
 * profiles must match, and -normalize's.
 */
int pp_profile_check_base(struct pp_ctx *ctx, const struct pp_profile *prof,
                          const struct pp_profile *base,
                          const char *const names[2]);

/* ---- filters ------------------------------------------------------------- */

/*
 * The sample and frame filters of pprof, applied in pprof's order. Every
 * field is a regular expression in Go's RE2 syntax (see util/regex.h), or
 * NULL / "" for "not set" (the default for all of them).
 *
 * focus, ignore: keep the samples with a frame whose function name or file
 * name (or the location's mapping file) matches focus, and none that
 * matches ignore.
 * hide, show: drop the frames that match hide / do not match show.
 * show_from: drop the frames above (callers of) the outermost match;
 * samples without a match go.
 * tagfocus, tagignore: keep samples whose labels match / do not match:
 * "REGEX[,REGEX...]" against "key:value" of string labels (all of the
 * regexes must match), "KEY=REGEX[,...]" against KEY's values (any may
 * match), or a numeric range "N[UNIT]", "N[UNIT]:", ":N[UNIT]",
 * "N[UNIT]:M[UNIT]" (optionally "KEY=RANGE") against numeric labels,
 * scaled through their units (1mb, 100ms).
 * tagshow, taghide: keep only the label keys matching tagshow, drop those
 * matching taghide.
 * prune_from: drop the frames below (callees of) the innermost frame whose
 * function name matches.
 */
struct pp_filter_opts {
	const char *focus;
	const char *ignore;
	const char *hide;
	const char *show;
	const char *show_from;
	const char *tagfocus;
	const char *tagignore;
	const char *tagshow;
	const char *taghide;
	const char *prune_from;
};

/*
 * pprof's -tagroot and -tagleaf: labels as pseudo frames, made before the
 * filters (which can then match them). root and leaf are comma-separated
 * label keys (NULL or "": none); for each key every sample gets a frame
 * whose function is named by its values of that label (strings, then
 * numbers scaled to unit, joined by ","; empty when it has none, which
 * reports show as "<unknown>") and whose file name is the key. Root
 * frames go above the stack (the first key outermost), leaf frames below
 * it (the last key innermost). unit: the output unit for numeric labels
 * (NULL: "minimum").
 */
struct pp_label_frames_opts {
	const char *root;
	const char *leaf;
	const char *unit;
};

/* A copy of in with the label frames of o (*out; the caller frees it).
 * A key list that matches no sample is a warning through ctx, as pprof's
 * "TagRoot expression matched no samples". */
int pp_profile_label_frames(struct pp_ctx *ctx, const struct pp_profile *in,
                            const struct pp_label_frames_opts *o,
                            struct pp_profile **out);

/* True if any filter in o is set. */
bool pp_filter_opts_active(const struct pp_filter_opts *o);

/*
 * Apply o to in, giving a new profile (*out; the caller frees it). A filter
 * that matches nothing is not an error; it is reported through ctx's warning
 * callback as pprof does ("Focus expression matched no samples"), and a
 * tag filter read as a numeric range says so likewise. A bad regular
 * expression fails with PP_EUSAGE "parsing focus regexp RE: REASON".
 */
int pp_profile_filter(struct pp_ctx *ctx, const struct pp_profile *in,
                      const struct pp_filter_opts *o, struct pp_profile **out);

/*
 * focus and ignore as marks on the locations of p, for a caller that keeps
 * the samples itself (the session, selecting from a tree it already has):
 * marks[l] (p->nlocations of them) gets PP_FILTER_MARK_IGNORE when location
 * l matches ignore and PP_FILTER_MARK_FOCUS when it matches focus (always,
 * without a focus). pp_profile_filter keeps exactly the samples with a
 * location, none marked IGNORE and one marked FOCUS. Warnings and errors
 * are pp_profile_filter's; PP_EUNSUPPORTED when o sets a filter other
 * than focus and ignore, or none.
 */
#define PP_FILTER_MARK_IGNORE 1u /* = PP_TREE_MARK_DROP (pprof/tree.h) */
#define PP_FILTER_MARK_FOCUS 2u  /* = PP_TREE_MARK_NEED */
int pp_profile_filter_marks(struct pp_ctx *ctx, const struct pp_profile *p,
                            const struct pp_filter_opts *o,
                            unsigned char *marks);

/*
 * The same with hide, show and show_from too, which remove frames from the
 * stacks: marks[l] as above, and PP_FILTER_MARK_HIDDEN when hide or show
 * leave location l no line (pp_profile_filter then takes it out of every
 * stack, and drops a sample left with no location), PP_FILTER_MARK_FROM
 * when it matches show_from. line_marks[i] (p->nlines of them, a line's
 * index in p->lines) gets PP_FILTER_LINE_GONE when the filters take line i
 * out of its location (hide, show, or above the show_from match of its
 * location; every line of a hidden location is gone) and
 * PP_FILTER_LINE_FROM on the line of a FROM location where the stacks
 * through it start (the match, or its outermost line that stays when its
 * mapping matched). pp_profile_filter keeps a sample when it has a
 * location not HIDDEN, none marked IGNORE, one marked FOCUS and (with
 * show_from) one marked FROM, and cuts its stack above the outermost
 * FROM location's FROM line. Warnings and errors are pp_profile_filter's;
 * PP_EUNSUPPORTED when o sets another filter, or none of these.
 */
#define PP_FILTER_MARK_HIDDEN 4u
#define PP_FILTER_MARK_FROM 8u
#define PP_FILTER_LINE_GONE 1u
#define PP_FILTER_LINE_FROM 2u
int pp_profile_filter_line_marks(struct pp_ctx *ctx, const struct pp_profile *p,
                                 const struct pp_filter_opts *o,
                                 unsigned char *marks,
                                 unsigned char *line_marks);

#endif
