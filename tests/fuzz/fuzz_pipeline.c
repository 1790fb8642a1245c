/*
 * Fuzz target: the whole pipeline on a fuzzed profile, through the session
 * as every front end runs it -- load (decode, merge), then every report
 * kind across granularities, the options that change the graph's shape,
 * the filters; then the profile against itself as -diff_base.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pprof/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reports(struct pp_session *s, FILE *sink)
{
	static const enum pp_granularity grans[] = {
	        PP_GRAN_FUNCTIONS, PP_GRAN_FILEFUNCTIONS, PP_GRAN_FILES,
	        PP_GRAN_LINES, PP_GRAN_ADDRESSES};

	for (size_t g = 0; g < sizeof(grans) / sizeof(grans[0]); g++) {
		struct pp_view_opts o = {0};

		o.report.granularity = grans[g];
		o.report.cum_sort = g & 1;
		o.report.mean = g == 2;
		o.report.noinlines = g == 3;
		o.report.nodecount = (int)g;
		if (pp_session_report(s, PP_REPORT_TOP, NULL, &o, sink) < 0)
			continue;
		/* Every report on the same aggregate, one granularity each
		 * pass so a run stays fast. */
		switch (g) {
		case 0:
			pp_session_report(s, PP_REPORT_DOT, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_TREE, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_PROTO, NULL, &o, sink);
			/* A view change only: re-trimmed, not re-read. */
			o.report.nodecount = 2;
			pp_session_report(s, PP_REPORT_TOP, NULL, &o, sink);
			break;
		case 1:
			pp_session_report(s, PP_REPORT_FOLDED, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_FLAME, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_SPEEDSCOPE, NULL, &o,
			                  sink);
			break;
		case 2:
			pp_session_report(s, PP_REPORT_TRACES, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_TAGS, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_RAW, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_COMMENTS, NULL, &o,
			                  sink);
			break;
		case 3:
			pp_session_report(s, PP_REPORT_LIST, ".", &o, sink);
			pp_session_report(s, PP_REPORT_PEEK, ".", &o, sink);
			break;
		default:
			o.filter.focus = "a";
			o.filter.hide = "b";
			o.filter.tagignore = "c";
			pp_session_report(s, PP_REPORT_DOT, NULL, &o, sink);
			pp_session_report(s, PP_REPORT_TRACES, NULL, &o, sink);
			break;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_load_opts lo = {0};
	const char *name = "fuzz";
	struct pp_bytes bytes = {(uint8_t *)data, size};
	struct pp_session *s = NULL;
	FILE *sink;

	ctx.max_size = 16 << 20;
	lo.data = &bytes;
	lo.symbolize = "none";
	if (pp_session_open(&ctx, &name, 1, &lo, &s) != 0)
		return 0;
	sink = fopen("/dev/null", "w");
	if (sink)
		reports(s, sink);
	pp_session_free(s);
	/* The profile minus itself: base samples and their totals. */
	lo.diff_base = &name;
	lo.ndiff_base = 1;
	lo.base_data = &bytes;
	if (sink && pp_session_open(&ctx, &name, 1, &lo, &s) == 0) {
		struct pp_view_opts o = {0};

		pp_session_report(s, PP_REPORT_TOP, NULL, &o, sink);
		pp_session_report(s, PP_REPORT_FLAME, NULL, &o, sink);
		pp_session_free(s);
	}
	if (sink)
		fclose(sink);
	return 0;
}
