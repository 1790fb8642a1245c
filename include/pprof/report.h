/*
 * Reports. One options struct serves the command line and the shell; a
 * pp_report binds it to a profile and prints from an aggregate
 * (pprof/aggregate.h), its own or one the session's cache keeps, so that
 * running reports again with unchanged options costs nothing proportional
 * to the profile's size.
 *
 * Reports write to a FILE * and never open paths themselves.
 */
#ifndef PPROF_REPORT_H
#define PPROF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "pprof/aggregate.h"
#include "pprof/graph.h"
#include "pprof/profile.h"

/* The flame graph's options (flame), as flamegraph.pl users know them.
 * Zero is each one's default. Strings are borrowed for the report run. */
struct pp_flame_opts {
	const char *title; /* NULL: "Flame Graph" (or Icicle, Reversed) */
	int width;         /* pixels, 100 to 100000; 0: 1200 */
	/* The palette: NULL or "package" colours frames by package
	 * (pprof-c's); hot, mem, io, red, green, blue, yellow, purple,
	 * aqua, orange colour each function by a hash of its name; java,
	 * js and perl by the kind of frame, as flamegraph.pl's. The same
	 * name has the same colour in every graph. */
	const char *colors;
	/* Frames narrower than this many pixels are merged into one grey
	 * frame per parent; 0: 0.1; negative: none merged. */
	double minwidth;
	bool reverse; /* stacks merged by leaf (pp_tree_new_reversed) */
};

struct pp_symbolize_opts;

/* pp_report_opts.nodecount: every node, pprof's -nodecount=0. */
#define PP_NODECOUNT_ALL (-1)
/* pp_report_opts.nodefraction, .edgefraction: no cutoff, pprof's
 * -nodefraction=0 (any negative value means the same). */
#define PP_FRACTION_NONE (-1.0)

/*
 * A report's options. Zero is the default of every field, so that
 * `struct pp_report_opts o = {.nodecount = 10};` asks for pprof's defaults
 * but one; the library turns zeros into default values in one place
 * (src/report/opts.c). Where zero is also a value pprof takes, that value
 * has a name of its own (PP_NODECOUNT_ALL, PP_FRACTION_NONE).
 */
struct pp_report_opts {
	const char *sample_index;        /* NULL: the profile's default type */
	bool mean;                       /* false */
	enum pp_granularity granularity; /* 0: functions */
	bool noinlines;                  /* false */
	bool cum_sort;                   /* false: sort by flat */
	/* 0: the report's default (top: all; tree and pictures: 80);
	 * PP_NODECOUNT_ALL (any negative): all. */
	int nodecount;
	/* Share of the total under which nodes (by |cum|) and edges (by
	 * |weight|) are dropped. 0: 0.005 and 0.001; PP_FRACTION_NONE (any
	 * negative): none dropped. */
	double nodefraction;
	double edgefraction;
	const char *unit;    /* NULL: "minimum" */
	double divide_by;    /* values are divided by it; 0: 1 */
	bool notrim;         /* false: trim (pprof's -trim=false sets it) */
	bool compact_labels; /* false */
	bool drop_negative;  /* false */
	bool inverted;       /* false: flame graphs grow up from the root;
	                        true: icicle, the root on top */
	/* list: where to look for source files. source_path is a list of
	 * directories separated by ':'; NULL: the current directory and the
	 * profile's paths as they are. trim_path: prefixes (':'-separated)
	 * cut off the profile's file names before searching; NULL: pprof's
	 * guesses (Go module and GOROOT prefixes). */
	const char *source_path;
	const char *trim_path;
	/* Percentages are of the total of this profile: pprof takes the total
	 * before its focus/ignore/tag filters unless -relative_percentages.
	 * NULL: the report's own profile. Borrowed; must outlive the report.
	 * Either way, when the profile holds -diff_base samples (label
	 * pprof::base=true) the total is theirs alone, as pprof's. */
	const struct pp_profile *total_profile;
	/* The filters in effect as "focus=REGEX" strings, printed under
	 * "Active filters:" in the header of top, tree and the graphs.
	 * Borrowed; NULL / 0: none. */
	const char *const *active_filters;
	size_t nactive_filters;
	/* list: the largest source file read, in bytes; 0: 64 MiB. Only
	 * regular files are read (never /dev/zero or a FIFO). */
	uint64_t max_source_size;
	/* flame: title, width, palette, minwidth, reverse. Only shapes the
	 * picture: pp_report_set_view takes it. */
	struct pp_flame_opts flame;
	/* Line-level nodes show their column ("file.go:12:5"), pprof's
	 * -showcolumns; false. */
	bool showcolumns;
	/* dot, svg, png, pdf, callgrind: a call tree, a node per call path
	 * (pprof's -call_tree); false. Other reports ignore it, as pprof's. */
	bool call_tree;
	/* disasm, weblist: Intel's syntax instead of AT&T's. false. */
	bool intel_syntax;
	/* disasm, weblist: how binaries are found (the executable, the
	 * binary path, demangling), as the profile was symbolized. Borrowed;
	 * NULL: each mapping's own path. */
	const struct pp_symbolize_opts *binaries;
};

