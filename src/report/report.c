/* Report setup shared by every report: sample type, totals, the header
 * lines, and the trimmed graph that text and graph reports start from. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"
#include "util/path.h"
#include "util/regex.h"

int pp_report_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                  const struct pp_report_opts *opts, struct pp_report **out)
{
	struct pp_report *r;
	int err;

	*out = NULL;
	r = pp_calloc(ctx, 1, sizeof(*r));
	if (!r)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	r->ctx = ctx;
	r->prof = prof;
	r->opts = *opts;
	if (!r->opts.unit)
		r->opts.unit = "minimum";
	r->output_unit = r->opts.unit;
	if (r->opts.divide_by == 0) {
		err = pp_error(ctx, PP_EUSAGE, "zero divisor specified");
		goto fail;
	}
	if ((err = pp_profile_sample_index(prof, opts->sample_index,
	                                   &r->sample_index)) < 0)
		goto fail;
	r->sample_type =
	        pp_profile_str(prof, prof->sample_types[r->sample_index].type);
	{
		const char *u = pp_profile_str(
		        prof, prof->sample_types[r->sample_index].unit);
		size_t i, n = strlen(u);

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
	}
	r->ratio = 1 / r->opts.divide_by;
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
	pp_graph_free(r->graph);
	pp_free(r->ctx, r->graph_values);
	pp_tree_free(r->tree);
	pp_free(r->ctx, r->sample_unit);
	pp_free(r->ctx, r->order);
	pp_free(r->ctx, r->names);
	pp_free(r->ctx, r->name_buf);
	pp_free(r->ctx, r->kept);
	pp_free(r->ctx, r->edge_marks);
	pp_free(r->ctx, r->cached.edge_pattern);
	pp_free(r->ctx, r->num_units);
	pp_report__visual_release(r);
	pp_free(r->ctx, r);
}

int pp_report_header(struct pp_report *r, FILE *out)
{
	pp_report__print_profile_labels(r, out);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}

unsigned long long pp_report_graph_builds(const struct pp_report *r)
{
	return r->graph_builds;
}

int64_t pp_report__total(const struct pp_report *r)
{
	const struct pp_profile *p =
	        r->opts.total_profile ? r->opts.total_profile : r->prof;
	uint32_t nt = p->nsample_types;
	int64_t total = 0, div = 0, diff_total = 0, diff_div = 0;
	/* -diff_base: base samples carry pprof::base=true; pprof's
	 * computeTotal then reports percentages of the base. */
	pp_str base_key = pp_strtab_find(p->strings, "pprof::base", 11);
	pp_str yes = pp_strtab_find(p->strings, "true", 4);

	for (uint32_t s = 0; s < p->nsamples; s++) {
		const int64_t *v = p->values + (size_t)s * nt;
		int64_t x = pp_go_abs64(v[r->sample_index]);
		int64_t d = r->opts.mean ? v[0] : 0;

		total += x;
		div += d;
		if (base_key != PP_NONE && yes != PP_NONE) {
			const struct pp_sample *smp = &p->samples[s];

			for (uint32_t i = 0; i < smp->label_count; i++) {
				const struct pp_label *l =
				        &p->labels[smp->label_first + i];

				if (l->key == base_key && l->str == yes) {
					diff_total += x;
					diff_div += d;
					break;
				}
			}
		}
	}
	if (diff_total > 0) {
		total = diff_total;
		div = diff_div;
	}
	return div != 0 ? total / div : total;
}

void pp_report__format(const struct pp_report *r, int64_t v, char *buf,
                       size_t size)
{
	if (r->ratio > 0 && r->ratio != 1)
		v = pp_go_int64((double)v * r->ratio);
	pp_scaled_label(v, r->sample_unit, r->output_unit, buf, size);
}

int pp_report__tree(struct pp_report *r, const struct pp_tree **out)
{
	struct pp_graph_opts go = {0};
	int err;

	if (!r->tree) {
		go.sample_index = r->sample_index;
		go.granularity = r->opts.granularity;
		go.noinlines = r->opts.noinlines;
		go.columns = r->opts.showcolumns;
		r->graph_builds++;
		if ((err = pp_tree_new(r->ctx, r->prof, &go, &r->tree)) < 0)
			return err;
	}
	*out = r->tree;
	return 0;
}

