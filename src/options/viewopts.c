/* The settings turned into the session's view options: pprof's flag
 * values become the report's (pprof/report.h: zero means the default
 * there). */
#include "settings.h"

/* A cutoff as pprof's flag gives it, for pprof/report.h: 0 cuts nothing;
 * pprof cuts by |fraction|, so a negative one is its opposite. */
static double fraction(double f)
{
	return f == 0 ? PP_FRACTION_NONE : f < 0 ? -f : f;
}

int pp_cli_view_opts(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     struct pp_view_opts *o)
{
	struct pp_view_opts v = {0};

	if (cfg->divide_by == 0)
		return pp_error(ctx, PP_EUSAGE, "zero divisor specified");
	v.report = cfg->report;
	/* -nodecount: any negative is the report's default, 0 all nodes. */
	v.report.nodecount = cfg->nodecount < 0    ? 0
	                     : cfg->nodecount == 0 ? PP_NODECOUNT_ALL
	                                           : cfg->nodecount;
	v.report.nodefraction = fraction(cfg->nodefraction);
	v.report.edgefraction = fraction(cfg->edgefraction);
	v.report.divide_by = cfg->divide_by;
	v.report.notrim = !cfg->trim;
	v.report.sample_index = cfg->sample_index;
	v.report.unit = cfg->unit;
	v.report.source_path = cfg->source_path;
	v.report.trim_path = cfg->trim_path;
	v.report.flame.title = cfg->flame_title;
	v.report.flame.colors = cfg->flame_colors;
	v.report.flame.minwidth =
	        cfg->flame_minwidth > 0 ? cfg->flame_minwidth : -1;
	v.filter.focus = cfg->focus;
	v.filter.ignore = cfg->ignore;
	v.filter.hide = cfg->hide;
	v.filter.show = cfg->show;
	v.filter.show_from = cfg->show_from;
	v.filter.tagfocus = cfg->tagfocus;
	v.filter.tagignore = cfg->tagignore;
	v.filter.tagshow = cfg->tagshow;
	v.filter.taghide = cfg->taghide;
	v.filter.prune_from = cfg->prune_from;
	v.relative_percentages = cfg->relative_percentages;
	v.tagroot = cfg->tagroot;
	v.tagleaf = cfg->tagleaf;
	v.rules = cfg->rules;
	v.nrules = cfg->nrules;
	*o = v;
	return 0;
}
