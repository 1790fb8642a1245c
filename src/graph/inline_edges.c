/*
 * Edges between kept nodes, over every sample, on two threads for big
 * profiles, each with an edge table of its own, merged at the end in the
 * order one pass would have made them. Two users:
 *  - the "(inline)" marks of a text report: for each kept node that is
 *    sometimes an inlined call, its in-edges from the nearest kept caller;
 *  - the trimmed graphs of visual reports: every edge between kept nodes,
 *    and the kept nodes' flat (pp_graph_accumulate_kept).
 * Both are a pass over the samples, so they do nothing else: locations
 * without a kept node are skipped in one byte load, an edge found once per
 * call site and caller is remembered there, and the marks' pass skips the
 * samples that hold no target (most, when a view shows a few dozen nodes)
 * and walks the others only around their targets: the shell's second
 * `top` after `nodecount=20` no longer pays a full walk of every frame.
 */
#include <string.h>

#include "graph/internal.h"
#include "util/helper.h"

struct edge_memo {
	uint32_t parent, edge;
};

struct local_edge {
	uint32_t src, dst;
	int64_t weight, weight_div;
	uint32_t stamp; /* the last sample that counted this edge */
	bool residual;
	bool is_inline;
};

/* What a node is to this pass, one byte per node to keep the per-frame
 * working set small. LOC_LINES is only for locations (loc_kept). */
enum { NODE_DROPPED = 0, NODE_KEPT = 1, NODE_TARGET = 2, LOC_LINES = 3 };