/* ---- the trimmed graph --------------------------------------------------- */

static const char *node_name(const struct pp_report *r, uint32_t n)
{
	return r->name_buf + r->names[n];
}

/* Zeroed bytes kept after a regex subject (see compute_names). */
#define REGEX_PAD 64

int pp_report__compute_names(struct pp_report *r)
{
	struct pp_graph *g = r->graph;
	size_t used = 0, cap = 0;
	int err;

	pp_free(r->ctx, r->names);
	r->names = pp_malloc(r->ctx,
	                     (g->nnodes ? g->nnodes : 1) * sizeof(*r->names));
	if (!r->names)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t n = 0; n < g->nnodes; n++) {
		size_t len = pp_node_name(g, &g->nodes[n], NULL, 0);

		if ((err = pp_grow(r->ctx, (void **)&r->name_buf, &cap,
		                   used + len + 1, 1)) < 0)
			return err;
		pp_node_name(g, &g->nodes[n], r->name_buf + used, len + 1);
		r->names[n] = used;
		used += len + 1;
	}
	/* Names are regex subjects (peek, list, check), and PCRE2's JIT
	 * reads whole vectors past a subject's end: defined bytes there. */
	if ((err = pp_grow(r->ctx, (void **)&r->name_buf, &cap,
	                   used + REGEX_PAD, 1)) < 0)
		return err;
	memset(r->name_buf + used, 0, cap - used);
	return 0;
}

/* fmt.Sprint of pprof's NodeInfo, its last-resort tie-breaker. */
static void info_string(const struct pp_report *r, const struct pp_node *n,
                        char *buf, size_t size)
{
	const struct pp_profile *p = r->prof;

	snprintf(buf, size, "{%s  %llu %s %lld %lld %s}",
	         pp_profile_str(p, n->info.name),
	         (unsigned long long)n->info.address,
	         pp_profile_str(p, n->info.file), (long long)n->info.start_line,
	         (long long)n->info.lineno, pp_profile_str(p, n->info.objfile));
}

int pp_report__info_cmp(const struct pp_report *r, uint32_t a, uint32_t b)
{
	char sa[1024], sb[1024];

	info_string(r, &r->graph->nodes[a], sa, sizeof(sa));
	info_string(r, &r->graph->nodes[b], sb, sizeof(sb));
	return strcmp(sa, sb);
}

struct sort_ctx {
	const struct pp_report *r;
	bool cum;
};

static int compare_nodes(const struct pp_report *r, uint32_t a, uint32_t b,
                         bool cum)
{
	const struct pp_node *na = &r->graph->nodes[a],
	                     *nb = &r->graph->nodes[b];
	int c;
	char sa[1024], sb[1024];

	if ((c = pp_go_abs_cmp_desc(cum ? na->cum : na->flat,
	                            cum ? nb->cum : nb->flat)) != 0 ||
	    (c = strcmp(node_name(r, a), node_name(r, b))) != 0 ||
	    (c = pp_go_abs_cmp_desc(cum ? na->flat : na->cum,
	                            cum ? nb->flat : nb->cum)) != 0)
		return c;
	info_string(r, na, sa, sizeof(sa));
	info_string(r, nb, sb, sizeof(sb));
	return strcmp(sa, sb);
}

/* qsort has no context argument in C11; a small merge sort keeps the
 * report free of globals. */
