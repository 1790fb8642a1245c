/*
 * The trimmed graph of visual reports (dot, svg, png, pdf), as pprof's
 * newTrimmedGraph builds it in visual mode: cut nodes under nodefraction,
 * sort by entropy score, keep the first nodecount nodes counting each
 * node's tag nodelets, rebuild with the kept nodes (paths through dropped
 * ones become residual edges), then drop edges under edgefraction and the
 * residual edges made redundant by another path.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"

#define MAX_NODELETS 4

/* ---- label tags ---------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* pprof's joinLabels: a sample's string labels as sorted "key:value",
 * joined by a literal "\n"; pprof::base (diff marks) is left out. */
static int sample_labels(struct pp_report *r, struct pp_visual_tags *vt)
{
	const struct pp_profile *p = r->prof;
	pp_str base = pp_strtab_find(p->strings, "pprof::base", 11);
	char **parts = NULL, *joined = NULL;
	size_t cap = 0, jcap = 0;
	int err = 0;

	vt->sample_label = pp_calloc(r->ctx, p->nsamples ? p->nsamples : 1,
	                             sizeof(*vt->sample_label));
	if (!vt->sample_label)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		size_t n = 0, len = 0;

		for (uint32_t i = 0; i < smp->label_count; i++) {
			const struct pp_label *l =
			        &p->labels[smp->label_first + i];
			const char *k = pp_profile_str(p, l->key);
			const char *v = pp_profile_str(p, l->str);
			size_t sz = strlen(k) + strlen(v) + 2;

			if (l->str == 0 || l->key == base)
				continue;
			if ((err = pp_grow(r->ctx, (void **)&parts, &cap, n + 1,
			                   sizeof(*parts))) < 0)
				goto done;
			parts[n] = pp_malloc(r->ctx, sz);
			if (!parts[n]) {
				err = pp_error(r->ctx, PP_ENOMEM,
				               "out of memory");
				goto done;
			}
			snprintf(parts[n], sz, "%s:%s", k, v);
			len += sz + 2;
			n++;
		}
		if (n == 0)
			continue;
		if (n > 1)
			qsort(parts, n, sizeof(*parts), cmp_str);
		if ((err = pp_grow(r->ctx, (void **)&joined, &jcap, len + 1,
		                   1)) < 0)
			goto freeparts;
		joined[0] = '\0';
		len = 0;
		for (size_t i = 0; i < n; i++) {
			size_t pl = strlen(parts[i]);

			if (i) {
				memcpy(joined + len, "\\n", 2);
				len += 2;
			}
			memcpy(joined + len, parts[i], pl);
			len += pl;
		}
		vt->sample_label[s] =
		        pp_strtab_intern(vt->strings, joined, len);
		if (vt->sample_label[s] == PP_NONE)
			err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
	freeparts:
		for (size_t i = 0; i < n; i++)
			pp_free(r->ctx, parts[i]);
		if (err < 0)
			goto done;
	}
done:
	pp_free(r->ctx, parts);
	pp_free(r->ctx, joined);
	return err;
}

static uint32_t tag_hash(uint32_t node, uint32_t label, uint32_t name)
{
	uint64_t h = ((uint64_t)node << 32 | label) * 0x9E3779B97F4A7C15ull;

	h ^= (uint64_t)name * 0xC2B2AE3D27D4EB4Full;
	return (uint32_t)(h >> 32);
}

/* The tag (node, label set, numeric name or PP_NONE), created empty. */
static int tag_slot(struct pp_report *r, struct pp_visual_tags *vt,
                    uint32_t node, uint32_t label, uint32_t name,
                    struct pp_visual_tag **out)
{
	uint32_t j;
	int err;

