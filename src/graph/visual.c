/*
 * The trimmed graph of visual reports (dot, svg, png, pdf), as pprof's
 * newTrimmedGraph builds it in visual mode: cut nodes under nodefraction,
 * sort by entropy score, keep the first nodecount nodes counting each
 * node's tag nodelets, rebuild with the kept nodes (paths through dropped
 * ones become residual edges), then drop edges under edgefraction and the
 * residual edges made redundant by another path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/internal.h"
#include "pprof/format.h"
#include "util/bytes.h"
#include "util/goint.h"

#define MAX_NODELETS 4

/* ---- label tags ---------------------------------------------------------- */

/* A "key:value" part, its length with it: keys and values may hold NUL
 * bytes. */
struct part {
	char *s;
	size_t n;
};

static int cmp_part(const void *a, const void *b)
{
	const struct part *x = a, *y = b;

	return pp_bytes_cmp(x->s, x->n, y->s, y->n);
}

/* pprof's joinLabels: a sample's string labels as sorted "key:value",
 * joined by a literal "\n"; pprof::base (diff marks) is left out. */
static int sample_labels(struct pp_view *v, struct pp_graph_tags *vt)
{
	const struct pp_profile *p = v->graph->prof;
	pp_str base = pp_strtab_find(p->strings, "pprof::base", 11);
	struct part *parts = NULL;
	char *joined = NULL;
	size_t cap = 0, jcap = 0;
	int err = 0;

	vt->sample_label = pp_calloc(v->ctx, p->nsamples ? p->nsamples : 1,
	                             sizeof(*vt->sample_label));
	if (!vt->sample_label)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < p->nsamples; s++) {
		uint32_t nl;
		const struct pp_label *labels = pp_sample_labels(p, s, &nl);
		size_t n = 0, len = 0;

		for (uint32_t i = 0; i < nl; i++) {
			const struct pp_label *l = &labels[i];
			size_t kl, vl;
			const char *k = pp_profile_strn(p, l->key, &kl);
			const char *val = pp_profile_strn(p, l->str, &vl);
			size_t sz = kl + vl + 2;

			if (l->str == 0 || l->key == base)
				continue;
			if ((err = pp_grow(v->ctx, (void **)&parts, &cap, n + 1,
			                   sizeof(*parts))) < 0)
				goto done;
			parts[n].s = pp_malloc(v->ctx, sz);
			if (!parts[n].s) {
				err = pp_error(v->ctx, PP_ENOMEM,
				               "out of memory");
				goto done;
			}
			memcpy(parts[n].s, k, kl);
			parts[n].s[kl] = ':';
			memcpy(parts[n].s + kl + 1, val, vl);
			parts[n].n = kl + 1 + vl;
			len += sz + 2;
			n++;
		}
		if (n == 0)
			continue;
		if (n > 1)
			qsort(parts, n, sizeof(*parts), cmp_part);
		if ((err = pp_grow(v->ctx, (void **)&joined, &jcap, len + 1,
		                   1)) < 0)
			goto freeparts;
		joined[0] = '\0';
		len = 0;
		for (size_t i = 0; i < n; i++) {
			size_t pl = parts[i].n;

			if (i) {
				memcpy(joined + len, "\\n", 2);
				len += 2;
			}
			memcpy(joined + len, parts[i].s, pl);
			len += pl;
		}
		vt->sample_label[s] =
		        pp_strtab_intern(vt->strings, joined, len);
		if (vt->sample_label[s] == PP_NONE)
			err = pp_error(v->ctx, PP_ENOMEM, "out of memory");
	freeparts:
		for (size_t i = 0; i < n; i++)
			pp_free(v->ctx, parts[i].s);
		if (err < 0)
			goto done;
	}
done:
	pp_free(v->ctx, parts);
	pp_free(v->ctx, joined);
	return err;
}

static uint32_t tag_hash(uint32_t node, uint32_t label, uint32_t name)
{
	uint64_t h = ((uint64_t)node << 32 | label) * 0x9E3779B97F4A7C15ull;

	h ^= (uint64_t)name * 0xC2B2AE3D27D4EB4Full;
	return (uint32_t)(h >> 32);
}