static void sort_nodes(const struct pp_report *r, uint32_t *v, uint32_t *tmp,
                       size_t n, bool cum)
{
	size_t half, i, j, k;

	if (n < 2)
		return;
	if (n <= 8) {
		for (i = 1; i < n; i++) {
			uint32_t x = v[i];

			for (j = i;
			     j > 0 && compare_nodes(r, v[j - 1], x, cum) > 0;
			     j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	half = n / 2;
	sort_nodes(r, v, tmp, half, cum);
	sort_nodes(r, v + half, tmp, n - half, cum);
	for (i = 0, j = half, k = 0; i < half && j < n;)
		tmp[k++] =
		        compare_nodes(r, v[j], v[i], cum) < 0 ? v[j++] : v[i++];
	while (i < half)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* The nodes that have any value, in report order. */
int pp_report__select_order(struct pp_report *r)
{
	struct pp_graph *g = r->graph;
	uint32_t *tmp;

	r->norder = 0;
	for (uint32_t n = 0; n < g->nnodes; n++) {
		const struct pp_node *node = &g->nodes[n];

		if (node->cum == 0 && node->flat == 0)
			continue;
		if (r->opts.drop_negative &&
		    (node->flat < 0 || (node->flat == 0 && node->cum < 0)))
			continue;
		r->order[r->norder++] = n;
	}
	tmp = pp_malloc(r->ctx, (r->norder ? r->norder : 1) * sizeof(*tmp));
	if (!tmp)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	sort_nodes(r, r->order, tmp, r->norder, r->opts.cum_sort);
	pp_free(r->ctx, tmp);
	return 0;
}

void pp_report__select_output_unit(struct pp_report *r)
{
	pp_report__choose_output_unit(r, false);
}

void pp_report__choose_output_unit(struct pp_report *r, bool integral)
{
	struct pp_graph *g = r->graph;
	int64_t min_value = 0, max_value = r->total;
	const char *min_unit, *max_unit, *unit;

	r->output_unit = r->opts.unit;
	if (strcmp(r->opts.unit, "minimum") != 0 || r->norder == 0)
		return;
	for (uint32_t i = 0; i < r->norder; i++) {
		const struct pp_node *n = &g->nodes[r->order[i]];
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
	pp_scale(min_value, r->sample_unit, "minimum", &min_unit);
	pp_scale(max_value, r->sample_unit, "minimum", &max_unit);
	unit = min_unit;
	if (!integral && strcmp(min_unit, max_unit) != 0 &&
	    min_value * 100 < max_value)
		pp_scale(100 * min_value, r->sample_unit, "minimum", &unit);
	r->output_unit = *unit ? unit : r->sample_unit;
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

int pp_report__size_order(struct pp_report *r)
{
	uint32_t n = r->graph->nnodes ? r->graph->nnodes : 1;

	pp_free(r->ctx, r->order);
	pp_free(r->ctx, r->kept);
	r->order = pp_malloc(r->ctx, n * sizeof(*r->order));
	r->kept = pp_calloc(r->ctx, n, sizeof(*r->kept));
	if (!r->order || !r->kept)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* Would a graph built with a hold the values of one built with b? Which
 * edges each records does not matter: restoring forgets them. */
static bool same_aggregate(const struct pp_graph_opts *a,
                           const struct pp_graph_opts *b)
{
	return a->sample_index == b->sample_index && a->mean == b->mean &&
	       a->granularity == b->granularity &&
	       a->noinlines == b->noinlines && a->columns == b->columns &&
	       a->call_tree == b->call_tree && a->obj_names == b->obj_names &&
	       a->drop_negative == b->drop_negative && !a->nodes_only &&
	       !b->nodes_only;
}

int pp_report__graph(struct pp_report *r, const struct pp_graph_opts *go)
{
	int err;

	r->cached.valid = false;
	r->output_unit = r->opts.unit;
	if (r->graph && r->graph_values && same_aggregate(&r->graph_opts, go)) {
		/* The same aggregate: its node table and names stand. */
		pp_graph_restore_values(r->graph, r->graph_values);
		r->graph->opts.edges = go->edges;
		return 0;
	}
	pp_graph_free(r->graph);
	r->graph = NULL;
	pp_free(r->ctx, r->graph_values);
	r->graph_values = NULL;
	r->graph_builds++;
	if ((err = pp_graph_new(r->ctx, r->prof, go, &r->graph)) < 0)
		return err;
	/* A call tree's edges are its shape: saved values, which forget
	 * edges, cannot stand for it; it is built again when asked for. */
	if (!go->nodes_only && !go->call_tree) {
		r->graph_opts = *go;
		if ((err = pp_graph_save_values(r->graph, &r->graph_values)) <
		    0)
			return err;
	}
	return pp_report__compute_names(r);
}

struct pp_report__cache_key pp_report__cache_key(const struct pp_report *r,
                                                 bool visual)
{
	struct pp_report__cache_key k;

	memset(&k, 0, sizeof(k));
	k.valid = true;
	k.visual = visual;
	k.all_edges = r->all_edges;
	k.trim = r->opts.trim;
	k.cum_sort = r->opts.cum_sort;
	k.nodecount = r->opts.nodecount;
	k.nodefraction = r->opts.nodefraction;
	k.edgefraction = r->opts.edgefraction;
	return k;
}

bool pp_report__cache_hit(const struct pp_report *r,
                          const struct pp_report__cache_key *k)
{
	const struct pp_report__cache_key *c = &r->cached;

	const char *want =
	        r->edge_regex ? pp_regex_pattern(r->edge_regex) : NULL;

	if (!c->edge_pattern != !want ||
	    (want && strcmp(c->edge_pattern, want) != 0))
		return false;
	return r->graph && c->valid && c->visual == k->visual &&
	       c->all_edges == k->all_edges && c->trim == k->trim &&
	       c->cum_sort == k->cum_sort && c->nodecount == k->nodecount &&
	       c->nodefraction == k->nodefraction &&
	       c->edgefraction == k->edgefraction;
}

void pp_report__cutoffs(const struct pp_report *r, double nodefraction,
                        double edgefraction, int64_t *node_cutoff,
                        int64_t *edge_cutoff)
{
	pp_graph_cutoffs(r->graph, nodefraction, edgefraction,
	                 r->opts.drop_negative, node_cutoff, edge_cutoff);
}

uint32_t pp_report__keep_over(struct pp_report *r, int64_t node_cutoff)
{
	return pp_graph_keep_over(r->graph, r->order, r->norder, node_cutoff,
	                          r->kept);
}

/* r->edge_marks: the kept nodes whose names match r->edge_regex. */
static int mark_edges(struct pp_report *r)
{
	const struct pp_graph *g = r->graph;

	pp_free(r->ctx, r->edge_marks);
	r->edge_marks = pp_calloc(r->ctx, (size_t)g->nnodes + 1, sizeof(bool));
	if (!r->edge_marks)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < r->norder; i++) {
		uint32_t n = r->order[i];

		r->edge_marks[n] = pp_regex_matchz(r->edge_regex,
		                                   pp_report__node_name(r, n));
	}
	r->graph->edge_marks = r->edge_marks;
	return 0;
}

int pp_report__cache_store(struct pp_report *r,
                           const struct pp_report__cache_key *key)
{
	char *pattern = NULL;

	if (r->edge_regex &&
	    !(pattern = pp_strdup(r->ctx, pp_regex_pattern(r->edge_regex))))
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	pp_free(r->ctx, r->cached.edge_pattern);
	r->cached = *key;
	r->cached.edge_pattern = pattern;
	return 0;
}

int pp_report__trimmed_graph(struct pp_report *r, bool visual)
{
	struct pp_report__cache_key key = pp_report__cache_key(r, visual);
	struct pp_graph_opts go = {0};
	struct pp_graph *g;
	int64_t node_cutoff, edge_cutoff;
	int nodecount = r->opts.nodecount;
	double nodefraction = r->opts.nodefraction;
	double edgefraction = r->opts.edgefraction;
	int err;

	if (pp_report__cache_hit(r, &key))
		return 0;
	if (!r->opts.trim) {
		nodecount = 0;
		nodefraction = edgefraction = 0;
	}
	if (nodecount < 0)
		nodecount = 0;
	/* Values first; edges (only those the "(inline)" marks need) are
	 * added in one last pass over the final node set, since keeping a
	 * subset of nodes never changes the values of the nodes kept. */
	pp_report__graph_opts(r, PP_EDGES_NONE, &go);
	if ((err = pp_report__graph(r, &go)) < 0 ||
	    (err = pp_report__size_order(r)) < 0)
		return err;
	g = r->graph;
	pp_report__cutoffs(r, nodefraction, edgefraction, &node_cutoff,
	                   &edge_cutoff);
	r->dropped_nodes = 0;

	if ((err = pp_report__select_order(r)) < 0)
		return err;
	if (node_cutoff > 0) {
		uint32_t nkept = pp_report__keep_over(r, node_cutoff);

		if (nkept != r->norder) {
			r->dropped_nodes = r->norder - nkept;
			pp_graph_drop_unkept(g, r->kept);
			if ((err = pp_report__select_order(r)) < 0)
				return err;
		}
	}
	r->orig_count = r->norder;
	if (nodecount > 0 && (uint32_t)nodecount < r->norder) {
		memset(r->kept, 0, g->nnodes * sizeof(*r->kept));
		for (int i = 0; i < nodecount; i++)
			r->kept[r->order[i]] = true;
		pp_graph_drop_unkept(g, r->kept);
		if ((err = pp_report__select_order(r)) < 0)
			return err;
	}
	if (r->all_edges) {
		/* Trees print every caller and callee of a kept node; paths
		 * through dropped nodes become residual edges. */
		enum pp_edge_mode mode = PP_EDGES_ALL;

		memset(r->kept, 0, g->nnodes * sizeof(*r->kept));
		for (uint32_t i = 0; i < r->norder; i++)
			r->kept[r->order[i]] = true;
		if (r->edge_regex) {
			if ((err = mark_edges(r)) < 0)
				return err;
			mode = PP_EDGES_MARKED;
		}
		if ((err = pp_graph_accumulate(g, r->kept, mode)) < 0)
			return err;
	} else if ((err = pp_graph_add_inline_edges(g, r->order, r->norder,
	                                            r->kept)) < 0) {
		return err;
	}
	r->edge_cutoff = edge_cutoff;
	pp_graph_mark_edges(g, edge_cutoff);
	pp_report__select_output_unit(r);
	return pp_report__cache_store(r, &key);
}

const char *pp_report__node_name(const struct pp_report *r, uint32_t n)
{
	return node_name(r, n);
}

/* ---- header lines -------------------------------------------------------- */

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
	char buf[64], tot[64], pct[32];

	if (p->nmappings > 0) {
		if (p->mappings[0].file)
			fprintf(out, "File: %s\n",
			        pp_path_base(pp_profile_str(
			                p, p->mappings[0].file)));
		if (p->mappings[0].build_id)
			fprintf(out, "Build ID: %s\n",
			        pp_profile_str(p, p->mappings[0].build_id));
	}
	for (uint32_t i = 0; i < p->ncomments; i++) {
		const char *c = pp_profile_str(p, p->comments[i]);

		if (c[0] != '#')
			fprintf(out, "%s\n", c);
	}
	/* pprof leaves the line out for a sample type with no name. */
	if (r->opts.mean || r->sample_type[0])
		fprintf(out, "Type: %s%s\n", r->opts.mean ? "mean_" : "",
		        r->sample_type);
	if (p->time_nanos != 0)
		print_time(out, p->time_nanos);
	if (p->duration_nanos != 0) {
		const char *unit;
		double total_ns;

		pp_scaled_label(p->duration_nanos, "nanoseconds", "auto", buf,
		                sizeof(buf));
		pp_report__format(r, r->total, tot, sizeof(tot));
		total_ns = pp_scale(r->total, r->sample_unit, "nanoseconds",
		                    &unit);
		pct[0] = '\0';
		if (strcmp(unit, "ns") == 0 && total_ns != 0) {
			char p2[24];

			pp_percentage((int64_t)total_ns, p->duration_nanos, p2,
			              sizeof(p2));
			snprintf(pct, sizeof(pct), "(%s)", p2);
		}
		fprintf(out, "Duration: %s, Total samples = %s %s\n", buf, tot,
		        pct);
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
	const struct pp_graph *g = r->graph;
	int64_t flat_sum = 0;
	char a[64], b[64], pct[32];
	const char *pt;

	if (!r->opts.compact_labels)
		pp_report__print_profile_labels(r, out);
	for (uint32_t i = 0; i < r->norder; i++)
		flat_sum += pp_node_flat(&g->nodes[r->order[i]]);
	pp_report__format(r, flat_sum, a, sizeof(a));
	pp_report__format(r, r->total, b, sizeof(b));
	pp_percentage(flat_sum, r->total, pct, sizeof(pct));
	for (pt = pct; *pt == ' '; pt++)
		;
	pp_report__print_active_filters(r, out);
	fprintf(out, "Showing nodes accounting for %s, %s of %s total\n", a, pt,
	        b);
	if (r->total != 0) {
		if (r->dropped_nodes > 0) {
			pp_report__format(
			        r,
			        pp_go_abs64(pp_go_int64((double)r->total *
			                                r->opts.nodefraction)),
			        a, sizeof(a));
			fprintf(out, "Dropped %u node%s (cum <= %s)\n",
			        r->dropped_nodes,
			        r->dropped_nodes > 1 ? "s" : "", a);
		}
		if (r->norder > 0 && r->norder < r->orig_count)
			fprintf(out, "Showing top %u nodes out of %u\n",
			        r->norder, r->orig_count);
	}
}
