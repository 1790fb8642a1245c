/*
 * Edges between kept nodes, over every sample, on two threads for big
 * profiles, each with an edge table of its own, merged at the end in the
 * order one pass would have made them. Two users:
 *  - the "(inline)" marks of a text report: for each kept node that is
 *    sometimes an inlined call, its in-edges from the nearest kept caller;
 *  - the trimmed graphs of visual reports: every edge between kept nodes,
 *    and the kept nodes' flat (pp_graph_accumulate_kept).
 * It is a full pass over all frames, so it does nothing else and skips
 * locations without a kept node in one byte load.
 */
#include <pthread.h>
#include <string.h>

#include "graph/internal.h"

struct local_edge {
	uint32_t src, dst;
	int64_t weight, weight_div;
	uint32_t stamp; /* the last sample that counted this edge */
	bool residual;
	bool is_inline;
};

/* What a node is to this pass, one byte per node to keep the per-frame
 * working set small. */
enum { NODE_DROPPED = 0, NODE_KEPT = 1, NODE_TARGET = 2 };

struct edge_pass {
	const struct pp_graph *g;
	const unsigned char *role; /* per node: NODE_* */
	/* Per location: NODE_DROPPED when none of its nodes is kept; for a
	 * one-line location, the role of its node, which is one[l]. */
	const unsigned char *loc_kept;
	const uint32_t *one;
	uint32_t first, last; /* samples [first, last) */
	struct local_edge *edges;
	size_t nedges, cap_edges;
	uint32_t *inner; /* per loc_nodes entry: its edge when inlined */
	struct pp_hashmap index; /* (src, dst) -> index in edges */
	int64_t *flat;           /* per node flat, flat_div; NULL: not wanted */
	int err;
};

/* The index of edge src->dst in the pass's table, added if new; -1 when
 * out of memory. */
static long find_edge(struct edge_pass *ep, uint32_t src, uint32_t dst)
{
	uint32_t h = pp_hash_pair(src, dst), pos, i;
	struct local_edge *e;

	for (i = pp_hashmap_first(&ep->index, h, &pos); i != PP_NONE;
	     i = pp_hashmap_next(&ep->index, h, &pos)) {
		e = &ep->edges[i];
		if (e->src == src && e->dst == dst)
			return (long)i;
	}
	if (pp_grow(ep->g->ctx, (void **)&ep->edges, &ep->cap_edges,
	            ep->nedges + 1, sizeof(*ep->edges)) < 0 ||
	    pp_hashmap_add(&ep->index, h, &pos, (uint32_t)ep->nedges) < 0)
		return -1;
	e = &ep->edges[ep->nedges];
	memset(e, 0, sizeof(*e));
	e->src = src;
	e->dst = dst;
	e->is_inline = true;
	return (long)ep->nedges++;
}

/* Count sample stamp's contribution to edge e: once per sample. */
static void bump(struct local_edge *e, int64_t w, int64_t dw, bool residual,
                 bool is_inline, uint32_t stamp)
{
	if (e->stamp == stamp)
		return;
	e->stamp = stamp;
	e->weight += w;
	e->weight_div += dw;
	e->residual = e->residual || residual;
	e->is_inline = e->is_inline && is_inline;
}

static void *edge_pass_run(void *arg)
{
	struct edge_pass *ep = arg;
	const struct pp_graph *g = ep->g;
	const struct pp_profile *p = g->prof;
	const uint32_t *lnf = g->loc_node_first, *ln = g->loc_nodes;
	uint32_t nt = p->nsample_types, si = g->opts.sample_index;
	bool mean = g->opts.mean;

	for (uint32_t s = ep->first; s < ep->last; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = p->values + (size_t)s * nt;
		const uint32_t *locs = p->sample_locs + smp->loc_first;
		int64_t w = vals[si], dw = mean ? vals[0] : 0;
		uint32_t parent = PP_NONE;
		bool residual = false;

		if (w == 0 && dw == 0)
			continue;
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = locs[i], cnt = lnf[l + 1] - lnf[l];

			if (ep->loc_kept[l] == NODE_DROPPED) {
				residual = true;
				continue;
			}
			/* One-line locations (most of them) need one lookup. */
			if (ep->one[l] != PP_NONE) {
				uint32_t n = ep->one[l];

				if (ep->loc_kept[l] == NODE_TARGET &&
				    parent != PP_NONE && n != parent) {
					long e = find_edge(ep, parent, n);

					if (e < 0) {
						ep->err = PP_ENOMEM;
						return NULL;
					}
					bump(&ep->edges[e], w, dw, residual,
					     false, s + 1);
				}
				parent = n;
				residual = false;
				continue;
			}
			for (uint32_t ni = cnt; ni-- > 0;) {
				uint32_t n = ln[lnf[l] + ni];
				unsigned char role = ep->role[n];

				if (role == NODE_DROPPED) {
					residual = true;
					continue;
				}
				if (role == NODE_TARGET && parent != PP_NONE &&
				    n != parent) {
					uint32_t k = lnf[l] + ni;
					long e;

					/* An inlined line right under its kept
					 * caller line always makes the same
					 * edge: remember it per line. */
					if (ni != cnt - 1 && !residual &&
					    ep->inner[k] != PP_NONE) {
						e = ep->inner[k];
					} else {
						e = find_edge(ep, parent, n);
						if (e < 0) {
							ep->err = PP_ENOMEM;
							return NULL;
						}
						if (ni != cnt - 1 && !residual)
							ep->inner[k] =
							        (uint32_t)e;
					}
					bump(&ep->edges[e], w, dw, residual,
					     ni != cnt - 1, s + 1);
				}
				parent = n;
				residual = false;
			}
		}
		/* As accumulation: flat on the last kept frame, unless dropped
		 * frames follow it. */
		if (ep->flat && parent != PP_NONE && !residual) {
			ep->flat[2 * (size_t)parent] += w;
			ep->flat[2 * (size_t)parent + 1] += dw;
		}
	}
	return NULL;
}

