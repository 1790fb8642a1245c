/*
 * A tree refined by filters that take frames out of the stacks (hide,
 * show, show_from, with focus and ignore): made from the tree of every
 * sample without reading a sample's stack (pprof/tree.h, pp_tree_refine).
 *
 * A node's path is a stack and its self the value of the samples with
 * exactly that stack, so the filtered profile's tree is the sum of the
 * nodes' selves over their filtered paths: each kept node's path without
 * its frames taken out (and above its outermost show_from start). Taking
 * a frame out puts the node's children beside its siblings, where they
 * merge with those of the same frame; so the new tree is built node by
 * node from the old one, with a hash of (new parent, frame) for the
 * children of the new nodes that more than one old node comes to (the
 * parent of a frame taken out, the root of show_from's starts, and below
 * them where two paths meet), and plain appends elsewhere. A pass over
 * the old nodes first finds which of them keep a value, so that only
 * nodes the new tree has are made.
 *
 * The filters mark locations and lines, the tree knows frames: a frame
 * stands for its lines when the filters treat all of them alike (else the
 * answer is PP_EUNSUPPORTED, and the caller filters the profile instead).
 */
#include <stdlib.h>
#include <string.h>

#include "graph/internal.h"
#include "pprof/tree.h"
#include "util/bytes.h"

/* Per frame: what the filters do with the lines that make it. */
#define F_GONE 1u    /* taken out of the stacks */
#define F_KEPT 2u    /* kept */
#define F_FROM 4u    /* a show_from start */
#define F_NOTFROM 8u /* not one */

/* Per frame, F_GONE and F_FROM when every line making it is gone or a
 * start; false when its lines are not treated alike. */
static bool frame_flags(const struct pp_graph *g, const unsigned char *marks,
                        const unsigned char *line_marks, unsigned char *ff)
{
	const struct pp_profile *p = g->prof;
	const uint32_t *first = g->loc_node_first;

	memset(ff, 0, (size_t)g->nnodes + 1);
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];
		uint32_t n = loc->line_count, cnt = first[l + 1] - first[l];
		bool hidden = marks[l] & PP_TREE_MARK_HIDDEN;
		bool start = marks[l] & PP_TREE_MARK_FROM;

		for (uint32_t k = 0; k < cnt; k++) {
			bool gone = hidden, from = !hidden && start;

			if (n > 0 && cnt != n) {
				/* -noinlines: one frame, the outermost
				 * line's; another line there would make
				 * another frame. */
				if (!hidden &&
				    (line_marks[loc->line_first + n - 1] &
				     PP_TREE_LINE_GONE))
					return false;
			} else if (n > 0) {
				unsigned char lm =
				        line_marks[loc->line_first + k];

				gone = lm & PP_TREE_LINE_GONE;
				from = lm & PP_TREE_LINE_FROM;
			}
			ff[g->loc_nodes[first[l] + k]] |=
			        (gone ? F_GONE : F_KEPT) |
			        (from ? F_FROM : F_NOTFROM);
		}
	}
	for (uint32_t f = 0; f < g->nnodes; f++)
		if ((ff[f] & (F_GONE | F_KEPT)) == (F_GONE | F_KEPT) ||
		    (ff[f] & (F_FROM | F_NOTFROM)) == (F_FROM | F_NOTFROM))
			return false;
	return true;
}

struct name_ref {
	const char *name;
	size_t len;
	uint32_t frame;
};

static int cmp_name_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;

	return pp_bytes_cmp(x->name, x->len, y->name, y->len);
}

/* Each frame's rank in its name's byte order, as pp_tree_new orders
 * children; 1 when two frames share a name (pp_tree_new would order them
 * by the filtered profile's graph, which is not t's). */
static int frame_ranks(const struct pp_tree *t, uint32_t *rank)
{
	uint32_t n = t->graph->nnodes;
	struct name_ref *refs =
	        pp_malloc(t->ctx, ((size_t)n + 1) * sizeof(*refs));
	int err = 0;

	if (!refs)
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t f = 0; f < n; f++) {
		refs[f].name = t->names + t->name_off[f];
		refs[f].len = pp_tree_frame_len(t, f);
		refs[f].frame = f;
	}
	if (n > 1)
		qsort(refs, n, sizeof(*refs), cmp_name_ref);
	for (uint32_t i = 0; i < n; i++) {
		if (i > 0 && cmp_name_ref(&refs[i - 1], &refs[i]) == 0)
			err = 1;
		rank[refs[i].frame] = i;
	}
	pp_free(t->ctx, refs);
	return err;
}

