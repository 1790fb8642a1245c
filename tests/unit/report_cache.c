/* The report's cached aggregate: a report repeated with unchanged options
 * passes over the samples no more; a changed option rebuilds once; the
 * output is the same either way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/aggregate.h"
#include "pprof/report.h"
#include "pprof/session.h"
#include "pprof/tree.h"

/* The output of report fn as a string (owned by the caller). */
static char *capture(int (*fn)(struct pp_report *, FILE *), struct pp_report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(fn(r, out), 0);
	fclose(out);
	return buf;
}

static int tree_report(struct pp_report *r, FILE *out)
{
	return pp_report_tree(r, NULL, out);
}

static void test_report_cache__repeat_costs_nothing(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts opts = {0};
	struct pp_report *r = NULL;
	char *a, *b, *c;

	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &r), 0);
	a = capture(pp_report_top, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	b = capture(pp_report_top, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	assert_string_equal(a, b);
	/* Another report trims the same aggregate its own way, and top
	 * again re-trims it: the saved values are restored, the samples are
	 * not aggregated again, and the output is the same. */
	free(capture(tree_report, r));
	assert_int_equal(pp_report_graph_builds(r), 1);
	free(capture(tree_report, r));
	assert_int_equal(pp_report_graph_builds(r), 1);
	c = capture(pp_report_top, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	assert_string_equal(a, c);
	free(a);
	free(b);
	free(c);
	pp_report_free(r);
}

/* A tree (or peek) changes no option of the report it runs on. */
static void test_report_cache__tree_leaves_options(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts opts = {0};
	struct pp_report *r = NULL, *fresh = NULL;
	char *a, *b;
	FILE *null = fopen("/dev/null", "w");

	assert_non_null(null);
	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &r), 0);
	assert_int_equal(pp_report_tree(r, "main\\.mix", null), 0);
	a = capture(pp_report_top, r);
	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &fresh), 0);
	b = capture(pp_report_top, fresh);
	assert_string_equal(a, b);
	fclose(null);
	free(a);
	free(b);
	pp_report_free(r);
	pp_report_free(fresh);
}

static int peek_mix(struct pp_report *r, FILE *out)
{
	return pp_report_tree(r, "main\\.mix", out);
}

static int peek_hasher(struct pp_report *r, FILE *out)
{
	return pp_report_tree(r, "Hasher", out);
}

/* peek records only the edges of the nodes it prints: a repeated peek
 * reuses that graph, another regex or a tree re-trims the aggregate (a
 * tree needs every edge) without building it again, and each prints what
 * a fresh report prints. */
static void test_report_cache__peek_edges(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts opts = {0};
	struct pp_report *r = NULL, *fresh = NULL;
	char *a, *b, *c, *d, *e;

	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &r), 0);
	a = capture(peek_mix, r);
	b = capture(peek_mix, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	assert_string_equal(a, b);
	c = capture(peek_hasher, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	d = capture(tree_report, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &fresh), 0);
	e = capture(tree_report, fresh);
	assert_string_equal(d, e);
	free(e);
	e = capture(peek_hasher, fresh);
	assert_string_equal(c, e);
	free(e);
	free(a);
	free(b);
	free(c);
	free(d);
	pp_report_free(r);
	pp_report_free(fresh);
}

/* dot reuses its own graph too. */
static void test_report_cache__dot(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts opts = {0};
	struct pp_report *r = NULL;
	char *a, *b;

	assert_int_equal(pp_report_new(&f->ctx, f->prof, &opts, &r), 0);
	a = capture(pp_report_dot, r);
	b = capture(pp_report_dot, r);
	assert_int_equal(pp_report_graph_builds(r), 1);
	assert_string_equal(a, b);
	free(a);
	free(b);
	pp_report_free(r);
}

/* The flame graph of a fresh report, drawn from the top of the tree
 * (pp_tree_new_cut: the subtrees too thin to be drawn left out, their
 * "small frames" boxes from the cut tree's sums), is the one drawn from
 * the whole tree, for frames merged from a tenth of a pixel up to the
 * whole width, where even the root's children are all left out. */
