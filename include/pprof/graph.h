/*
 * Aggregation: a profile's samples summed into nodes (one per function, file,
 * line or address, per the granularity) and the edges between them, as
 * pprof's graph package defines them:
 *
 *   flat = value of samples whose leaf frame is the node;
 *   cum  = value of samples in whose stack the node appears, counted once
 *          per sample even under recursion;
 *   an edge caller->callee carries the value of the samples whose stacks
 *          hold that call, once per sample; it is "inline" when every call it
 *          stands for was inlined, "residual" when it skips dropped nodes.
 *
 * The node table (which node each location's lines map to) is built once per
 * profile and granularity; accumulation can then be rerun cheaply with a
 * subset of nodes kept, which is how reports trim a graph.
 */
#ifndef PPROF_GRAPH_H
#define PPROF_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "pprof/profile.h"

enum pp_granularity {
	PP_GRAN_FUNCTIONS = 0, /* default */
	PP_GRAN_FILEFUNCTIONS,
	PP_GRAN_FILES,
	PP_GRAN_LINES,
	PP_GRAN_ADDRESSES,
};

/* Parse "functions", "filefunctions", "files", "lines", "addresses". */
int pp_granularity_parse(const char *s, enum pp_granularity *out);
const char *pp_granularity_name(enum pp_granularity g);

/* What identifies a node; equal infos are the same node. */
struct pp_node_info {
	pp_str name;
	pp_str file;
	pp_str objfile;
	uint64_t address;
	int64_t start_line;
	int64_t lineno;
	int64_t column; /* 0 unless the options keep columns */
};

struct pp_node {
	struct pp_node_info info;
	int64_t flat, flat_div;
	int64_t cum, cum_div;
	/* The node could be reached through an inlined call (it is the inner
	 * line of some location). */
	bool maybe_inline;
	/* Set by accumulation: some kept in-edge is inline / is not. */
	bool in_inline, in_call;
};

struct pp_edge {
	uint32_t src, dst;
	int64_t weight, weight_div;
	bool residual;
	bool is_inline;
};

/* Which edges accumulation records. Text reports need only the edges into
 * nodes that may be inlined (for the "(inline)" marks); graphs need all. */
enum pp_edge_mode {
	PP_EDGES_NONE = 0,
	PP_EDGES_INLINE_TARGETS,
	PP_EDGES_ALL,
	/* Only the edges with an end in g->edge_marks (peek: the callers and
	 * callees of the matching nodes, not every edge of the profile). */
	PP_EDGES_MARKED,
};

struct pp_graph_opts {
	uint32_t sample_index; /* which value; see pp_profile_sample_index */
	bool mean;             /* divide by value 0 (the event count) */
	enum pp_granularity granularity;
	bool noinlines; /* keep only each location's outermost line */
	/* Keep line columns in line-level nodes (pprof's -showcolumns):
	 * "file.go:12:5". pprof 1.24 keeps them at addresses granularity
	 * with inlines whatever this says; so does the graph. */
	bool columns;
	bool obj_names; /* keep the binary name in every node (list, raw) */
	bool drop_negative;
	enum pp_edge_mode edges;
	/* false; true: a call tree (pprof's -call_tree): a node per call
	 * path, the frame at the granularity under its parent node, so a
	 * function called from two places is two nodes. Flat and cum are
	 * the path's; each node's one in-edge, from its parent, carries its
	 * cum and is inline when every call along it was. Such a graph has
	 * no location table (loc_nodes) and is never re-accumulated:
	 * reports trim it as a tree (tree_parent, tree_in_edge). */
	bool call_tree;
	/* false; true: build the node table only, leaving every value 0
	 * (for callers that walk the samples themselves: the tree, and
	 * traces, which prints the samples' own values). */
	bool nodes_only;
};

/* A graph as pp_graph_new makes it: its hash tables, scratch and array
 * capacities are the graph module's, not in this struct. */
struct pp_graph {
	struct pp_ctx *ctx;
	const struct pp_profile *prof; /* borrowed */
	struct pp_graph_opts opts;

	struct pp_node *nodes;
	uint32_t nnodes;
	/* Nodes of each location, innermost line first:
	 * loc_nodes[loc_node_first[l] .. loc_node_first[l+1]). */
	uint32_t *loc_nodes;
	uint32_t *loc_node_first;

	struct pp_edge *edges;
	uint32_t nedges;

	/* Call trees only (else NULL): each node's parent (PP_NONE for a
	 * root) and the edge from it (PP_NONE for a root), and the node
	 * each sample ends at (PP_NONE for a sample left out). */
	uint32_t *tree_parent;
	uint32_t *tree_in_edge;
	uint32_t *sample_leaf;
	/* For PP_EDGES_MARKED: per node, true if its edges are wanted
	 * (borrowed; set by the caller before pp_graph_accumulate). */
	const bool *edge_marks;
};

/* Build the node table and accumulate all samples. */
int pp_graph_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                 const struct pp_graph_opts *opts, struct pp_graph **out);
void pp_graph_free(struct pp_graph *g);

