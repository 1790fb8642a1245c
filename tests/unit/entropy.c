/* The entropy score of visual reports (pp_graph_entropy_scores): equal, to
 * the last bit, to pprof's per-node formula evaluated the slow way (every
 * edge scanned for every node) on random graphs with positive, zero and
 * negative weights; and linear: on one chain of 200,000 nodes the work it
 * reports is one visit per edge per pass and one per node, not a scan of
 * every edge per node. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/graph.h"
#include "util/goint.h"

/* pprof's entropyScore as written there: for each node, a scan of all
 * edges for its in-edges, then for its out-edges. */
static double slow_side(const struct pp_graph *g, uint32_t n, bool in,
                        int64_t self)
{
	double score = 0;
	int64_t total = self;

	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct pp_edge *ed = &g->edges[e];

		if ((in ? ed->dst : ed->src) == n && ed->weight > 0)
			total += pp_go_abs64(ed->weight);
	}
	if (total == 0)
		return 0;
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct pp_edge *ed = &g->edges[e];

		if ((in ? ed->dst : ed->src) == n) {
			double frac =
			        (double)pp_go_abs64(ed->weight) / (double)total;

			score += -frac * log2(frac);
		}
	}
	if (self > 0) {
		double frac = (double)pp_go_abs64(self) / (double)total;

		score += -frac * log2(frac);
	}
	return score;
}

static int64_t slow_score(const struct pp_graph *g, uint32_t n)
{
	const struct pp_node *node = &g->nodes[n];
	uint32_t in = 0, out = 0;
	double s = 0;

	for (uint32_t e = 0; e < g->nedges; e++) {
		in += g->edges[e].dst == n;
		out += g->edges[e].src == n;
	}
	s += in == 0 ? 1 : slow_side(g, n, true, 0);
	s += out == 0 ? 1 : slow_side(g, n, false, node->flat);
	return (int64_t)((uint64_t)pp_go_int64(s * (double)node->cum) +
	                 (uint64_t)node->flat);
}

struct fixture {
	struct pp_ctx ctx;
	struct pp_graph g;
};

static void fx_init(struct fixture *fx, uint32_t nnodes, uint32_t nedges)
{
	struct pp_ctx ctx = PP_CTX_INIT;

	memset(fx, 0, sizeof(*fx));
	fx->ctx = ctx;
	fx->g.ctx = &fx->ctx;
	fx->g.nnodes = nnodes;
	fx->g.nedges = nedges;
	fx->g.nodes = calloc(nnodes ? nnodes : 1, sizeof(*fx->g.nodes));
	fx->g.edges = calloc(nedges ? nedges : 1, sizeof(*fx->g.edges));
	assert_non_null(fx->g.nodes);
	assert_non_null(fx->g.edges);
}

static void fx_free(struct fixture *fx)
{
	free(fx->g.nodes);
	free(fx->g.edges);
}

static uint64_t rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* A weight: mostly positive, sometimes zero or negative (a diff). */
static int64_t weight(uint64_t *s)
{
	uint64_t r = rng(s) % 100;

	if (r < 5)
		return 0;
	if (r < 15)
		return -(int64_t)(rng(s) % 1000);
	return (int64_t)(rng(s) % 100000);
}

