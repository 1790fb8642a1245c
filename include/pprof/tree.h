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
 * Built once per profile and granularity, in one pass over the samples
 * with no recursion, so stack depth costs nothing but memory.
 */
#ifndef PPROF_TREE_H
#define PPROF_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "pprof/graph.h"

struct pp_tree_node {
	uint32_t parent;       /* PP_NONE for the root */
	uint32_t frame;        /* graph node index; PP_NONE for the root */
	uint32_t first_child;  /* PP_NONE when none */
	uint32_t next_sibling; /* PP_NONE when last */
	uint32_t depth;        /* root 0 */
	int64_t self, total;
	int64_t base_self, base_total;
};

struct pp_tree {
	struct pp_ctx *ctx;
	struct pp_graph *graph; /* owned: the frames' node table and names */
	struct pp_tree_node *nodes;
	uint32_t nnodes; /* node 0 is the root */
	uint32_t max_depth;
	bool has_base;

	/* Every graph node's display name, NUL-terminated, at
	 * names + name_off[frame]. */
	char *names;
	size_t *name_off;

	/* Internal: the (parent, frame) -> child hash. */
	uint64_t *keys;
	uint32_t *vals;
	uint32_t nslots;
	size_t cap_nodes;
};

/*
 * Build the tree of prof (borrowed; it must outlive the tree) with the
 * graph options opts (sample_index, granularity, noinlines; edges are not
 * used). Samples with a zero value are left out. Children are linked in
 * the order their frame's name sorts (byte order), so walks are
 * deterministic. PP_ENOMEM on allocation failure.
 */
int pp_tree_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                const struct pp_graph_opts *opts, struct pp_tree **out);
void pp_tree_free(struct pp_tree *t);

/* The display name of a tree node's frame, as pp_node_name prints it ("" for
 * the root); borrowed from the tree. */
const char *pp_tree_name(const struct pp_tree *t, uint32_t node);

#endif