/*
 * Recompute values and edges keeping only the nodes with kept[i] true
 * (NULL keeps all). Dropped nodes make residual edges between the kept ones.
 */
int pp_graph_accumulate(struct pp_graph *g, const bool *kept,
                        enum pp_edge_mode edges);

/*
 * pprof's entropy score of each node in nodes[0..count) (graph.go's
 * entropyScore), into score[node]: how evenly a node's weight spreads over
 * its in-edges, plus over its out-edges and its own flat, in bits (1 for a
 * side without edges), times its cum, plus its flat. Visual reports sort
 * by it. Linear in nodes + edges. *work (when not NULL) is set to the
 * steps taken (edges visited per pass + nodes scored), for tests that hold
 * it to that bound. PP_ENOMEM on allocation failure (score untouched).
 */
int pp_graph_entropy_scores(const struct pp_graph *g, const uint32_t *nodes,
                            uint32_t count, int64_t *score, uint64_t *work);

/*
 * pp_graph_accumulate(g, kept, PP_EDGES_ALL) for a graph whose values come
 * from a pass that kept every node kept now (pp_graph_new's, or an earlier
 * call with a superset of kept): the same nodes, values and edges, in the
 * same order, but on two threads for big profiles. Kept nodes keep their
 * cum (keeping fewer nodes never changes it); their flat is recomputed;
 * dropped nodes get 0.
 */
int pp_graph_accumulate_kept(struct pp_graph *g, const bool *kept);

/* ---- trimming (src/graph/trim.c), as pprof's newTrimmedGraph ---------- */

/* pprof's node and edge cutoffs: nodefraction and edgefraction of the
 * total flat value of g's nodes (with drop_negative, of those it keeps). */
void pp_graph_cutoffs(const struct pp_graph *g, double nodefraction,
                      double edgefraction, bool drop_negative,
                      int64_t *node_cutoff, int64_t *edge_cutoff);

/* kept[n] (g->nnodes of them) = true for the nodes of order[0..norder)
 * whose |cum| reaches node_cutoff, false for every other; returns how
 * many. */
uint32_t pp_graph_keep_over(const struct pp_graph *g, const uint32_t *order,
                            uint32_t norder, int64_t node_cutoff, bool *kept);

/* Zero the values of the nodes not kept, which takes them out of a report
 * exactly as rebuilding the graph without them would (values only). */
void pp_graph_drop_unkept(struct pp_graph *g, const bool *kept);

/* Mark each node reached through an inlined / a real call by the edges at
 * or over edge_cutoff (in_inline, in_call); returns how many edges are
 * under it. */
uint32_t pp_graph_mark_edges(struct pp_graph *g, int64_t edge_cutoff);

/* The edges into the nodes of order[0..norder) that may be inlined, with
 * those nodes kept (paths through others become residual edges); kept is
 * scratch of g->nnodes. Nothing when no such node can be inlined. */
int pp_graph_add_inline_edges(struct pp_graph *g, const uint32_t *order,
                              uint32_t norder, bool *kept);

/*
 * The nodes' values as accumulation left them (flat, flat_div, cum, cum_div
 * per node; *out: pp_free), and put back: values restored, every edge and
 * in_inline/in_call mark forgotten. A report trims again from the saved
 * aggregate this way instead of passing over the samples.
 */
int pp_graph_save_values(const struct pp_graph *g, int64_t **out);
void pp_graph_restore_values(struct pp_graph *g, const int64_t *values);

/* ---- views (src/graph/view.c, order.c, visual.c) ---------------------- */

struct pp_regex; /* a compiled regex (util) */

/*
 * How a graph is trimmed for a report, as pprof's newTrimmedGraph: the
 * caller resolves its defaults (zero keeps everything). Nodes with
 * negative values are left out when the graph's drop_negative says so.
 */
struct pp_trim_opts {
	int nodecount;       /* keep the first nodecount nodes; 0: all */
	double nodefraction; /* drop nodes whose |cum| is under this share */
	double edgefraction; /* hide edges whose |weight| is under it */
	bool cum_sort;       /* text order by cum (else flat) */
	/* Text views: record every edge between kept nodes (trees), not
	 * just the inline marks; with edge_regex (peek), only the edges of
	 * the nodes whose names match. */
	bool all_edges;
	const struct pp_regex *edge_regex;
	/* Visual views: the unit numeric label tags are printed in. */
	const char *tag_unit;
};

/* A label tag of a node in a visual view (pprof's Tag). */
struct pp_graph_tag {
	uint32_t node;
	uint32_t label; /* the sample's label set, index into the tag strings */
	/* Numeric tags ("bytes" labels, the only ones pprof draws): the
	 * formatted value (tag strings), the value and its unit. PP_NONE
	 * for a label tag. */
	uint32_t name;
	int64_t value;
	const char *unit; /* unit_len bytes: a profile's, whole */
	size_t unit_len;
	int64_t flat, flat_div, cum, cum_div;
	bool dead; /* below the node cutoff */
};