/* The tag (node, label set, numeric name or PP_NONE), created empty. */
static int tag_slot(struct pp_view *v, struct pp_graph_tags *vt, uint32_t node,
                    uint32_t label, uint32_t name, struct pp_graph_tag **out)
{
	struct pp_graph_tags__full *in = pp_graph_tags__in(vt);
	uint32_t j;
	int err;

	if ((uint64_t)(vt->ntags + 1) * 2 > in->nslots) {
		uint32_t ns = in->nslots ? in->nslots * 2 : 256;
		uint32_t *slots = pp_calloc(v->ctx, ns, sizeof(*slots));

		if (!slots)
			return pp_error(v->ctx, PP_ENOMEM, "out of memory");
		for (uint32_t t = 0; t < vt->ntags; t++) {
			j = tag_hash(vt->tags[t].node, vt->tags[t].label,
			             vt->tags[t].name) &
			    (ns - 1);
			while (slots[j])
				j = (j + 1) & (ns - 1);
			slots[j] = t + 1;
		}
		pp_free(v->ctx, in->slots);
		in->slots = slots;
		in->nslots = ns;
	}
	j = tag_hash(node, label, name) & (in->nslots - 1);
	while (in->slots[j]) {
		struct pp_graph_tag *t = &vt->tags[in->slots[j] - 1];

		if (t->node == node && t->label == label && t->name == name) {
			*out = t;
			return 0;
		}
		j = (j + 1) & (in->nslots - 1);
	}
	if ((err = pp_grow(v->ctx, (void **)&vt->tags, &in->cap,
	                   (size_t)vt->ntags + 1, sizeof(*vt->tags))) < 0)
		return err;
	memset(&vt->tags[vt->ntags], 0, sizeof(vt->tags[0]));
	vt->tags[vt->ntags].node = node;
	vt->tags[vt->ntags].label = label;
	vt->tags[vt->ntags].name = name;
	in->slots[j] = vt->ntags + 1;
	*out = &vt->tags[vt->ntags++];
	return 0;
}

/* The tag string naming a "bytes" value: pprof's ScaledLabel from the
 * key's unit, whole, to the tag unit (an unknown -unit is printed whole,
 * so a long one is joined on the heap). */
