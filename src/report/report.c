/* Report setup shared by every report: sample type, totals, the header
 * lines, the aggregate graph and the view of it that text and graph
 * reports print (trimmed by src/graph/, reused while the options stand). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/path.h"
#include "util/utf8.h"

int pp_report_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                  const struct pp_report_opts *opts, struct pp_report **out)
{
	struct pp_aggregate *agg;
	int err;

	*out = NULL;
	if ((err = pp_aggregate_new(ctx, prof, &agg)) < 0)
		return err;
	if ((err = pp_report_new_on(ctx, agg, opts, out)) < 0) {
		pp_aggregate_free(agg);
		return err;
	}
	(*out)->own_agg = true;
	return 0;
}

int pp_report_new_on(struct pp_ctx *ctx, struct pp_aggregate *agg,
                     const struct pp_report_opts *opts, struct pp_report **out)
{
	const struct pp_profile *prof = agg->prof;
	struct pp_report *r;
	int err;

	*out = NULL;
	r = pp_calloc(ctx, 1, sizeof(*r));
	if (!r)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	r->ctx = ctx;
	r->prof = prof;
	r->agg = agg;
	r->opts = *opts;
	if (!r->opts.unit)
		r->opts.unit = "minimum";
	pp_report__set_output_unit(r, r->opts.unit, strlen(r->opts.unit));
	if ((err = pp_profile_sample_index(prof, opts->sample_index,
	                                   &r->sample_index)) < 0)
		goto fail;
	r->sample_type =
	        pp_profile_str(prof, prof->sample_types[r->sample_index].type);
	{
		size_t i, n;
		const char *u = pp_profile_strn(
		        prof, prof->sample_types[r->sample_index].unit, &n);

		r->sample_unit = pp_malloc(ctx, n + 1);
		if (!r->sample_unit) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto fail;
		}
		for (i = 0; i < n; i++)
			r->sample_unit[i] = (char)((u[i] >= 'A' && u[i] <= 'Z')
			                                   ? u[i] - 'A' + 'a'
			                                   : u[i]);
		r->sample_unit[n] = '\0';
		r->sample_unit_len = n;
	}
	r->ratio = 1 / pp_report__divide_by(&r->opts);
	r->total = pp_report__total(r);
	*out = r;
	return 0;
fail:
	pp_report_free(r);
	return err;
}

void pp_report_free(struct pp_report *r)
{
	if (!r)
		return;
	if (r->own_agg)
		pp_aggregate_free(r->agg);
	pp_free(r->ctx, r->sample_unit);
	pp_free(r->ctx, r->num_units);
	pp_free(r->ctx, r);
}

int pp_report_header(struct pp_report *r, FILE *out)
{
	pp_report__print_profile_labels(r, out);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}

unsigned long long pp_report_graph_builds(const struct pp_report *r)
{
	return r->agg->builds;
}

int64_t pp_report__total(const struct pp_report *r)
{
	const struct pp_profile *p =
	        r->opts.total_profile ? r->opts.total_profile : r->prof;
	uint32_t nt = p->nsample_types;
	int64_t total = 0, div = 0, diff_total = 0, diff_div = 0;
	/* -diff_base: base samples carry pprof::base=true; pprof's
	 * computeTotal then reports percentages of the base. */
	struct pp_base_mark mark = pp_profile_base_mark(p);

	for (uint32_t s = 0; s < p->nsamples; s++) {
		const int64_t *v = p->values + (size_t)s * nt;
		int64_t x = pp_go_abs64(v[r->sample_index]);
		int64_t d = r->opts.mean ? v[0] : 0;

		total += x;
		div += d;
		if (pp_sample_is_base(p, s, mark)) {
			diff_total += x;
			diff_div += d;
		}
	}
	if (diff_total > 0) {
		total = diff_total;
		div = diff_div;
	}
	return div != 0 ? total / div : total;
}

size_t pp_report__format(const struct pp_report *r, int64_t v,
                         struct pp_report__val *out)
{
	if (r->ratio > 0 && r->ratio != 1)
		v = pp_go_int64((double)v * r->ratio);
	out->num_len = pp_scaled_label_parts(
	        v, r->sample_unit, r->sample_unit_len, r->output_unit,
	        r->output_unit_len, out->num, sizeof(out->num), &out->unit,
	        &out->unit_len);
	return pp_report__val_len(out);
}

