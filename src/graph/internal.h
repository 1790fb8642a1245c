/* What graph.c shares with the other files of the graph module. */
#ifndef PP_GRAPH_INTERNAL_H
#define PP_GRAPH_INTERNAL_H

#include "pprof/graph.h"
#include "util/hashmap.h"

/* A graph as pp_graph_new allocates it: the public struct first, then what
 * only the graph module touches (hash tables, scratch, capacities). */
struct pp_graph__full {
	struct pp_graph pub;
	struct pp_hashmap node_index; /* node info -> index in nodes */
	struct pp_hashmap edge_index; /* (src, dst) -> index in edges */
	size_t cap_nodes, cap_edges, cap_stamp_edge;
	uint32_t *stamp_node;
	uint32_t *stamp_edge;
	uint32_t stamp;
	size_t cap_parent, cap_in_edge; /* tree_parent, tree_in_edge */
};

/* A view's tags as the visual view allocates them: the public struct
 * first, then the table's capacity and the hash that finds a tag by
 * (node, label set, numeric value). */
struct pp_graph_tags__full {
	struct pp_graph_tags pub;
	size_t cap;
	uint32_t *slots; /* tag index + 1; 0 = empty */
	uint32_t nslots;
};

static inline struct pp_graph_tags__full *
pp_graph_tags__in(const struct pp_graph_tags *t)
{
	return (struct pp_graph_tags__full *)t;
}

/* g's private part; g must come from pp_graph_new. */
static inline struct pp_graph__full *pp_graph__in(const struct pp_graph *g)
{
	return (struct pp_graph__full *)g;
}

/* Add an already-deduplicated contribution to edge src->dst: weights add,
 * residual is sticky, inline holds only while every contribution is. */
int pp_graph__merge_edge(struct pp_graph *g, uint32_t src, uint32_t dst,
                         int64_t w, int64_t dw, bool residual, bool is_inline);

/* The edges into kept nodes that may be inlined (PP_EDGES_INLINE_TARGETS
 * with a kept set), without touching node values. */
int pp_graph__inline_edges(struct pp_graph *g, const bool *kept);

/* Replace g's node table (built, values 0) by the call tree of its
 * profile (pprof/graph.h, pp_graph_opts.call_tree). */
int pp_graph__call_tree(struct pp_graph *g);

/* Free a view's visual parts (tags, dead edges), kept until the next
 * visual view or pp_view_release. */
void pp_view__release_visual(struct pp_view *v);

/* Record o as what v was made for (visual or text); v stays invalid
 * when the peek pattern cannot be copied. */
int pp_view__made_for(struct pp_view *v, bool visual,
                      const struct pp_trim_opts *o);

/* Shared by the tree's subsets (tree_select.c, tree_refine.c). Can every
 * tree node's existence be read from its values (none negative, and the
 * sum does not wrap)? */
bool pp_tree__values_plain(const struct pp_profile *p, uint32_t si);
/* Per frame (graph node) of g, the marks (PP_TREE_MARK_DROP, _NEED) that
 * every location making it has; false when some location's mark has no
 * such frame. fm: g->nnodes bytes. */
bool pp_tree__frame_marks(const struct pp_graph *g, uint32_t nlocations,
                          const unsigned char *marks, unsigned char *fm);

#endif