static int tag_name(struct pp_view *v, int64_t value, uint32_t *name)
{
	struct pp_graph_tags *vt = v->tags;
	char num[PP_LABEL_NUM_MAX], buf[128], *s = buf;
	const char *unit;
	size_t n, unit_len;

	n = pp_scaled_label_parts(value, vt->bytes_unit, vt->bytes_unit_len,
	                          vt->unit, strlen(vt->unit), num, sizeof(num),
	                          &unit, &unit_len);
	if (unit_len > sizeof(buf) - n &&
	    !(s = pp_malloc(v->ctx, n + unit_len)))
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	memcpy(s, num, n);
	memcpy(s + n, unit, unit_len);
	*name = pp_strtab_intern(vt->strings, s, n + unit_len);
	if (s != buf)
		pp_free(v->ctx, s);
	if (*name == PP_NONE)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* The unit of the "bytes" numeric labels, as pprof's NumLabelUnits: the
 * first a label gives, whole, else "bytes". */
static void bytes_unit(const struct pp_profile *p, struct pp_graph_tags *vt)
{
	vt->bytes_unit = "bytes";
	vt->bytes_unit_len = 5;
	if (vt->bytes_key == PP_NONE)
		return;
	for (size_t i = 0; i < p->nlabels; i++) {
		const struct pp_label *l = &p->labels[i];

		if (l->key == vt->bytes_key && l->str == 0 && l->num != 0 &&
		    l->num_unit) {
			vt->bytes_unit = pp_profile_strn(p, l->num_unit,
			                                 &vt->bytes_unit_len);
			return;
		}
	}
}

/* Add w to node n's tags from sample s: its label set's tag (if it has
 * labels) and one numeric tag per "bytes" value, as pprof's addSample. */
static int add_tags(struct pp_view *v, uint32_t s, uint32_t n, int64_t w,
                    int64_t dw, bool flat)
{
	struct pp_graph_tags *vt = v->tags;
	const struct pp_profile *p = v->graph->prof;
	uint32_t label = vt->sample_label[s], nl;
	const struct pp_label *labels = pp_sample_labels(p, s, &nl);
	struct pp_graph_tag *t;
	int err;

	if (label != 0) {
		if ((err = tag_slot(v, vt, n, label, PP_NONE, &t)) < 0)
			return err;
		*(flat ? &t->flat : &t->cum) += w;
		*(flat ? &t->flat_div : &t->cum_div) += dw;
	}
	if (vt->bytes_key == PP_NONE)
		return 0;
	for (uint32_t i = 0; i < nl; i++) {
		const struct pp_label *l = &labels[i];
		uint32_t name;

		if (l->key != vt->bytes_key || l->str != 0)
			continue;
		if ((err = tag_name(v, l->num, &name)) < 0)
			return err;
		if ((err = tag_slot(v, vt, n, label, name, &t)) < 0)
			return err;
		if (!t->unit) {
			t->value = l->num;
			t->unit = vt->bytes_unit;
			t->unit_len = vt->bytes_unit_len;
		}
		*(flat ? &t->flat : &t->cum) += w;
		*(flat ? &t->flat_div : &t->cum_div) += dw;
	}
	return 0;
}

/* The label tags of the wanted nodes (NULL: every kept node), as
 * accumulation counts: cum once per node and sample, flat on the last kept
 * frame unless dropped frames follow it. Only the nodes the cut may keep
 * are wanted, a few dozen: frames of other locations are passed over with
 * one byte load, and tags are looked up only for wanted nodes. */
static int accumulate_tags(struct pp_view *v, const bool *kept,
                           const bool *wanted)
{
	struct pp_graph_tags *vt = v->tags;
	const struct pp_graph *g = v->graph;
	const struct pp_profile *p = v->graph->prof;
	const uint32_t *lnf = g->loc_node_first, *ln = g->loc_nodes;
	unsigned char *loc_wanted = NULL;
	uint32_t *seen = NULL, stamp = 0;
	int err = 0;

	vt->ntags = 0;
	if (pp_graph_tags__in(vt)->nslots)
		memset(pp_graph_tags__in(vt)->slots, 0,
		       (size_t)pp_graph_tags__in(vt)->nslots *
		               sizeof(*pp_graph_tags__in(vt)->slots));
	seen = pp_calloc(v->ctx, g->nnodes ? g->nnodes : 1, sizeof(*seen));
	loc_wanted = pp_malloc(v->ctx, p->nlocations ? p->nlocations : 1);
	if (!seen || !loc_wanted) {
		err = pp_error(v->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Most frames have no wanted node: one byte says so. */
	for (uint32_t l = 0; l < p->nlocations; l++) {
		loc_wanted[l] = 0;
		for (uint32_t k = lnf[l]; k < lnf[l + 1]; k++)
			loc_wanted[l] |= (!kept || kept[ln[k]]) &&
			                 (!wanted || wanted[ln[k]]);
	}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = pp_profile_sample_values(p, s);
		const struct pp_locs locs = pp_sample_locs(p, smp);
		int64_t w = vals[v->graph->opts.sample_index];
		int64_t dw = v->graph->opts.mean ? vals[0] : 0;
		uint32_t leaf;

		if ((vt->sample_label[s] == 0 &&
		     pp_sample_label_range(p, s).count == 0) ||
		    (w == 0 && dw == 0) || smp->loc_count == 0)
			continue;
		stamp++;
		/* Callers first, each location's outermost line first: the
		 * order accumulation walks, which is the tags' order. */
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = pp_locs_at(locs, i);

			if (!loc_wanted[l])
				continue;
			for (uint32_t k = lnf[l + 1]; k-- > lnf[l];) {
				uint32_t n = ln[k];

				if ((kept && !kept[n]) ||
				    (wanted && !wanted[n]) || seen[n] == stamp)
					continue;
				seen[n] = stamp;
				if ((err = add_tags(v, s, n, w, dw, false)) < 0)
					goto done;
			}
		}
		/* The flat goes to the last kept frame unless dropped frames
		 * follow it: to the leaf, when the leaf is kept. */
		leaf = ln[lnf[pp_locs_at(locs, 0)]];
		if ((!kept || kept[leaf]) && (!wanted || wanted[leaf]) &&
		    (err = add_tags(v, s, leaf, w, dw, true)) < 0)
			goto done;
	}
done:
	pp_free(v->ctx, seen);
	pp_free(v->ctx, loc_wanted);
	return err;
}

static void trim_tags(struct pp_view *v, int64_t cutoff)
{
	for (uint32_t t = 0; t < v->tags->ntags; t++) {
		struct pp_graph_tag *tag = &v->tags->tags[t];

		if (pp_go_abs64(tag->flat) < cutoff &&
		    pp_go_abs64(tag->cum) < cutoff)
			tag->dead = true;
	}
}

/* ---- entropy order ------------------------------------------------------- */

/* pprof's order of nodes by entropy score, then name, then flat, then
 * the rest of their information: > 0 when b goes before a. */
static int entropy_order(const struct pp_view *v, const int64_t *score,
                         uint32_t a, uint32_t b)
{
	const struct pp_graph *g = v->graph;
	int c;

	if ((c = pp_go_abs_cmp_desc(score[a], score[b])) == 0 &&
	    (c = pp_view_name_cmp(v, a, b)) == 0 &&
	    (c = pp_go_abs_cmp_desc(g->nodes[a].flat, g->nodes[b].flat)) == 0)
		c = pp_view_info_cmp(v, b, a);
	return c;
}

static int entropy_sort(struct pp_view *v)
{
	const struct pp_graph *g = v->graph;
	int64_t *score = NULL;
	uint32_t *tmp = NULL;
	int err = 0;

	score = pp_calloc(v->ctx, g->nnodes ? g->nnodes : 1, sizeof(*score));
	tmp = pp_malloc(v->ctx, (v->norder ? v->norder : 1) * sizeof(*tmp));
	if (!score || !tmp) {
		err = pp_error(v->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = pp_graph_entropy_scores(g, v->order, v->norder, score,
	                                   NULL)) < 0)
		goto done;
	/* Insertion into a merge of sorted runs would be faster; graphs
	 * here have at most a few thousand nodes after the cut. */
	for (size_t width = 1; width < v->norder; width *= 2) {
		for (size_t lo = 0; lo < v->norder; lo += 2 * width) {
			size_t mid =
			        lo + width < v->norder ? lo + width : v->norder;
			size_t hi = lo + 2 * width < v->norder ? lo + 2 * width
			                                       : v->norder;
			size_t i = lo, j = mid, k = lo;

			while (i < mid && j < hi) {
				uint32_t a = v->order[i], b = v->order[j];
				int c = entropy_order(v, score, a, b);

				/* c > 0: b goes first. */
				tmp[k++] =
				        c > 0 ? v->order[j++] : v->order[i++];
			}
			while (i < mid)
				tmp[k++] = v->order[i++];
			while (j < hi)
				tmp[k++] = v->order[j++];
		}
		memcpy(v->order, tmp, v->norder * sizeof(*tmp));
	}
done:
	pp_free(v->ctx, score);
	pp_free(v->ctx, tmp);
	return err;
}

/* ---- node and edge selection --------------------------------------------- */

/* The nodes with any value, in index order (pprof's selectNodesForGraph). */
static void collect_nodes(struct pp_view *v)
{
	const struct pp_graph *g = v->graph;

	v->norder = 0;
	for (uint32_t n = 0; n < g->nnodes; n++) {
		const struct pp_node *node = &g->nodes[n];

		if (node->cum == 0 && node->flat == 0)
			continue;
		if (v->graph->opts.drop_negative &&
		    (node->flat < 0 || (node->flat == 0 && node->cum < 0)))
			continue;
		v->order[v->norder++] = n;
	}
}

static int rebuild(struct pp_view *v, const bool *kept)
{
	int err;

	if ((err = kept ? pp_graph_accumulate_kept(v->graph, kept)
	                : pp_graph_accumulate(v->graph, NULL, PP_EDGES_ALL)) <
	    0)
		return err;
	pp_free(v->ctx, v->edge_dead);
	v->edge_dead =
	        pp_calloc(v->ctx, v->graph->nedges ? v->graph->nedges : 1,
	                  sizeof(*v->edge_dead));
	if (!v->edge_dead)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	collect_nodes(v);
	return 0;
}

static uint32_t trim_edges(struct pp_view *v, int64_t cutoff)
{
	uint32_t dropped = 0;

	for (uint32_t e = 0; e < v->graph->nedges; e++) {
		if (!v->edge_dead[e] &&
		    pp_go_abs64(v->graph->edges[e].weight) < cutoff) {
			v->edge_dead[e] = true;
			dropped++;
		}
	}
	return dropped;
}

static uint32_t count_tags(const struct pp_view *v, uint32_t n)
{
	uint32_t c = 0;

	for (uint32_t t = 0; t < v->tags->ntags; t++) {
		const struct pp_graph_tag *tag = &v->tags->tags[t];

		if (tag->node == n && !tag->dead && tag->flat != 0)
			c++;
	}
	return c;
}

static void sort_edges(const struct pp_view *v, uint32_t *e, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = e[i];
		size_t j;

		for (j = i; j > 0 && pp_view_edge_cmp(v, e[j - 1], x) > 0; j--)
			e[j] = e[j - 1];
		e[j] = x;
	}
}