void pp_report__val_text(struct pp_report__val *out, const char *s)
{
	snprintf(out->num, sizeof(out->num), "%s", s);
	out->num_len = strlen(out->num);
	out->unit = "";
	out->unit_len = 0;
}

void pp_report__put_val(FILE *out, const struct pp_report__val *v)
{
	fwrite(v->num, 1, v->num_len, out);
	fwrite(v->unit, 1, v->unit_len, out);
}

void pp_report__put_val_padded(FILE *out, const struct pp_report__val *v,
                               int width)
{
	size_t runes =
	        v->num_len +
	        pp_utf8_runes((const unsigned char *)v->unit, v->unit_len);

	for (size_t i = runes; i < (size_t)(width > 0 ? width : 0); i++)
		fputc(' ', out);
	pp_report__put_val(out, v);
}

/* The graph options r's trees are built with. */
static void tree_opts(const struct pp_report *r, struct pp_graph_opts *go)
{
	memset(go, 0, sizeof(*go));
	go->sample_index = r->sample_index;
	go->granularity = r->opts.granularity;
	go->noinlines = r->opts.noinlines;
	go->columns = r->opts.showcolumns;
}

int pp_report__tree(struct pp_report *r, const struct pp_tree **out)
{
	struct pp_graph_opts go;

	tree_opts(r, &go);
	return pp_aggregate_tree(r->agg, &go, out);
}

int pp_report_build_tree(struct pp_report *r)
{
	const struct pp_tree *t;

	return pp_report__tree(r, &t);
}

int pp_report_flame_cut(struct pp_report *r, double min_share)
{
	struct pp_graph_opts go;

	tree_opts(r, &go);
	return pp_aggregate_cut(r->agg, &go, min_share);
}

int pp_report_select_tree(struct pp_report *r, struct pp_report *whole,
                          const unsigned char *marks,
                          const unsigned char *line_marks, bool show_from)
{
	struct pp_graph_opts go;

	/* The whole's tree is built with its own report's options. */
	if (whole->sample_index != r->sample_index ||
	    whole->opts.granularity != r->opts.granularity ||
	    whole->opts.noinlines != r->opts.noinlines ||
	    whole->opts.showcolumns != r->opts.showcolumns)
		return PP_EUNSUPPORTED;
	tree_opts(r, &go);
	return pp_aggregate_select_tree(r->agg, whole->agg, &go, marks,
	                                line_marks, show_from);
}

/* ---- the aggregate and its view ------------------------------------------ */

int pp_report__select_order(struct pp_report *r)
{
	return pp_view_select_order(&r->agg->view, r->opts.drop_negative,
	                            r->opts.cum_sort);
}

void pp_report__select_output_unit(struct pp_report *r)
{
	pp_report__choose_output_unit(r, false);
}

void pp_report__choose_output_unit(struct pp_report *r, bool integral)
{
	struct pp_graph *g = r->agg->graph;
	int64_t min_value = 0, max_value = r->total;
	const char *min_unit, *max_unit, *unit;
	size_t min_len, max_len, len;

	pp_report__set_output_unit(r, r->opts.unit, strlen(r->opts.unit));
	if (strcmp(r->opts.unit, "minimum") != 0 || r->agg->view.norder == 0)
		return;
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n = &g->nodes[r->agg->view.order[i]];
		int64_t m = pp_go_abs64(pp_node_flat(n));

		if (m == 0)
			m = pp_go_abs64(pp_node_cum(n));
		if (m > 0 && (min_value == 0 || m < min_value))
			min_value = m;
	}
	if (min_value == 0)
		min_value = max_value;
	if (r->ratio > 0 && r->ratio != 1) {
		min_value = pp_go_int64((double)min_value * r->ratio);
		max_value = pp_go_int64((double)max_value * r->ratio);
	}
	pp_scale_n(min_value, r->sample_unit, r->sample_unit_len, "minimum", 7,
	           &min_unit, &min_len);
	pp_scale_n(max_value, r->sample_unit, r->sample_unit_len, "minimum", 7,
	           &max_unit, &max_len);
	unit = min_unit;
	len = min_len;
	if (!integral && !pp_bytes_eq(min_unit, min_len, max_unit, max_len) &&
	    min_value * 100 < max_value)
		pp_scale_n(100 * min_value, r->sample_unit, r->sample_unit_len,
		           "minimum", 7, &unit, &len);
	if (len)
		pp_report__set_output_unit(r, unit, len);
	else
		pp_report__set_output_unit(r, r->sample_unit,
		                           r->sample_unit_len);
}

