/* A graph's node values saved after accumulation and put back, so that a
 * report may trim again from the aggregate without passing over the
 * samples (the session's view stage). */
#include <string.h>

#include "graph/internal.h"
#include "pprof/graph.h"

int pp_graph_save_values(const struct pp_graph *g, int64_t **out)
{
	size_t n;
	int64_t *v;

	*out = NULL;
	if (pp_mul_size((size_t)g->nnodes + 1, 4 * sizeof(*v), &n) < 0)
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	if (!(v = pp_malloc(g->ctx, n)))
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < g->nnodes; i++) {
		const struct pp_node *node = &g->nodes[i];

		v[4 * (size_t)i] = node->flat;
		v[4 * (size_t)i + 1] = node->flat_div;
		v[4 * (size_t)i + 2] = node->cum;
		v[4 * (size_t)i + 3] = node->cum_div;
	}
	*out = v;
	return 0;
}

void pp_graph_restore_values(struct pp_graph *g, const int64_t *v)
{
	for (uint32_t i = 0; i < g->nnodes; i++) {
		struct pp_node *node = &g->nodes[i];

		node->flat = v[4 * (size_t)i];
		node->flat_div = v[4 * (size_t)i + 1];
		node->cum = v[4 * (size_t)i + 2];
		node->cum_div = v[4 * (size_t)i + 3];
		node->in_inline = node->in_call = false;
	}
	g->nedges = 0;
	pp_hashmap_clear(&pp_graph__in(g)->edge_index);
}
