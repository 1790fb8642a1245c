/* A view's lifecycle, its node names and the report order of its nodes
 * (pprof's graph.Nodes.Sort with flat or cum order). */
#include <stdio.h>
#include <string.h>

#include "graph/internal.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/regex.h"

/* Zeroed bytes kept after a regex subject (see set_names). */
#define REGEX_PAD 64

static int set_names(struct pp_view *v)
{
	struct pp_graph *g = v->graph;
	size_t used = 0, cap = 0;
	int err;

	pp_free(v->ctx, v->names);
	pp_free(v->ctx, v->name_buf);
	v->name_buf = NULL;
	/* One offset more than nodes: a name's length is the distance to
	 * the next, as names may hold NUL bytes. */
	v->names =
	        pp_malloc(v->ctx, ((size_t)g->nnodes + 1) * sizeof(*v->names));
	if (!v->names)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t n = 0; n < g->nnodes; n++) {
		size_t len = pp_node_name(g, &g->nodes[n], NULL, 0);

		if ((err = pp_grow(v->ctx, (void **)&v->name_buf, &cap,
		                   used + len + 1, 1)) < 0)
			return err;
		pp_node_name(g, &g->nodes[n], v->name_buf + used, len + 1);
		v->names[n] = used;
		used += len + 1;
	}
	v->names[g->nnodes] = used;
	/* Names are regex subjects (peek, list, check), and PCRE2's JIT
	 * reads whole vectors past a subject's end: defined bytes there. */
	if ((err = pp_grow(v->ctx, (void **)&v->name_buf, &cap,
	                   used + REGEX_PAD, 1)) < 0)
		return err;
	memset(v->name_buf + used, 0, cap - used);
	return 0;
}

int pp_view_set_graph(struct pp_view *v, struct pp_ctx *ctx, struct pp_graph *g)
{
	uint32_t n = g->nnodes ? g->nnodes : 1;

	v->ctx = ctx;
	v->graph = g;
	v->valid = false;
	pp_free(ctx, v->order);
	pp_free(ctx, v->kept);
	v->norder = 0;
	v->order = pp_malloc(ctx, n * sizeof(*v->order));
	v->kept = pp_calloc(ctx, n, sizeof(*v->kept));
	if (!v->order || !v->kept)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return set_names(v);
}

void pp_view_reset(struct pp_view *v)
{
	v->valid = false;
	v->norder = 0;
	if (v->kept)
		memset(v->kept, 0,
		       (v->graph->nnodes ? v->graph->nnodes : 1) *
		               sizeof(*v->kept));
}

void pp_view__release_visual(struct pp_view *v)
{
	if (v->tags) {
		pp_strtab_free(v->tags->strings);
		pp_free(v->ctx, v->tags->sample_label);
		pp_free(v->ctx, v->tags->tags);
		pp_free(v->ctx, pp_graph_tags__in(v->tags)->slots);
		pp_free(v->ctx, v->tags);
		v->tags = NULL;
	}
	pp_free(v->ctx, v->edge_dead);
	v->edge_dead = NULL;
}

void pp_view_release(struct pp_view *v)
{
	pp_view__release_visual(v);
	pp_free(v->ctx, v->order);
	pp_free(v->ctx, v->kept);
	pp_free(v->ctx, v->names);
	pp_free(v->ctx, v->name_buf);
	pp_free(v->ctx, v->edge_marks);
	pp_free(v->ctx, v->edge_pattern);
	memset(v, 0, sizeof(*v));
}

const char *pp_view_node_name(const struct pp_view *v, uint32_t n)
{
	return v->name_buf + v->names[n];
}

size_t pp_view_node_len(const struct pp_view *v, uint32_t n)
{
	return v->names[n + 1] - v->names[n] - 1;
}

int pp_view_name_cmp(const struct pp_view *v, uint32_t a, uint32_t b)
{
	return pp_bytes_cmp(pp_view_node_name(v, a), pp_view_node_len(v, a),
	                    pp_view_node_name(v, b), pp_view_node_len(v, b));
}

static bool same_str(const char *a, const char *b)
{
	return !a == !b && (!a || strcmp(a, b) == 0);
}

bool pp_view_current(const struct pp_view *v, bool visual,
                     const struct pp_trim_opts *o)
{
	const struct pp_trim_opts *m = &v->made_for;
	const char *want =
	        o->edge_regex ? pp_regex_pattern(o->edge_regex) : NULL;

	return v->graph && v->valid && v->visual == visual &&
	       m->nodecount == o->nodecount &&
	       m->nodefraction == o->nodefraction &&
	       m->edgefraction == o->edgefraction &&
	       m->cum_sort == o->cum_sort && m->all_edges == o->all_edges &&
	       same_str(v->edge_pattern, want) &&
	       same_str(m->tag_unit, o->tag_unit);
}

int pp_view__made_for(struct pp_view *v, bool visual,
                      const struct pp_trim_opts *o)
{
	char *pattern = NULL;

	v->valid = false;
	if (o->edge_regex &&
	    !(pattern = pp_strdup(v->ctx, pp_regex_pattern(o->edge_regex))))
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	pp_free(v->ctx, v->edge_pattern);
	v->edge_pattern = pattern;
	v->made_for = *o;
	v->made_for.edge_regex = NULL; /* borrowed: not kept */
	v->visual = visual;
	v->valid = true;
	return 0;
}

