/*
 * Fuzz target: the whole pipeline on a fuzzed profile -- decode, then
 * aggregate and print every report (top, dot, tree, proto, folded, flame,
 * speedscope, traces, tags, raw, comments, list) across granularities and
 * the options that change the graph's shape.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pprof/report.h"
#include "pprof/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reports(struct pp_ctx *ctx, const struct pp_profile *p, FILE *sink)
{
	static const enum pp_granularity grans[] = {
	        PP_GRAN_FUNCTIONS, PP_GRAN_FILEFUNCTIONS, PP_GRAN_FILES,
	        PP_GRAN_LINES, PP_GRAN_ADDRESSES};

	for (size_t g = 0; g < sizeof(grans) / sizeof(grans[0]); g++) {
		struct pp_report_opts o = PP_REPORT_OPTS_INIT;
		struct pp_report *r = NULL;

		o.granularity = grans[g];
		o.cum_sort = g & 1;
		o.mean = g == 2;
		o.noinlines = g == 3;
		o.nodecount = (int)g;
		if (pp_report_new(ctx, p, &o, &r) != 0)
			continue;
		/* Every report on the same aggregate, one granularity each
		 * pass so a run stays fast. */
		pp_report_top(r, sink);
		switch (g) {
		case 0:
			pp_report_dot(r, sink);
			pp_report_tree(r, NULL, sink);
			pp_report_proto(r, sink);
			break;
		case 1:
			pp_report_folded(r, sink);
			pp_report_flame(r, sink);
			pp_report_speedscope(r, sink);
			break;
		case 2:
			pp_report_traces(r, sink);
			pp_report_tags(r, sink);
			pp_report_raw(r, sink);
			pp_report_comments(r, sink);
			break;
		case 3:
			pp_report_list(r, ".", sink);
			pp_report_tree(r, ".", sink);
			break;
		default:
			pp_report_dot(r, sink);
			break;
		}
		pp_report_free(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	FILE *sink;

	ctx.max_size = 16 << 20;
	if (pp_source_decode(&ctx, "fuzz", data, size, &p) != 0)
		return 0;
	sink = fopen("/dev/null", "w");
	if (sink) {
		reports(&ctx, p, sink);
		fclose(sink);
	}
	pp_profile_free(p);
	return 0;
}