static void test_entropy__same_as_pprof(void **state)
{
	uint64_t seed = 0x9E3779B97F4A7C15ull;

	(void)state;
	for (int round = 0; round < 200; round++) {
		uint32_t nn = 1 + (uint32_t)(rng(&seed) % 40);
		uint32_t ne = (uint32_t)(rng(&seed) % (3 * nn + 1));
		struct fixture fx;
		uint32_t *order;
		int64_t *score;

		fx_init(&fx, nn, ne);
		for (uint32_t n = 0; n < nn; n++) {
			fx.g.nodes[n].flat = weight(&seed);
			fx.g.nodes[n].cum = weight(&seed) * 3;
		}
		for (uint32_t e = 0; e < ne; e++) {
			fx.g.edges[e].src = (uint32_t)(rng(&seed) % nn);
			fx.g.edges[e].dst = (uint32_t)(rng(&seed) % nn);
			fx.g.edges[e].weight = weight(&seed);
		}
		/* Scores are asked for a subset of the nodes, in any order. */
		order = calloc(nn, sizeof(*order));
		score = calloc(nn, sizeof(*score));
		assert_non_null(order);
		assert_non_null(score);
		for (uint32_t n = 0; n < nn; n++)
			order[n] = nn - 1 - n;
		assert_int_equal(pp_graph_entropy_scores(&fx.g, order,
		                                         nn - nn / 4, score,
		                                         NULL),
		                 0);
		for (uint32_t i = 0; i < nn - nn / 4; i++)
			assert_int_equal(score[order[i]],
			                 slow_score(&fx.g, order[i]));
		free(order);
		free(score);
		fx_free(&fx);
	}
}

/* One stack of distinct frames: a chain, the shape that made the old
 * per-node scan of every edge quadratic. */
static void test_entropy__linear_on_a_chain(void **state)
{
	const uint32_t nn = 200000;
	struct fixture fx;
	uint32_t *order = calloc(nn, sizeof(*order));
	int64_t *score = calloc(nn, sizeof(*score));
	uint64_t work = 0;

	(void)state;
	assert_non_null(order);
	assert_non_null(score);
	fx_init(&fx, nn, nn - 1);
	for (uint32_t n = 0; n < nn; n++) {
		fx.g.nodes[n].cum = 10;
		order[n] = n;
	}
	fx.g.nodes[nn - 1].flat = 10;
	for (uint32_t e = 0; e + 1 < nn; e++) {
		fx.g.edges[e].src = e;
		fx.g.edges[e].dst = e + 1;
		fx.g.edges[e].weight = 10;
	}
	assert_int_equal(
	        pp_graph_entropy_scores(&fx.g, order, nn, score, &work), 0);
	/* Two passes over the edges and one over the nodes. */
	assert_true(work <= 2 * (uint64_t)fx.g.nedges + nn);
	/* The root has no caller (1 bit); the leaf no callee (1 bit); the
	 * frames between have one edge each way (0 bits). */
	assert_int_equal(score[0], 10);
	assert_int_equal(score[nn / 2], 0);
	assert_int_equal(score[nn - 1], 20);
	for (uint32_t n = 0; n < nn; n += 997)
		if (n < 50 || n > nn - 50)
			assert_int_equal(score[n], slow_score(&fx.g, n));
	free(order);
	free(score);
	fx_free(&fx);
}

/* The Nth allocation fails, for every N until none does: an error, no
 * leak, no score written. */
static void test_entropy__out_of_memory(void **state)
{
	uint32_t order[2] = {0, 1};
	int err;

	(void)state;
	for (int n = 0;; n++) {
		struct failing_alloc f;
		struct fixture fx;
		int64_t score[2] = {-1, -1};

		fx_init(&fx, 2, 1);
		fx.g.nodes[0].cum = fx.g.nodes[1].cum = 10;
		fx.g.nodes[1].flat = 10;
		fx.g.edges[0].dst = 1;
		fx.g.edges[0].weight = 10;
		failing_alloc_install(&fx.ctx, &f, n);
		err = pp_graph_entropy_scores(&fx.g, order, 2, score, NULL);
		fx_free(&fx);
		if (err == 0) {
			assert_int_equal(score[0], 10);
			assert_int_equal(score[1], 20);
			break;
		}
		assert_int_equal(err, PP_ENOMEM);
		assert_int_equal(score[0], -1);
		assert_true(n < 10);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_entropy__same_as_pprof),
	        cmocka_unit_test(test_entropy__linear_on_a_chain),
	        cmocka_unit_test(test_entropy__out_of_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