struct edge_pass {
	const struct pp_graph *g;
	const unsigned char *role; /* per node: NODE_* */
	/* Per location: NODE_DROPPED when none of its nodes is kept; for a
	 * one-line location, the role of its node, which is one[l]; else
	 * LOC_LINES: its lines are walked one by one. */
	const unsigned char *loc_kept;
	const unsigned char *has_target; /* per location: a node is a target */
	const uint32_t *one;
	uint32_t first, last; /* samples [first, last) */
	struct local_edge *edges;
	size_t nedges, cap_edges;
	/* Per loc_nodes entry: the last edge into its node and that edge's
	 * caller. A call site's nearest kept caller is mostly the same one,
	 * so most edges are found without hashing. */
	struct edge_memo *memo;
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

/* The edge parent->(node of loc_nodes entry k): find_edge, remembered per
 * entry. */
static inline long memo_edge(struct edge_pass *ep, uint32_t k, uint32_t parent,
                             uint32_t n)
{
	struct edge_memo *m = &ep->memo[k];
	long e;

	if (m->parent == parent)
		return (long)m->edge;
	e = find_edge(ep, parent, n);
	if (e >= 0) {
		m->parent = parent;
		m->edge = (uint32_t)e;
	}
	return e;
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

/* The pass's state between frames of one sample: the nearest kept node
 * above (PP_NONE: none yet) and whether dropped frames came since. */
struct walk_state {
	uint32_t parent;
	bool residual;
};

/*
 * Frames from down to to of locs (from >= to: root to leaf) of sample
 * stamp - 1, whose weights are w and dw; 0, or PP_ENOMEM. The pass's
 * tables are read through locals: the compiler cannot tell that the
 * stores to the edges and memos leave ep alone, and would load ep's
 * fields again for every frame (a third of the walk's instructions).
 */
static inline int walk(struct edge_pass *ep, struct pp_locs locs, uint32_t from,
                       uint32_t to, int64_t w, int64_t dw, uint32_t stamp,
                       struct walk_state *st)
{
	const uint32_t *lnf = ep->g->loc_node_first, *ln = ep->g->loc_nodes;
	const unsigned char *loc_kept = ep->loc_kept, *roles = ep->role;
	const uint32_t *one = ep->one;
	uint32_t parent = st->parent;
	bool residual = st->residual;

	for (uint32_t i = from + 1; i != to;) {
		uint32_t l = pp_locs_at(locs, --i), cnt, n;
		unsigned char kept = loc_kept[l];

		/* Most frames: one line, kept, no target. */
		if (kept == NODE_KEPT) {
			parent = one[l];
			residual = false;
			continue;
		}
		if (kept == NODE_DROPPED) {
			residual = true;
			continue;
		}
		if (kept == NODE_TARGET) {
			n = one[l];
			if (parent != PP_NONE && n != parent) {
				long e = memo_edge(ep, lnf[l], parent, n);

				if (e < 0)
					return PP_ENOMEM;
				bump(&ep->edges[e], w, dw, residual, false,
				     stamp);
			}
			parent = n;
			residual = false;
			continue;
		}
		cnt = lnf[l + 1] - lnf[l];
		for (uint32_t ni = cnt; ni-- > 0;) {
			unsigned char role;

			n = ln[lnf[l] + ni];
			role = roles[n];
			if (role == NODE_DROPPED) {
				residual = true;
				continue;
			}
			if (role == NODE_TARGET && parent != PP_NONE &&
			    n != parent) {
				long e = memo_edge(ep, lnf[l] + ni, parent, n);

				if (e < 0)
					return PP_ENOMEM;
				bump(&ep->edges[e], w, dw, residual,
				     ni != cnt - 1, stamp);
			}
			parent = n;
			residual = false;
		}
	}
	st->parent = parent;
	st->residual = residual;
	return 0;
}

/* The index of the frame nearest the leaf whose location holds a target,
 * or n when none does: a scan four frames at a time, since most samples of
 * a view with few targets hold none and are skipped whole. */
static uint32_t first_target(const unsigned char *has_target,
                             struct pp_locs locs, uint32_t n)
{
	uint32_t i, last;

	if (n < 4) {
		for (i = 0; i < n; i++)
			if (has_target[pp_locs_at(locs, i)])
				return i;
		return n;
	}
	/* The last block of four ends at the sample's root, overlapping the
	 * one before: no frame-by-frame tail. */
	last = n - 4;
	for (i = 0;; i += 4) {
		if (i > last)
			i = last;
		if (has_target[pp_locs_at(locs, i)] |
		    has_target[pp_locs_at(locs, i + 1)] |
		    has_target[pp_locs_at(locs, i + 2)] |
		    has_target[pp_locs_at(locs, i + 3)])
			break;
		if (i == last)
			return n;
	}
	while (!has_target[pp_locs_at(locs, i)])
		i++;
	return i;
}

/* Only edges into targets: a sample without one is passed over, and of the
 * others only the frames from the nearest kept frame above the outermost
 * target down to the innermost target are walked. The kept frame's state
 * after it does not depend on what came before (its location has a kept
 * node and no target), and frames under the innermost target make no edge
 * into a target. */
static void *target_pass_run(struct edge_pass *ep)
{
	const struct pp_profile *p = ep->g->prof;
	uint32_t nt = p->nsample_types, si = ep->g->opts.sample_index;
	bool mean = ep->g->opts.mean;

	for (uint32_t s = ep->first; s < ep->last; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = p->values + (size_t)s * nt;
		const struct pp_locs locs = pp_sample_locs(p, smp);
		int64_t w, dw;
		struct walk_state st = {PP_NONE, false};
		uint32_t lo, hi, from;

		lo = first_target(ep->has_target, locs, smp->loc_count);
		if (lo == smp->loc_count)
			continue;
		w = vals[si];
		dw = mean ? vals[0] : 0;
		if (w == 0 && dw == 0)
			continue;
		/* hi: the outermost target (lo at the latest); from: the kept
		 * frame nearest above it, if any. */
		hi = smp->loc_count - 1;
		from = PP_NONE;
		while (!ep->has_target[pp_locs_at(locs, hi)]) {
			if (ep->loc_kept[pp_locs_at(locs, hi)] != NODE_DROPPED)
				from = hi;
			hi--;
		}
		/* The frames between from and hi are all dropped: walk from
		 * alone, then note them as one residual. */
		if (from != PP_NONE) {
			if (walk(ep, locs, from, from, w, dw, s + 1, &st) < 0)
				goto nomem;
			st.residual = st.residual || from > hi + 1;
		}
		if (walk(ep, locs, hi, lo, w, dw, s + 1, &st) < 0)
			goto nomem;
	}
	return NULL;
nomem:
	ep->err = PP_ENOMEM;
	return NULL;
}

static void *edge_pass_run(void *arg)
{
	struct edge_pass *ep = arg;
	const struct pp_profile *p = ep->g->prof;
	uint32_t nt = p->nsample_types, si = ep->g->opts.sample_index;
	bool mean = ep->g->opts.mean;

	if (!ep->flat)
		return target_pass_run(ep);
	for (uint32_t s = ep->first; s < ep->last; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = p->values + (size_t)s * nt;
		const struct pp_locs locs = pp_sample_locs(p, smp);
		int64_t w = vals[si], dw = mean ? vals[0] : 0;
		struct walk_state st = {PP_NONE, false};

		if (w == 0 && dw == 0)
			continue;
		if (smp->loc_count > 0 && walk(ep, locs, smp->loc_count - 1, 0,
		                               w, dw, s + 1, &st) < 0) {
			ep->err = PP_ENOMEM;
			return NULL;
		}
		/* As accumulation: flat on the last kept frame, unless dropped
		 * frames follow it. */
		if (st.parent != PP_NONE && !st.residual) {
			ep->flat[2 * (size_t)st.parent] += w;
			ep->flat[2 * (size_t)st.parent + 1] += dw;
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
	unsigned char *loc_kept, *role, *has_target;
	uint32_t *one;
	int nparts = p->nsamples >= PARALLEL_MIN_SAMPLES ? 2 : 1;
	struct pp_helper helper;
	int err = 0;

	memset(ep, 0, sizeof(ep));
	pp_hashmap_init(&ep[0].index, g->ctx);
	pp_hashmap_init(&ep[1].index, g->ctx);
	loc_kept = pp_malloc(g->ctx, p->nlocations ? p->nlocations : 1);
	role = pp_malloc(g->ctx, g->nnodes ? g->nnodes : 1);
	one = pp_malloc(g->ctx, ((size_t)p->nlocations + 1) * sizeof(*one));
	has_target = pp_malloc(g->ctx, p->nlocations ? p->nlocations : 1);
	if (!loc_kept || !role || !one || !has_target) {
		pp_free(g->ctx, has_target);
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
		has_target[l] = 0;
		for (uint32_t k = first; k < first + cnt; k++) {
			if (kept[g->loc_nodes[k]])
				loc_kept[l] = cnt == 1 ? role[g->loc_nodes[k]]
				                       : LOC_LINES;
			if (role[g->loc_nodes[k]] == NODE_TARGET)
				has_target[l] = 1;
		}
	}
	for (int i = 0; i < nparts; i++) {
		size_t nln = g->loc_node_first[p->nlocations];

		ep[i].memo = pp_malloc(g->ctx,
		                       (nln ? nln : 1) * sizeof(*ep[i].memo));
		if (!ep[i].memo) {
			err = pp_error(g->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		memset(ep[i].memo, 0xff, nln * sizeof(*ep[i].memo));
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
		ep[i].has_target = has_target;
		ep[i].first = (uint32_t)((uint64_t)p->nsamples * i / nparts);
		ep[i].last =
		        (uint32_t)((uint64_t)p->nsamples * (i + 1) / nparts);
	}
	if (nparts == 2)
		pp_helper_start(&helper, edge_pass_run, &ep[1]);
	edge_pass_run(&ep[0]);
	if (nparts == 2)
		pp_helper_finish(&helper);
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
		pp_free(g->ctx, ep[i].memo);
	}
	pp_free(g->ctx, loc_kept);
	pp_free(g->ctx, has_target);
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
