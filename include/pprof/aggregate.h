/*
 * The aggregate: one profile's samples summed into a graph at one
 * granularity, and what reports are cut from it: the view (the graph
 * trimmed for the last text or graph report), the calling-context tree of
 * flame graphs and its top alone (the cut tree).
 *
 * Each piece is built on first use and kept while the aggregate lives: a
 * report that changes only how the graph is trimmed (nodecount, the
 * cutoffs, the order) restores the saved values instead of passing over
 * the samples again. The session keeps a few aggregates per filtered
 * profile (its staged cache); a report (pprof/report.h) borrows one and
 * holds only its options, totals and printers.
 */
#ifndef PPROF_AGGREGATE_H
#define PPROF_AGGREGATE_H

#include "pprof/graph.h"
#include "pprof/tree.h"

struct pp_aggregate {
	struct pp_ctx *ctx;
	const struct pp_profile *prof;
	/* The graph, as last asked for (pp_aggregate_graph). */
	struct pp_graph *graph;
	/* graph's values as first accumulated, for options graph_opts:
	 * asking again restores them (pp_graph_restore_values). NULL: none
	 * kept. */
	int64_t *graph_values;
	struct pp_graph_opts graph_opts;
	/* The view: graph trimmed for the last report. */
	struct pp_view view;
	/* The calling-context tree, and its top alone: the frames at least
	 * cut_share of the whole, which a flame answer that leaves out
	 * thinner frames is made from while tree is not built. The cut
	 * tree's node ids (+ PP_FLAME_CUT_ID in answers) name its nodes. */
	struct pp_tree *tree;
	struct pp_tree *cut;
	double cut_share;
	/* How many times the samples were passed over to build a graph or a
	 * tree (for tests and the benchmark of the session's cache). */
	unsigned long long builds;
};

int pp_aggregate_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                     struct pp_aggregate **out);
void pp_aggregate_free(struct pp_aggregate *a);

/* Make a->graph the graph of options go, and reset the view to it: the
 * saved values are restored when only the edges asked for differ, else
 * the samples are aggregated again. */
int pp_aggregate_graph(struct pp_aggregate *a, const struct pp_graph_opts *go);

/* The calling-context tree of options go (sample_index, granularity,
 * noinlines, columns), built on first use. */
int pp_aggregate_tree(struct pp_aggregate *a, const struct pp_graph_opts *go,
                      const struct pp_tree **out);

/* Build the cut tree (frames of at least min_share of the whole) unless
 * a tree is already there or min_share is not positive; when it leaves
 * nothing out, it is the whole tree. */
int pp_aggregate_cut(struct pp_aggregate *a, const struct pp_graph_opts *go,
                     double min_share);

/* Make a's tree from whole's (the same profile, tree options go):
 * pp_tree_select by marks or, with line_marks, pp_tree_refine. Returns 1
 * when every sample stays (a's tree is then a copy of the whole), 0 when
 * done, PP_EUNSUPPORTED when a already has a tree or the profiles differ. */
int pp_aggregate_select_tree(struct pp_aggregate *a, struct pp_aggregate *whole,
                             const struct pp_graph_opts *go,
                             const unsigned char *marks,
                             const unsigned char *line_marks, bool show_from);

#endif