	if ((uint64_t)(vt->ntags + 1) * 2 > vt->nslots) {
		uint32_t ns = vt->nslots ? vt->nslots * 2 : 256;
		uint32_t *slots = pp_calloc(r->ctx, ns, sizeof(*slots));

		if (!slots)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		for (uint32_t t = 0; t < vt->ntags; t++) {
			j = tag_hash(vt->tags[t].node, vt->tags[t].label,
			             vt->tags[t].name) &
			    (ns - 1);
			while (slots[j])
				j = (j + 1) & (ns - 1);
			slots[j] = t + 1;
		}
		pp_free(r->ctx, vt->slots);
		vt->slots = slots;
		vt->nslots = ns;
	}
	j = tag_hash(node, label, name) & (vt->nslots - 1);
	while (vt->slots[j]) {
		struct pp_visual_tag *t = &vt->tags[vt->slots[j] - 1];

		if (t->node == node && t->label == label && t->name == name) {
			*out = t;
			return 0;
		}
		j = (j + 1) & (vt->nslots - 1);
	}
	if ((err = pp_grow(r->ctx, (void **)&vt->tags, &vt->cap,
	                   (size_t)vt->ntags + 1, sizeof(*vt->tags))) < 0)
		return err;
	memset(&vt->tags[vt->ntags], 0, sizeof(vt->tags[0]));
	vt->tags[vt->ntags].node = node;
	vt->tags[vt->ntags].label = label;
	vt->tags[vt->ntags].name = name;
	vt->slots[j] = vt->ntags + 1;
	*out = &vt->tags[vt->ntags++];
	return 0;
}

/* Add w to node n's tags from sample s: its label set's tag (if it has
 * labels) and one numeric tag per "bytes" value, as pprof's addSample. */
static int add_tags(struct pp_report *r, uint32_t s, uint32_t n, int64_t w,
                    int64_t dw, bool flat)
{
	struct pp_visual_tags *vt = r->tags;
	const struct pp_profile *p = r->prof;
	const struct pp_sample *smp = &p->samples[s];
	uint32_t label = vt->sample_label[s];
	struct pp_visual_tag *t;
	int err;

	if (label != 0) {
		if ((err = tag_slot(r, vt, n, label, PP_NONE, &t)) < 0)
			return err;
		*(flat ? &t->flat : &t->cum) += w;
		*(flat ? &t->flat_div : &t->cum_div) += dw;
	}
	if (vt->bytes_key == PP_NONE)
		return 0;
	for (uint32_t i = 0; i < smp->label_count; i++) {
		const struct pp_label *l = &p->labels[smp->label_first + i];
		const char *unit;
		char buf[64];
		uint32_t name;

		if (l->key != vt->bytes_key || l->str != 0)
			continue;
		unit = l->num_unit ? pp_profile_str(p, l->num_unit) : "bytes";
		pp_scaled_label(l->num, unit, r->opts.unit, buf, sizeof(buf));
		name = pp_strtab_intern(vt->strings, buf, strlen(buf));
		if (name == PP_NONE)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		if ((err = tag_slot(r, vt, n, label, name, &t)) < 0)
			return err;
		if (!t->unit) {
			t->value = l->num;
			t->unit = unit;
		}
		*(flat ? &t->flat : &t->cum) += w;
		*(flat ? &t->flat_div : &t->cum_div) += dw;
	}
	return 0;
}

/* The label tags of the kept nodes, walking each sample as accumulation
 * does: cum once per node and sample, flat on the last kept frame unless
 * dropped frames follow it. */
static int accumulate_tags(struct pp_report *r, const bool *kept)
{
	struct pp_visual_tags *vt = r->tags;
	const struct pp_graph *g = r->graph;
	const struct pp_profile *p = r->prof;
	uint32_t *seen = NULL, stamp = 0;
	int err = 0;

	vt->ntags = 0;
	if (vt->nslots)
		memset(vt->slots, 0, (size_t)vt->nslots * sizeof(*vt->slots));
	seen = pp_calloc(r->ctx, g->nnodes ? g->nnodes : 1, sizeof(*seen));
	if (!seen)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = pp_profile_sample_values(p, s);
		const uint32_t *locs = p->sample_locs + smp->loc_first;
		int64_t w = vals[r->sample_index];
		int64_t dw = r->opts.mean ? vals[0] : 0;
		uint32_t parent = PP_NONE;
		bool residual = false;

		if ((vt->sample_label[s] == 0 && smp->label_count == 0) ||
		    (w == 0 && dw == 0))
			continue;
		stamp++;
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = locs[i];

			for (uint32_t k = g->loc_node_first[l + 1];
			     k-- > g->loc_node_first[l];) {
				uint32_t n = g->loc_nodes[k];

				if (kept && !kept[n]) {
					residual = true;
					continue;
				}
				if (seen[n] != stamp) {
					seen[n] = stamp;
					if ((err = add_tags(r, s, n, w, dw,
					                    false)) < 0)
						goto done;
				}
				parent = n;
				residual = false;
			}
		}
		if (parent != PP_NONE && !residual &&
		    (err = add_tags(r, s, parent, w, dw, true)) < 0)
			goto done;
	}
