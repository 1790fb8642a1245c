/* The session's staged cache: which option change rebuilds which stage
 * (filtered profile -> aggregate -> view), that the bound holds, and that
 * a cached report prints what a fresh session prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/report.h"
#include "pprof/session.h"

#define PROFILE "testdata/go/cpu.pb.gz"

struct fixture {
	struct pp_ctx ctx;
	struct pp_session *s;
};

/* The test profile in a session of its own, on ctx; NULL if it fails. */
static struct pp_session *open_profile(struct pp_ctx *ctx)
{
	struct pp_ctx init = PP_CTX_INIT;
	struct pp_load_opts lo = {.symbolize = "none"};
	const char *src = PROFILE;
	struct pp_session *s = NULL;

	*ctx = init;
	if (pp_session_open(ctx, &src, 1, &lo, &s) < 0)
		return NULL;
	return s;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !(f->s = open_profile(&f->ctx))) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	pp_session_free(f->s);
	free(f);
	return 0;
}

/* Report kind with o as a string (the caller frees it). */
static char *run(struct pp_session *s, enum pp_report_kind kind,
                 const struct pp_view_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pp_session_report(s, kind, NULL, o, out), 0);
	fclose(out);
	return buf;
}

/* The same report from a session of its own: what the cache must match. */
static char *run_fresh(enum pp_report_kind kind, const struct pp_view_opts *o)
{
	struct pp_ctx ctx;
	struct pp_session *s = open_profile(&ctx);
	char *text;

	assert_non_null(s);
	text = run(s, kind, o);
	pp_session_free(s);
	return text;
}

static struct pp_session_stats stats(struct pp_session *s)
{
	struct pp_session_stats st;

	pp_session_stats(s, &st);
	return st;
}

/* Run kind with o, check its output against a fresh session's, and return
 * the counts after it. */
static struct pp_session_stats step(struct pp_session *s,
                                    enum pp_report_kind kind,
                                    const struct pp_view_opts *o)
{
	char *got = run(s, kind, o), *want = run_fresh(kind, o);

	assert_string_equal(got, want);
	free(got);
	free(want);
	return stats(s);
}

static void test_session__repeat_builds_nothing(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_session_stats a, b;

	a = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(a.aggregates, 1);
	assert_int_equal(a.filters, 0);
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Another kind on the same options shares the aggregate. */
	b = step(f->s, PP_REPORT_DOT, &o);
	assert_int_equal(b.aggregates, a.aggregates);
}

static void test_session__view_change_keeps_aggregate(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_session_stats a, b;

	a = step(f->s, PP_REPORT_TOP, &o);
	o.report.nodecount = 3;
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.aggregates, a.aggregates);
	assert_int_equal(b.filters, a.filters);
	/* Re-trimmed from the kept aggregate: no pass into a new graph. */
	assert_int_equal(b.graphs, a.graphs);
	o.report.nodefraction = 0.05;
	o.report.cum_sort = true;
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.aggregates, a.aggregates);
	assert_int_equal(b.graphs, a.graphs);
	/* The graph re-trims the same aggregate too. */
	b = step(f->s, PP_REPORT_DOT, &o);
	assert_int_equal(b.graphs, a.graphs);
	/* Unchanged again: the view is kept too. */
	a = stats(f->s);
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void test_session__aggregate_change_keeps_filtered(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_session_stats a, b;

	o.filter.focus = "runtime";
	a = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(a.filters, 1);
	o.report.sample_index = "samples";
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.filters, 1);
	assert_int_equal(b.aggregates, a.aggregates + 1);
	o.report.granularity = PP_GRAN_LINES;
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.filters, 1);
	assert_int_equal(b.aggregates, a.aggregates + 2);
	/* Back to the first: still kept. */
	o.report.sample_index = NULL;
	o.report.granularity = PP_GRAN_FUNCTIONS;
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.aggregates, a.aggregates + 2);
}