/* Is there another live path from e's source to its target? */
static bool redundant(struct pp_view *v, uint32_t e, bool *seen,
                      uint32_t *queue)
{
	const struct pp_graph *g = v->graph;
	uint32_t src = g->edges[e].src, head = 0, tail = 0;
	bool found = false;

	memset(seen, 0, g->nnodes * sizeof(*seen));
	seen[g->edges[e].dst] = true;
	queue[tail++] = g->edges[e].dst;
	while (head < tail && !found) {
		uint32_t n = queue[head++];

		for (uint32_t ie = 0; ie < g->nedges; ie++) {
			const struct pp_edge *x = &g->edges[ie];

			if (x->dst != n || v->edge_dead[ie] || ie == e ||
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

static int remove_redundant_edges(struct pp_view *v)
{
	const struct pp_graph *g = v->graph;
	uint32_t *in = NULL, *queue = NULL;
	bool *seen = NULL;
	int err = 0;

	in = pp_malloc(v->ctx, (g->nedges ? g->nedges : 1) * sizeof(*in));
	queue = pp_malloc(v->ctx, (g->nnodes ? g->nnodes : 1) * sizeof(*queue));
	seen = pp_malloc(v->ctx, (g->nnodes ? g->nnodes : 1) * sizeof(*seen));
	if (!in || !queue || !seen) {
		err = pp_error(v->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = v->norder; i-- > 0;) {
		uint32_t n = v->order[i], nin = 0;

		for (uint32_t e = 0; e < g->nedges; e++)
			if (g->edges[e].dst == n && !v->edge_dead[e])
				in[nin++] = e;
		sort_edges(v, in, nin);
		for (uint32_t j = nin; j-- > 0;) {
			if (!g->edges[in[j]].residual)
				break;
			if (redundant(v, in[j], seen, queue))
				v->edge_dead[in[j]] = true;
		}
	}
done:
	pp_free(v->ctx, in);
	pp_free(v->ctx, queue);
	pp_free(v->ctx, seen);
	return err;
}

/* *out: the first n nodes of v->order (all when fewer). */
static int want_first(struct pp_view *v, uint32_t n, bool **out)
{
	const struct pp_graph *g = v->graph;

	*out = pp_calloc(v->ctx, g->nnodes ? g->nnodes : 1, sizeof(**out));
	if (!*out)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < v->norder && i < n; i++)
		(*out)[v->order[i]] = true;
	return 0;
}

/* ---- call trees (-call_tree) ----------------------------------------------
 */

/* pprof's newTree tags: every node of a sample's path gets its cum, its
 * last node its flat. */
static int call_tree_tags(struct pp_view *v)
{
	const struct pp_graph *g = v->graph;
	const struct pp_profile *p = v->graph->prof;
	int err;

	for (uint32_t s = 0; s < p->nsamples; s++) {
		const int64_t *vals = pp_profile_sample_values(p, s);
		int64_t w = vals[v->graph->opts.sample_index];
		int64_t dw = v->graph->opts.mean ? vals[0] : 0;
		uint32_t leaf = g->sample_leaf[s];

		if (leaf == PP_NONE || (v->tags->sample_label[s] == 0 &&
		                        pp_sample_label_range(p, s).count == 0))
			continue;
		for (uint32_t n = leaf; n != PP_NONE; n = g->tree_parent[n])
			if ((err = add_tags(v, s, n, w, dw, false)) < 0)
				return err;
		if ((err = add_tags(v, s, leaf, w, dw, true)) < 0)
			return err;
	}
	return 0;
}

/*
 * pprof's TrimTree: the nodes of v->order not kept leave the tree; an
 * in-edge from such a node then starts at the nearest ancestor that stays
 * (residual, and inline only if every edge it stands for was), or goes
 * when a leaving node on the way has no live in-edge. Nodes outside
 * v->order (worth zero: pprof's graph leaves them out but keeps their
 * edges) are not touched. Dead edges are taken out of the graph, as the
 * entropy order reads every edge. drop is scratch of g->nnodes.
 */
static void trim_tree(struct pp_view *v, const bool *kept, bool *drop)
{
	struct pp_graph *g = v->graph;
	uint32_t n = 0, live = 0;

	memset(drop, 0, g->nnodes * sizeof(*drop));
	for (uint32_t i = 0; i < v->norder; i++)
		drop[v->order[i]] = !kept[v->order[i]];
	for (uint32_t e = 0; e < g->nedges; e++) {
		struct pp_edge *ed = &g->edges[e];
		uint32_t src = ed->src;

		if (v->edge_dead[e] || drop[ed->dst])
			continue;
		while (drop[src]) {
			uint32_t in = g->tree_in_edge[src];

			if (in == PP_NONE || v->edge_dead[in]) {
				src = PP_NONE;
				break;
			}
			ed->residual = true;
			ed->is_inline = ed->is_inline && g->edges[in].is_inline;
			src = g->edges[in].src;
		}
		ed->src = src; /* PP_NONE: the edge goes below */
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct pp_edge *ed = &g->edges[e];

		if (v->edge_dead[e] || drop[ed->dst] || ed->src == PP_NONE) {
			g->tree_in_edge[ed->dst] = PP_NONE;
			continue;
		}
		g->tree_in_edge[ed->dst] = live;
		g->edges[live++] = *ed;
	}
	g->nedges = live;
	memset(v->edge_dead, 0, (size_t)live * sizeof(*v->edge_dead));
	for (uint32_t i = 0; i < v->norder; i++)
		if (kept[v->order[i]])
			v->order[n++] = v->order[i];
	v->norder = n;
}

/*
 * How many of the first nodes in order fit in a picture of nodecount
 * nodes (all of them if they do), as pprof counts: nodelets take room in
 * the picture, so each node counts one plus its tags, at most
 * MAX_NODELETS of them.
 */
static uint32_t nodes_that_fit(const struct pp_view *v, uint32_t nodecount)
{
	uint32_t count = 0;

	for (uint32_t i = 0; i < v->norder; i++) {
		uint32_t tags = count_tags(v, v->order[i]);

		count += (tags > MAX_NODELETS ? MAX_NODELETS : tags) + 1;
		if (count >= nodecount)
			return i + 1;
	}
	return v->norder;
}

/*
 * newTrimmedGraph's steps for a call tree: cut the nodes under the node
 * cutoff, sort by entropy, keep the first nodecount (nodelets counted)
 * after dropping the tags and edges under the cutoffs, then drop those
 * again. Nothing is re-accumulated: a tree keeps its values.
 */
static int call_tree_view(struct pp_view *v, int nodecount, double nodefraction,
                          double edgefraction)
{
	int64_t node_cutoff, edge_cutoff;
	bool *kept = NULL, *drop = NULL;
	int err;

	pp_free(v->ctx, v->edge_dead);
	v->edge_dead =
	        pp_calloc(v->ctx, v->graph->nedges ? v->graph->nedges : 1,
	                  sizeof(*v->edge_dead));
	kept = pp_calloc(v->ctx, v->graph->nnodes ? v->graph->nnodes : 1,
	                 sizeof(*kept));
	drop = pp_calloc(v->ctx, v->graph->nnodes ? v->graph->nnodes : 1,
	                 sizeof(*drop));
	if (!v->edge_dead || !kept || !drop) {
		err = pp_error(v->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = call_tree_tags(v)) < 0)
		goto done;
	collect_nodes(v);
	pp_graph_cutoffs(v->graph, nodefraction, edgefraction,
	                 v->graph->opts.drop_negative, &node_cutoff,
	                 &edge_cutoff);
	v->dropped_nodes = 0;
	if (node_cutoff > 0) {
		uint32_t nkept = pp_graph_keep_over(
		        v->graph, v->order, v->norder, node_cutoff, v->kept);

		if (nkept != v->norder) {
			v->dropped_nodes = v->norder - nkept;
			trim_tree(v, v->kept, drop);
		}
	}
	v->orig_count = v->norder;
	if ((err = entropy_sort(v)) < 0)
		goto done;
	if (nodecount > 0) {
		uint32_t keep;

		trim_tags(v, node_cutoff);
		trim_edges(v, edge_cutoff);
		keep = nodes_that_fit(v, (uint32_t)nodecount);
		if (keep < v->norder) {
			for (uint32_t i = 0; i < keep; i++)
				kept[v->order[i]] = true;
			trim_tree(v, kept, drop);
			if ((err = entropy_sort(v)) < 0)
				goto done;
		}
	}
	trim_tags(v, node_cutoff);
	v->dropped_edges = trim_edges(v, edge_cutoff);
	/* No redundant edges to remove: a tree has one path to each node. */
done:
	pp_free(v->ctx, kept);
	pp_free(v->ctx, drop);
	return err;
}

static int make_visual(struct pp_view *v, const struct pp_trim_opts *o)
{
	struct pp_graph *g = v->graph;
	int64_t node_cutoff, edge_cutoff;
	int nodecount = o->nodecount;
	const bool *cut = NULL; /* the nodes over the node cutoff */
	bool *wanted = NULL;
	int err;

	pp_view__release_visual(v);
	/* With the table's private part after it (graph/internal.h). */
	v->tags = pp_calloc(v->ctx, 1, sizeof(struct pp_graph_tags__full));
	if (!v->tags)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	v->tags->strings = pp_strtab_new(v->ctx);
	if (!v->tags->strings)
		return pp_error(v->ctx, PP_ENOMEM, "out of memory");
	v->tags->unit = o->tag_unit ? o->tag_unit : "minimum";
	if ((err = sample_labels(v, v->tags)) < 0)
		return err;
	v->tags->bytes_key = pp_strtab_find(g->prof->strings, "bytes", 5);
	bytes_unit(g->prof, v->tags);
	if (g->opts.call_tree)
		return call_tree_view(v, nodecount, o->nodefraction,
		                      o->edgefraction);

	/* Values first, without edges (the fast pass): the node cut needs
	 * only them, and the edges of every node would be thrown away by
	 * it. Dropping nodes never changes the values of the nodes kept. */
	collect_nodes(v);
	pp_graph_cutoffs(g, o->nodefraction, o->edgefraction,
	                 g->opts.drop_negative, &node_cutoff, &edge_cutoff);
	v->dropped_nodes = 0;
	v->dropped_edges = 0;

	if (node_cutoff > 0) {
		uint32_t nkept = pp_graph_keep_over(g, v->order, v->norder,
		                                    node_cutoff, v->kept);
		if (nkept != v->norder) {
			v->dropped_nodes = v->norder - nkept;
			cut = v->kept;
		}
	}
	if ((err = rebuild(v, cut)) < 0)
		return err;
	v->orig_count = v->norder;
	if ((err = entropy_sort(v)) < 0)
		return err;
	if (nodecount > 0) {
		uint32_t keep;

		/* nodes_that_fit reads the tags of at most nodecount nodes,
		 * the first in entropy order. */
		if ((err = want_first(v, (uint32_t)nodecount, &wanted)) < 0 ||
		    (err = accumulate_tags(v, cut, wanted)) < 0)
			goto done;
		trim_tags(v, node_cutoff);
		trim_edges(v, edge_cutoff);
		keep = nodes_that_fit(v, (uint32_t)nodecount);
		if (keep < v->norder) {
			memset(v->kept, 0, g->nnodes * sizeof(*v->kept));
			for (uint32_t i = 0; i < keep; i++)
				v->kept[v->order[i]] = true;
			if ((err = rebuild(v, v->kept)) < 0 ||
			    (err = entropy_sort(v)) < 0 ||
			    (err = accumulate_tags(v, v->kept, NULL)) < 0)
				goto done;
		}
	} else if ((err = accumulate_tags(v, cut, NULL)) < 0) {
		goto done;
	}
	trim_tags(v, node_cutoff);
	v->dropped_edges = trim_edges(v, edge_cutoff);
	err = remove_redundant_edges(v);
done:
	pp_free(v->ctx, wanted);
	return err;
}

int pp_view_visual(struct pp_view *v, const struct pp_trim_opts *o)
{
	int err;

	v->valid = false;
	if ((err = make_visual(v, o)) < 0)
		return err;
	return pp_view__made_for(v, true, o);
}
