/* Trimming an aggregate graph as pprof does (newTrimmedGraph): cutoffs,
 * the nodes over a cutoff, dropping the others' values, and the edges the
 * kept nodes need. Reports choose and order the nodes; this is the work
 * on the graph itself. */
#include <string.h>

#include "graph/internal.h"
#include "util/goint.h"

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
