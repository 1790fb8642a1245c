/* What the report printers share inside libpprof. */
#ifndef PP_REPORT_INTERNAL_H
#define PP_REPORT_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "pprof/report.h"
#include "pprof/tree.h"

struct pp_report {
	struct pp_ctx *ctx;
	const struct pp_profile *prof;
	struct pp_report_opts opts;
	uint32_t sample_index;
	const char *sample_type;
	char *sample_unit;       /* lower-cased unit of the sample type */
	const char *output_unit; /* unit chosen for printing */
	double ratio;            /* 1 / divide_by */
	int64_t total;

	/* The trimmed graph and its nodes in report order. */
	struct pp_graph *graph;
	/* graph's values as first accumulated (the aggregate), for options
	 * graph_opts: trimming again restores them (pp_graph_restore_values)
	 * instead of passing over the samples. NULL: none kept. */
	int64_t *graph_values;
	struct pp_graph_opts graph_opts;
	uint32_t *order;
	uint32_t norder;
	uint32_t orig_count;
	uint32_t dropped_nodes;
	bool *kept;
	/* Set by a report before pp_report__trimmed_graph: record every
	 * edge between kept nodes (trees), not just the inline marks. */
	bool all_edges;
	/* With all_edges (peek): record only the edges of the nodes whose
	 * names match, which are all peek prints. NULL: every edge. */
	const struct pp_regex *edge_regex;
	bool *edge_marks;
	int64_t edge_cutoff; /* edges lighter than this are not shown */
	/* Units of numeric label keys; see pp_report__num_units. */
	struct {
		pp_str key, unit;
	} * num_units;
	uint32_t nnum_units;
	size_t cap_num_units;
	bool num_units_done;
	size_t *names; /* offsets into name_buf, per graph node */
	char *name_buf;

	/* Visual mode (dot, svg): removed edges, label tags per node. */
	bool *edge_dead;
	uint32_t dropped_edges;
	struct pp_visual_tags *tags;

	/* The calling-context tree, built on first use (flame, folded,
	 * speedscope) and kept while the options stay the same. */
	struct pp_tree *tree;

	/* What r->graph, order, kept and the cutoffs were last built for:
	 * a report repeated with the same key reuses them instead of passing
	 * over the samples again (the shell's repeated `top`). Cleared by
	 * pp_report__graph, which every other graph-building path calls. */
	struct pp_report__cache_key {
		bool valid;
		bool visual;
		bool all_edges;
		bool trim;
		bool cum_sort;
		int nodecount;
		double nodefraction, edgefraction;
		/* edge_regex's pattern (owned copy), or NULL */
		char *edge_pattern;
	} cached;
	/* How many times the samples were aggregated into a graph (for
	 * tests and the benchmark of the shell's cache). */
	unsigned long long graph_builds;
};

int64_t pp_report__total(const struct pp_report *r);
void pp_report__format(const struct pp_report *r, int64_t v, char *buf,
                       size_t size);
int pp_report__trimmed_graph(struct pp_report *r, bool visual);
/* The cache key of the graph a report asks for now; true if r->graph was
 * built for it (and is still intact). */
struct pp_report__cache_key pp_report__cache_key(const struct pp_report *r,
                                                 bool visual);
bool pp_report__cache_hit(const struct pp_report *r,
                          const struct pp_report__cache_key *k);
/* pprof's cutoffs (newTrimmedGraph): nodefraction and edgefraction of the
 * total flat value of r->graph's nodes, those -drop_negative leaves out not
 * counted. */
void pp_report__cutoffs(const struct pp_report *r, double nodefraction,
                        double edgefraction, int64_t *node_cutoff,
                        int64_t *edge_cutoff);
/* Mark in r->kept the nodes of r->order whose |cum| reaches node_cutoff
 * (the others false); returns how many. */
uint32_t pp_report__keep_over(struct pp_report *r, int64_t node_cutoff);
/* Record key (and the peek pattern, copied) as what the graph is for. */
int pp_report__cache_store(struct pp_report *r,
                           const struct pp_report__cache_key *key);
int pp_report__compute_names(struct pp_report *r);
void pp_report__select_output_unit(struct pp_report *r);
/* The same; integral (callgrind, which prints whole numbers only): the
 * smallest value's unit, never a larger one that would show it as 0.01. */
void pp_report__choose_output_unit(struct pp_report *r, bool integral);
/* r->order: the graph's nodes that have any value (those -drop_negative
 * leaves out not counted), in report order (flat or, -cum, cum). */
int pp_report__select_order(struct pp_report *r);
/* fmt.Sprint order of two nodes' infos: pprof's last tie-breaker. */
int pp_report__info_cmp(const struct pp_report *r, uint32_t a, uint32_t b);

/*
 * The graph as pprof draws it (visual.c): nodes sorted by entropy score,
 * nodecount counting tag nodelets, edges under edgefraction dropped and
 * redundant residual edges removed; r->order holds the nodes, edge_dead[e]
 * the edges left out, tags the label tags of each node.
 */
int pp_report__visual_graph(struct pp_report *r);
void pp_report__visual_release(struct pp_report *r);
/* pprof's edge order: heavier first, then by source and target name. */
int pp_report__edge_cmp(const struct pp_report *r, uint32_t a, uint32_t b);

