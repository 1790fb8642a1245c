/* The view (pprof/graph.h): the trimmed graph a report prints, made from
 * an aggregate's values, and what it remembers it was made for (the view
 * stage of the session's cache). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "pprof/graph.h"
#include "pprof/session.h"
#include "util/regex.h"

struct fixture {
	struct pp_ctx ctx;
	struct pp_profile *prof;
	struct pp_graph *g;
	int64_t *values;
	struct pp_view v;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pp_ctx init = PP_CTX_INIT;
	struct pp_graph_opts go = {0};

	f->ctx = init;
	if (pp_session_decode_file(&f->ctx, "testdata/go/cpu.pb.gz", &f->prof) <
	            0 ||
	    pp_profile_sample_index(f->prof, NULL, &go.sample_index) < 0 ||
	    pp_graph_new(&f->ctx, f->prof, &go, &f->g) < 0 ||
	    pp_graph_save_values(f->g, &f->values) < 0 ||
	    pp_view_set_graph(&f->v, &f->ctx, f->g) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_view_release(&f->v);
	pp_free(&f->ctx, f->values);
	pp_graph_free(f->g);
	pp_profile_free(f->prof);
	free(f);
	return 0;
}

/* Back to the aggregate, as a report does before trimming again. */
static void restore(struct fixture *f)
{
	pp_graph_restore_values(f->g, f->values);
	pp_view_reset(&f->v);
}

/* The first nodecount nodes, by flat; the view knows what it is for. */
static void test_view__text_trim(void **state)
{
	struct fixture *f = *state;
	struct pp_trim_opts o = {.nodecount = 5};
	const struct pp_graph *g = f->g;

	restore(f);
	assert_false(pp_view_current(&f->v, false, &o));
	assert_int_equal(pp_view_trim(&f->v, &o), 0);
	assert_int_equal(f->v.norder, 5);
	assert_true(f->v.orig_count > 5);
	for (uint32_t i = 1; i < f->v.norder; i++)
		assert_true(llabs(g->nodes[f->v.order[i - 1]].flat) >=
		            llabs(g->nodes[f->v.order[i]].flat));
	assert_true(pp_view_current(&f->v, false, &o));
	/* Another nodecount, order, mode or a changed graph: not current. */
	o.nodecount = 6;
	assert_false(pp_view_current(&f->v, false, &o));
	o.nodecount = 5;
	o.cum_sort = true;
	assert_false(pp_view_current(&f->v, false, &o));
	o.cum_sort = false;
	assert_false(pp_view_current(&f->v, true, &o));
	restore(f);
	assert_false(pp_view_current(&f->v, false, &o));

	/* No nodecount: every node with a value. */
	o.nodecount = 0;
	assert_int_equal(pp_view_trim(&f->v, &o), 0);
	assert_int_equal(f->v.norder, f->v.orig_count);
	assert_int_equal(f->v.dropped_nodes, 0);
}

/* A node fraction drops the light nodes and counts them. */
static void test_view__node_cutoff(void **state)
{
	struct fixture *f = *state;
	struct pp_trim_opts all = {0}, cut = {.nodefraction = 0.05};
	uint32_t every;

	restore(f);
	assert_int_equal(pp_view_trim(&f->v, &all), 0);
	every = f->v.norder;
	restore(f);
	assert_int_equal(pp_view_trim(&f->v, &cut), 0);
	assert_true(f->v.dropped_nodes > 0);
	assert_int_equal(f->v.norder + f->v.dropped_nodes, every);
}

/* The picture's view: entropy order, tags and dead edges, kept apart
 * from the text view by pp_view_current. */
static void test_view__visual(void **state)
{
	struct fixture *f = *state;
	struct pp_trim_opts o = {.nodecount = 10, .tag_unit = "minimum"};

	restore(f);
	assert_int_equal(pp_view_visual(&f->v, &o), 0);
	assert_non_null(f->v.tags);
	assert_non_null(f->v.edge_dead);
	assert_true(f->v.norder > 0 && f->v.norder <= 10);
	assert_true(f->g->nedges > 0);
	assert_true(pp_view_current(&f->v, true, &o));
	assert_false(pp_view_current(&f->v, false, &o));
	o.tag_unit = "ms";
	assert_false(pp_view_current(&f->v, true, &o));
}

/* peek's edges: the pattern is part of what the view is for. */
static void test_view__peek_pattern(void **state)
{
	struct fixture *f = *state;
	struct pp_regex *a = NULL, *b = NULL, *a2 = NULL;
	struct pp_trim_opts o = {.all_edges = true};

	assert_int_equal(pp_regex_compile(&f->ctx, "test", "main", &a), 0);
	assert_int_equal(pp_regex_compile(&f->ctx, "test", "runtime", &b), 0);
	assert_int_equal(pp_regex_compile(&f->ctx, "test", "main", &a2), 0);
	restore(f);
	o.edge_regex = a;
	assert_int_equal(pp_view_trim(&f->v, &o), 0);
	assert_non_null(f->v.edge_marks);
	assert_true(pp_view_current(&f->v, false, &o));
	o.edge_regex = a2; /* the same pattern, compiled again */
	assert_true(pp_view_current(&f->v, false, &o));
	o.edge_regex = b;
	assert_false(pp_view_current(&f->v, false, &o));
	o.edge_regex = NULL;
	assert_false(pp_view_current(&f->v, false, &o));
	pp_regex_free(a);
	pp_regex_free(b);
	pp_regex_free(a2);
}