void pp_report__graph_opts(const struct pp_report *r, enum pp_edge_mode edges,
                           struct pp_graph_opts *go)
{
	memset(go, 0, sizeof(*go));
	go->sample_index = r->sample_index;
	go->mean = r->opts.mean;
	go->granularity = r->opts.granularity;
	go->noinlines = r->opts.noinlines;
	go->columns = r->opts.showcolumns;
	go->drop_negative = r->opts.drop_negative;
	go->edges = edges;
}

int pp_report__graph(struct pp_report *r, const struct pp_graph_opts *go)
{
	pp_report__set_output_unit(r, r->opts.unit, strlen(r->opts.unit));
	return pp_aggregate_graph(r->agg, go);
}

void pp_report__trim_opts(const struct pp_report *r, bool visual,
                          struct pp_trim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->nodecount = pp_report__nodecount(&r->opts, visual ? 80 : 0);
	o->nodefraction = pp_report__nodefraction(&r->opts);
	o->edgefraction = pp_report__edgefraction(&r->opts);
	o->cum_sort = r->opts.cum_sort;
	o->tag_unit = r->opts.unit;
	if (r->opts.notrim) {
		o->nodecount = 0;
		o->nodefraction = o->edgefraction = 0;
	}
}

int pp_report__view(struct pp_report *r, bool visual,
                    const struct pp_trim_opts *o)
{
	struct pp_graph_opts go;
	int err;

	/* The view of these options, made since the graph last changed. */
	if (pp_view_current(&r->agg->view, visual, o))
		return 0;
	/* Values first; the view adds the edges it needs (a call tree comes
	 * with its edges, which are its shape). */
	pp_report__graph_opts(r, PP_EDGES_NONE, &go);
	if (visual && r->opts.call_tree) {
		go.edges = PP_EDGES_ALL;
		go.call_tree = true;
	}
	if ((err = pp_report__graph(r, &go)) < 0)
		return err;
	if ((err = visual ? pp_view_visual(&r->agg->view, o)
	                  : pp_view_trim(&r->agg->view, o)) < 0)
		return err;
	pp_report__select_output_unit(r);
	return 0;
}

int pp_report__trimmed_graph(struct pp_report *r, bool visual)
{
	struct pp_trim_opts o;

	pp_report__trim_opts(r, visual, &o);
	return pp_report__view(r, visual, &o);
}

/* ---- header lines -------------------------------------------------------- */

void pp_report__put_base(const struct pp_profile *p, pp_str s, FILE *out)
{
	size_t n;
	const char *b = pp_path_base_n(pp_profile_strn(p, s, &n), &n);

	fwrite(b, 1, n, out);
}

