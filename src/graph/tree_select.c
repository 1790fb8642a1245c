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

#include "pprof/tree.h"
#include "util/pages.h"

/* Can every node's existence be read from its values? Only when no value
 * is negative (a subtree summing to zero then holds no sample: the tree
 * leaves zero samples out) and the whole sum does not wrap around. */
static bool values_plain(const struct pp_profile *p, uint32_t si)
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

/* Per frame (graph node), the marks that every location making it has;
 * false when some location's mark has no such frame. */
static bool frame_marks(const struct pp_graph *g, uint32_t nlocations,
                        const unsigned char *marks, unsigned char *fm)
{
	const uint32_t *first = g->loc_node_first;

	memset(fm, PP_TREE_MARK_DROP | PP_TREE_MARK_NEED, g->nnodes);
	for (uint32_t l = 0; l < nlocations; l++)
		for (uint32_t k = first[l]; k < first[l + 1]; k++)
			fm[g->loc_nodes[k]] &= marks[l];
	for (uint32_t l = 0; l < nlocations; l++) {
		unsigned char have = 0;

		for (uint32_t k = first[l]; k < first[l + 1]; k++)
			have |= fm[g->loc_nodes[k]];
		if ((marks[l] & ~have) != 0)
			return false;
	}
	return true;
}

/* Is a path with these marks kept: no frame marked DROP, one NEED? */
static bool path_kept(unsigned char m)
{
	return !(m & PP_TREE_MARK_DROP) && (m & PP_TREE_MARK_NEED);
}

/*
 * The kept nodes of t into out, in the same preorder. First every node
 * that no DROP frame is above, with its self when its path is kept; then
 * the totals, summed backward (children follow their parents); then, in
 * place, the nodes whose total is zero go (their subtrees with them: no
 * value is negative). Only out's array is written: on a big tree the
 * pages written are most of the time. last[d]: the last node at depth d,
 * the parent of the next at depth d + 1; path[d]: the marks down to d.
 */
static void copy_kept(struct pp_tree *out, const struct pp_tree *t,
                      const unsigned char *fm, unsigned char *path,
                      uint32_t *last)
{
	struct pp_tree_node *o = out->nodes;
	uint32_t n = 0, nopen = 0;

	for (uint32_t i = 0; i < t->nnodes;) {
		const struct pp_tree_node *src = &t->nodes[i];
		struct pp_tree_node *c = &o[n];

		c->frame = src->frame;
		c->depth = src->depth;
		c->self = 0;
		if (i == 0) {
			path[0] = 0;
			c->parent = PP_NONE;
		} else {
			path[c->depth] = path[c->depth - 1] | fm[src->frame];
			if (path[c->depth] & PP_TREE_MARK_DROP) {
				i = src->end; /* every stack below is dropped */
				continue;
			}
			c->parent = last[c->depth - 1];
			if (path_kept(path[c->depth]))
				c->self = src->self;
		}
		c->total = c->self;
		last[c->depth] = n++;
		i++;
	}
	for (uint32_t i = n; i-- > 1;)
		o[o[i].parent].total += o[i].total;
	out->nnodes = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct pp_tree_node c = o[i];

		if (i > 0 && c.total == 0)
			continue;
		/* The nodes this one is not under end here. */
		while (nopen > 0 && o[last[nopen - 1]].depth >= c.depth)
			o[last[--nopen]].end = out->nnodes;
		c.parent = nopen ? last[nopen - 1] : PP_NONE;
		if (c.depth > out->max_depth)
			out->max_depth = c.depth;
		o[out->nnodes] = c;
		last[nopen++] = out->nnodes++;
	}
	while (nopen > 0)
		o[last[--nopen]].end = out->nnodes;
}

int pp_tree_select(struct pp_ctx *ctx, const struct pp_tree *t,
                   const unsigned char *marks, struct pp_tree **out)
{
	const struct pp_graph *g = t->graph;
	const struct pp_profile *p = g->prof;
	unsigned char *fm = NULL, *path = NULL;
	uint32_t *last = NULL;
	struct pp_tree *s = NULL;
	int err;

	*out = NULL;
	if (t->has_base || !values_plain(p, g->opts.sample_index))
		return PP_EUNSUPPORTED;
	fm = pp_malloc(ctx, (size_t)g->nnodes + 1);
	if (!fm)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (!frame_marks(g, p->nlocations, marks, fm)) {
		pp_free(ctx, fm);
		return PP_EUNSUPPORTED;
	}
	s = pp_calloc(ctx, 1, sizeof(*s));
	path = pp_malloc(ctx, (size_t)t->max_depth + 1);
	last = pp_malloc(ctx, ((size_t)t->max_depth + 1) * sizeof(*last));
	if (s) {
		s->ctx = ctx;
		/* At most t's nodes; the pages never written cost nothing. */
		s->nodes =
		        pp_malloc(ctx, (size_t)t->nnodes * sizeof(*s->nodes));
		s->cap_nodes = t->nnodes;
		s->names = pp_malloc(ctx, t->names_size ? t->names_size : 1);
		s->name_off = pp_malloc(ctx, ((size_t)g->nnodes + 1) *
		                                     sizeof(*s->name_off));
	}
	if (!s || !path || !last || !s->nodes || !s->names || !s->name_off) {
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
	pp_pages_huge(s->nodes, (size_t)t->nnodes * sizeof(*s->nodes));
	memcpy(s->names, t->names, t->names_size);
	memcpy(s->name_off, t->name_off,
	       ((size_t)g->nnodes + 1) * sizeof(*s->name_off));
	s->names_size = t->names_size;
	copy_kept(s, t, fm, path, last);
	{
		/* Give back the pages of the nodes that went. */
		void *shrunk = pp_realloc(
		        ctx, s->nodes, (size_t)s->nnodes * sizeof(*s->nodes));

		if (shrunk) {
			s->nodes = shrunk;
			s->cap_nodes = s->nnodes;
		}
	}
done:
	pp_free(ctx, fm);
	pp_free(ctx, path);
	pp_free(ctx, last);
	if (err < 0) {
		pp_tree_free(s);
		return err;
	}
	*out = s;
	return 0;
}
