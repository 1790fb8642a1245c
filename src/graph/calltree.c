/*
 * The call tree (pprof's -call_tree): a node per call path instead of per
 * function. pprof's newTree walks each sample from its root, finding or
 * adding the frame under the node reached so far; the frames are the
 * ordinary graph's nodes at the granularity, so we build that node table
 * first and then key tree nodes by (parent tree node, frame).
 */
#include <string.h>

#include "graph/internal.h"

struct slots {
	uint64_t *keys; /* (parent + 1) << 32 | frame; UINT64_MAX empty */
	uint32_t *vals; /* tree node */
	uint32_t n;     /* a power of two */
};

static uint32_t slot_of(uint64_t key, uint32_t n)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (n - 1);
}

static int slots_grow(struct pp_graph *g, struct slots *s, uint32_t used)
{
	uint32_t n = s->n ? s->n * 2 : 1024;
	uint64_t *keys = pp_malloc(g->ctx, (size_t)n * sizeof(*keys));
	uint32_t *vals = pp_malloc(g->ctx, (size_t)n * sizeof(*vals));

	if (!keys || !vals) {
		pp_free(g->ctx, keys);
		pp_free(g->ctx, vals);
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	}
	memset(keys, 0xff, (size_t)n * sizeof(*keys));
	for (uint32_t i = 0; i < s->n && used; i++) {
		uint32_t j;

		if (s->keys[i] == UINT64_MAX)
			continue;
		j = slot_of(s->keys[i], n);
		while (keys[j] != UINT64_MAX)
			j = (j + 1) & (n - 1);
		keys[j] = s->keys[i];
		vals[j] = s->vals[i];
	}
	pp_free(g->ctx, s->keys);
	pp_free(g->ctx, s->vals);
	s->keys = keys;
	s->vals = vals;
	s->n = n;
	return 0;
}

/* The tree node for frame under parent (PP_NONE: a root), added with the
 * frame's info and an edge from parent when new. */
static int find_or_add(struct pp_graph *g, struct slots *s,
                       const struct pp_node *frames, uint32_t parent,
                       uint32_t frame, uint32_t *out)
{
	/* A root's parent, PP_NONE, wraps to 0. */
	uint64_t key = (uint64_t)(uint32_t)(parent + 1u) << 32 | frame;
	uint32_t j, n;
	int err;

	if ((uint64_t)(g->nnodes + 1) * 2 > s->n &&
	    (err = slots_grow(g, s, g->nnodes)) < 0)
		return err;
	j = slot_of(key, s->n);
	while (s->keys[j] != UINT64_MAX) {
		if (s->keys[j] == key) {
			*out = s->vals[j];
			return 0;
		}
		j = (j + 1) & (s->n - 1);
	}
	if ((err = pp_grow(g->ctx, (void **)&g->nodes,
	                   &pp_graph__in(g)->cap_nodes, (size_t)g->nnodes + 1,
	                   sizeof(*g->nodes))) < 0 ||
	    (err = pp_grow(g->ctx, (void **)&g->tree_parent,
	                   &pp_graph__in(g)->cap_parent, (size_t)g->nnodes + 1,
	                   sizeof(*g->tree_parent))) < 0 ||
	    (err = pp_grow(g->ctx, (void **)&g->tree_in_edge,
	                   &pp_graph__in(g)->cap_in_edge, (size_t)g->nnodes + 1,
	                   sizeof(*g->tree_in_edge))) < 0)
		return err;
	n = g->nnodes;
	memset(&g->nodes[n], 0, sizeof(g->nodes[n]));
	g->nodes[n].info = frames[frame].info;
	g->nodes[n].maybe_inline = frames[frame].maybe_inline;
	g->tree_parent[n] = parent;
	g->tree_in_edge[n] = PP_NONE;
	if (parent != PP_NONE) {
		if ((err = pp_grow(g->ctx, (void **)&g->edges,
		                   &pp_graph__in(g)->cap_edges,
		                   (size_t)g->nedges + 1, sizeof(*g->edges))) <
		    0)
			return err;
		memset(&g->edges[g->nedges], 0, sizeof(g->edges[0]));
		g->edges[g->nedges].src = parent;
		g->edges[g->nedges].dst = n;
		g->edges[g->nedges].is_inline = true;
		g->tree_in_edge[n] = g->nedges++;
	}
	s->keys[j] = key;
	s->vals[j] = n;
	g->nnodes++;
	*out = n;
	return 0;
}

int pp_graph__call_tree(struct pp_graph *g)
{
	const struct pp_profile *p = g->prof;
	struct pp_node *frames = g->nodes; /* the ordinary node table */
	struct slots s = {0};
	int err = 0;

	g->nodes = NULL;
	g->nnodes = 0;
	pp_graph__in(g)->cap_nodes = 0;
	g->sample_leaf = pp_malloc(g->ctx, (p->nsamples ? p->nsamples : 1) *
	                                           sizeof(*g->sample_leaf));
	if (!g->sample_leaf) {
		err = pp_error(g->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t si = 0; si < p->nsamples; si++) {
		const struct pp_sample *smp = &p->samples[si];
		const int64_t *vals = pp_profile_sample_values(p, si);
		const struct pp_locs locs = pp_sample_locs(p, smp);
		int64_t w = vals[g->opts.sample_index];
		int64_t dw = g->opts.mean ? vals[0] : 0;
		uint32_t parent = PP_NONE;

		g->sample_leaf[si] = PP_NONE;
		if ((err = pp_interrupt_poll(g->ctx, si)) < 0)
			goto done;
		if (w == 0 && dw == 0)
			continue;
		/* From the root: each location's outermost line first. */
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = pp_locs_at(locs, i),
			         first = g->loc_node_first[l];
			uint32_t last = g->loc_node_first[l + 1];

			for (uint32_t k = last; k-- > first;) {
				uint32_t n;

				if ((err = find_or_add(g, &s, frames, parent,
				                       g->loc_nodes[k], &n)) <
				    0)
					goto done;
				g->nodes[n].cum += w;
				g->nodes[n].cum_div += dw;
				if (parent != PP_NONE) {
					struct pp_edge *e =
					        &g->edges[g->tree_in_edge[n]];

					e->weight += w;
					e->weight_div += dw;
					/* Inline: an inner line of its
					 * location, every time. */
					if (k == last - 1)
						e->is_inline = false;
				}
				parent = n;
			}
		}
		if (parent != PP_NONE) {
			g->nodes[parent].flat += w;
			g->nodes[parent].flat_div += dw;
		}
		g->sample_leaf[si] = parent;
	}
done:
	/* The location table names the frames, not the tree's nodes. */
	pp_free(g->ctx, g->loc_nodes);
	pp_free(g->ctx, g->loc_node_first);
	g->loc_nodes = g->loc_node_first = NULL;
	pp_free(g->ctx, frames);
	pp_hashmap_release(&pp_graph__in(g)->node_index);
	pp_free(g->ctx, s.keys);
	pp_free(g->ctx, s.vals);
	return err;
}