static void print_time(FILE *out, int64_t nanos)
{
	time_t secs = (time_t)(nanos / 1000000000);
	struct tm tm;
	char buf[64];

	if (nanos < 0 && nanos % 1000000000)
		secs--;
	if (!localtime_r(&secs, &tm) ||
	    strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S %Z", &tm) == 0)
		return;
	fprintf(out, "Time: %s\n", buf);
}

void pp_report__print_profile_labels(const struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	char buf[64], pct[32];
	struct pp_report__val tot;

	if (p->nmappings > 0) {
		if (p->mappings[0].file) {
			fputs("File: ", out);
			pp_report__put_base(p, p->mappings[0].file, out);
			fputc('\n', out);
		}
		if (p->mappings[0].build_id) {
			fputs("Build ID: ", out);
			pp_report__put_str(p, p->mappings[0].build_id, out);
			fputc('\n', out);
		}
	}
	for (uint32_t i = 0; i < p->ncomments; i++) {
		if (pp_profile_str(p, p->comments[i])[0] != '#') {
			pp_report__put_str(p, p->comments[i], out);
			fputc('\n', out);
		}
	}
	/* pprof leaves the line out for a sample type with no name; a name
	 * with NUL bytes prints whole. */
	{
		pp_str type = p->sample_types[r->sample_index].type;
		size_t tl;

		(void)pp_profile_strn(p, type, &tl);
		if (r->opts.mean || tl) {
			fprintf(out, "Type: %s", r->opts.mean ? "mean_" : "");
			pp_report__put_str(p, type, out);
			fputc('\n', out);
		}
	}
	if (p->time_nanos != 0)
		print_time(out, p->time_nanos);
	if (p->duration_nanos != 0) {
		const char *unit;
		size_t unit_len;
		double total_ns;

		pp_scaled_label(p->duration_nanos, "nanoseconds", "auto", buf,
		                sizeof(buf));
		pp_report__format(r, r->total, &tot);
		total_ns =
		        pp_scale_n(r->total, r->sample_unit, r->sample_unit_len,
		                   "nanoseconds", 11, &unit, &unit_len);
		pct[0] = '\0';
		if (pp_bytes_eq(unit, unit_len, "ns", 2) && total_ns != 0) {
			char p2[24];

			pp_percentage((int64_t)total_ns, p->duration_nanos, p2,
			              sizeof(p2));
			snprintf(pct, sizeof(pct), "(%s)", p2);
		}
		fprintf(out, "Duration: %s, Total samples = ", buf);
		pp_report__put_val(out, &tot);
		fprintf(out, " %s\n", pct);
	}
}

void pp_report__print_active_filters(const struct pp_report *r, FILE *out)
{
	if (r->opts.nactive_filters == 0)
		return;
	fputs("Active filters:\n", out);
	for (size_t i = 0; i < r->opts.nactive_filters; i++) {
		const char *f = r->opts.active_filters[i];

		/* pprof cuts long ones at 80 bytes and adds an ellipsis. */
		if (strlen(f) > 80)
			fprintf(out, "   %.80s\xe2\x80\xa6\n", f);
		else
			fprintf(out, "   %s\n", f);
	}
}

void pp_report__print_labels(const struct pp_report *r, FILE *out)
{
	const struct pp_graph *g = r->agg->graph;
	int64_t flat_sum = 0;
	char pct[32];
	struct pp_report__val a, b;
	const char *pt;

	if (!r->opts.compact_labels)
		pp_report__print_profile_labels(r, out);
	for (uint32_t i = 0; i < r->agg->view.norder; i++)
		flat_sum += pp_node_flat(&g->nodes[r->agg->view.order[i]]);
	pp_report__format(r, flat_sum, &a);
	pp_report__format(r, r->total, &b);
	pp_percentage(flat_sum, r->total, pct, sizeof(pct));
	for (pt = pct; *pt == ' '; pt++)
		;
	pp_report__print_active_filters(r, out);
	fputs("Showing nodes accounting for ", out);
	pp_report__put_val(out, &a);
	fprintf(out, ", %s of ", pt);
	pp_report__put_val(out, &b);
	fputs(" total\n", out);
	pp_report__print_dropped(r, false, out);
}

/* "Dropped N nodes (cum <= V)": n of what, below fraction of the total. */
static void print_dropped_line(const struct pp_report *r, uint32_t n,
                               const char *what, const char *measure,
                               double fraction, FILE *out)
{
	struct pp_report__val v;

	pp_report__format(
	        r, pp_go_abs64(pp_go_int64((double)r->total * fraction)), &v);
	fprintf(out, "Dropped %u %s%s (%s <= ", n, what, n > 1 ? "s" : "",
	        measure);
	pp_report__put_val(out, &v);
	fputs(")\n", out);
}

void pp_report__print_dropped(const struct pp_report *r, bool edges, FILE *out)
{
	const struct pp_view *v = &r->agg->view;

	if (r->total == 0)
		return;
	if (v->dropped_nodes > 0)
		print_dropped_line(r, v->dropped_nodes, "node", "cum",
		                   pp_report__nodefraction(&r->opts), out);
	if (edges && v->dropped_edges > 0)
		print_dropped_line(r, v->dropped_edges, "edge", "freq",
		                   pp_report__edgefraction(&r->opts), out);
	if (v->norder > 0 && v->norder < v->orig_count)
		fprintf(out, "Showing top %u nodes out of %u\n", v->norder,
		        v->orig_count);
}