/* The reports, for front ends that run them by kind (pp_report_run,
 * pp_session_report). */
enum pp_report_kind {
	PP_REPORT_TOP,
	PP_REPORT_TREE,
	PP_REPORT_PEEK, /* arg: the regex */
	PP_REPORT_LIST, /* arg: the regex */
	PP_REPORT_PROTO,
	PP_REPORT_TRACES,
	PP_REPORT_TAGS,
	PP_REPORT_RAW,
	PP_REPORT_COMMENTS,
	PP_REPORT_DOT,
	PP_REPORT_SVG,
	PP_REPORT_PNG,
	PP_REPORT_PDF,
	PP_REPORT_FLAME,
	PP_REPORT_SPEEDSCOPE,
	PP_REPORT_FOLDED,
	PP_REPORT_CALLGRIND,
	PP_REPORT_TOPPROTO,
	PP_REPORT_GIF,
	PP_REPORT_PS,
	PP_REPORT_DISASM,  /* arg: the regex */
	PP_REPORT_WEBLIST, /* arg: the regex */
	PP_REPORT_HEADER,  /* the header lines only (the shell's start) */
	PP_REPORT_CHECK,   /* two profiles: see pp_session_report */
};

struct pp_report;

/* Bind options to a profile (borrowed; it must outlive the report). Fails
 * with PP_EUSAGE for a bad sample_index or unit. */
int pp_report_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                  const struct pp_report_opts *opts, struct pp_report **out);
/* The same on an aggregate of the profile (borrowed; it must outlive
 * the report), which reports with other options may share: the session
 * keeps its aggregates in its staged cache and hands out reports on
 * them. */
int pp_report_new_on(struct pp_ctx *ctx, struct pp_aggregate *agg,
                     const struct pp_report_opts *opts, struct pp_report **out);
void pp_report_free(struct pp_report *r);

/*
 * Give r (which has no tree yet) the tree of whole, a report on the same
 * profile with the same options, keeping only the samples marks keeps
 * (pp_tree_select; whole's tree is built first if it has none). r's
 * reports made from its tree alone (pp_report_flame_json,
 * pp_report_pivot_json, folded) then print what they would print on the
 * filtered profile, when r's options name the filters and the whole
 * profile's total (total_profile unset or the whole): a refine of a flame
 * graph without filtering the profile. Its other reports would still show
 * every sample: a front end asks the session for such reports
 * (pp_session_get_tree_report). 1, and r left without a tree, when every
 * sample stays: whole's tree reports are then r's. PP_EUNSUPPORTED when
 * the tree cannot tell. With line_marks (else NULL), the filters take
 * frames out too (hide, show, show_from: pp_tree_refine, whose marks and
 * show_from these are), and 1 is never returned.
 */
int pp_report_select_tree(struct pp_report *r, struct pp_report *whole,
                          const unsigned char *marks,
                          const unsigned char *line_marks, bool show_from);

