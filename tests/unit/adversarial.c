/*
 * Adversarial shapes: huge stacks, deep recursion, a function with a
 * million lines. Each must finish in time linear in its size (meson's
 * timeout catches anything quadratic) and give exact values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/report.h"
#include "report/internal.h"

static struct pp_profile *new_profile(struct pp_ctx *ctx)
{
	struct pp_profile *p = count_profile(ctx);

	assert_non_null(p);
	return p;
}

static uint32_t add_function_location(struct pp_profile *p, const char *name,
                                      int64_t line)
{
	struct pp_function f = {0};
	struct pp_location l = {0};
	struct pp_line ln = {0};
	uint32_t fi, li;

	f.id = p->nfunctions + 1;
	f.name = f.system_name = pp_profile_intern(p, name);
	f.filename = pp_profile_intern(p, "adversarial.c");
	assert_int_equal(pp_profile_add_function(p, &f, &fi), 0);
	l.id = p->nlocations + 1;
	l.mapping = PP_NONE;
	ln.function = fi;
	ln.line = line;
	assert_int_equal(pp_profile_add_location(p, &l, &ln, 1, &li), 0);
	return li;
}

/* Run top into /dev/null and return the report for inspection. */
static struct pp_report *top(struct pp_ctx *ctx, struct pp_profile *p,
                             enum pp_granularity gran)
{
	struct pp_report_opts o = {0};
	struct pp_report *r = NULL;
	FILE *sink = fopen("/dev/null", "w");

	assert_non_null(sink);
	o.granularity = gran;
	assert_int_equal(pp_report_new(ctx, p, &o, &r), 0);
	assert_int_equal(pp_report_top(r, sink), 0);
	fclose(sink);
	return r;
}

static void test_adversarial__distinct_huge_stacks(void **state)
{
	enum { NSAMPLES = 4, DEPTH = 250000 };
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = new_profile(&ctx);
	uint32_t *stack = malloc(DEPTH * sizeof(*stack));
	struct pp_report *r;
	char name[32];

	(void)state;
	assert_non_null(stack);
	for (int s = 0; s < NSAMPLES; s++) {
		int64_t v = s + 1;

		for (int d = 0; d < DEPTH; d++) {
			snprintf(name, sizeof(name), "f%d_%d", s, d);
			stack[d] = add_function_location(p, name, d + 1);
		}
		assert_int_equal(
		        pp_profile_add_sample(p, stack, DEPTH, &v, NULL, 0), 0);
	}
	r = top(&ctx, p, PP_GRAN_FUNCTIONS);
	/* Total 1+2+3+4; each sample's leaf is the only flat node. */
	assert_int_equal(r->total, 10);
	assert_int_equal(r->agg->graph->nnodes, NSAMPLES * DEPTH);
	pp_report_free(r);
	pp_profile_free(p);
	free(stack);
}

static void test_adversarial__deep_recursion(void **state)
{
	enum { DEPTH = 1000000 };
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = new_profile(&ctx);
	uint32_t *stack = malloc(DEPTH * sizeof(*stack));
	uint32_t rec = add_function_location(p, "recurse", 7);
	uint32_t leaf = add_function_location(p, "leaf", 3);
	struct pp_report *r;
	int64_t v = 5;

	(void)state;
	assert_non_null(stack);
	stack[0] = leaf;
	for (int d = 1; d < DEPTH; d++)
		stack[d] = rec;
	assert_int_equal(pp_profile_add_sample(p, stack, DEPTH, &v, NULL, 0),
	                 0);
	r = top(&ctx, p, PP_GRAN_FUNCTIONS);
	/* The recursive function is counted once per sample. */
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n =
		        &r->agg->graph->nodes[r->agg->view.order[i]];

		assert_int_equal(n->cum, 5);
	}
	assert_int_equal(r->agg->view.norder, 2);
	pp_report_free(r);
	pp_profile_free(p);
	free(stack);
}

static void test_adversarial__million_lines(void **state)
{
	enum { NLINES = 1000000 };
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = new_profile(&ctx);
	struct pp_function f = {0};
	struct pp_report *r;
	uint32_t fi;

	(void)state;
	f.id = 1;
	f.name = pp_profile_intern(p, "big");
	f.filename = pp_profile_intern(p, "big.c");
	assert_int_equal(pp_profile_add_function(p, &f, &fi), 0);
	for (int i = 0; i < NLINES; i++) {
		struct pp_location l = {0};
		struct pp_line ln = {0};
		uint32_t li;
		int64_t v = 1;

		l.id = (uint64_t)i + 1;
		l.mapping = PP_NONE;
		ln.function = fi;
		ln.line = i + 1;
		assert_int_equal(pp_profile_add_location(p, &l, &ln, 1, &li),
		                 0);
		assert_int_equal(pp_profile_add_sample(p, &li, 1, &v, NULL, 0),
		                 0);
	}
	r = top(&ctx, p, PP_GRAN_LINES);
	assert_int_equal(r->total, NLINES);
	/* Each line holds 1/1e6 of the total, below the default node
	 * fraction: all are dropped, and said to be. */
	assert_int_equal(r->agg->view.dropped_nodes, NLINES);
	pp_report_free(r);
	r = top(&ctx, p, PP_GRAN_FUNCTIONS);
	assert_int_equal(r->agg->view.norder, 1);
	assert_int_equal(r->agg->graph->nodes[r->agg->view.order[0]].flat,
	                 NLINES);
	pp_report_free(r);
	pp_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_adversarial__distinct_huge_stacks),
	        cmocka_unit_test(test_adversarial__deep_recursion),
	        cmocka_unit_test(test_adversarial__million_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
