/*
 * A tree's subset: the tree the samples that focus and ignore keep would
 * build, made from the tree of all of them without reading a sample's
 * stack (pprof/tree.h, pp_tree_select).
 *
 * A node's path is a stack, and its self the value of the samples with
 * exactly that stack; so a filter that keeps or drops whole samples by
 * which frames their stacks hold keeps or drops each node's self by its
 * path, and the kept tree is the nodes whose subtree keeps a value. The
 * filters mark locations, the tree knows frames: a frame stands for its
 * locations when each location marked has a frame that only such
 * locations make (else the answer is PP_EUNSUPPORTED, and the caller
 * filters the profile instead).
 */
#include <string.h>

#include "graph/internal.h"
#include "pprof/tree.h"

/* Can every node's existence be read from its values? Only when no value
 * is negative (a subtree summing to zero then holds no sample: the tree
 * leaves zero samples out) and the whole sum does not wrap around. */
bool pp_tree__values_plain(const struct pp_profile *p, uint32_t si)
{
	int64_t sum = 0;

	for (uint32_t s = 0; s < p->nsamples; s++) {
		int64_t v = pp_profile_sample_values(p, s)[si];

		if (v < 0 || v > INT64_MAX - sum)
			return false;
		sum += v;
	}
	return true;
}

bool pp_tree__frame_marks(const struct pp_graph *g, uint32_t nlocations,
                          const unsigned char *marks, unsigned char *fm)
{
	const unsigned char both = PP_TREE_MARK_DROP | PP_TREE_MARK_NEED;
	const uint32_t *first = g->loc_node_first;

	memset(fm, PP_TREE_MARK_DROP | PP_TREE_MARK_NEED, g->nnodes);
	for (uint32_t l = 0; l < nlocations; l++)
		for (uint32_t k = first[l]; k < first[l + 1]; k++)
			fm[g->loc_nodes[k]] &= marks[l] & both;
	for (uint32_t l = 0; l < nlocations; l++) {
		unsigned char have = 0;

		for (uint32_t k = first[l]; k < first[l + 1]; k++)
			have |= fm[g->loc_nodes[k]];
		if ((marks[l] & both & ~have) != 0)
			return false;
	}
	return true;
}

/* Is a path with these marks kept: no frame marked DROP, one NEED? */
static bool path_kept(unsigned char m)
{
	return !(m & PP_TREE_MARK_DROP) && (m & PP_TREE_MARK_NEED);
}

/* Per node: its self is kept (its path is), and its subtree keeps one. */
#define SELF_KEPT 1u
#define LIVE 2u

/*
 * Which nodes stay: those whose subtree holds a kept self (a path with
 * no frame marked DROP and one marked NEED; values are not negative, so a
 * kept self of zero is no sample). One pass down, skipping what a DROP
 * frame is above (flags starts zeroed), one pass up for the subtrees.
 * path[d]: the marks of the path down to depth d.
 */
static bool mark_kept(const struct pp_tree *t, const unsigned char *fm,
                      unsigned char *path, unsigned char *flags)
{
	/* Does every sample stay? No subtree dropped, no self lost (the
	 * root's: samples without a frame, which the filter drops). */
	bool all = t->nodes[0].self == 0;

	path[0] = 0;
	for (uint32_t i = 1; i < t->nnodes;) {
		const struct pp_tree_node *n = &t->nodes[i];
		unsigned char m = path[n->depth - 1] | fm[n->frame];

		if (m & PP_TREE_MARK_DROP) {
			i = n->end; /* every stack below is dropped */
			all = false;
			continue;
		}
		path[n->depth] = m;
		if (path_kept(m) && n->self != 0)
			flags[i] = SELF_KEPT | LIVE;
		else if (n->self != 0)
			all = false;
		i++;
	}
	if (all)
		return true;
	flags[0] |= LIVE;
	for (uint32_t i = t->nnodes; i-- > 1;)
		if (flags[i] & LIVE)
			flags[t->nodes[i].parent] |= LIVE;
	return false;
}

/*
 * The nodes that stay, into out in the same preorder, then their totals
 * summed backward (children follow their parents). Only the nodes kept
 * are written: on a big tree the pages written are most of the time.
 * open: the path of the node being written, for parents and ends.
 */