/* Run report kind on r with arg (the regex of peek and list; else
 * ignored). PP_EUSAGE for PP_REPORT_CHECK, which needs two profiles. */
int pp_report_run(struct pp_report *r, enum pp_report_kind kind,
                  const char *arg, FILE *out);

/* Replace the options that only shape the view of r's aggregate:
 * nodecount, nodefraction, edgefraction, notrim, cum_sort, compact_labels,
 * inverted, flame and intel_syntax are taken from opts, the rest of r's
 * options stay. The next report re-trims if they changed; nothing is
 * re-aggregated. */
void pp_report_set_view(struct pp_report *r, const struct pp_report_opts *opts);

/* True if a and b differ only in the options pp_report_set_view takes
 * (strings compared by value; total_profile and active_filters, which
 * their owner sets, are not compared). */
bool pp_report_opts_same_aggregate(const struct pp_report_opts *a,
                                   const struct pp_report_opts *b);

/* The profile's header lines (File:, Type:, Time:, Duration:), as reports
 * print them above their tables; what the shell shows on start. */
int pp_report_header(struct pp_report *r, FILE *out);

/* How many times r has aggregated the profile's samples into a graph: a
 * report repeated with unchanged options adds nothing (tests and the
 * benchmark of the shell's cache read it). */
unsigned long long pp_report_graph_builds(const struct pp_report *r);

/* The flat/cum table: `top`. */
int pp_report_top(struct pp_report *r, FILE *out);

/*
 * The call graph in Graphviz's DOT language, as `go tool pprof -dot` makes
 * it: nodecount (default 80, counting tag nodelets), nodefraction and
 * edgefraction trim it; nodes are ordered by pprof's entropy score.
 */
int pp_report_dot(struct pp_report *r, FILE *out);

/*
 * The same graph laid out and drawn by graphviz (cgraph + gvc, in
 * process) with the renderer of the report's ctx (pp_ctx.renderer):
 * format is "svg", "png", "pdf", "gif" or "ps" (else PP_EUSAGE). The SVG
 * can be panned (drag) and zoomed (wheel) in a browser by an inline
 * script. Graphviz failures, and a ctx without a renderer, are
 * PP_EUNSUPPORTED with the reason.
 */
int pp_report_render(struct pp_report *r, const char *format, FILE *out);

/*
 * What draws pictures: graphviz's context, started at the first picture.
 * A process makes one and keeps it until it draws no more pictures
 * (pp_renderer_free, after every report that used it): graphviz 2.42
 * cannot start a second context after freeing one. Set it in
 * pp_ctx.renderer (the caller's, as the ctx is). PP_ENOMEM.
 */
int pp_renderer_new(struct pp_ctx *ctx, struct pp_renderer **out);
void pp_renderer_free(struct pp_renderer *rd); /* accepts NULL */

/* One "root;caller;...;leaf value" line per distinct stack whose value is
 * not zero, children in name order; values in the sample type's own unit.
 * The collapsed format of flamegraph.pl, inferno and speedscope. */
int pp_report_folded(struct pp_report *r, FILE *out);

/*
 * An interactive flame graph: one self-contained SVG file (inline style and
 * script, nothing loaded from elsewhere). Frames are sized by value and
 * coloured by package with a stable hash; hovering shows name, value and
 * percentage, a click zooms into a frame, "Search" highlights the frames
 * matching a regular expression and shows their share. opts.inverted
 * draws an icicle graph. If the profile carries base samples (pprof's
 * -diff_base), the graph is differential: widths are the new profile's,
 * red frames grew and blue ones shrank against the base.
 */
int pp_report_flame(struct pp_report *r, FILE *out);

/*
 * A speedscope JSON file: a sampled profile of the distinct stacks (root
 * first, as indices into shared frames with name, file and line) with
 * their values as weights. speedscope refuses a file with a negative
 * weight, so signed values become several profiles of positive weights:
 * with base samples (-diff_base) the new profile, then the base ("TYPE
 * (base)"); else, if some stacks are negative (-base), the positive stacks,
 * then the negative ones as absolute values ("TYPE (negative)"). Stacks
 * worth zero are left out, as speedscope skips them.
 */