/* Append the n bytes at t to buf at *len, as far as they fit in size. */
static void put_bytes(char *buf, size_t size, size_t *len, const char *t,
                      size_t n)
{
	if (*len < size) {
		size_t k = n < size - *len ? n : size - *len;

		memcpy(buf + *len, t, k);
		*len += k;
	}
}

static void put_str(char *buf, size_t size, size_t *len,
                    const struct pp_profile *p, pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	put_bytes(buf, size, len, t, n);
}

/* fmt.Sprint of pprof's NodeInfo, its last-resort tie-breaker: its
 * length (the names whole, NUL bytes and all). */
static size_t info_string(const struct pp_view *v, const struct pp_node *n,
                          char *buf, size_t size)
{
	const struct pp_profile *p = v->graph->prof;
	char num[96];
	size_t len = 0;
	int w;

	put_bytes(buf, size, &len, "{", 1);
	put_str(buf, size, &len, p, n->info.name);
	w = snprintf(num, sizeof(num), "  %llu ",
	             (unsigned long long)n->info.address);
	put_bytes(buf, size, &len, num, (size_t)w);
	put_str(buf, size, &len, p, n->info.file);
	w = snprintf(num, sizeof(num), " %lld %lld ",
	             (long long)n->info.start_line, (long long)n->info.lineno);
	put_bytes(buf, size, &len, num, (size_t)w);
	put_str(buf, size, &len, p, n->info.objfile);
	put_bytes(buf, size, &len, "}", 1);
	return len;
}

int pp_view_info_cmp(const struct pp_view *v, uint32_t a, uint32_t b)
{
	char sa[1024], sb[1024];
	size_t la = info_string(v, &v->graph->nodes[a], sa, sizeof(sa));
	size_t lb = info_string(v, &v->graph->nodes[b], sb, sizeof(sb));

	return pp_bytes_cmp(sa, la, sb, lb);
}

static int compare_nodes(const struct pp_view *v, uint32_t a, uint32_t b,
                         bool cum)
{
	const struct pp_node *na = &v->graph->nodes[a],
	                     *nb = &v->graph->nodes[b];
	int c;

	if ((c = pp_go_abs_cmp_desc(cum ? na->cum : na->flat,
	                            cum ? nb->cum : nb->flat)) != 0 ||
	    (c = pp_view_name_cmp(v, a, b)) != 0 ||
	    (c = pp_go_abs_cmp_desc(cum ? na->flat : na->cum,
	                            cum ? nb->flat : nb->cum)) != 0)
		return c;
	return pp_view_info_cmp(v, a, b);
}

/* qsort has no context argument in C11; a small merge sort keeps the
 * view free of globals. */
static void sort_nodes(const struct pp_view *v, uint32_t *a, uint32_t *tmp,
                       size_t n, bool cum)
{
	size_t half, i, j, k;

	if (n < 2)
		return;
	if (n <= 8) {
		for (i = 1; i < n; i++) {
			uint32_t x = a[i];

			for (j = i;
			     j > 0 && compare_nodes(v, a[j - 1], x, cum) > 0;
			     j--)
				a[j] = a[j - 1];
			a[j] = x;
		}
		return;
	}
	half = n / 2;
	sort_nodes(v, a, tmp, half, cum);
	sort_nodes(v, a + half, tmp, n - half, cum);
	for (i = 0, j = half, k = 0; i < half && j < n;)
		tmp[k++] =
		        compare_nodes(v, a[j], a[i], cum) < 0 ? a[j++] : a[i++];
	while (i < half)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

int pp_view_select_order(struct pp_view *v, bool drop_negative, bool cum_sort)
{
	const struct pp_graph *g = v->graph;
	uint32_t *tmp;

	v->norder = 0;
	for (uint32_t n = 0; n < g->nnodes; n++) {
		const struct pp_node *node = &g->nodes[n];

		if (node->cum == 0 && node->flat == 0)
			continue;
		if (drop_negative &&
		    (node->flat < 0 || (node->flat == 0 && node->cum < 0)))
			continue;
		v->order[v->norder++] = n;
	}
	tmp = pp_malloc(v->ctx, (v->norder ? v->norder : 1) * sizeof(*tmp));
	if (!tmp)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	sort_nodes(v, v->order, tmp, v->norder, cum_sort);
	pp_free(v->ctx, tmp);
	return 0;
}

int pp_view_edge_cmp(const struct pp_view *v, uint32_t a, uint32_t b)
{
	const struct pp_edge *x = &v->graph->edges[a], *y = &v->graph->edges[b];
	int c;

	if (x->weight != y->weight)
		return pp_go_abs64(x->weight) > pp_go_abs64(y->weight) ? -1 : 1;
	if ((c = pp_view_name_cmp(v, x->src, y->src)) != 0)
		return c;
	return pp_view_name_cmp(v, x->dst, y->dst);
}
