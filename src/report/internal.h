/* What the report printers share inside libpprof. */
#ifndef PP_REPORT_INTERNAL_H
#define PP_REPORT_INTERNAL_H

#include <stdio.h>
#include <string.h>

#include "pprof/aggregate.h"
#include "pprof/format.h"
#include "pprof/report.h"

struct pp_report {
	struct pp_ctx *ctx;
	const struct pp_profile *prof;
	struct pp_report_opts opts;
	uint32_t sample_index;
	const char *sample_type;
	/* The lower-cased unit of the sample type and the unit chosen for
	 * printing, with their lengths: a profile's unit may hold NUL bytes,
	 * and pprof prints an unknown one whole after each value. */
	char *sample_unit;
	size_t sample_unit_len;
	const char *output_unit;
	size_t output_unit_len;
	double ratio; /* 1 / divide_by */
	int64_t total;

	/* The aggregate the report prints from (pprof/aggregate.h): the
	 * session's (its staged cache owns it), or the report's own when it
	 * was made alone (own_agg). */
	struct pp_aggregate *agg;
	bool own_agg;
	/* Units of numeric label keys; see pp_report__num_units. */
	struct {
		pp_str key, unit;
	} * num_units;
	uint32_t nnum_units;
	size_t cap_num_units;
	bool num_units_done;
};

/* The options whose zero is a default, as used (src/report/opts.c): the
 * cutoff fractions (0: none), the node count (0: all; dflt when the
 * option is 0), the divisor. */
double pp_report__nodefraction(const struct pp_report_opts *o);
double pp_report__edgefraction(const struct pp_report_opts *o);
int pp_report__nodecount(const struct pp_report_opts *o, int dflt);
double pp_report__divide_by(const struct pp_report_opts *o);

int64_t pp_report__total(const struct pp_report *r);
/* A value as the report prints it: its number, then its unit, borrowed
 * whole (a known unit's static name, or the report's output unit, which
 * may be a profile's: any length, NUL bytes and all). The unit is never
 * copied into a fixed buffer, so no length of it is cut. */
struct pp_report__val {
	char num[PP_LABEL_NUM_MAX];
	size_t num_len;
	const char *unit;
	size_t unit_len;
};
/* v as the report prints it, into *out; returns its length in bytes. */
size_t pp_report__format(const struct pp_report *r, int64_t v,
                         struct pp_report__val *out);
/* A value printed as text s (a few bytes: "." where there is none). */
void pp_report__val_text(struct pp_report__val *out, const char *s);
static inline size_t pp_report__val_len(const struct pp_report__val *v)
{
	return v->num_len + v->unit_len;
}
/* Its bytes, whole; or right-aligned in width columns, as Go's "%*s"
 * pads: by runes (an invalid byte is one). */
void pp_report__put_val(FILE *out, const struct pp_report__val *v);
void pp_report__put_val_padded(FILE *out, const struct pp_report__val *v,
                               int width);
/* Its bytes as a JSON string (pp_report_put_json_bytes). */
void pp_report__put_json_val(FILE *out, const struct pp_report__val *v);
static inline void pp_report__set_output_unit(struct pp_report *r,
                                              const char *u, size_t n)
{
	r->output_unit = u;
	r->output_unit_len = n;
}
/* The trim options r's report options call for, pprof's defaults
 * resolved: every node in text, 80 in a picture, none cut without trim. */
void pp_report__trim_opts(const struct pp_report *r, bool visual,
                          struct pp_trim_opts *o);
/* r's aggregate trimmed as o says, the text reports' view (pp_view_trim)
 * or the visual one (pp_view_visual); reused while it is current. */
int pp_report__view(struct pp_report *r, bool visual,
                    const struct pp_trim_opts *o);
/* The same with the report's own trim options. */
int pp_report__trimmed_graph(struct pp_report *r, bool visual);
void pp_report__select_output_unit(struct pp_report *r);
/* The same; integral (callgrind, which prints whole numbers only): the
 * smallest value's unit, never a larger one that would show it as 0.01. */
void pp_report__choose_output_unit(struct pp_report *r, bool integral);
/* The view's nodes in report order (pp_view_select_order with the
 * report's options). */
int pp_report__select_order(struct pp_report *r);

/* The graph as pprof draws it (pp_view_visual with the report's
 * options): r->agg->view holds the nodes, dead edges and tags. */
static inline int pp_report__visual_graph(struct pp_report *r)
{
	return pp_report__trimmed_graph(r, true);
}
/* A flame answer's ids at or above this name nodes of the report's cut
 * tree (pp_report_flame_cut), not of its whole tree. */
#define PP_FLAME_CUT_ID 0x80000000u

/* The report's calling-context tree (owned by r). */
int pp_report__tree(struct pp_report *r, const struct pp_tree **out);
/* The graph options r's report options call for, with the given edges. */
void pp_report__graph_opts(const struct pp_report *r, enum pp_edge_mode edges,
                           struct pp_graph_opts *go);
/* Build r->agg->graph with go (untrimmed; the view set on it: node names, no
 * node kept); sets the output unit to the one asked for (reports that
 * trim choose it later). */