/* Per path state, down the old tree: the focus/ignore marks of its frames
 * (PP_TREE_MARK_DROP, _NEED), whether it has started (show_from) and kept
 * a frame since. */
#define P_STARTED 4u
#define P_NONEMPTY 8u

/* Per old node. */
#define SELF_KEPT 1u /* its self goes into the new tree */
#define LIVE 2u      /* its subtree keeps a value */
#define MERGEY 4u    /* children of frames taken out below it join its */

/*
 * Which old nodes keep their self (a path with no DROP frame, one NEED
 * frame, started, and a frame that stays), which subtrees keep one, and
 * which nodes take in the children of frames taken out below them. st and
 * anc: the path's state and its nearest node that stays, per depth.
 */
static void mark_old(const struct pp_tree *t, const unsigned char *fm,
                     const unsigned char *ff, bool show_from, unsigned char *st,
                     uint32_t *anc, unsigned char *flags)
{
	const unsigned char keep = PP_TREE_MARK_NEED | P_STARTED | P_NONEMPTY;

	st[0] = show_from ? 0 : P_STARTED;
	anc[0] = show_from ? PP_NONE : 0;
	for (uint32_t i = 1; i < t->nnodes;) {
		const struct pp_tree_node *n = &t->nodes[i];
		unsigned char f = ff[n->frame];
		unsigned char s = st[n->depth - 1] | fm[n->frame];
		uint32_t a = anc[n->depth - 1];

		if (s & PP_TREE_MARK_DROP) {
			i = n->end; /* every stack below is dropped */
			continue;
		}
		if (!(s & P_STARTED) && (f & F_FROM)) {
			s |= P_STARTED;
			a = i;
		} else if (s & P_STARTED) {
			if (f & F_GONE)
				flags[a] |= MERGEY;
			else
				a = i;
		}
		if ((s & P_STARTED) && !(f & F_GONE))
			s |= P_NONEMPTY;
		st[n->depth] = s;
		anc[n->depth] = a;
		if ((s & keep) == keep && n->self != 0)
			flags[i] |= SELF_KEPT | LIVE;
		i++;
	}
	for (uint32_t i = t->nnodes; i-- > 1;)
		if (flags[i] & LIVE)
			flags[t->nodes[i].parent] |= LIVE;
}

/* The new tree while it is built: nodes in the order they are made, each
 * with its children in a list (in rank order unless multi). */
struct nt {
	struct pp_ctx *ctx;
	uint32_t *frame, *parent, *first, *last, *next;
	int64_t *self;
	unsigned char *multi; /* its children may come from several places */
	uint32_t n;
	/* (parent, frame) -> node, for the children of multi nodes. */
	uint64_t *keys; /* ((parent << 32) | frame) + 1; 0: empty */
	uint32_t *vals;
	size_t nslots, used;
};

static size_t slot_of(uint64_t key, size_t nslots)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (nslots - 1);
}

