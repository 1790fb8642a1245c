/* The calling-context tree; see pprof/tree.h. */
#include <stdlib.h>
#include <string.h>

#include "pprof/tree.h"

#define EMPTY_KEY UINT64_MAX

static uint32_t slot_of(uint64_t key, uint32_t nslots)
{
	return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (nslots - 1);
}

static int grow_slots(struct pp_tree *t)
{
	uint32_t nslots = t->nslots ? t->nslots * 2 : 4096;
	uint64_t *keys = pp_malloc(t->ctx, (size_t)nslots * sizeof(*keys));
	uint32_t *vals = pp_malloc(t->ctx, (size_t)nslots * sizeof(*vals));

	if (!keys || !vals || nslots == 0) {
		pp_free(t->ctx, keys);
		pp_free(t->ctx, vals);
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
	}
	memset(keys, 0xff, (size_t)nslots * sizeof(*keys));
	for (uint32_t i = 0; i < t->nslots; i++) {
		uint32_t j;

		if (t->keys[i] == EMPTY_KEY)
			continue;
		j = slot_of(t->keys[i], nslots);
		while (keys[j] != EMPTY_KEY)
			j = (j + 1) & (nslots - 1);
		keys[j] = t->keys[i];
		vals[j] = t->vals[i];
	}
	pp_free(t->ctx, t->keys);
	pp_free(t->ctx, t->vals);
	t->keys = keys;
	t->vals = vals;
	t->nslots = nslots;
	return 0;
}

static int child(struct pp_tree *t, uint32_t parent, uint32_t frame,
                 uint32_t *out)
{
	uint64_t key = (uint64_t)parent << 32 | frame;
	struct pp_tree_node *n;
	uint32_t j;
	int err;

	if ((uint64_t)(t->nnodes + 1) * 2 > t->nslots &&
	    (err = grow_slots(t)) < 0)
		return err;
	j = slot_of(key, t->nslots);
	while (t->keys[j] != EMPTY_KEY) {
		if (t->keys[j] == key) {
			*out = t->vals[j];
			return 0;
		}
		j = (j + 1) & (t->nslots - 1);
	}
	if (t->nnodes == UINT32_MAX - 1)
		return pp_error(t->ctx, PP_ELIMIT, "too many distinct stacks");
	if ((err = pp_grow(t->ctx, (void **)&t->nodes, &t->cap_nodes,
	                   (size_t)t->nnodes + 1, sizeof(*t->nodes))) < 0)
		return err;
	n = &t->nodes[t->nnodes];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->frame = frame;
	n->first_child = n->next_sibling = PP_NONE;
	n->depth = t->nodes[parent].depth + 1;
	if (n->depth > t->max_depth)
		t->max_depth = n->depth;
	t->keys[j] = key;
	t->vals[j] = t->nnodes;
	*out = t->nnodes++;
	return 0;
}

static bool is_base_sample(const struct pp_profile *p,
                           const struct pp_sample *s, pp_str base_key)
{
	if (base_key == PP_NONE)
		return false;
	for (uint32_t i = 0; i < s->label_count; i++)
		if (p->labels[s->label_first + i].key == base_key)
			return true;
	return false;
}

/*
 * Stacks of neighbouring samples often share their outer frames, so the
 * path of the previous sample is kept (its locations root first, and the
 * tree node reached after each): the shared prefix costs no hash lookup.
 */
static int add_samples(struct pp_tree *t, const struct pp_profile *p,
                       uint32_t si)
{
	const struct pp_graph *g = t->graph;
	pp_str base_key = pp_strtab_find(p->strings, "pprof::base", 11);
	uint32_t *prev_loc = NULL, *prev_node = NULL, nprev = 0;
	size_t cap_loc = 0, cap_node = 0;
	int err = 0;

	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const uint32_t *locs = p->sample_locs + smp->loc_first;
		int64_t w = pp_profile_sample_values(p, s)[si];
		uint32_t cur = 0, depth = 0, n = smp->loc_count;

		if (w == 0)
			continue;
		if ((err = pp_grow(t->ctx, (void **)&prev_loc, &cap_loc, n + 1,
		                   sizeof(*prev_loc))) < 0 ||
		    (err = pp_grow(t->ctx, (void **)&prev_node, &cap_node,
		                   n + 1, sizeof(*prev_node))) < 0)
			goto done;
		while (depth < n && depth < nprev &&
		       prev_loc[depth] == locs[n - 1 - depth]) {
			cur = prev_node[depth];
			depth++;
		}
		for (uint32_t i = n - depth; i-- > 0; depth++) {
			uint32_t l = locs[i];

			for (uint32_t k = g->loc_node_first[l + 1];
			     k-- > g->loc_node_first[l];)
				if ((err = child(t, cur, g->loc_nodes[k],
				                 &cur)) < 0)
					goto done;
			prev_loc[depth] = l;
			prev_node[depth] = cur;
		}
		nprev = n;
		t->nodes[cur].self += w;
		if (is_base_sample(p, smp, base_key)) {
			t->nodes[cur].base_self -= w;
			t->has_base = true;
		}
	}
done:
	pp_free(t->ctx, prev_loc);
	pp_free(t->ctx, prev_node);
	return err;
}

struct name_ref {
	const char *name;
	uint32_t node;
};