int pp_report_speedscope(struct pp_report *r, FILE *out);
/*
 * The text call tree (`tree`): each node with its callers above and its
 * callees below. With symbol (a regex, may be NULL) only the nodes whose
 * names match are printed and nothing is trimmed: `peek`. A regex that
 * matches no node fails with PP_ENOTFOUND "no matches found for regexp: R";
 * a bad regex with PP_EUSAGE.
 */
int pp_report_tree(struct pp_report *r, const char *symbol, FILE *out);

/*
 * The call graph in callgrind's format (`callgrind`; kcachegrind and
 * callgrind_annotate read it), as pprof writes it: every node at address
 * granularity, untrimmed, with its binary, file, function, line and flat
 * cost, and its calls with their inclusive costs. Costs are whole numbers
 * in the smallest unit that holds the smallest value (-unit overrides).
 */
int pp_report_callgrind(struct pp_report *r, FILE *out);

/*
 * top's table as a gzip'd profile.proto (`topproto`), as pprof writes it:
 * sample types cum and flat in the output unit, one sample per node of
 * top (trimmed as top is) at a location of its own.
 */
int pp_report_topproto(struct pp_report *r, FILE *out);

/* Every sample's stack with its value and labels (`traces`). */
int pp_report_traces(struct pp_report *r, FILE *out);

/* The string and numeric label summaries (`tags`). */
int pp_report_tags(struct pp_report *r, FILE *out);

/* A plain dump of the whole profile (`raw`), as pprof's -raw. */
int pp_report_raw(struct pp_report *r, FILE *out);

/* The profile's comments, one a line (`comments`). */
int pp_report_comments(struct pp_report *r, FILE *out);

/*
 * Annotated source (`list`): for each function whose name matches the
 * regex, its source lines with flat and cum values, read through
 * opts.source_path / opts.trim_path. Each source file is read once.
 * Fails with PP_ENOTFOUND "no matches found for regexp: R" when no
 * function matches.
 */
int pp_report_list(struct pp_report *r, const char *symbol, FILE *out);

/*
 * Annotated disassembly (`disasm`), as pprof's printAssembly: for each
 * function symbol of a sampled binary whose name matches the regex (or, when
 * the regex reads as a number, that holds that address) and has samples,
 * its instructions (disassembled in process, opts.intel_syntax) with flat
 * and cum per instruction and the innermost source frame where it changes.
 * Binaries are found through opts.binaries. PP_ENOTFOUND "no matches found
 * for regexp R" when no sampled function matches.
 */
int pp_report_disasm(struct pp_report *r, const char *symbol, FILE *out);

/* The same for the max_funcs heaviest matching functions by flat value,
 * heaviest first (the web UI's, as pprof's); negative: all, by name. */
int pp_report_disasm_max(struct pp_report *r, const char *symbol, int max_funcs,
                         FILE *out);

/*
 * Annotated source with each line's instructions (`weblist`), as pprof's
 * weblist: for the functions matching the regex (inlined ones too), their
 * source lines with flat and cum, each line expandable (a click) into its
 * instructions and the inlined calls that lead to them. One self-contained
 * HTML page (inline style and script). Errors as pp_report_disasm.
 */
int pp_report_weblist(struct pp_report *r, const char *symbol, FILE *out);

/* The same listing as JSON (the web UI's source view, docs/web-api.md),
 * of the max_funcs heaviest matching functions with a binary (negative:
 * all), locations without one listed from their own lines as the page
 * lists them; files heaviest first, at most 50, as pprof's web UI. */
int pp_report_weblist_json(struct pp_report *r, const char *symbol,
                           int max_funcs, FILE *out);

/* The profile as gzip'd profile.proto (`proto`). */
int pp_report_proto(struct pp_report *r, FILE *out);

/* ---- JSON: the web UI's data and `-json` (docs/web-api.md) ------------- */