static void flame_cut_is_whole(struct pp_ctx *ctx,
                               const struct pp_profile *prof, double minwidth,
                               bool want_cut, bool want_root_alone,
                               const char *want_text)
{
	struct pp_report_opts opts = {0};
	struct pp_aggregate *cut_agg = NULL, *whole_agg = NULL;
	struct pp_report *cut = NULL, *whole = NULL;
	char *a, *b;

	opts.flame.minwidth = minwidth;
	assert_int_equal(pp_aggregate_new(ctx, prof, &cut_agg), 0);
	assert_int_equal(pp_aggregate_new(ctx, prof, &whole_agg), 0);
	assert_int_equal(pp_report_new_on(ctx, cut_agg, &opts, &cut), 0);
	assert_int_equal(pp_report_new_on(ctx, whole_agg, &opts, &whole), 0);
	a = capture(pp_report_flame, cut);
	assert_int_equal(cut_agg->cut != NULL, want_cut);
	assert_int_equal(cut_agg->tree == NULL, want_cut);
	if (want_cut)
		assert_int_equal(cut_agg->cut->nnodes == 1, want_root_alone);
	assert_int_equal(pp_report_build_tree(whole), 0);
	b = capture(pp_report_flame, whole);
	assert_null(whole_agg->cut);
	assert_string_equal(a, b);
	if (want_text)
		assert_non_null(strstr(a, want_text));
	free(a);
	free(b);
	pp_report_free(cut);
	pp_report_free(whole);
	pp_aggregate_free(cut_agg);
	pp_aggregate_free(whole_agg);
}

/* Three root frames of a third each, one sample of 1000 apiece. */
static struct pp_profile *three_thirds(struct pp_ctx *ctx)
{
	struct pp_profile *p = count_profile(ctx);
	const char *names[] = {"a", "b", "c"};

	assert_non_null(p);
	for (uint32_t i = 0; i < 3; i++) {
		struct pp_function fn = {0};
		struct pp_location loc = {0};
		struct pp_line line = {0};
		uint32_t l;
		int64_t v = 1000;

		fn.id = i + 1;
		fn.name = pp_profile_intern(p, names[i]);
		assert_int_equal(
		        pp_profile_add_function(p, &fn, &line.function), 0);
		loc.id = i + 1;
		loc.mapping = PP_NONE;
		assert_int_equal(pp_profile_add_location(p, &loc, &line, 1, &l),
		                 0);
		assert_int_equal(pp_profile_add_sample(p, &l, 1, &v, NULL, 0),
		                 0);
	}
	return p;
}

static void test_report_cache__flame_from_cut_tree(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *thirds = three_thirds(&ctx);

	/* testdata/go/cpu.pb.gz, 233 samples of 10 ms: up to 2 pixels
	 * (3.9 ms) no subtree is thin enough to leave out. */
	flame_cut_is_whole(&f->ctx, f->prof, 0, false, false, NULL);
	flame_cut_is_whole(&f->ctx, f->prof, 2, false, false, NULL);
	flame_cut_is_whole(&f->ctx, f->prof, 20, true, false, NULL);
	flame_cut_is_whole(&f->ctx, f->prof, 300, true, false, NULL);
	flame_cut_is_whole(&f->ctx, f->prof, 1180, true, false, NULL);
	flame_cut_is_whole(&f->ctx, f->prof, 5000, true, true, NULL);
	/* Far wider than the picture: no overflow on the way (UBSan). */
	flame_cut_is_whole(&f->ctx, f->prof, 1e15, true, true, NULL);
	/* Every frame left out, and drawn as one box of 3 small frames. */
	flame_cut_is_whole(&ctx, thirds, 1180, true, true, "3 small frames");
	pp_profile_free(thirds);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_report_cache__repeat_costs_nothing),
	        cmocka_unit_test(test_report_cache__tree_leaves_options),
	        cmocka_unit_test(test_report_cache__peek_edges),
	        cmocka_unit_test(test_report_cache__dot),
	        cmocka_unit_test(test_report_cache__flame_from_cut_tree),
	};

	return cmocka_run_group_tests(tests, profile_fixture_setup,
	                              profile_fixture_teardown);
}
