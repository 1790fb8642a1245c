/*
 * Reports. One options struct serves the command line and the shell; a
 * pp_report binds it to a profile and caches the aggregate, so that running
 * reports again with unchanged options costs nothing proportional to the
 * profile's size.
 *
 * Reports write to a FILE * and never open paths themselves.
 */
#ifndef PPROF_REPORT_H
#define PPROF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "pprof/graph.h"
#include "pprof/profile.h"

struct pp_report_opts {
	const char *sample_index;        /* NULL: the profile's default type */
	bool mean;                       /* false */
	enum pp_granularity granularity; /* functions */
	bool noinlines;                  /* false */
	bool cum_sort;                   /* false: sort by flat */
	int nodecount;       /* -1: the report's default (top: all) */
	double nodefraction; /* 0.005 */
	double edgefraction; /* 0.001 */
	const char *unit;    /* NULL: "minimum" */
	double divide_by;    /* 1 */
	bool trim;           /* true */
	bool compact_labels; /* false */
	bool drop_negative;  /* false */
	bool inverted;       /* false: flame graphs grow up from the root;
	                        true: icicle, the root on top */
};

#define PP_REPORT_OPTS_INIT                                              \
	{                                                                \
		NULL, false, PP_GRAN_FUNCTIONS, false, false, -1, 0.005, \
		        0.001, NULL, 1.0, true, false, false, false      \
	}

struct pp_report;

/* Bind options to a profile (borrowed; it must outlive the report). Fails
 * with PP_EUSAGE for a bad sample_index or unit. */
int pp_report_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                  const struct pp_report_opts *opts, struct pp_report **out);
void pp_report_free(struct pp_report *r);

/* The flat/cum table: `top`. */
int pp_report_top(struct pp_report *r, FILE *out);

/* One "root;caller;...;leaf value" line per distinct stack whose value is
 * not zero, children in name order; values in the sample type's own unit.
 * The collapsed format of flamegraph.pl, inferno and speedscope. */
int pp_report_folded(struct pp_report *r, FILE *out);

/*
 * An interactive flame graph: one self-contained SVG file (inline style and
 * script, nothing loaded from elsewhere). Frames are sized by value and
 * coloured by package with a stable hash; hovering shows name, value and
 * percentage, a click zooms into a frame, "Search" highlights the frames
 * matching a regular expression and shows their share. opts.inverted
 * draws an icicle graph. If the profile carries base samples (pprof's
 * -diff_base), the graph is differential: widths are the new profile's,
 * red frames grew and blue ones shrank against the base.
 */
int pp_report_flame(struct pp_report *r, FILE *out);

/* A speedscope JSON file: one sampled profile of the distinct stacks (root
 * first, as indices into shared frames with name, file and line) and their
 * values as weights; stacks worth zero or less are left out. */
int pp_report_speedscope(struct pp_report *r, FILE *out);

#endif
