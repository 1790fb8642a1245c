/* Report options: a zero-initialised struct pp_report_opts is pprof's
 * defaults, and the values pprof spells 0 have names of their own
 * (PP_NODECOUNT_ALL, PP_FRACTION_NONE) that a zero cannot mean. */
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

/* Report kind run on a fresh report with o, as a string (caller's). */
static char *run(struct profile_fixture *f, const struct pp_report_opts *o,
                 enum pp_report_kind kind)
{
	struct pp_report *r = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pp_report_new(&f->ctx, f->prof, o, &r), 0);
	assert_int_equal(pp_report_run(r, kind, NULL, out), 0);
	fclose(out);
	pp_report_free(r);
	return buf;
}

/* The legend's lines about trimming of a dot output (caller's). */
static char *legend(const char *dot)
{
	const char *from = strstr(dot, "Showing nodes");
	const char *to = strstr(dot, "See https://");

	assert_non_null(from);
	assert_non_null(to);
	return strndup(from, (size_t)(to - from));
}

static void expect_legend(struct profile_fixture *f,
                          const struct pp_report_opts *o, const char *want)
{
	char *dot = run(f, o, PP_REPORT_DOT), *got = legend(dot);

	assert_string_equal(got, want);
	free(got);
	free(dot);
}

/* Zero is pprof's -nodecount=80 (pictures; top: all), -nodefraction=0.005,
 * -edgefraction=0.001, -divide_by=1, -trim=true: the same output as those
 * values spelt out. */
static void test_report_opts__zero_is_default(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts zero = {0};
	struct pp_report_opts spelt = {.nodecount = 80,
	                               .nodefraction = 0.005,
	                               .edgefraction = 0.001,
	                               .divide_by = 1};
	char *a = run(f, &zero, PP_REPORT_DOT),
	     *b = run(f, &spelt, PP_REPORT_DOT);

	assert_string_equal(a, b);
	free(a);
	free(b);
	/* top's own default is every node. */
	spelt.nodecount = PP_NODECOUNT_ALL;
	a = run(f, &zero, PP_REPORT_TOP);
	b = run(f, &spelt, PP_REPORT_TOP);
	assert_string_equal(a, b);
	free(a);
	free(b);
	expect_legend(f, &zero,
	              "Showing nodes accounting for 1.76s, 75.54% of 2.33s "
	              "total\\lDropped 78 nodes (cum <= 0.01s)\\lShowing top "
	              "45 nodes out of 167\\l\\l");
}

/* The values zero cannot mean: every node, no cutoff, no trimming. */
static void test_report_opts__named_values(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts all = {.nodecount = PP_NODECOUNT_ALL};
	struct pp_report_opts nofrac = {.nodefraction = PP_FRACTION_NONE};
	struct pp_report_opts negative = {.nodefraction = -0.25};
	struct pp_report_opts notrim = {.notrim = true};
	struct pp_report_opts none = {.nodecount = PP_NODECOUNT_ALL,
	                              .nodefraction = PP_FRACTION_NONE,
	                              .edgefraction = PP_FRACTION_NONE};
	char *a, *b;

	expect_legend(f, &all,
	              "Showing nodes accounting for 2.12s, 90.99% of 2.33s "
	              "total\\lDropped 78 nodes (cum <= 0.01s)\\l\\l");
	expect_legend(f, &nofrac,
	              "Showing nodes accounting for 1.74s, 74.68% of 2.33s "
	              "total\\lShowing top 45 nodes out of 245\\l\\l");
	/* Any negative fraction is none (pprof's own flag would cut by its
	 * absolute value: the CLI turns it positive). */
	a = run(f, &nofrac, PP_REPORT_DOT);
	b = run(f, &negative, PP_REPORT_DOT);
	assert_string_equal(a, b);
	free(a);
	free(b);
	expect_legend(f, &none,
	              "Showing nodes accounting for 2.33s, 100% of 2.33s "
	              "total\\l\\l");
	a = run(f, &none, PP_REPORT_DOT);
	b = run(f, &notrim, PP_REPORT_DOT);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* divide_by: zero is 1; another value divides. */
static void test_report_opts__divide_by(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts zero = {.nodecount = 1};
	struct pp_report_opts one = {.nodecount = 1, .divide_by = 1};
	struct pp_report_opts ten = {.nodecount = 1, .divide_by = 10};
	char *a = run(f, &zero, PP_REPORT_TOP),
	     *b = run(f, &one, PP_REPORT_TOP);
	char *c = run(f, &ten, PP_REPORT_TOP);

	assert_string_equal(a, b);
	assert_non_null(strstr(a, "Total samples = 2330ms"));
	assert_non_null(strstr(c, "Total samples = 233ms"));
	free(a);
	free(b);
	free(c);
}

/* Pictures draw with the ctx's renderer: none is a clean failure, and one
 * renderer draws picture after picture (graphviz 2.42 cannot start a
 * second context after freeing one, so the renderer keeps its own). */
static void test_report_opts__renderer(void **state)
{
	struct profile_fixture *f = *state;
	struct pp_report_opts o = {.nodecount = 5};
	struct pp_report *r = NULL;
	FILE *null = fopen("/dev/null", "w");

	assert_non_null(null);
	assert_int_equal(pp_report_new(&f->ctx, f->prof, &o, &r), 0);
	assert_int_equal(pp_report_run(r, PP_REPORT_SVG, NULL, null),
	                 PP_EUNSUPPORTED);
	assert_string_equal(pp_ctx_message(&f->ctx),
	                    "graphviz: no renderer (pp_ctx.renderer)");
	pp_report_free(r);
	fclose(null);
	assert_int_equal(pp_renderer_new(&f->ctx, &f->ctx.renderer), 0);
	for (int i = 0; i < 2; i++) {
		char *svg = run(f, &o, PP_REPORT_SVG);

		assert_non_null(strstr(svg, "<g id=\"viewport\">"));
		assert_non_null(strstr(svg, "</svg>"));
		free(svg);
	}
	pp_renderer_free(f->ctx.renderer);
	f->ctx.renderer = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_report_opts__zero_is_default),
	        cmocka_unit_test(test_report_opts__named_values),
	        cmocka_unit_test(test_report_opts__divide_by),
	        cmocka_unit_test(test_report_opts__renderer),
	};

	return cmocka_run_group_tests(tests, profile_fixture_setup,
	                              profile_fixture_teardown);
}
