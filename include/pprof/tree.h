/*
 * The calling-context tree: every distinct stack of a profile, root first,
 * with the frames merged at a granularity, as flame graphs, the collapsed
 * ("folded") format and speedscope want it.
 *
 * A tree node is one frame reached through one path from the root. Its
 * frame is a node of the graph the tree was built on (so its name is
 * pp_node_name of that graph node), self is the value of the samples whose
 * stack ends exactly here, total the value of all samples through it.
 *
 * Differential profiles (pprof's -diff_base) mark the base's samples with
 * the string label "pprof::base" and negate their values. The tree keeps
 * those apart: self/total sum every sample (new - base), base_self and
 * base_total sum only the base samples, made positive again. has_base says
 * whether any sample carried the label.
 *
 * Built once per profile and granularity, without recursion, so stack depth
 * costs nothing but memory; the time is about that of one pass over the
 * samples' frames.
 */
#ifndef PPROF_TREE_H
#define PPROF_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "pprof/graph.h"

struct pp_tree_node {
	uint32_t parent; /* PP_NONE for the root */
	uint32_t frame;  /* graph node index; PP_NONE for the root */
	uint32_t depth;  /* root 0 */
	uint32_t end;    /* one past the last node of this node's subtree */
	int64_t self, total;
};

/*
 * The nodes are in depth-first preorder, children in the order their
 * frame's name sorts (byte order): node 0 is the root, a node's first child
 * (if it has one, i + 1 < end) follows it, and its next sibling starts at
 * its end. So a walk of the whole tree is a loop over the array:
 *
 *	for (uint32_t i = 1; i < t->nnodes; i++)
 *		visit(&t->nodes[i]);      -- depth tells where it hangs
 *
 * and the children of n are c = n + 1, nodes[c].end, ... while < end.
 */
struct pp_tree {
	struct pp_ctx *ctx;
	struct pp_graph *graph; /* owned: the frames' node table and names */
	struct pp_tree_node *nodes;
	uint32_t nnodes; /* node 0 is the root */
	uint32_t max_depth;
	bool has_base;
	/* pp_tree_new_cut left subtrees out (their values are in their
	 * parents' totals). */
	bool cut;
	/* When cut: the whole tree's max_depth, and per node the summed
	 * value of its children left out whose value is positive and how
	 * many they are, which is all a flame graph draws of frames too thin
	 * to be drawn one by one (one box for them all). NULL when not. */
	uint32_t whole_depth;
	int64_t *cut_value;
	uint32_t *cut_count;
	/* Per node, only when has_base (else NULL). */
	int64_t *base_self, *base_total;

	/* Every graph node's display name, NUL-terminated, at
	 * names + name_off[frame]; names_size bytes in all. A name may hold
	 * NUL bytes of its own: its length is pp_tree_frame_len (name_off
	 * has one entry more than the graph has nodes). */
	char *names;
	size_t *name_off;
	size_t names_size;
};

/*
 * Build the tree of prof (borrowed; it must outlive the tree) with the
 * graph options opts (sample_index, granularity, noinlines; edges are not
 * used). Samples with a zero value are left out. PP_ENOMEM on allocation
 * failure, PP_ELIMIT past 2^32 - 1 nodes.
 */
int pp_tree_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                const struct pp_graph_opts *opts, struct pp_tree **out);
/*
 * The same tree of every stack read leaf first: the root's children are
 * the leaf frames, each path goes from a leaf to its callers, so stacks
 * are merged by leaf (flamegraph.pl's --reverse). self is then the value
 * of the samples whose root frame ends the path.
 */
int pp_tree_new_reversed(struct pp_ctx *ctx, const struct pp_profile *prof,
                         const struct pp_graph_opts *opts,
                         struct pp_tree **out);
/*
 * The top of pp_tree_new's tree: only the subtrees worth at least
 * min_share of the root's value are built (the rest is in their parents'
 * totals), so a flame graph that leaves out frames thinner than that (the
 * web UI's first page: under a pixel) is made without building or
 * touching the many thin subtrees. Its nodes are numbered in their own
 * preorder, not the whole tree's; each node's depth, self and total are
 * the whole tree's. cut says whether anything was left out: a diff's tree
 * and one of a profile whose total is not positive are never cut.
 */
int pp_tree_new_cut(struct pp_ctx *ctx, const struct pp_profile *prof,
                    const struct pp_graph_opts *opts, double min_share,
                    struct pp_tree **out);
void pp_tree_free(struct pp_tree *t);

/*
 * The tree that t's profile with some samples left out would build, made
 * from t without reading the samples (a refine of a flame graph answers in
 * a pass over t's nodes). marks[l], per location l of t's profile, says
 * which samples stay: those with a frame, none from a location marked
 * PP_TREE_MARK_DROP and one from a location marked PP_TREE_MARK_NEED
 * (pprof's focus and ignore: pp_profile_filter_marks makes such marks).
 * *out is the tree pp_tree_new makes on the filtered profile, node for
 * node; it owns its own graph and names and may outlive t. 1 (and *out
 * NULL) when every sample stays: that tree is t.
 * PP_EUNSUPPORTED when the tree cannot tell (a diff's or negative values;
 * a frame made both by marked and unmarked locations, which can hide
 * whether a stack went through the marked one): build it from the
 * filtered profile then.
 */
#define PP_TREE_MARK_DROP 1u
#define PP_TREE_MARK_NEED 2u
int pp_tree_select(struct pp_ctx *ctx, const struct pp_tree *t,
                   const unsigned char *marks, struct pp_tree **out);

/*
 * The same for filters that also take frames out of the stacks (pprof's
 * hide, show and show_from, with focus and ignore): marks[l] per location
 * and line_marks[i] per line of t's profile, as pp_profile_filter_line_marks
 * makes them (pprof/transform.h); show_from says whether that filter is
 * set (a stack with no FROM location then goes). The frames a stack loses
 * merge its node into another path, so the tree is rebuilt from t's nodes
 * (not from the samples): *out is the tree pp_tree_new makes on the
 * filtered profile, node for node. PP_EUNSUPPORTED as pp_tree_select's,
 * and also when a frame is made by lines that the filters treat apart
 * (one taken out and one not, one show_from match and one not), a line
 * of a location read as one frame (-noinlines) is taken out alone, or two
 * frames have the same name (their order would be the filtered graph's).
 */
#define PP_TREE_MARK_HIDDEN 4u /* per location: out of every stack */
#define PP_TREE_MARK_FROM 8u   /* per location: a show_from match */
#define PP_TREE_LINE_GONE 1u   /* per line: out of its location */
#define PP_TREE_LINE_FROM 2u   /* per line: where the stacks start */
int pp_tree_refine(struct pp_ctx *ctx, const struct pp_tree *t,
                   const unsigned char *marks, const unsigned char *line_marks,
                   bool show_from, struct pp_tree **out);

/* The display name of a tree node's frame, as pp_node_name prints it ("" for
 * the root); borrowed from the tree. */
const char *pp_tree_name(const struct pp_tree *t, uint32_t node);
/* Its length: the name may hold NUL bytes. */
size_t pp_tree_name_len(const struct pp_tree *t, uint32_t node);

/* The length of graph node (frame) f's name at names + name_off[f]. */
static inline size_t pp_tree_frame_len(const struct pp_tree *t, uint32_t f)
{
	return t->name_off[f + 1] - t->name_off[f] - 1;
}

#endif