static int cmp_name_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct child_key {
	uint64_t key; /* parent << 32 | name rank of the frame */
	uint32_t node;
};

static int cmp_child_key(const void *a, const void *b)
{
	const struct child_key *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Link children in name order: rank the graph's node names once, then sort
 * all tree nodes by (parent, rank) and prepend each in reverse. */
static int link_children(struct pp_tree *t)
{
	const struct pp_graph *g = t->graph;
	struct name_ref *refs = NULL;
	struct child_key *keys = NULL;
	uint32_t *rank = NULL;
	char *names = NULL;
	size_t used = 0, cap = 0;
	size_t *offs = NULL;
	int err = 0;

	refs = pp_malloc(t->ctx, ((size_t)g->nnodes + 1) * sizeof(*refs));
	rank = pp_malloc(t->ctx, ((size_t)g->nnodes + 1) * sizeof(*rank));
	offs = pp_malloc(t->ctx, ((size_t)g->nnodes + 1) * sizeof(*offs));
	keys = pp_malloc(t->ctx, (size_t)t->nnodes * sizeof(*keys));
	if (!refs || !rank || !offs || !keys) {
		err = pp_error(t->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t n = 0; n < g->nnodes; n++) {
		size_t len = pp_node_name(g, &g->nodes[n], NULL, 0);

		if ((err = pp_grow(t->ctx, (void **)&names, &cap,
		                   used + len + 1, 1)) < 0)
			goto done;
		pp_node_name(g, &g->nodes[n], names + used, len + 1);
		offs[n] = used;
		used += len + 1;
	}
	for (uint32_t n = 0; n < g->nnodes; n++) {
		refs[n].name = names + offs[n];
		refs[n].node = n;
	}
	if (g->nnodes > 1)
		qsort(refs, g->nnodes, sizeof(*refs), cmp_name_ref);
	for (uint32_t i = 0; i < g->nnodes; i++)
		rank[refs[i].node] = i;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		keys[i - 1].key = (uint64_t)t->nodes[i].parent << 32 |
		                  rank[t->nodes[i].frame];
		keys[i - 1].node = i;
	}
	if (t->nnodes > 2)
		qsort(keys, t->nnodes - 1, sizeof(*keys), cmp_child_key);
	for (uint32_t i = t->nnodes - 1; i-- > 0;) {
		struct pp_tree_node *c = &t->nodes[keys[i].node];
		struct pp_tree_node *p = &t->nodes[c->parent];

		c->next_sibling = p->first_child;
		p->first_child = keys[i].node;
	}
done:
	pp_free(t->ctx, refs);
	pp_free(t->ctx, rank);
	pp_free(t->ctx, keys);
	t->names = names;
	t->name_off = offs;
	return err;
}

int pp_tree_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                const struct pp_graph_opts *opts, struct pp_tree **out)
{
	struct pp_graph_opts go = *opts;
	struct pp_tree *t;
	int err;

	*out = NULL;
	t = pp_calloc(ctx, 1, sizeof(*t));
	if (!t)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	t->ctx = ctx;
	go.edges = PP_EDGES_NONE;
	if ((err = pp_graph_new(ctx, prof, &go, &t->graph)) < 0)
		goto fail;
	if ((err = pp_grow(ctx, (void **)&t->nodes, &t->cap_nodes, 1,
	                   sizeof(*t->nodes))) < 0 ||
	    (err = grow_slots(t)) < 0)
		goto fail;
	memset(&t->nodes[0], 0, sizeof(t->nodes[0]));
	t->nodes[0].parent = t->nodes[0].frame = PP_NONE;
	t->nodes[0].first_child = t->nodes[0].next_sibling = PP_NONE;
	t->nnodes = 1;
	if (prof->nsamples && (err = add_samples(t, prof, go.sample_index)) < 0)
		goto fail;
	/* Children are created after their parents, so one backward sweep
	 * sums every subtree. */
	for (uint32_t i = 0; i < t->nnodes; i++) {
		t->nodes[i].total = t->nodes[i].self;
		t->nodes[i].base_total = t->nodes[i].base_self;
	}
	for (uint32_t i = t->nnodes; i-- > 1;) {
		struct pp_tree_node *p = &t->nodes[t->nodes[i].parent];

		p->total += t->nodes[i].total;
		p->base_total += t->nodes[i].base_total;
	}
	if ((err = link_children(t)) < 0)
		goto fail;
	/* The hash is only needed while building. */
	pp_free(ctx, t->keys);
	pp_free(ctx, t->vals);
	t->keys = NULL;
	t->vals = NULL;
	t->nslots = 0;
	*out = t;
	return 0;
fail:
	pp_tree_free(t);
	return err;
}

void pp_tree_free(struct pp_tree *t)
{
	if (!t)
		return;
	pp_graph_free(t->graph);
	pp_free(t->ctx, t->nodes);
	pp_free(t->ctx, t->keys);
	pp_free(t->ctx, t->vals);
	pp_free(t->ctx, t->names);
	pp_free(t->ctx, t->name_off);
	pp_free(t->ctx, t);
}

const char *pp_tree_name(const struct pp_tree *t, uint32_t node)
{
	uint32_t f = t->nodes[node].frame;

	return f == PP_NONE ? "" : t->names + t->name_off[f];
}