static void copy_kept(struct pp_tree *out, const struct pp_tree *t,
                      const unsigned char *flags, uint32_t *open)
{
	struct pp_tree_node *o = out->nodes;
	uint32_t n = 0, nopen = 0;

	for (uint32_t i = 0; i < t->nnodes;) {
		const struct pp_tree_node *src = &t->nodes[i];
		struct pp_tree_node *c = &o[n];

		if (!(flags[i] & LIVE)) {
			i = src->end;
			continue;
		}
		/* The nodes this one is not under end here. */
		while (nopen > 0 && o[open[nopen - 1]].depth >= src->depth)
			o[open[--nopen]].end = n;
		c->parent = nopen ? open[nopen - 1] : PP_NONE;
		c->frame = src->frame;
		c->depth = src->depth;
		c->self = flags[i] & SELF_KEPT ? src->self : 0;
		c->total = c->self;
		if (c->depth > out->max_depth)
			out->max_depth = c->depth;
		open[nopen++] = n++;
		i++;
	}
	while (nopen > 0)
		o[open[--nopen]].end = n;
	for (uint32_t i = n; i-- > 1;)
		o[o[i].parent].total += o[i].total;
	out->nnodes = n;
}

int pp_tree_select(struct pp_ctx *ctx, const struct pp_tree *t,
                   const unsigned char *marks, struct pp_tree **out)
{
	const struct pp_graph *g = t->graph;
	const struct pp_profile *p = g->prof;
	unsigned char *fm = NULL, *path = NULL, *flags = NULL;
	uint32_t *last = NULL;
	struct pp_tree *s = NULL;
	int err;

	*out = NULL;
	if (t->has_base || !pp_tree__values_plain(p, g->opts.sample_index))
		return PP_EUNSUPPORTED;
	fm = pp_malloc(ctx, (size_t)g->nnodes + 1);
	if (!fm)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (!pp_tree__frame_marks(g, p->nlocations, marks, fm)) {
		pp_free(ctx, fm);
		return PP_EUNSUPPORTED;
	}
	s = pp_calloc(ctx, 1, sizeof(*s));
	path = pp_malloc(ctx, (size_t)t->max_depth + 1);
	last = pp_malloc(ctx, ((size_t)t->max_depth + 1) * sizeof(*last));
	flags = pp_calloc(ctx, t->nnodes, 1);
	if (s) {
		s->ctx = ctx;
		/* At most t's nodes; the pages never written cost nothing. */
		s->nodes =
		        pp_malloc(ctx, (size_t)t->nnodes * sizeof(*s->nodes));
		s->names = pp_malloc(ctx, t->names_size ? t->names_size : 1);
		s->name_off = pp_malloc(ctx, ((size_t)g->nnodes + 1) *
		                                     sizeof(*s->name_off));
	}
	if (!s || !path || !last || !flags || !s->nodes || !s->names ||
	    !s->name_off) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Its own node table (the same one: the same profile and options)
	 * and names, so that it outlives t. */
	if ((err = pp_graph_new(ctx, p, &g->opts, &s->graph)) < 0)
		goto done;
	if (s->graph->nnodes != g->nnodes) {
		err = PP_EUNSUPPORTED;
		goto done;
	}
	memcpy(s->names, t->names, t->names_size);
	memcpy(s->name_off, t->name_off,
	       ((size_t)g->nnodes + 1) * sizeof(*s->name_off));
	s->names_size = t->names_size;
	if (mark_kept(t, fm, path, flags)) {
		err = 1; /* t itself */
		goto done;
	}
	copy_kept(s, t, flags, last);
	{
		/* Give back the pages of the nodes that went. */
		void *shrunk = pp_realloc(
		        ctx, s->nodes, (size_t)s->nnodes * sizeof(*s->nodes));

		if (shrunk)
			s->nodes = shrunk;
	}
done:
	pp_free(ctx, fm);
	pp_free(ctx, path);
	pp_free(ctx, last);
	pp_free(ctx, flags);
	if (err != 0) {
		pp_tree_free(s);
		return err;
	}
	*out = s;
	return 0;
}