#define PARALLEL_MIN_SAMPLES 200000

/* The pass: edges into the kept nodes that may be inlined, or (all) into
 * every kept node, and then the kept nodes' flat too. */
static int edge_pass(struct pp_graph *g, const bool *kept, bool all)
{
	const struct pp_profile *p = g->prof;
	struct edge_pass ep[2];
	unsigned char *loc_kept, *role;
	uint32_t *one;
	int nparts = p->nsamples >= PARALLEL_MIN_SAMPLES ? 2 : 1;
	pthread_t helper;
	bool threaded = false;
	int err = 0;

	memset(ep, 0, sizeof(ep));
	pp_hashmap_init(&ep[0].index, g->ctx);
	pp_hashmap_init(&ep[1].index, g->ctx);
	loc_kept = pp_malloc(g->ctx, p->nlocations ? p->nlocations : 1);
	role = pp_malloc(g->ctx, g->nnodes ? g->nnodes : 1);
	one = pp_malloc(g->ctx, ((size_t)p->nlocations + 1) * sizeof(*one));
	if (!loc_kept || !role || !one) {
		pp_free(g->ctx, loc_kept);
		pp_free(g->ctx, role);
		pp_free(g->ctx, one);
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	}
	for (uint32_t n = 0; n < g->nnodes; n++)
		role[n] = !kept[n]                          ? NODE_DROPPED
		          : all || g->nodes[n].maybe_inline ? NODE_TARGET
		                                            : NODE_KEPT;
	for (uint32_t l = 0; l < p->nlocations; l++) {
		uint32_t first = g->loc_node_first[l];
		uint32_t cnt = g->loc_node_first[l + 1] - first;

		one[l] = cnt == 1 ? g->loc_nodes[first] : PP_NONE;
		loc_kept[l] = NODE_DROPPED;
		for (uint32_t k = first; k < first + cnt; k++)
			if (kept[g->loc_nodes[k]])
				loc_kept[l] = cnt == 1 ? role[g->loc_nodes[k]]
				                       : NODE_KEPT;
	}
	for (int i = 0; i < nparts; i++) {
		size_t nln = g->loc_node_first[p->nlocations];

		ep[i].inner =
		        pp_malloc(g->ctx, (nln ? nln : 1) * sizeof(uint32_t));
		if (!ep[i].inner) {
			err = pp_error(g->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		memset(ep[i].inner, 0xff, nln * sizeof(uint32_t));
		if (all) {
			ep[i].flat = pp_calloc(
			        g->ctx, 2 * (size_t)(g->nnodes ? g->nnodes : 1),
			        sizeof(int64_t));
			if (!ep[i].flat) {
				err = pp_error(g->ctx, PP_ENOMEM,
				               "out of memory");
				goto done;
			}
		}
		ep[i].g = g;
		ep[i].role = role;
		ep[i].one = one;
		ep[i].loc_kept = loc_kept;
		ep[i].first = (uint32_t)((uint64_t)p->nsamples * i / nparts);
		ep[i].last =
		        (uint32_t)((uint64_t)p->nsamples * (i + 1) / nparts);
	}
	if (nparts == 2)
		threaded = pthread_create(&helper, NULL, edge_pass_run,
		                          &ep[1]) == 0;
	edge_pass_run(&ep[0]);
	if (nparts == 2 && threaded)
		pthread_join(helper, NULL);
	else if (nparts == 2)
		edge_pass_run(&ep[1]);
	g->nedges = 0;
	pp_hashmap_clear(&pp_graph__in(g)->edge_index);
	for (int i = 0; i < nparts; i++) {
		if (ep[i].err < 0)
			err = pp_error(g->ctx, PP_ENOMEM, "out of memory");
		for (size_t e = 0; e < ep[i].nedges && err >= 0; e++) {
			const struct local_edge *le = &ep[i].edges[e];

			err = pp_graph__merge_edge(g, le->src, le->dst,
			                           le->weight, le->weight_div,
			                           le->residual, le->is_inline);
		}
	}
	if (all && err >= 0) {
		/* A kept node's cum is the same whatever else is kept. */
		for (uint32_t n = 0; n < g->nnodes; n++) {
			struct pp_node *node = &g->nodes[n];

			node->flat = ep[0].flat[2 * (size_t)n];
			node->flat_div = ep[0].flat[2 * (size_t)n + 1];
			if (nparts == 2) {
				node->flat += ep[1].flat[2 * (size_t)n];
				node->flat_div += ep[1].flat[2 * (size_t)n + 1];
			}
			if (!kept[n])
				node->cum = node->cum_div = 0;
			node->in_inline = node->in_call = false;
		}
	}
done:
	for (int i = 0; i < 2; i++) {
		pp_free(g->ctx, ep[i].flat);
		pp_free(g->ctx, ep[i].edges);
		pp_hashmap_release(&ep[i].index);
		pp_free(g->ctx, ep[i].inner);
	}
	pp_free(g->ctx, loc_kept);
	pp_free(g->ctx, role);
	pp_free(g->ctx, one);
	return err;
}

int pp_graph__inline_edges(struct pp_graph *g, const bool *kept)
{
	return edge_pass(g, kept, false);
}

int pp_graph_accumulate_kept(struct pp_graph *g, const bool *kept)
{
	return edge_pass(g, kept, true);
}
