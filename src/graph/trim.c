/* Trimming an aggregate graph as pprof does (newTrimmedGraph): cutoffs,
 * the nodes over a cutoff, dropping the others' values, the edges the
 * kept nodes need, and the text reports' view made of these steps (the
 * visual one is visual.c's). */
#include <string.h>

#include "graph/internal.h"
#include "util/goint.h"
#include "util/regex.h"

static bool dropped_negative(const struct pp_node *node)
{
	return node->flat < 0 || (node->flat == 0 && node->cum < 0);
}

void pp_graph_cutoffs(const struct pp_graph *g, double nodefraction,
                      double edgefraction, bool drop_negative,
                      int64_t *node_cutoff, int64_t *edge_cutoff)
{
	int64_t flat_total = 0;

	/* pprof sums the nodes of its graph, which -drop_negative has
	 * already left the negative ones out of (selectNodesForGraph). */
	for (uint32_t n = 0; n < g->nnodes; n++) {
		const struct pp_node *node = &g->nodes[n];

		if (drop_negative && dropped_negative(node))
			continue;
		flat_total += node->flat;
	}
	*node_cutoff =
	        pp_go_abs64(pp_go_int64((double)flat_total * nodefraction));
	*edge_cutoff =
	        pp_go_abs64(pp_go_int64((double)flat_total * edgefraction));
}

uint32_t pp_graph_keep_over(const struct pp_graph *g, const uint32_t *order,
                            uint32_t norder, int64_t node_cutoff, bool *kept)
{
	uint32_t nkept = 0;

	memset(kept, 0, g->nnodes * sizeof(*kept));
	for (uint32_t i = 0; i < norder; i++) {
		uint32_t n = order[i];

		if (pp_go_abs64(g->nodes[n].cum) >= node_cutoff) {
			kept[n] = true;
			nkept++;
		}
	}
	return nkept;
}

void pp_graph_drop_unkept(struct pp_graph *g, const bool *kept)
{
	for (uint32_t n = 0; n < g->nnodes; n++) {
		if (kept[n])
			continue;
		g->nodes[n].flat = g->nodes[n].flat_div = 0;
		g->nodes[n].cum = g->nodes[n].cum_div = 0;
	}
}

uint32_t pp_graph_mark_edges(struct pp_graph *g, int64_t edge_cutoff)
{
	uint32_t dropped = 0;

	for (uint32_t n = 0; n < g->nnodes; n++)
		g->nodes[n].in_inline = g->nodes[n].in_call = false;
	for (uint32_t e = 0; e < g->nedges; e++) {
		struct pp_edge *edge = &g->edges[e];

		if (pp_go_abs64(edge->weight) < edge_cutoff) {
			dropped++;
			continue;
		}
		if (edge->is_inline)
			g->nodes[edge->dst].in_inline = true;
		else
			g->nodes[edge->dst].in_call = true;
	}
	return dropped;
}

int pp_graph_add_inline_edges(struct pp_graph *g, const uint32_t *order,
                              uint32_t norder, bool *kept)
{
	bool any = false;

	for (uint32_t i = 0; i < norder; i++)
		any = any || g->nodes[order[i]].maybe_inline;
	if (!any)
		return 0;
	memset(kept, 0, g->nnodes * sizeof(*kept));
	for (uint32_t i = 0; i < norder; i++)
		kept[order[i]] = true;
	return pp_graph__inline_edges(g, kept);
}

/* ---- the text reports' view ---------------------------------------------- */

/* v->edge_marks: the shown nodes whose names match re. */
static int mark_matching(struct pp_view *v, const struct pp_regex *re)
{
	const struct pp_graph *g = v->graph;

	pp_free(v->ctx, v->edge_marks);
	v->edge_marks = pp_calloc(v->ctx, (size_t)g->nnodes + 1, sizeof(bool));
	if (!v->edge_marks)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < v->norder; i++) {
		uint32_t n = v->order[i];

		v->edge_marks[n] = pp_regex_match(re, pp_view_node_name(v, n),
		                                  pp_view_node_len(v, n));
	}
	v->graph->edge_marks = v->edge_marks;
	return 0;
}

int pp_view_trim(struct pp_view *v, const struct pp_trim_opts *o)
{
	struct pp_graph *g = v->graph;
	int64_t node_cutoff, edge_cutoff;
	bool rebuilt = false;
	int err;

	v->valid = false;
	pp_graph_cutoffs(g, o->nodefraction, o->edgefraction,
	                 g->opts.drop_negative, &node_cutoff, &edge_cutoff);
	v->dropped_nodes = 0;
	if ((err = pp_view_select_order(v, g->opts.drop_negative,
	                                o->cum_sort)) < 0)
		return err;
	if (node_cutoff > 0) {
		uint32_t nkept = pp_graph_keep_over(g, v->order, v->norder,
		                                    node_cutoff, v->kept);

		if (nkept != v->norder) {
			rebuilt = true;
			v->dropped_nodes = v->norder - nkept;
			pp_graph_drop_unkept(g, v->kept);
			if ((err = pp_view_select_order(v,
			                                g->opts.drop_negative,
			                                o->cum_sort)) < 0)
				return err;
		}
	}
	v->orig_count = v->norder;
	if (o->nodecount > 0 && (uint32_t)o->nodecount < v->norder) {
		memset(v->kept, 0, g->nnodes * sizeof(*v->kept));
		for (int i = 0; i < o->nodecount; i++)
			v->kept[v->order[i]] = true;
		rebuilt = true;
		pp_graph_drop_unkept(g, v->kept);
		if ((err = pp_view_select_order(v, g->opts.drop_negative,
		                                o->cum_sort)) < 0)
			return err;
	}
	if (o->all_edges) {
		/* Trees print every caller and callee of a kept node; paths
		 * through dropped nodes become residual edges. */
		enum pp_edge_mode mode = PP_EDGES_ALL;

		memset(v->kept, 0, g->nnodes * sizeof(*v->kept));
		for (uint32_t i = 0; i < v->norder; i++)
			v->kept[v->order[i]] = true;
		if (o->edge_regex) {
			if ((err = mark_matching(v, o->edge_regex)) < 0)
				return err;
			mode = PP_EDGES_MARKED;
		}
		/* pprof builds its graph again from the nodes it keeps only
		 * when a cutoff or nodecount drops some; until then the nodes
		 * it does not list (worth nothing, as under -base, or dropped
		 * by -drop_negative) keep their edges, and no path bypasses
		 * them. */
		if ((err = pp_graph_accumulate(g, rebuilt ? v->kept : NULL,
		                               mode)) < 0)
			return err;
	} else if ((err = pp_graph_add_inline_edges(g, v->order, v->norder,
	                                            v->kept)) < 0) {
		return err;
	}
	v->edge_cutoff = edge_cutoff;
	pp_graph_mark_edges(g, edge_cutoff);
	return pp_view__made_for(v, false, o);
}