static void test_session__filter_change_refilters(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_session_stats a, b;

	o.filter.focus = "runtime";
	a = step(f->s, PP_REPORT_TOP, &o);
	o.filter.focus = "flate";
	b = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(b.filters, a.filters + 1);
	assert_int_equal(b.aggregates, a.aggregates + 1);
	/* relative_percentages shapes the aggregate, not the filter. */
	o.relative_percentages = true;
	a = step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(a.filters, b.filters);
	assert_int_equal(a.aggregates, b.aggregates + 1);
}

static void test_session__bound_evicts_oldest(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	static const char *const focus[] = {"runtime", "flate", "gzip",
	                                    "runtime"};
	struct pp_session_stats st;

	/* PP_SESSION_KEEP_FILTERED is 2: the third focus evicts the first,
	 * which is then filtered again. */
	for (size_t i = 0; i < 4; i++) {
		o.filter.focus = focus[i];
		st = step(f->s, PP_REPORT_TOP, &o);
	}
	assert_int_equal(PP_SESSION_KEEP_FILTERED, 2);
	assert_int_equal(st.filters, 4);
}

static void test_session__bad_options_fail_cleanly(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};

	o.report.sample_index = "nosuchtype";
	assert_int_equal(pp_session_prepare(f->s, PP_REPORT_TOP, &o),
	                 PP_EUSAGE);
	o.report.sample_index = NULL;
	o.filter.focus = "(";
	assert_int_equal(pp_session_prepare(f->s, PP_REPORT_TOP, &o),
	                 PP_EUSAGE);
	/* The session goes on. */
	o.filter.focus = NULL;
	free(run(f->s, PP_REPORT_TOP, &o));
	/* check needs a base kept apart. */
	assert_int_equal(
	        pp_session_report(f->s, PP_REPORT_CHECK, NULL, &o, stdout),
	        PP_EUSAGE);
}

/* The whole flame tree (every frame, as JSON) and folded stacks of the
 * report for o: the session's tree report (tree) or its full one. */
static char *tree_text(struct pp_session *s, const struct pp_view_opts *o,
                       bool tree)
{
	struct pp_flame_json_opts fo = {0, 0};
	struct pp_report *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(tree ? pp_session_get_tree_report(s, o, &r)
	                      : pp_session_get_report(s, o, &r),
	                 0);
	assert_int_equal(pp_report_flame_json(r, &fo, out), 0);
	assert_int_equal(pp_report_run(r, PP_REPORT_FOLDED, NULL, out), 0);
	fclose(out);
	return buf;
}

/* The same from a session of its own that filters the profile. */
static char *tree_text_fresh(const struct pp_view_opts *o)
{
	struct pp_ctx ctx;
	struct pp_session *s = open_profile(&ctx);
	char *text;

	assert_non_null(s);
	text = tree_text(s, o, false);
	pp_session_free(s);
	return text;
}

/* A refine by focus or ignore selects its tree from the whole profile's,
 * filtering nothing, and prints what a filtered profile's tree prints; a
 * report that needs the profile filters it then. */
