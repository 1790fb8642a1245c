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
};

#define PP_REPORT_OPTS_INIT                                              \
	{                                                                \
		NULL, false, PP_GRAN_FUNCTIONS, false, false, -1, 0.005, \
		        0.001, NULL, 1.0, true, false, false             \
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

#endif
