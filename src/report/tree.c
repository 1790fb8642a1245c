/*
 * The `tree` and `peek` reports: each node of the trimmed graph with its
 * callers above and its callees below, as pprof's printTree. peek is tree
 * restricted to the nodes whose names match a regex, untrimmed.
 */
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"
#include "util/regex.h"

#define SEPARATOR                                                              \
	"----------------------------------------------------------+---------" \
	"----"
#define LEGEND                                                                 \
	"      flat  flat%   sum%        cum   cum%   calls calls% + context " \
	"\t \t "

/* Edges of each node, in and out, as ranges of one index array. */
struct adjacency {
	uint32_t *in_first, *out_first; /* nnodes + 1 each */
	uint32_t *in, *out;
};

/* Is edge e under the edge cutoff? pprof trims the edges into the nodes
 * it lists only: one into a node it leaves out (worth nothing, under
 * -base or -mean) stays among its caller's callees whatever its weight. */
static bool edge_cut(const struct pp_report *r, const bool *listed, uint32_t e)
{
	const struct pp_edge *edge = &r->agg->graph->edges[e];

	return listed[edge->dst] &&
	       pp_go_abs64(edge->weight) < r->agg->view.edge_cutoff;
}

static int adjacency_build(const struct pp_report *r, struct adjacency *a)
{
	const struct pp_graph *g = r->agg->graph;
	const struct pp_view *v = &r->agg->view;
	size_t nn = (size_t)g->nnodes + 1, ne = g->nedges ? g->nedges : 1;
	bool *listed = pp_calloc(r->ctx, nn, sizeof(bool));

	a->in_first = pp_calloc(r->ctx, nn + 1, sizeof(uint32_t));
	a->out_first = pp_calloc(r->ctx, nn + 1, sizeof(uint32_t));
	a->in = pp_malloc(r->ctx, ne * sizeof(uint32_t));
	a->out = pp_malloc(r->ctx, ne * sizeof(uint32_t));
	if (!listed || !a->in_first || !a->out_first || !a->in || !a->out) {
		pp_free(r->ctx, listed);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < v->norder; i++)
		listed[v->order[i]] = true;
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (edge_cut(r, listed, e))
			continue;
		a->in_first[g->edges[e].dst + 1]++;
		a->out_first[g->edges[e].src + 1]++;
	}
	for (size_t n = 0; n < nn; n++) {
		a->in_first[n + 1] += a->in_first[n];
		a->out_first[n + 1] += a->out_first[n];
	}
	/* Fill forward, each start advancing to its end, then shift the
	 * starts back into place. */
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (edge_cut(r, listed, e))
			continue;
		a->in[a->in_first[g->edges[e].dst]++] = e;
		a->out[a->out_first[g->edges[e].src]++] = e;
	}
	for (size_t n = nn; n > 0; n--) {
		a->in_first[n] = a->in_first[n - 1];
		a->out_first[n] = a->out_first[n - 1];
	}
	a->in_first[0] = a->out_first[0] = 0;
	pp_free(r->ctx, listed);
	return 0;
}

static void adjacency_release(const struct pp_report *r, struct adjacency *a)
{
	pp_free(r->ctx, a->in_first);
	pp_free(r->ctx, a->out_first);
	pp_free(r->ctx, a->in);
	pp_free(r->ctx, a->out);
}

/* pprof's edge order: heavier first, then by caller name, then callee. */
static int compare_edges(const struct pp_report *r, uint32_t x, uint32_t y)
{
	const struct pp_edge *a = &r->agg->graph->edges[x],
	                     *b = &r->agg->graph->edges[y];
	int c;

	if ((c = pp_go_abs_cmp_desc(a->weight, b->weight)) != 0)
		return c;
	if ((c = pp_view_name_cmp(&r->agg->view, a->src, b->src)) != 0)
		return c;
	return pp_view_name_cmp(&r->agg->view, a->dst, b->dst);
}