/*
 * s as a JSON string with its quotes, safe inside HTML and <script>: <, >,
 * &, ' and U+2028/U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
 */
void pp_report_put_json_string(FILE *out, const char *s);
/* The same for the n bytes at s, which may hold NUL bytes (a name's own:
 * written as \u0000). */
void pp_report_put_json_bytes(FILE *out, const char *s, size_t n);

/* The top table as JSON: sample types, total, header lines and one row per
 * node with raw and formatted values (the same strings `top` prints). */
int pp_report_top_json(struct pp_report *r, FILE *out);

/* tree / peek as JSON: each node with flat, cum and its callers and callees
 * (name, value, share of the node's cum), what `tree` and `peek` print. */
int pp_report_tree_json(struct pp_report *r, const char *symbol, FILE *out);

/* traces as JSON: each sample's value, label lines (as traces prints
 * them) and frames, leaf first, each marked inline or not. */
int pp_report_traces_json(struct pp_report *r, FILE *out);

/* tags as JSON: each label key with its total and its values' shares. */
int pp_report_tags_json(struct pp_report *r, FILE *out);

struct pp_flame_json_opts {
	uint32_t root;    /* 0: the whole tree; else a node id from a
	                     previous answer (stable while the options are) */
	double min_share; /* 0: every frame; else frames worth less than
	                     this share of root's value are left out */
};

/*
 * The flame graph's calling-context tree as JSON: the frames under root,
 * depth-first, those thinner than min_share of root left out with their
 * subtrees. With -diff_base, a frame's value is the new profile's and its
 * delta the change. PP_ENOTFOUND for a root that does not exist.
 */
int pp_report_flame_json(struct pp_report *r,
                         const struct pp_flame_json_opts *opts, FILE *out);

/*
 * Build the top of r's flame tree: the frames worth at least min_share of
 * the whole (pp_tree_new_cut). Until the whole tree is built (by any other
 * use, or pp_report_build_tree), pp_report_flame_json answers from it when
 * asked for the whole graph (root 0) without the frames thinner than
 * min_share or more: the same answer, made without the whole tree, but
 * with ids of its own (2^31 and up) that later answers take as
 * root and resolve in the whole tree. Nothing to do when r has a tree.
 */
int pp_report_flame_cut(struct pp_report *r, double min_share);
/* Build r's whole calling-context tree now, if it has none. */
int pp_report_build_tree(struct pp_report *r);

/*
 * The flame graph pivoted on the function named by the pivot_len bytes at
 * pivot (a frame's display name, whole: NUL bytes and invalid UTF-8 too):
 * with callers, the tree of its callers (pivot at the root, each
 * path from its outermost occurrences up to the stack's root, reversed);
 * else the tree of its callees (its subtrees merged). Values count each
 * sample once, at its outermost occurrence. The same JSON as
 * pp_report_flame_json, plus "pivot" and "side". PP_ENOTFOUND when no
 * frame has that name.
 */
int pp_report_pivot_json(struct pp_report *r, const char *pivot,
                         size_t pivot_len, bool callers, double min_share,
                         FILE *out);

/* ---- check: a gate for CI ---------------------------------------------- */

struct pp_check_rule {
	const char *regex; /* functions whose names match (RE2 syntax) */
	double limit;      /* percentage points of the total */
	/* false: -max_share, a matched function's cum share of the total in
	 * the new profile must not exceed limit. true: -max_growth, its cum
	 * share may not grow by more than limit points from the old one. */
	bool growth;
};

/*
 * Check rules on before/after profiles (same sample types; opts chooses the
 * sample type and such). Prints a header, one row per matched function that
 * breaks a rule (old and new flat and cum shares), and a summary line, and
 * counts the broken rows in *nbroken. Fails with PP_EUSAGE for a bad regex.
 */
int pp_report_check(struct pp_ctx *ctx, const struct pp_profile *before,
                    const struct pp_profile *after,
                    const struct pp_report_opts *opts,
                    const struct pp_check_rule *rules, size_t nrules, FILE *out,
                    size_t *nbroken);

#endif