static void test_session__refine_selects_tree(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *focus, *ignore, *si;
		enum pp_granularity g;
		bool noinlines;
	} cases[] = {
	        {"main", NULL, NULL, PP_GRAN_FUNCTIONS, false},
	        {NULL, "compress", NULL, PP_GRAN_FUNCTIONS, false},
	        {"flate", "deflate", NULL, PP_GRAN_FUNCTIONS, false},
	        {"runtime", NULL, "samples", PP_GRAN_FUNCTIONS, false},
	        {"gzip", NULL, NULL, PP_GRAN_LINES, false},
	        {"flate", NULL, NULL, PP_GRAN_FILES, false},
	        {"flate", NULL, NULL, PP_GRAN_ADDRESSES, false},
	        {"Write", NULL, NULL, PP_GRAN_FUNCTIONS, true},
	        {"nosuchfunction", NULL, NULL, PP_GRAN_FUNCTIONS, false},
	        {"\\.go$", NULL, NULL, PP_GRAN_FUNCTIONS, false},
	};
	struct pp_view_opts o = {0};
	struct pp_session_stats st;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got, *want;

		memset(&o, 0, sizeof(o));
		o.filter.focus = cases[i].focus;
		o.filter.ignore = cases[i].ignore;
		o.report.sample_index = cases[i].si;
		o.report.granularity = cases[i].g;
		o.report.noinlines = cases[i].noinlines;
		got = tree_text(f->s, &o, true);
		want = tree_text_fresh(&o);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
	st = stats(f->s);
	/* Every case was selected but noinlines': it keeps one line of each
	 * location, so a frame there can stand for locations both marked
	 * and not, and the profile was filtered. */
	assert_int_equal(st.selected, 9);
	assert_int_equal(st.filters, 1);
	/* The top of a selected refine filters the profile, once. */
	o.filter.focus = "nosuchfunction";
	o.filter.ignore = NULL;
	o.report.sample_index = NULL;
	o.report.granularity = PP_GRAN_FUNCTIONS;
	o.report.noinlines = false;
	step(f->s, PP_REPORT_TOP, &o);
	free(tree_text(f->s, &o, true));
	assert_int_equal(stats(f->s).filters, 2);
	/* hide rebuilds the tree (test_session__refine_rebuilds_tree);
	 * relative percentages filter as before. */
	memset(&o, 0, sizeof(o));
	o.filter.hide = "runtime";
	{
		char *got = tree_text(f->s, &o, true),
		     *want = tree_text_fresh(&o);

		assert_string_equal(got, want);
		free(got);
		free(want);
	}
	memset(&o, 0, sizeof(o));
	o.filter.focus = "flate";
	o.relative_percentages = true;
	{
		char *got = tree_text(f->s, &o, true),
		     *want = tree_text_fresh(&o);

		assert_string_equal(got, want);
		free(got);
		free(want);
	}
	assert_int_equal(stats(f->s).filters, 3);
	assert_int_equal(stats(f->s).selected, 10);
}

/* A refine by hide, show or show_from (with focus and ignore or not)
 * rebuilds its tree from the whole profile's, filtering nothing, and
 * prints what a filtered profile's tree prints. */
