/* The one switch over report kinds, and the options a report may change
 * without aggregating again. */
#include <string.h>

#include "report/internal.h"

int pp_report_run(struct pp_report *r, enum pp_report_kind kind,
                  const char *arg, FILE *out)
{
	switch (kind) {
	case PP_REPORT_TOP:
		return pp_report_top(r, out);
	case PP_REPORT_TREE:
		return pp_report_tree(r, NULL, out);
	case PP_REPORT_PEEK:
		return pp_report_tree(r, arg, out);
	case PP_REPORT_LIST:
		return pp_report_list(r, arg, out);
	case PP_REPORT_PROTO:
		return pp_report_proto(r, out);
	case PP_REPORT_TRACES:
		return pp_report_traces(r, out);
	case PP_REPORT_TAGS:
		return pp_report_tags(r, out);
	case PP_REPORT_RAW:
		return pp_report_raw(r, out);
	case PP_REPORT_COMMENTS:
		return pp_report_comments(r, out);
	case PP_REPORT_DOT:
		return pp_report_dot(r, out);
	case PP_REPORT_SVG:
		return pp_report_render(r, "svg", out);
	case PP_REPORT_PNG:
		return pp_report_render(r, "png", out);
	case PP_REPORT_PDF:
		return pp_report_render(r, "pdf", out);
	case PP_REPORT_FLAME: {
		int err;

		pp_progress(r->ctx, "drawing the flame graph", NULL, 0, 0);
		err = pp_report_flame(r, out);
		pp_progress_done(r->ctx);
		return err;
	}
	case PP_REPORT_SPEEDSCOPE:
		return pp_report_speedscope(r, out);
	case PP_REPORT_FOLDED:
		return pp_report_folded(r, out);
	case PP_REPORT_CALLGRIND:
		return pp_report_callgrind(r, out);
	case PP_REPORT_TOPPROTO:
		return pp_report_topproto(r, out);
	case PP_REPORT_GIF:
		return pp_report_render(r, "gif", out);
	case PP_REPORT_PS:
		return pp_report_render(r, "ps", out);
	case PP_REPORT_DISASM:
		return pp_report_disasm(r, arg, out);
	case PP_REPORT_WEBLIST:
		return pp_report_weblist(r, arg, out);
	case PP_REPORT_HEADER:
		return pp_report_header(r, out);
	case PP_REPORT_CHECK:
		break;
	}
	return pp_error(r->ctx, PP_EUSAGE, "report kind %d needs a session",
	                (int)kind);
}

void pp_report_set_view(struct pp_report *r, const struct pp_report_opts *opts)
{
	const struct pp_report_opts *o = &r->opts;

	/* The flame graph's own options change no graph or tree. */
	r->opts.flame = opts->flame;
	if (o->nodecount == opts->nodecount &&
	    pp_report__nodefraction(o) == pp_report__nodefraction(opts) &&
	    pp_report__edgefraction(o) == pp_report__edgefraction(opts) &&
	    o->notrim == opts->notrim && o->cum_sort == opts->cum_sort &&
	    o->compact_labels == opts->compact_labels &&
	    o->inverted == opts->inverted) {
		r->opts.intel_syntax = opts->intel_syntax;
		return;
	}
	/* As a report made afresh with these options: the unit is chosen
	 * again, by the next trimmed graph. */
	pp_view_invalidate(&r->agg->view);
	pp_report__set_output_unit(r, r->opts.unit, strlen(r->opts.unit));
	r->opts.nodecount = opts->nodecount;
	r->opts.nodefraction = opts->nodefraction;
	r->opts.edgefraction = opts->edgefraction;
	r->opts.notrim = opts->notrim;
	r->opts.cum_sort = opts->cum_sort;
	r->opts.compact_labels = opts->compact_labels;
	r->opts.inverted = opts->inverted;
	r->opts.intel_syntax = opts->intel_syntax;
}

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

bool pp_report_opts_same_aggregate(const struct pp_report_opts *a,
                                   const struct pp_report_opts *b)
{
	return same_string(a->sample_index, b->sample_index) &&
	       a->mean == b->mean && a->granularity == b->granularity &&
	       a->noinlines == b->noinlines &&
	       a->showcolumns == b->showcolumns &&
	       a->call_tree == b->call_tree && same_string(a->unit, b->unit) &&
	       pp_report__divide_by(a) == pp_report__divide_by(b) &&
	       a->drop_negative == b->drop_negative &&
	       same_string(a->source_path, b->source_path) &&
	       same_string(a->trim_path, b->trim_path);
}