struct pp_graph_tags {
	struct pp_strtab *strings; /* "key:value\\n..." per label set */
	uint32_t *sample_label;    /* per sample; 0 = no labels */
	struct pp_graph_tag *tags;
	uint32_t ntags;
	pp_str bytes_key; /* "bytes" in the profile, or PP_NONE */
	/* Its unit (bytes_unit_len bytes, a profile's may hold NUL bytes). */
	const char *bytes_unit;
	size_t bytes_unit_len;
	const char *unit; /* numeric tags are printed in (pp_trim_opts) */
};

/*
 * The trimmed graph a report prints: a graph (borrowed, trimmed in place),
 * its node names, the kept nodes in report order, and for visual views
 * the dead edges and the label tags. Zero-initialise, then
 * pp_view_set_graph for each new graph; pp_view_release frees it all.
 */
struct pp_view {
	struct pp_ctx *ctx;
	struct pp_graph *graph;
	size_t *names; /* offsets into name_buf, per graph node */
	char *name_buf;
	uint32_t *order; /* the nodes shown, in report order */
	uint32_t norder;
	uint32_t orig_count;        /* nodes before the nodecount cut */
	uint32_t dropped_nodes;     /* nodes under the node cutoff */
	uint32_t dropped_edges;     /* visual: edges under the edge cutoff */
	bool *kept;                 /* per graph node; scratch between trims */
	bool *edge_dead;            /* visual: per edge, left out */
	bool *edge_marks;           /* peek: per node, its edges wanted */
	int64_t edge_cutoff;        /* edges lighter than this are not shown */
	struct pp_graph_tags *tags; /* visual: label tags per node */
	/* What the view was made for (see pp_view_current): valid until
	 * the graph changes; edge_regex is kept as its pattern. */
	bool valid, visual;
	struct pp_trim_opts made_for;
	char *edge_pattern;
};

/* v now views g (its node names computed, its arrays sized for g). */
int pp_view_set_graph(struct pp_view *v, struct pp_ctx *ctx,
                      struct pp_graph *g);
void pp_view_release(struct pp_view *v);
/* No node kept or ordered (after the graph's values were restored). */
void pp_view_reset(struct pp_view *v);
/* Node n's name (pp_node_name), NUL-terminated; a name may hold NUL
 * bytes of its own, so what prints or compares it takes its length. */
const char *pp_view_node_name(const struct pp_view *v, uint32_t n);
size_t pp_view_node_len(const struct pp_view *v, uint32_t n);
/* Nodes a and b by name, in Go's string order (bytes, a prefix first). */
int pp_view_name_cmp(const struct pp_view *v, uint32_t a, uint32_t b);

/* True if v is the view (visual or text) that o asks for, made since its
 * graph last changed: a report repeated with the same trimming reuses it
 * instead of trimming again (the shell's repeated `top`). */
bool pp_view_current(const struct pp_view *v, bool visual,
                     const struct pp_trim_opts *o);
/* Forget what v was made for (its graph or unit is another report's). */
static inline void pp_view_invalidate(struct pp_view *v)
{
	v->valid = false;
}

/* v->order: the graph's nodes that have any value (with drop_negative,
 * not those it leaves out), in report order (flat or, cum_sort, cum). */
int pp_view_select_order(struct pp_view *v, bool drop_negative, bool cum_sort);
/* fmt.Sprint order of two nodes' infos: pprof's last tie-breaker. */
int pp_view_info_cmp(const struct pp_view *v, uint32_t a, uint32_t b);
/* pprof's edge order: heavier first, then by source and target name. */
int pp_view_edge_cmp(const struct pp_view *v, uint32_t a, uint32_t b);

/* The text reports' trimmed graph (top, tree, peek, json) from v->graph
 * holding an aggregate's values: nodes under the cutoff dropped, the
 * first nodecount kept, then the edges asked for. Both this and
 * pp_view_visual record o as what v is made for. */
int pp_view_trim(struct pp_view *v, const struct pp_trim_opts *o);

/*
 * The graph as pprof draws it (dot, svg): nodes sorted by entropy score,
 * nodecount counting tag nodelets, edges under edgefraction dropped and
 * redundant residual edges removed. v->graph holds an aggregate's values
 * without edges, or a call tree (pp_graph_opts.call_tree), which is
 * trimmed as pprof's TrimTree.
 */
int pp_view_visual(struct pp_view *v, const struct pp_trim_opts *o);

static inline int64_t pp_node_flat(const struct pp_node *n)
{
	return n->flat_div ? n->flat / n->flat_div : n->flat;
}

static inline int64_t pp_node_cum(const struct pp_node *n)
{
	return n->cum_div ? n->cum / n->cum_div : n->cum;
}

/* A node's display name, as pprof prints it ("main.f", "file.go:12",
 * "00000000004010a0 f file.c:3", "[libc.so.6]", "<unknown>"). Writes at most
 * size bytes including the NUL; returns the full length. */
size_t pp_node_name(const struct pp_graph *g, const struct pp_node *n,
                    char *buf, size_t size);

#endif