static void test_session__refine_rebuilds_tree(void **state)
{
	struct fixture *f = *state;
	static const struct {
		const char *focus, *ignore, *hide, *show, *from, *si;
		enum pp_granularity g;
		bool noinlines, selected;
	} cases[] = {
	        {NULL, NULL, "runtime", NULL, NULL, NULL, PP_GRAN_FUNCTIONS,
	         false, true},
	        {NULL, NULL, "main", NULL, NULL, NULL, PP_GRAN_FUNCTIONS, false,
	         true},
	        {NULL, NULL, NULL, "flate|runtime", NULL, NULL,
	         PP_GRAN_FUNCTIONS, false, true},
	        {NULL, NULL, NULL, NULL, "compress", NULL, PP_GRAN_FUNCTIONS,
	         false, true},
	        {NULL, NULL, NULL, NULL, "Write", "samples", PP_GRAN_FUNCTIONS,
	         false, false},
	        {"flate", NULL, "runtime", NULL, NULL, NULL, PP_GRAN_FUNCTIONS,
	         false, true},
	        {NULL, "gzip", NULL, "flate", "deflate", NULL,
	         PP_GRAN_FUNCTIONS, false, true},
	        {NULL, NULL, "\\.s$", NULL, NULL, NULL, PP_GRAN_FUNCTIONS,
	         false, true},
	        {NULL, NULL, "runtime", NULL, NULL, NULL, PP_GRAN_LINES, false,
	         true},
	        {NULL, NULL, NULL, NULL, "flate", NULL, PP_GRAN_FILES, false,
	         false},
	        {NULL, NULL, "flate", NULL, NULL, NULL, PP_GRAN_ADDRESSES,
	         false, true},
	        {NULL, NULL, "runtime", NULL, NULL, NULL, PP_GRAN_FUNCTIONS,
	         true, true},
	        {NULL, NULL, "nosuchfunction", NULL, NULL, NULL,
	         PP_GRAN_FUNCTIONS, false, true},
	        {NULL, NULL, NULL, "nosuchfunction", NULL, NULL,
	         PP_GRAN_FUNCTIONS, false, true},
	        {NULL, NULL, NULL, NULL, "nosuchfunction", NULL,
	         PP_GRAN_FUNCTIONS, false, true},
	        {NULL, NULL, ".", NULL, NULL, NULL, PP_GRAN_FUNCTIONS, false,
	         true},
	};
	struct pp_view_opts o = {0};
	unsigned long long selected = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got, *want;

		memset(&o, 0, sizeof(o));
		o.filter.focus = cases[i].focus;
		o.filter.ignore = cases[i].ignore;
		o.filter.hide = cases[i].hide;
		o.filter.show = cases[i].show;
		o.filter.show_from = cases[i].from;
		o.report.sample_index = cases[i].si;
		o.report.granularity = cases[i].g;
		o.report.noinlines = cases[i].noinlines;
		got = tree_text(f->s, &o, true);
		want = tree_text_fresh(&o);
		assert_string_equal(got, want);
		free(got);
		free(want);
		selected += cases[i].selected;
	}
	/* Two fell back to filtering: a show_from match on an inlined line
	 * takes its callers out of that location only (Write), and at
	 * files granularity a file's functions match apart (flate). */
	assert_int_equal(stats(f->s).selected, selected);
	assert_int_equal(stats(f->s).filters, 2);
}

/* Refines one after another keep the whole profile's tree they select
 * from: only the first builds a tree. */
static void test_session__refines_keep_whole_tree(void **state)
{
	struct fixture *f = *state;
	static const char *const focus[] = {"runtime", "runtime", "flate",
	                                    "gzip",    "flate",   "main"};
	struct pp_view_opts o = {0};
	struct pp_session_stats st;

	free(tree_text(f->s, &o, true));
	for (size_t i = 0; i < sizeof(focus) / sizeof(focus[0]); i++) {
		o.filter.focus = focus[i];
		free(tree_text(f->s, &o, true));
	}
	st = stats(f->s);
	assert_int_equal(st.graphs, 1);
	assert_int_equal(st.filters, 0);
	assert_int_equal(st.selected, 5);
}

/* A refine that keeps every sample is answered by the whole profile's
 * report, without a second copy of its tree. */
static void test_session__refine_keeping_all_is_whole(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_report *whole, *r;
	char *got, *want;

	assert_int_equal(pp_session_get_report(f->s, &o, &whole), 0);
	o.filter.focus = ".";
	assert_int_equal(pp_session_get_tree_report(f->s, &o, &r), 0);
	assert_ptr_equal(r, whole);
	/* Again, from the cache. */
	assert_int_equal(pp_session_get_tree_report(f->s, &o, &r), 0);
	assert_ptr_equal(r, whole);
	got = tree_text(f->s, &o, true);
	want = tree_text_fresh(&o);
	assert_string_equal(got, want);
	free(got);
	free(want);
	assert_int_equal(stats(f->s).filters, 0);
	assert_int_equal(stats(f->s).graphs, 1);
	/* The profile's top with the same focus filters it. */
	step(f->s, PP_REPORT_TOP, &o);
	assert_int_equal(stats(f->s).filters, 1);
}

/* A flame answer of report r (root, frames at least share wide). */
static char *flame_text(struct pp_report *r, uint32_t root, double share)
{
	struct pp_flame_json_opts fo = {root, share};
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(pp_report_flame_json(r, &fo, out), 0);
	fclose(out);
	return buf;
}

/* The id of the answer's second frame (the first under the root), and the
 * answer without its frames' ids. */