done:
	pp_free(r->ctx, seen);
	return err;
}

static void trim_tags(struct pp_report *r, int64_t cutoff)
{
	for (uint32_t t = 0; t < r->tags->ntags; t++) {
		struct pp_visual_tag *tag = &r->tags->tags[t];

		if (pp_go_abs64(tag->flat) < cutoff &&
		    pp_go_abs64(tag->cum) < cutoff)
			tag->dead = true;
	}
}

/* ---- entropy order ------------------------------------------------------- */

static double edge_entropy(const struct pp_graph *g, uint32_t n, bool in,
                           int64_t self)
{
	double score = 0;
	int64_t total = self;

	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct pp_edge *ed = &g->edges[e];

		if ((in ? ed->dst : ed->src) == n && ed->weight > 0)
			total += pp_go_abs64(ed->weight);
	}
	if (total == 0)
		return 0;
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct pp_edge *ed = &g->edges[e];

		if ((in ? ed->dst : ed->src) == n) {
			double frac =
			        (double)pp_go_abs64(ed->weight) / (double)total;

			score += -frac * log2(frac);
		}
	}
	if (self > 0) {
		double frac = (double)pp_go_abs64(self) / (double)total;

		score += -frac * log2(frac);
	}
	return score;
}

struct degree {
	uint32_t in, out;
};

/* Go's int64(score*float64(cum)) + flat on amd64, without C's undefined
 * behaviour: a NaN or out-of-range float (a diff's negative weights give
 * log2 of a negative fraction) converts to the minimum int64, and the sum
 * wraps. */
static int64_t go_score(double s, int64_t cum, int64_t flat)
{
	return (int64_t)((uint64_t)pp_go_int64(s * (double)cum) +
	                 (uint64_t)flat);
}

/* pprof's order of nodes by entropy score, then name, then flat, then
 * the rest of their information: > 0 when b goes before a. */
static int entropy_order(const struct pp_report *r, const int64_t *score,
                         uint32_t a, uint32_t b)
{
	const struct pp_graph *g = r->graph;
	int c;

	if ((c = pp_go_abs_cmp_desc(score[a], score[b])) == 0 &&
	    (c = strcmp(pp_report__node_name(r, a),
	                pp_report__node_name(r, b))) == 0 &&
	    (c = pp_go_abs_cmp_desc(g->nodes[a].flat, g->nodes[b].flat)) == 0)
		c = pp_report__info_cmp(r, b, a);
	return c;
}

static int entropy_sort(struct pp_report *r)
{
	const struct pp_graph *g = r->graph;
	int64_t *score = NULL;
	struct degree *deg = NULL;
	uint32_t *tmp = NULL;
	int err = 0;

	score = pp_calloc(r->ctx, g->nnodes ? g->nnodes : 1, sizeof(*score));
	deg = pp_calloc(r->ctx, g->nnodes ? g->nnodes : 1, sizeof(*deg));
	tmp = pp_malloc(r->ctx, (r->norder ? r->norder : 1) * sizeof(*tmp));
	if (!score || !deg || !tmp) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		deg[g->edges[e].src].out++;
		deg[g->edges[e].dst].in++;
	}
	for (uint32_t i = 0; i < r->norder; i++) {
		uint32_t n = r->order[i];
		const struct pp_node *node = &g->nodes[n];
		double s = 0;

		s += deg[n].in == 0 ? 1 : edge_entropy(g, n, true, 0);
		s += deg[n].out == 0 ? 1
		                     : edge_entropy(g, n, false, node->flat);
		score[n] = go_score(s, node->cum, node->flat);
	}
	/* Insertion into a merge of sorted runs would be faster; graphs
	 * here have at most a few thousand nodes after the cut. */
	for (size_t width = 1; width < r->norder; width *= 2) {
		for (size_t lo = 0; lo < r->norder; lo += 2 * width) {
			size_t mid =
			        lo + width < r->norder ? lo + width : r->norder;
			size_t hi = lo + 2 * width < r->norder ? lo + 2 * width
			                                       : r->norder;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				uint32_t a = r->order[i], b = r->order[j];
				int c = entropy_order(r, score, a, b);

				/* c > 0: b goes first. */
				tmp[k++] =
				        c > 0 ? r->order[j++] : r->order[i++];
			}
			while (i < mid)
				tmp[k++] = r->order[i++];
			while (j < hi)
				tmp[k++] = r->order[j++];
		}
		memcpy(r->order, tmp, r->norder * sizeof(*tmp));
	}