/* pp_graph_accumulate_kept against the one-thread pass it stands for,
 * with every node kept and with some dropped (residual edges), on two
 * profiles: the same edges in the same order, the same flat. */
static void check_kept_pass(const char *path, uint32_t every)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *prof = NULL;
	struct pp_graph *a = NULL, *b = NULL;
	struct pp_graph_opts go = {0};
	bool *kept;
	uint32_t nkept = 0;

	assert_int_equal(pp_session_decode_file(&ctx, path, &prof), 0);
	assert_int_equal(pp_profile_sample_index(prof, NULL, &go.sample_index),
	                 0);
	assert_int_equal(pp_graph_new(&ctx, prof, &go, &a), 0);
	assert_int_equal(pp_graph_new(&ctx, prof, &go, &b), 0);
	kept = calloc(a->nnodes, sizeof(*kept));
	for (uint32_t n = 0; n < a->nnodes; n += every) {
		kept[n] = true;
		nkept++;
	}
	assert_int_equal(pp_graph_accumulate(a, kept, PP_EDGES_ALL), 0);
	assert_int_equal(pp_graph_accumulate_kept(b, kept), 0);
	assert_true(b->nedges > 0);
	assert_int_equal(a->nedges, b->nedges);
	for (uint32_t e = 0; e < a->nedges; e++) {
		assert_int_equal(a->edges[e].src, b->edges[e].src);
		assert_int_equal(a->edges[e].dst, b->edges[e].dst);
		assert_int_equal(a->edges[e].weight, b->edges[e].weight);
		assert_int_equal(a->edges[e].weight_div,
		                 b->edges[e].weight_div);
		assert_int_equal(a->edges[e].residual, b->edges[e].residual);
		assert_int_equal(a->edges[e].is_inline, b->edges[e].is_inline);
	}
	for (uint32_t n = 0; n < a->nnodes; n++)
		if (kept[n])
			assert_int_equal(a->nodes[n].flat, b->nodes[n].flat);
	free(kept);
	pp_graph_free(a);
	pp_graph_free(b);
	pp_profile_free(prof);
}

static void test_view__kept_pass(void **state)
{
	(void)state;
	check_kept_pass("testdata/go/cpu.pb.gz", 1);    /* all kept */
	check_kept_pass("testdata/go/cpu.pb.gz", 3);    /* a third kept */
	check_kept_pass("testdata/go/allocs.pb.gz", 1); /* all kept */
	check_kept_pass("testdata/go/allocs.pb.gz", 2); /* half kept */
}

/* The "(inline)" marks' pass (pp_graph_add_inline_edges: samples without
 * a kept node that may be inlined passed over, the others walked only
 * around their targets) against the one-thread pass over every frame it
 * stands for: the same edges in the same order. Keeping every n-th node
 * drops frames above, between and under the targets. */
static void check_target_pass(const char *path, uint32_t every)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *prof = NULL;
	struct pp_graph *a = NULL, *b = NULL;
	struct pp_graph_opts go = {0};
	bool *kept, *scratch;
	uint32_t *order, norder = 0, ntargets = 0;

	assert_int_equal(pp_session_decode_file(&ctx, path, &prof), 0);
	assert_int_equal(pp_profile_sample_index(prof, NULL, &go.sample_index),
	                 0);
	assert_int_equal(pp_graph_new(&ctx, prof, &go, &a), 0);
	assert_int_equal(pp_graph_new(&ctx, prof, &go, &b), 0);
	kept = calloc(a->nnodes, sizeof(*kept));
	scratch = calloc(a->nnodes, sizeof(*scratch));
	order = calloc(a->nnodes, sizeof(*order));
	for (uint32_t n = 0; n < a->nnodes; n += every) {
		kept[n] = true;
		order[norder++] = n;
		ntargets += a->nodes[n].maybe_inline;
	}
	assert_true(ntargets > 0);
	assert_int_equal(pp_graph_accumulate(a, kept, PP_EDGES_INLINE_TARGETS),
	                 0);
	assert_int_equal(pp_graph_add_inline_edges(b, order, norder, scratch),
	                 0);
	assert_true(b->nedges > 0);
	assert_int_equal(a->nedges, b->nedges);
	for (uint32_t e = 0; e < a->nedges; e++) {
		assert_int_equal(a->edges[e].src, b->edges[e].src);
		assert_int_equal(a->edges[e].dst, b->edges[e].dst);
		assert_int_equal(a->edges[e].weight, b->edges[e].weight);
		assert_int_equal(a->edges[e].weight_div,
		                 b->edges[e].weight_div);
		assert_int_equal(a->edges[e].residual, b->edges[e].residual);
		assert_int_equal(a->edges[e].is_inline, b->edges[e].is_inline);
	}
	free(order);
	free(scratch);
	free(kept);
	pp_graph_free(a);
	pp_graph_free(b);
	pp_profile_free(prof);
}

static void test_view__target_pass(void **state)
{
	(void)state;
	for (uint32_t every = 1; every <= 7; every++) {
		check_target_pass("testdata/go/cpu.pb.gz", every);
		check_target_pass("testdata/go/allocs.pb.gz", every);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_view__text_trim),
	        cmocka_unit_test(test_view__node_cutoff),
	        cmocka_unit_test(test_view__visual),
	        cmocka_unit_test(test_view__peek_pattern),
	        cmocka_unit_test(test_view__kept_pass),
	        cmocka_unit_test(test_view__target_pass),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
