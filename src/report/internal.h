/* What the report printers share inside libpprof. */
#ifndef PP_REPORT_INTERNAL_H
#define PP_REPORT_INTERNAL_H

#include <stdio.h>

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
	uint32_t *order;
	uint32_t norder;
	uint32_t orig_count;
	uint32_t dropped_nodes;
	bool *kept;
	size_t *names; /* offsets into name_buf, per graph node */
	char *name_buf;

	/* The calling-context tree, built on first use (flame, folded,
	 * speedscope) and kept while the options stay the same. */
	struct pp_tree *tree;
};

int64_t pp_report__total(const struct pp_report *r);
void pp_report__format(const struct pp_report *r, int64_t v, char *buf,
                       size_t size);
int pp_report__trimmed_graph(struct pp_report *r, bool visual);
/* The report's calling-context tree (owned by r). */
int pp_report__tree(struct pp_report *r, const struct pp_tree **out);
const char *pp_report__node_name(const struct pp_report *r, uint32_t n);
/* s escaped for XML text and attribute values / as a JSON string with its
 * quotes. */
void pp_report__put_xml(FILE *out, const char *s);
void pp_report__put_json(FILE *out, const char *s);
/* The inline CSS and script of flame graphs (flame_script.c), as lines
 * ending in NULL (one long literal would pass C's portable limit). */
extern const char *const pp_report__flame_style[];
extern const char *const pp_report__flame_script[];
void pp_report__put_lines(FILE *out, const char *const *lines);
void pp_report__print_profile_labels(const struct pp_report *r, FILE *out);
void pp_report__print_labels(const struct pp_report *r, FILE *out);

#endif