done:
	pp_free(r->ctx, score);
	pp_free(r->ctx, deg);
	pp_free(r->ctx, tmp);
	return err;
}

/* ---- node and edge selection --------------------------------------------- */

/* The nodes with any value, in index order (pprof's selectNodesForGraph). */
static void collect_nodes(struct pp_report *r)
{
	const struct pp_graph *g = r->graph;

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
}

static int rebuild(struct pp_report *r, const bool *kept)
{
	int err;

	if ((err = pp_graph_accumulate(r->graph, kept, PP_EDGES_ALL)) < 0)
		return err;
	pp_free(r->ctx, r->edge_dead);
	r->edge_dead =
	        pp_calloc(r->ctx, r->graph->nedges ? r->graph->nedges : 1,
	                  sizeof(*r->edge_dead));
	if (!r->edge_dead)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if ((err = accumulate_tags(r, kept)) < 0)
		return err;
	collect_nodes(r);
	return 0;
}

static uint32_t trim_edges(struct pp_report *r, int64_t cutoff)
{
	uint32_t dropped = 0;

	for (uint32_t e = 0; e < r->graph->nedges; e++) {
		if (!r->edge_dead[e] &&
		    pp_go_abs64(r->graph->edges[e].weight) < cutoff) {
			r->edge_dead[e] = true;
			dropped++;
		}
	}
	return dropped;
}

static uint32_t count_tags(const struct pp_report *r, uint32_t n)
{
	uint32_t c = 0;

	for (uint32_t t = 0; t < r->tags->ntags; t++) {
		const struct pp_visual_tag *tag = &r->tags->tags[t];

		if (tag->node == n && !tag->dead && tag->flat != 0)
			c++;
	}
	return c;
}

int pp_report__edge_cmp(const struct pp_report *r, uint32_t a, uint32_t b)
{
	const struct pp_edge *x = &r->graph->edges[a], *y = &r->graph->edges[b];
	int c;

	if (x->weight != y->weight)
		return pp_go_abs64(x->weight) > pp_go_abs64(y->weight) ? -1 : 1;
	if ((c = strcmp(pp_report__node_name(r, x->src),
	                pp_report__node_name(r, y->src))) != 0)
		return c;
	return strcmp(pp_report__node_name(r, x->dst),
	              pp_report__node_name(r, y->dst));
}