int pp_report__graph(struct pp_report *r, const struct pp_graph_opts *go);
static inline const char *pp_report__node_name(const struct pp_report *r,
                                               uint32_t n)
{
	return pp_view_node_name(&r->agg->view, n);
}
/* Its length: a name may hold NUL bytes, and text reports print them as
 * pprof does, so names are written with their length, never as C text. */
static inline size_t pp_report__node_len(const struct pp_report *r, uint32_t n)
{
	return pp_view_node_len(&r->agg->view, n);
}
static inline void pp_report__put_node_name(const struct pp_report *r,
                                            uint32_t n, FILE *out)
{
	fwrite(pp_report__node_name(r, n), 1, pp_report__node_len(r, n), out);
}
/* Profile string s whole, NUL bytes and all, as pprof prints it. */
static inline void pp_report__put_str(const struct pp_profile *p, pp_str s,
                                      FILE *out)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	fwrite(t, 1, n, out);
}
/* The base name of s (the profile's main binary in "File:"), whole. */
void pp_report__put_base(const struct pp_profile *p, pp_str s, FILE *out);
/* s escaped for XML text and attribute values (escape.c says how). */
void pp_report__put_xml(FILE *out, const char *s);
/* The same for the n bytes at s (which may hold NUL bytes). */
void pp_report__put_xml_n(FILE *out, const char *s, size_t n);
/* The n bytes at s escaped as Go's html/template escapes text, for pages
 * that match pprof's byte for byte (weblist); well-formed as put_xml. */
void pp_report__put_html_n(FILE *out, const char *s, size_t n);
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
/* graphviz_loader.c: open graphviz's cgraph and gvc (the first time):
 * NULL when they are loaded, else why not ("libgvc.so.6: cannot open
 * ..."). */
const char *pp_report__graphviz_load(void);
void pp_report__print_profile_labels(const struct pp_report *r, FILE *out);
void pp_report__print_labels(const struct pp_report *r, FILE *out);
/* "Active filters:" and one line per filter, if any (pprof's
 * legendActiveFilters). */
void pp_report__print_active_filters(const struct pp_report *r, FILE *out);
/* The legend's "Dropped N nodes (cum <= X)" line, with edges (the graphs')
 * "Dropped N edges (freq <= X)" too, and "Showing top N nodes out of M",
 * each when it applies (pprof's reportLabels); nothing when the total is 0. */
void pp_report__print_dropped(const struct pp_report *r, bool edges, FILE *out);

/* Go's text/tabwriter with pprof's tags settings (tabwriter.c): write
 * text with tabs and newlines, then flush. */
struct pp_report__tw_cell {
	size_t size;   /* bytes */
	int64_t width; /* runes (an escape's 0xff bytes count -1 each) */
	bool htab;
};
struct pp_report__tw_frame {
	size_t line0, line1, at;
};
struct pp_report__tw {
	struct pp_ctx *ctx;
	FILE *out;
	char *buf; /* the text of the cells, no tabs or newlines */
	size_t len, cap, pos;
	struct pp_report__tw_cell cell; /* the cell being written */
	unsigned char end_char;         /* 0xff inside an escape, else 0 */
	struct pp_report__tw_cell *cells;
	size_t ncells, cap_cells;
	size_t *line_first; /* per line: its first cell */
	size_t nlines, cap_lines;
	int64_t *widths;
	size_t cap_widths;
	struct pp_report__tw_frame *frames;
	size_t cap_frames;
};
void pp_report__tw_init(struct pp_report__tw *tw, struct pp_ctx *ctx,
                        FILE *out);
int pp_report__tw_write(struct pp_report__tw *tw, const char *s, size_t n);
int pp_report__tw_flush(struct pp_report__tw *tw);
void pp_report__tw_release(struct pp_report__tw *tw);

/* A list of owned strings, each n bytes (it may hold NUL bytes: a
 * label's key or value) and NUL-terminated after them. */
struct pp_report__line {
	char *s;
	size_t n;
};
struct pp_report__lines {
	struct pp_report__line *v;
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

/* raw and proto print the profile at pprof's "addresses" granularity,
 * where its Aggregate changes the profile only under -noinlines: each
 * location keeps its outermost line, and columns go unless -showcolumns. */
static inline bool pp_report__raw_noinlines(const struct pp_report *r)
{
	return r->opts.noinlines;
}

static inline bool pp_report__raw_drop_columns(const struct pp_report *r)
{
	return r->opts.noinlines && !r->opts.showcolumns;
}

/* Find the unit of every numeric label key (once per report). */
int pp_report__num_units(struct pp_report *r);
/* The graph the traces print (as text or JSON): nodes only, at the
 * report's granularity, values read from each sample; and the numeric
 * label keys' units. */
int pp_report__trace_graph(struct pp_report *r);
/* The unit of numeric label key (after pp_report__num_units), *len
 * bytes: a profile's unit may hold NUL bytes and is used whole. */
const char *pp_report__num_unit(const struct pp_report *r, pp_str key,
                                size_t *len);

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
/* Value v right-aligned in width columns, as Go's "%*s" pads: by runes. */
void pp_report__out_val_right(struct pp_report__out *o,
                              const struct pp_report__val *v, size_t width);
void pp_report__out_int(struct pp_report__out *o, int64_t v, size_t width);
void pp_report__out_uint(struct pp_report__out *o, uint64_t u);

#endif