static uint32_t strip_ids(char *json)
{
	char *p = json, *w = json;
	uint32_t second = 0;
	int frame = 0;

	while (*p) {
		if (p[0] == '\n' && p[1] == '[') {
			*w++ = *p++;
			*w++ = *p++;
			if (++frame == 2)
				second = (uint32_t)strtoul(p, NULL, 10);
			while (*p >= '0' && *p <= '9')
				p++;
			continue;
		}
		*w++ = *p++;
	}
	*w = '\0';
	return second;
}

/* The first page's flame answer from the top of the tree alone is the
 * whole tree's, but for its ids, which later answers take as a root. */
static void test_session__flame_cut(void **state)
{
	struct fixture *f = *state;
	struct pp_view_opts o = {0};
	struct pp_report *r, *fresh_r;
	struct pp_session *fresh;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_load_opts lo = {0};
	const char *src = PROFILE;
	char *cut, *whole, *zoom, *want;
	uint32_t cut_id, whole_id;

	assert_int_equal(pp_session_get_tree_report(f->s, &o, &r), 0);
	assert_int_equal(pp_report_flame_cut(r, 1.0 / 100), 0);
	lo.symbolize = "none";
	assert_int_equal(pp_session_open(&ctx, &src, 1, &lo, &fresh), 0);
	assert_int_equal(pp_session_get_tree_report(fresh, &o, &fresh_r), 0);
	/* Frames 1/50 wide or more: in the cut tree. */
	cut = flame_text(r, 0, 1.0 / 50);
	whole = flame_text(fresh_r, 0, 1.0 / 50);
	assert_null(strstr(whole, "\n[2147483"));
	cut_id = strip_ids(cut);
	whole_id = strip_ids(whole);
	assert_true(cut_id > 0x80000000u);
	assert_true(whole_id > 0 && whole_id < 0x80000000u);
	assert_string_equal(cut, whole);
	/* A zoom from the cut answer is the whole tree's zoom. */
	zoom = flame_text(r, cut_id, 1.0 / 50);
	want = flame_text(fresh_r, whole_id, 1.0 / 50);
	assert_string_equal(zoom, want);
	free(zoom);
	free(want);
	/* Once the whole tree is built, it answers (its own ids). */
	zoom = flame_text(r, 0, 1.0 / 50);
	want = flame_text(fresh_r, 0, 1.0 / 50);
	assert_string_equal(zoom, want);
	free(zoom);
	free(want);
	/* Thinner frames than the cut kept, or an unknown id. */
	{
		struct pp_report *r2;
		struct pp_view_opts o2 = {0};
		char *thin;

		o2.report.granularity = PP_GRAN_LINES;
		assert_int_equal(pp_session_get_tree_report(f->s, &o2, &r2), 0);
		assert_int_equal(pp_report_flame_cut(r2, 1.0 / 100), 0);
		thin = flame_text(r2, 0, 1.0 / 1000);
		assert_null(strstr(thin, "\n[2147483"));
		free(thin);
	}
	{
		struct pp_flame_json_opts fo = {0x80000000u + 1000000u, 0};
		FILE *out = fopen("/dev/null", "w");

		assert_int_equal(pp_report_flame_json(r, &fo, out),
		                 PP_ENOTFOUND);
		fclose(out);
	}
	free(cut);
	free(whole);
	pp_session_free(fresh);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	        T(test_session__repeat_builds_nothing),
	        T(test_session__view_change_keeps_aggregate),
	        T(test_session__aggregate_change_keeps_filtered),
	        T(test_session__filter_change_refilters),
	        T(test_session__bound_evicts_oldest),
	        T(test_session__bad_options_fail_cleanly),
	        T(test_session__refine_selects_tree),
	        T(test_session__refine_rebuilds_tree),
	        T(test_session__refines_keep_whole_tree),
	        T(test_session__refine_keeping_all_is_whole),
	        T(test_session__flame_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
