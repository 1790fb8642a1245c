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
#include "pprof/report.h"
#include "pprof/session.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_report_cache__repeat_costs_nothing),
	        cmocka_unit_test(test_report_cache__tree_leaves_options),
	        cmocka_unit_test(test_report_cache__peek_edges),
	        cmocka_unit_test(test_report_cache__dot),
	};

	return cmocka_run_group_tests(tests, profile_fixture_setup,
	                              profile_fixture_teardown);
}