/* Edge lists per node are short: insertion sort. */
static void sort_edges(const struct pp_report *r, uint32_t *v, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = v[i], j;

		for (j = i; j > 0 && compare_edges(r, v[j - 1], x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void print_edges(const struct pp_report *r, uint32_t *v, uint32_t n,
                        int64_t cum, bool callers, bool json, FILE *out)
{
	sort_edges(r, v, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct pp_edge *e = &r->agg->graph->edges[v[i]];
		uint32_t other = callers ? e->src : e->dst;
		struct pp_report__val w;
		char pct[32];
		const char *p = pct;

		pp_report__format(r, e->weight, &w);

		pp_percentage(e->weight, cum, pct, sizeof(pct));
		if (!json) {
			pp_report__put_val_padded(out, &w, 50);
			fprintf(out, " %s |   ", pct);
			pp_report__put_node_name(r, other, out);
			fprintf(out, "%s\n", e->is_inline ? " (inline)" : "");
			continue;
		}
		while (*p == ' ')
			p++;
		fprintf(out, "%s{\"name\":", i ? "," : "");
		pp_report_put_json_bytes(out, pp_report__node_name(r, other),
		                         pp_report__node_len(r, other));
		fprintf(out,
		        ",\"value\":%lld,\"value_str\":", (long long)e->weight);
		pp_report__put_json_val(out, &w);
		fputs(",\"pct\":", out);
		pp_report_put_json_string(out, p);
		fprintf(out, ",\"inline\":%s}",
		        e->is_inline ? "true" : "false");
	}
}

/* One node of the tree as JSON (see docs/web-api.md, /api/peek). */
static void put_json_node(struct pp_report *r, struct adjacency *adj,
                          uint32_t n, int64_t flat_sum, bool first, FILE *out)
{
	const struct pp_node *node = &r->agg->graph->nodes[n];
	int64_t flat = pp_node_flat(node), cum = pp_node_cum(node);
	struct pp_report__val val;
	char buf[32];
	const char *p;

	fprintf(out, "%s\n{\"name\":", first ? "" : ",");
	pp_report_put_json_bytes(out, pp_report__node_name(r, n),
	                         pp_report__node_len(r, n));
	fprintf(out, ",\"flat\":%lld,\"flat_str\":", (long long)flat);
	pp_report__format(r, flat, &val);
	pp_report__put_json_val(out, &val);
	fprintf(out, ",\"cum\":%lld,\"cum_str\":", (long long)cum);
	pp_report__format(r, cum, &val);
	pp_report__put_json_val(out, &val);
	for (int k = 0; k < 3; k++) {
		static const char *const names[] = {"flat_pct", "sum_pct",
		                                    "cum_pct"};
		int64_t v = k == 0 ? flat : k == 1 ? flat_sum : cum;

		pp_percentage(v, r->total, buf, sizeof(buf));
		for (p = buf; *p == ' '; p++)
			;
		fprintf(out, ",\"%s\":", names[k]);
		pp_report_put_json_string(out, p);
	}
	fputs(",\"callers\":[", out);
	print_edges(r, adj->in + adj->in_first[n],
	            adj->in_first[n + 1] - adj->in_first[n], cum, true, true,
	            out);
	fputs("],\"callees\":[", out);
	print_edges(r, adj->out + adj->out_first[n],
	            adj->out_first[n + 1] - adj->out_first[n], cum, false, true,
	            out);
	fputs("]}", out);
}

static int tree_report(struct pp_report *r, const char *symbol, bool json,
                       FILE *out);

int pp_report_tree(struct pp_report *r, const char *symbol, FILE *out)
{
	return tree_report(r, symbol, false, out);
}

int pp_report_tree_json(struct pp_report *r, const char *symbol, FILE *out)
{
	return tree_report(r, symbol, true, out);
}

static int tree_report(struct pp_report *r, const char *symbol, bool json,
                       FILE *out)
{
	struct pp_regex *re = NULL;
	struct adjacency adj = {0};
	const struct pp_graph *g;
	int64_t flat_sum = 0;
	uint32_t matched = 0, printed = 0;
	struct pp_trim_opts o;
	int err;

	if (symbol && (err = pp_regex_compile(r->ctx, "parsing argument regexp",
	                                      symbol, &re)) < 0)
		return err;
	/* As pprof: peek never trims (a matching node must not be cut
	 * away), and a tree shows 80 nodes unless told otherwise; both
	 * print every edge of the nodes shown (peek: of the matching ones).
	 * The report's options stay as they are for the reports after. */
	pp_report__trim_opts(r, false, &o);
	if (symbol) {
		o.nodecount = 0;
		o.nodefraction = o.edgefraction = 0;
		o.edge_regex = re;
	} else if (!r->opts.notrim) {
		o.nodecount = pp_report__nodecount(&r->opts, 80);
	}
	o.all_edges = true;
	if ((err = pp_report__view(r, false, &o)) < 0 ||
	    (err = adjacency_build(r, &adj)) < 0)
		goto done;
	g = r->agg->graph;
	/* pprof fails before printing anything when nothing matches. */
	for (uint32_t i = 0; re && i < r->agg->view.norder; i++)
		matched += pp_regex_match(
		        re, pp_report__node_name(r, r->agg->view.order[i]),
		        pp_report__node_len(r, r->agg->view.order[i]));
	if (re && matched == 0) {
		err = pp_error(r->ctx, PP_ENOTFOUND,
		               "no matches found for regexp: %s", symbol);
		goto done;
	}
	if (json) {
		fputc('{', out);
		if ((err = pp_report__put_json_common(r, out)) < 0)
			goto done;
		fputs(",\"nodes\":[", out);
	} else {
		pp_report__print_labels(r, out);
		fprintf(out, "%s\n%s\n", SEPARATOR, LEGEND);
	}
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		uint32_t n = r->agg->view.order[i];
		const struct pp_node *node = &g->nodes[n];
		int64_t flat = pp_node_flat(node), cum = pp_node_cum(node);
		struct pp_report__val fs, cs;
		char fp[32], sp[32], cp[32];

		if (re && !pp_regex_match(re, pp_report__node_name(r, n),
		                          pp_report__node_len(r, n)))
			continue;
		if (json) {
			flat_sum += flat;
			put_json_node(r, &adj, n, flat_sum, printed++ == 0,
			              out);
			continue;
		}
		fprintf(out, "%s\n", SEPARATOR);
		print_edges(r, adj.in + adj.in_first[n],
		            adj.in_first[n + 1] - adj.in_first[n], cum, true,
		            false, out);
		flat_sum += flat;
		pp_report__format(r, flat, &fs);
		pp_report__format(r, cum, &cs);
		pp_percentage(flat, r->total, fp, sizeof(fp));
		pp_percentage(flat_sum, r->total, sp, sizeof(sp));
		pp_percentage(cum, r->total, cp, sizeof(cp));
		pp_report__put_val_padded(out, &fs, 10);
		fprintf(out, " %s %s ", fp, sp);
		pp_report__put_val_padded(out, &cs, 10);
		fprintf(out, " %s                | ", cp);
		pp_report__put_node_name(r, n, out);
		fputc('\n', out);
		print_edges(r, adj.out + adj.out_first[n],
		            adj.out_first[n + 1] - adj.out_first[n], cum, false,
		            false, out);
	}
	if (json)
		fputs("]}\n", out);
	else if (r->agg->view.norder > 0)
		fprintf(out, "%s\n", SEPARATOR);
done:
	adjacency_release(r, &adj);
	pp_regex_free(re);
	return err;
}
