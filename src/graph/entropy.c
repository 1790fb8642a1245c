/*
 * pprof's entropy score of a node (graph.go's entropyScore): how evenly
 * its weight spreads over its in-edges, plus how evenly it spreads over
 * its out-edges and its own flat, in bits, scaled by cum and offset by
 * flat. Visual reports sort nodes by it before the nodecount cut.
 *
 * Every node's score comes from its own edges only, so one pass over the
 * edges sums each node's in- and out-totals and a second adds each edge's
 * term to both its ends: linear in nodes + edges. (Scanning every edge for
 * every node made `dot` on one stack of 100k distinct frames take 47 s.)
 * Each node still sums its terms in edge order, as pprof does walking its
 * edge list, so the floating-point score is the same to the last bit.
 */
#include <math.h>
#include <string.h>

#include "pprof/graph.h"
#include "util/goint.h"

struct side {
	int64_t total; /* positive edge weights (and flat, going out) */
	double score;  /* the sum of -f log2 f over the edges so far */
	uint32_t degree;
};

static void add_term(double *score, int64_t weight, int64_t total)
{
	double frac = (double)pp_go_abs64(weight) / (double)total;

	*score += -frac * log2(frac);
}

/* A side's entropy: 1 without edges, 0 when no weight is positive. */
static double side_entropy(const struct side *s)
{
	if (s->degree == 0)
		return 1;
	return s->total == 0 ? 0 : s->score;
}

/* Go's int64(score*float64(cum)) + flat on amd64, without C's undefined
 * behaviour: a NaN or out-of-range float (a diff's negative weights give
 * log2 of a negative fraction) converts to the minimum int64, and the sum
 * wraps. */
static int64_t go_score(double s, int64_t cum, int64_t flat)
{
	return (int64_t)((uint64_t)pp_go_int64(s * (double)cum) +
	                 (uint64_t)flat);
}

int pp_graph_entropy_scores(const struct pp_graph *g, const uint32_t *nodes,
                            uint32_t count, int64_t *score, uint64_t *work)
{
	size_t nn = g->nnodes ? g->nnodes : 1;
	struct side *in = pp_calloc(g->ctx, nn, sizeof(*in));
	struct side *out = pp_calloc(g->ctx, nn, sizeof(*out));
	uint64_t steps = 0;

	if (!in || !out) {
		pp_free(g->ctx, in);
		pp_free(g->ctx, out);
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	}
	/* Going out, a node's own flat shares the weight with its callees. */
	for (uint32_t n = 0; n < g->nnodes; n++)
		out[n].total = g->nodes[n].flat;
	for (uint32_t e = 0; e < g->nedges; e++, steps++) {
		const struct pp_edge *ed = &g->edges[e];

		in[ed->dst].degree++;
		out[ed->src].degree++;
		if (ed->weight > 0) {
			in[ed->dst].total += ed->weight;
			out[ed->src].total += ed->weight;
		}
	}
	for (uint32_t e = 0; e < g->nedges; e++, steps++) {
		const struct pp_edge *ed = &g->edges[e];

		if (in[ed->dst].total != 0)
			add_term(&in[ed->dst].score, ed->weight,
			         in[ed->dst].total);
		if (out[ed->src].total != 0)
			add_term(&out[ed->src].score, ed->weight,
			         out[ed->src].total);
	}
	for (uint32_t i = 0; i < count; i++, steps++) {
		uint32_t id = nodes[i];
		const struct pp_node *node = &g->nodes[id];
		struct side o = out[id];
		double s = 0;

		/* The flat's own term comes after the edges', as in pprof. */
		if (o.degree != 0 && o.total != 0 && node->flat > 0)
			add_term(&o.score, node->flat, o.total);
		s += side_entropy(&in[id]);
		s += side_entropy(&o);
		score[id] = go_score(s, node->cum, node->flat);
	}
	pp_free(g->ctx, in);
	pp_free(g->ctx, out);
	if (work)
		*work = steps;
	return 0;
}