static int hash_grow(struct nt *nt)
{
	size_t nslots = nt->nslots ? nt->nslots * 2 : 1024;
	uint64_t *keys = pp_calloc(nt->ctx, nslots, sizeof(*keys));
	uint32_t *vals = pp_malloc(nt->ctx, nslots * sizeof(*vals));

	if (!keys || !vals) {
		pp_free(nt->ctx, keys);
		pp_free(nt->ctx, vals);
		return pp_error(nt->ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nt->nslots; i++) {
		size_t j;

		if (!nt->keys[i])
			continue;
		for (j = slot_of(nt->keys[i], nslots); keys[j];
		     j = (j + 1) & (nslots - 1))
			;
		keys[j] = nt->keys[i];
		vals[j] = nt->vals[i];
	}
	pp_free(nt->ctx, nt->keys);
	pp_free(nt->ctx, nt->vals);
	nt->keys = keys;
	nt->vals = vals;
	nt->nslots = nslots;
	return 0;
}

/* Find c's child for frame f through the hash, or (found false) the
 * slot it would take. */
static int hash_find(struct nt *nt, uint32_t c, uint32_t f, size_t *slot,
                     bool *found)
{
	uint64_t key = ((uint64_t)c << 32 | f) + 1;
	size_t j;
	int err;

	if (2 * (nt->used + 1) > nt->nslots && (err = hash_grow(nt)) < 0)
		return err;
	for (j = slot_of(key, nt->nslots); nt->keys[j];
	     j = (j + 1) & (nt->nslots - 1))
		if (nt->keys[j] == key)
			break;
	*slot = j;
	*found = nt->keys[j] != 0;
	return 0;
}

static void hash_put(struct nt *nt, size_t slot, uint32_t c, uint32_t f,
                     uint32_t v)
{
	nt->keys[slot] = ((uint64_t)c << 32 | f) + 1;
	nt->vals[slot] = v;
	nt->used++;
}

/* c's children may now come from another place: find them through the
 * hash from now on (the ones it has go in). */
static int promote(struct nt *nt, uint32_t c)
{
	size_t slot;
	bool found;
	int err;

	if (nt->multi[c])
		return 0;
	nt->multi[c] = 1;
	for (uint32_t k = nt->first[c]; k != PP_NONE; k = nt->next[k]) {
		if ((err = hash_find(nt, c, nt->frame[k], &slot, &found)) < 0)
			return err;
		hash_put(nt, slot, c, nt->frame[k], k);
	}
	return 0;
}

/*
 * The child of new node p for frame f, for an old node (flags oflags);
 * made when there is none. Only a multi node's children are in the hash:
 * a node is made multi when a second old node comes to it, or one whose
 * children take in those of a frame taken out (MERGEY); until then its
 * children come from one old node, whose children have distinct frames.
 */
static int child(struct nt *nt, uint32_t p, uint32_t f, unsigned char oflags,
                 uint32_t *out)
{
	size_t slot = 0;
	bool found = false;
	uint32_t c;
	int err;

	if (nt->multi[p]) {
		if ((err = hash_find(nt, p, f, &slot, &found)) < 0)
			return err;
		if (found) {
			*out = c = nt->vals[slot];
			return promote(nt, c);
		}
		hash_put(nt, slot, p, f, nt->n);
	}
	c = nt->n++;
	nt->frame[c] = f;
	nt->parent[c] = p;
	nt->first[c] = nt->last[c] = nt->next[c] = PP_NONE;
	nt->self[c] = 0;
	nt->multi[c] = (oflags & MERGEY) != 0;
	if (nt->last[p] == PP_NONE)
		nt->first[p] = c;
	else
		nt->next[nt->last[p]] = c;
	nt->last[p] = c;
	*out = c;
	return 0;
}

/* Make the new tree's nodes from the live old nodes. cur: the new node of
 * the path at each depth (PP_NONE: not started). */
static int build_new(struct nt *nt, const struct pp_tree *t,
                     const unsigned char *ff, const unsigned char *flags,
                     bool show_from, uint32_t *cur)
{
	int err;

	nt->n = 1;
	nt->frame[0] = nt->parent[0] = PP_NONE;
	nt->first[0] = nt->last[0] = nt->next[0] = PP_NONE;
	nt->self[0] = 0;
	nt->multi[0] = show_from || (flags[0] & MERGEY);
	cur[0] = show_from ? PP_NONE : 0;
	for (uint32_t i = 1; i < t->nnodes;) {
		const struct pp_tree_node *n = &t->nodes[i];
		uint32_t p = cur[n->depth - 1], c = PP_NONE;
		unsigned char f = ff[n->frame];

		if (!(flags[i] & LIVE)) {
			i = n->end;
			continue;
		}
		if ((err = pp_interrupt_poll(t->ctx, i)) < 0)
			return err;
		if (p == PP_NONE) {
			if ((f & F_FROM) &&
			    (err = child(nt, 0, n->frame, flags[i], &c)) < 0)
				return err;
		} else if (f & F_GONE) {
			c = p;
		} else if ((err = child(nt, p, n->frame, flags[i], &c)) < 0) {
			return err;
		}
		if (flags[i] & SELF_KEPT)
			nt->self[c] += n->self;
		cur[n->depth] = c;
		i++;
	}
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

/* Put the children of each multi node in rank order. buf: room for the
 * most children a node has (nt->n). */
static void sort_children(struct nt *nt, const uint32_t *rank, uint64_t *buf)
{
	for (uint32_t u = 0; u < nt->n; u++) {
		uint32_t k = 0;

		if (!nt->multi[u] || nt->first[u] == PP_NONE)
			continue;
		for (uint32_t c = nt->first[u]; c != PP_NONE; c = nt->next[c])
			buf[k++] = (uint64_t)rank[nt->frame[c]] << 32 | c;
		if (k < 2)
			continue;
		qsort(buf, k, sizeof(*buf), cmp_u64);
		nt->first[u] = (uint32_t)buf[0];
		for (uint32_t j = 0; j + 1 < k; j++)
			nt->next[(uint32_t)buf[j]] = (uint32_t)buf[j + 1];
		nt->next[(uint32_t)buf[k - 1]] = PP_NONE;
		nt->last[u] = (uint32_t)buf[k - 1];
	}
}

/* The new nodes into out in depth-first preorder, then their totals and
 * ends summed backward (children follow their parents). pos: per new
 * node, its index in out. */
static void lay_out(struct pp_tree *out, const struct nt *nt, uint32_t *pos)
{
	struct pp_tree_node *o = out->nodes;
	uint32_t k = 0, u = 0;

	for (;;) {
		struct pp_tree_node *c = &o[k];

		pos[u] = k;
		c->parent = u ? pos[nt->parent[u]] : PP_NONE;
		c->frame = nt->frame[u];
		c->depth = u ? o[c->parent].depth + 1 : 0;
		c->end = 0;
		c->self = c->total = nt->self[u];
		if (c->depth > out->max_depth)
			out->max_depth = c->depth;
		k++;
		if (nt->first[u] != PP_NONE) {
			u = nt->first[u];
			continue;
		}
		while (u != 0 && nt->next[u] == PP_NONE)
			u = nt->parent[u];
		if (u == 0)
			break;
		u = nt->next[u];
	}
	out->nnodes = k;
	for (uint32_t i = k; i-- > 0;) {
		struct pp_tree_node *n = &o[i];

		if (n->end < i + 1)
			n->end = i + 1;
		if (i == 0)
			break;
		o[n->parent].total += n->total;
		if (n->end > o[n->parent].end)
			o[n->parent].end = n->end;
	}
}

static void nt_free(struct nt *nt)
{
	pp_free(nt->ctx, nt->frame);
	pp_free(nt->ctx, nt->parent);
	pp_free(nt->ctx, nt->first);
	pp_free(nt->ctx, nt->last);
	pp_free(nt->ctx, nt->next);
	pp_free(nt->ctx, nt->self);
	pp_free(nt->ctx, nt->multi);
	pp_free(nt->ctx, nt->keys);
	pp_free(nt->ctx, nt->vals);
}

static int nt_alloc(struct nt *nt, size_t cap)
{
	nt->frame = pp_malloc(nt->ctx, cap * sizeof(*nt->frame));
	nt->parent = pp_malloc(nt->ctx, cap * sizeof(*nt->parent));
	nt->first = pp_malloc(nt->ctx, cap * sizeof(*nt->first));
	nt->last = pp_malloc(nt->ctx, cap * sizeof(*nt->last));
	nt->next = pp_malloc(nt->ctx, cap * sizeof(*nt->next));
	nt->self = pp_malloc(nt->ctx, cap * sizeof(*nt->self));
	nt->multi = pp_malloc(nt->ctx, cap);
	if (!nt->frame || !nt->parent || !nt->first || !nt->last || !nt->next ||
	    !nt->self || !nt->multi)
		return pp_error(nt->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* A tree of its own for the refined nodes: its graph (the same node
 * table: the same profile and options) and names, so that it outlives t. */
static int tree_shell(struct pp_ctx *ctx, const struct pp_tree *t,
                      size_t nnodes, struct pp_tree **out)
{
	const struct pp_graph *g = t->graph;
	struct pp_tree *s;
	int err;

	*out = s = pp_calloc(ctx, 1, sizeof(*s));
	if (!s)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	s->ctx = ctx;
	s->nodes = pp_malloc(ctx, nnodes * sizeof(*s->nodes));
	s->names = pp_malloc(ctx, t->names_size ? t->names_size : 1);
	s->name_off =
	        pp_malloc(ctx, ((size_t)g->nnodes + 1) * sizeof(*s->name_off));
	if (!s->nodes || !s->names || !s->name_off)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = pp_graph_new(ctx, g->prof, &g->opts, &s->graph)) < 0)
		return err;
	if (s->graph->nnodes != g->nnodes)
		return PP_EUNSUPPORTED;
	memcpy(s->names, t->names, t->names_size);
	memcpy(s->name_off, t->name_off,
	       ((size_t)g->nnodes + 1) * sizeof(*s->name_off));
	s->names_size = t->names_size;
	return 0;
}

int pp_tree_refine(struct pp_ctx *ctx, const struct pp_tree *t,
                   const unsigned char *marks, const unsigned char *line_marks,
                   bool show_from, struct pp_tree **out)
{
	const struct pp_graph *g = t->graph;
	const struct pp_profile *p = g->prof;
	unsigned char *fm = NULL, *ff = NULL, *st = NULL, *flags = NULL;
	uint32_t *rank = NULL, *anc = NULL, nlive = 0;
	uint64_t *buf = NULL;
	struct pp_tree *s = NULL;
	struct nt nt;
	int err;

	*out = NULL;
	memset(&nt, 0, sizeof(nt));
	nt.ctx = ctx;
	if (t->has_base || t->cut ||
	    !pp_tree__values_plain(p, g->opts.sample_index))
		return PP_EUNSUPPORTED;
	fm = pp_malloc(ctx, (size_t)g->nnodes + 1);
	ff = pp_malloc(ctx, (size_t)g->nnodes + 1);
	rank = pp_malloc(ctx, ((size_t)g->nnodes + 1) * sizeof(*rank));
	st = pp_malloc(ctx, (size_t)t->max_depth + 1);
	anc = pp_malloc(ctx, ((size_t)t->max_depth + 1) * sizeof(*anc));
	flags = pp_calloc(ctx, t->nnodes, 1);
	if (!fm || !ff || !rank || !st || !anc || !flags) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if (!pp_tree__frame_marks(g, p->nlocations, marks, fm) ||
	    !frame_flags(g, marks, line_marks, ff)) {
		err = PP_EUNSUPPORTED;
		goto done;
	}
	if ((err = frame_ranks(t, rank)) != 0) {
		if (err > 0)
			err = PP_EUNSUPPORTED;
		goto done;
	}
	mark_old(t, fm, ff, show_from, st, anc, flags);
	for (uint32_t i = 0; i < t->nnodes; i++)
		nlive += (flags[i] & LIVE) != 0;
	/* The old nodes that stay make at most one new node each; the
	 * pages never written cost nothing. anc is cur's room. */
	if ((err = nt_alloc(&nt, (size_t)nlive + 1)) < 0 ||
	    (err = build_new(&nt, t, ff, flags, show_from, anc)) < 0)
		goto done;
	pp_free(ctx, flags);
	flags = NULL;
	pp_free(ctx, nt.keys);
	pp_free(ctx, nt.vals);
	nt.keys = NULL;
	nt.vals = NULL;
	buf = pp_malloc(ctx, (size_t)nt.n * sizeof(*buf));
	if (!buf) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	sort_children(&nt, rank, buf);
	pp_free(ctx, buf);
	buf = NULL;
	if ((err = tree_shell(ctx, t, nt.n, &s)) < 0)
		goto done;
	/* last is no longer needed: it holds the new nodes' places. */
	lay_out(s, &nt, nt.last);
done:
	nt_free(&nt);
	pp_free(ctx, buf);
	pp_free(ctx, fm);
	pp_free(ctx, ff);
	pp_free(ctx, rank);
	pp_free(ctx, st);
	pp_free(ctx, anc);
	pp_free(ctx, flags);
	if (err != 0) {
		pp_tree_free(s);
		return err;
	}
	*out = s;
	return 0;
}