struct pp_visual_tag {
	uint32_t node;
	uint32_t label; /* the sample's label set, index into the tag strings */
	/* Numeric tags ("bytes" labels, the only ones pprof draws): the
	 * formatted value (tag strings), the value and its unit. PP_NONE
	 * for a label tag. */
	uint32_t name;
	int64_t value;
	const char *unit;
	int64_t flat, flat_div, cum, cum_div;
	bool dead; /* below the node cutoff */
};

struct pp_visual_tags {
	struct pp_strtab *strings; /* "key:value\\n..." per label set */
	uint32_t *sample_label;    /* per sample; 0 = no labels */
	struct pp_visual_tag *tags;
	uint32_t ntags;
	size_t cap;
	uint32_t *slots; /* tag index + 1; 0 = empty */
	uint32_t nslots;
	pp_str bytes_key; /* "bytes" in the profile, or PP_NONE */
};
/* The report's calling-context tree (owned by r). */
int pp_report__tree(struct pp_report *r, const struct pp_tree **out);
/* Build r->graph with go (untrimmed) and the node names; sets the output
 * unit to the one asked for (reports that trim choose it later). */
/* The graph options r's report options call for, with the given edges. */
void pp_report__graph_opts(const struct pp_report *r, enum pp_edge_mode edges,
                           struct pp_graph_opts *go);
/* Size r->order and r->kept for the nodes of r->graph. */
int pp_report__size_order(struct pp_report *r);
int pp_report__graph(struct pp_report *r, const struct pp_graph_opts *go);
const char *pp_report__node_name(const struct pp_report *r, uint32_t n);
/* s escaped for XML text and attribute values (escape.c says how). */
void pp_report__put_xml(FILE *out, const char *s);
/* The n bytes at s escaped for a quoted DOT string that graphviz turns
 * into SVG: backslash and quote escaped, newline pprof's "\l". */
void pp_report__put_dot(FILE *out, const char *s, size_t n);
/* The fields every JSON report starts with (sample types, total) and the
 * header lines, after the report's graph is built (json.c). */
int pp_report__put_json_common(struct pp_report *r, FILE *out);
/* Only the fields (sample types, total), no header lines. */
void pp_report__put_json_head(const struct pp_report *r, FILE *out);
/* The inline CSS and script of flame graphs (flame_script.c), as lines
 * ending in NULL (one long literal would pass C's portable limit). */
extern const char *const pp_report__flame_style[];
extern const char *const pp_report__flame_script[];
void pp_report__put_lines(FILE *out, const char *const *lines);
/* The call graph SVG's pan/zoom script (panzoom_script.c), likewise. */
extern const char *const pp_report__panzoom_script[];
void pp_report__print_profile_labels(const struct pp_report *r, FILE *out);
void pp_report__print_labels(const struct pp_report *r, FILE *out);
/* "Active filters:" and one line per filter, if any (pprof's
 * legendActiveFilters). */
void pp_report__print_active_filters(const struct pp_report *r, FILE *out);

/* A list of owned strings. */
struct pp_report__lines {
	char **v;
	size_t n, cap;
};

enum pp_label_style {
	PP_LABELS_TRACES, /* "%10s:  v1 v2", numbers scaled (traces) */
	PP_LABELS_RAW,    /* "key:[v1 v2]", numbers with units (raw) */
};

/* One line per label key of sample (string or numeric labels), sorted;
 * replaces out's contents (clear or release it after use). Numeric labels
 * need pp_report__num_units first. */
int pp_report__label_lines(const struct pp_report *r, uint32_t sample,
                           bool numeric, enum pp_label_style style,
                           struct pp_report__lines *out);
void pp_report__lines_clear(const struct pp_report *r,
                            struct pp_report__lines *l);
void pp_report__lines_release(const struct pp_report *r,
                              struct pp_report__lines *l);

/* Find the unit of every numeric label key (once per report). */
int pp_report__num_units(struct pp_report *r);
/* The unit of numeric label key (after pp_report__num_units). */
const char *pp_report__num_unit(const struct pp_report *r, pp_str key);

/* Buffered output for reports that print millions of short lines; see
 * outbuf.c. Flush before returning; failed records a write error. */
struct pp_report__out {
	FILE *f;
	size_t n;
	bool failed;
	char buf[1 << 16];
};

void pp_report__out_flush(struct pp_report__out *o);
void pp_report__out_slow(struct pp_report__out *o, const char *s, size_t n);

static inline void pp_report__out_bytes(struct pp_report__out *o, const char *s,
                                        size_t n)
{
	if (n <= sizeof(o->buf) - o->n) {
		memcpy(o->buf + o->n, s, n);
		o->n += n;
		return;
	}
	pp_report__out_slow(o, s, n);
}
void pp_report__out_str(struct pp_report__out *o, const char *s);
void pp_report__out_right(struct pp_report__out *o, const char *s, size_t len,
                          size_t width);
void pp_report__out_int(struct pp_report__out *o, int64_t v, size_t width);
void pp_report__out_uint(struct pp_report__out *o, uint64_t u);

#endif
