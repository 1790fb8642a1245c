/* What graph.c shares with the other files of the graph module. */
#ifndef PP_GRAPH_INTERNAL_H
#define PP_GRAPH_INTERNAL_H

#include "pprof/graph.h"

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

#endif