static void sort_edges(const struct pp_report *r, uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j;

		for (j = i; j > 0 && pp_report__edge_cmp(r, v[j - 1], x) > 0;
		     j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Is there another live path from e's source to its target? */
static bool redundant(struct pp_report *r, uint32_t e, bool *seen,
                      uint32_t *queue)
{
	const struct pp_graph *g = r->graph;
	uint32_t src = g->edges[e].src, head = 0, tail = 0;
	bool found = false;

	memset(seen, 0, g->nnodes * sizeof(*seen));
	seen[g->edges[e].dst] = true;
	queue[tail++] = g->edges[e].dst;
	while (head < tail && !found) {
		uint32_t n = queue[head++];

		for (uint32_t ie = 0; ie < g->nedges; ie++) {
			const struct pp_edge *x = &g->edges[ie];

			if (x->dst != n || r->edge_dead[ie] || ie == e ||
			    seen[x->src])
				continue;
			if (x->src == src) {
				found = true;
				break;
			}
			seen[x->src] = true;
			queue[tail++] = x->src;
		}
	}
	return found;
}

static int remove_redundant_edges(struct pp_report *r)
{
	const struct pp_graph *g = r->graph;
	uint32_t *in = NULL, *queue = NULL;
	bool *seen = NULL;
	int err = 0;

	in = pp_malloc(r->ctx, (g->nedges ? g->nedges : 1) * sizeof(*in));
	queue = pp_malloc(r->ctx, (g->nnodes ? g->nnodes : 1) * sizeof(*queue));
	seen = pp_malloc(r->ctx, (g->nnodes ? g->nnodes : 1) * sizeof(*seen));
	if (!in || !queue || !seen) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = r->norder; i-- > 0;) {
		uint32_t n = r->order[i], nin = 0;

		for (uint32_t e = 0; e < g->nedges; e++)
			if (g->edges[e].dst == n && !r->edge_dead[e])
				in[nin++] = e;
		sort_edges(r, in, nin);
		for (uint32_t j = nin; j-- > 0;) {
			if (!g->edges[in[j]].residual)
				break;
			if (redundant(r, in[j], seen, queue))
				r->edge_dead[in[j]] = true;
		}
	}
done:
	pp_free(r->ctx, in);
	pp_free(r->ctx, queue);
	pp_free(r->ctx, seen);
	return err;
}

int pp_report__visual_graph(struct pp_report *r)
{
	struct pp_report__cache_key key = pp_report__cache_key(r, true);
	struct pp_graph_opts go = {0};
	struct pp_graph *g;
	int64_t node_cutoff, edge_cutoff;
	int nodecount = r->opts.nodecount;
	double nodefraction = r->opts.nodefraction;
	double edgefraction = r->opts.edgefraction;
	int err;

	if (pp_report__cache_hit(r, &key))
		return 0;
	if (nodecount < 0)
		nodecount = 80;
	if (!r->opts.trim) {
		nodecount = 0;
		nodefraction = edgefraction = 0;
	}
	pp_report__visual_release(r);
	r->tags = pp_calloc(r->ctx, 1, sizeof(*r->tags));
	if (!r->tags)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	r->tags->strings = pp_strtab_new(r->ctx);
	if (!r->tags->strings)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if ((err = sample_labels(r, r->tags)) < 0)
		return err;
	r->tags->bytes_key = pp_strtab_find(r->prof->strings, "bytes", 5);

	pp_report__graph_opts(r, PP_EDGES_ALL, &go);
	if ((err = pp_report__graph(r, &go)) < 0 ||
	    (err = pp_report__size_order(r)) < 0)
		return err;
	g = r->graph;
	if ((err = rebuild(r, NULL)) < 0)
		return err;
	pp_report__cutoffs(r, nodefraction, edgefraction, &node_cutoff,
	                   &edge_cutoff);
	r->dropped_nodes = 0;
	r->dropped_edges = 0;

	if (node_cutoff > 0) {
		uint32_t nkept = pp_report__keep_over(r, node_cutoff);

		if (nkept != r->norder) {
			r->dropped_nodes = r->norder - nkept;
			if ((err = rebuild(r, r->kept)) < 0)
				return err;
		}
	}
	r->orig_count = r->norder;
	if ((err = entropy_sort(r)) < 0)
		return err;
	if (nodecount > 0) {
		uint32_t count = 0, keep = (uint32_t)nodecount;

		trim_tags(r, node_cutoff);
		trim_edges(r, edge_cutoff);
		/* Nodelets take room in the picture: count them as nodes. */
		for (uint32_t i = 0; i < r->norder; i++) {
			uint32_t tags = count_tags(r, r->order[i]);

			count +=
			        (tags > MAX_NODELETS ? MAX_NODELETS : tags) + 1;
			if (count >= (uint32_t)nodecount) {
				keep = i + 1;
				break;
			}
		}
		if (keep < r->norder) {
			memset(r->kept, 0, g->nnodes * sizeof(*r->kept));
			for (uint32_t i = 0; i < keep; i++)
				r->kept[r->order[i]] = true;
			if ((err = rebuild(r, r->kept)) < 0 ||
			    (err = entropy_sort(r)) < 0)
				return err;
		}
	}
	trim_tags(r, node_cutoff);
	r->dropped_edges = trim_edges(r, edge_cutoff);
	if ((err = remove_redundant_edges(r)) < 0)
		return err;
	pp_report__select_output_unit(r);
	return pp_report__cache_store(r, &key);
}

void pp_report__visual_release(struct pp_report *r)
{
	if (r->tags) {
		pp_strtab_free(r->tags->strings);
		pp_free(r->ctx, r->tags->sample_label);
		pp_free(r->ctx, r->tags->tags);
		pp_free(r->ctx, r->tags->slots);
		pp_free(r->ctx, r->tags);
		r->tags = NULL;
	}
	pp_free(r->ctx, r->edge_dead);
	r->edge_dead = NULL;
}
