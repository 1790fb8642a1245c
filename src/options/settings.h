/*
 * The settings table: every option a report honours, with its type, default
 * and one-line help. The same table parses argv (-name=value, -name value,
 * --name=value, bare -name for booleans), the shell's name=value and the
 * web UI's queries, and prints --help; pp_cli_view_opts turns what it set
 * into the session's options. Both front ends (src/cli, src/web) sit on
 * this module; it sits on the session.
 */
#ifndef PP_CLI_SETTINGS_H
#define PP_CLI_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pprof/session.h"

/* A repeatable string setting's values (owned copies), in order. */
struct pp_strlist {
	char **v;
	size_t n;
};

struct pp_cli_config {
	struct pp_report_opts report;
	/* The report options as pprof's flags have them (-nodecount=-1 is the
	 * default, 0 all nodes; -nodefraction=0 no cutoff; -divide_by=0 an
	 * error), which pp_cli_view_opts turns into report's. */
	int nodecount;
	double nodefraction, edgefraction, divide_by;
	bool trim;
	char *sample_index; /* owned copies; NULL = unset */
	char *unit;
	char *output;
	char *source_path; /* list: where sources are looked for */
	char *trim_path;   /* list: prefixes cut off source file names */
	char *symbolize;   /* pprof's -symbolize value; NULL = local */
	uint64_t max_size; /* 0 = default */
	char *folded_type; /* folded-stack input's sample type; NULL =
	                      samples/count */
	/* pprof's -add_comment (a comment added to the loaded profile) and
	 * -buildid (the main mapping's build-id when it has none); owned,
	 * NULL = unset. */
	char *add_comment, *buildid;
	bool all_frames; /* -all_frames: keep drop_frames' frames */
	/* -tagroot / -tagleaf: label keys made pseudo frames (owned; NULL =
	 * unset). */
	char *tagroot, *tagleaf;
	/* -tls_cert, -tls_key, -tls_ca: PEM files for fetching (owned; NULL =
	 * unset). */
	char *tls_cert, *tls_key, *tls_ca;
	/* Fetching over HTTP: pprof's -seconds and -timeout; 0 = unset. */
	int seconds, timeout;
	/* Filters (owned copies; NULL = unset), as pprof/transform.h. */
	char *focus, *ignore, *hide, *show, *show_from, *prune_from;
	char *tagfocus, *tagignore, *tagshow, *taghide;
	bool relative_percentages; /* false: % of the unfiltered total */
	/* -base / -diff_base: the profiles subtracted, in the order given
	 * (several are merged into one base, as pprof does). */
	struct pp_strlist base, diff_base;
	bool normalize;
	/* pprof's legacy sample flags given (-alloc_space, ...), one bit each,
	 * until pp_cli_config_resolve turns them into sample_index. */
	unsigned legacy_samples;
	/* check's rules, in the order given; regex strings owned. */
	struct pp_check_rule *rules;
	size_t nrules;
	/* -http=[HOST]:PORT: serve the web UI (owned; NULL = no server),
	 * and -no_browser: do not open a browser on it. */
	char *http;
	bool no_browser;
	/* -json: top, tree, peek, traces, tags and flame print JSON
	 * (docs/web-api.md). */
	bool json;
	/* flame's -title and -colors (owned; NULL = default) and -minwidth
	 * (pixels, default 0.1; 0 keeps every frame); -width and -reverse
	 * are in report.flame. */
	char *flame_title, *flame_colors;
	double flame_minwidth;
};

enum pp_setting_kind {
	PP_SET_BOOL,
	PP_SET_INT,
	PP_SET_FLOAT,
	PP_SET_STRING,
	/* Repeatable: each -name=VALUE adds VALUE to a struct pp_strlist (an
	 * empty VALUE adds nothing, as pprof drops empty list flags). */
	PP_SET_STRING_LIST,
	PP_SET_GRANULARITY,
	PP_SET_SIZE,
	/* Repeatable REGEX=LIMIT rules of `check`: alias_value 1 for
	 * -max_growth, 0 for -max_share. */
	PP_SET_CHECK_RULE,
	/* A boolean alias that stores a fixed string or enum value:
	 * -lines (granularity), -alloc_space (sample_index). */
	PP_SET_ALIAS_GRANULARITY,
	PP_SET_ALIAS_SAMPLE_INDEX,
	/* -flat / -cum pick the sort order */
	PP_SET_SORT,
	/* sort=flat|cum: the same choice by name (pprof's shell and URLs) */
	PP_SET_SORT_NAME,
};

struct pp_setting {
	const char *name;
	enum pp_setting_kind kind;
	size_t offset;   /* into struct pp_cli_config */
	int alias_value; /* for the alias kinds and PP_SET_SORT */
	const char *arg; /* "N", "REGEX", ... for help; NULL for booleans */
	const char *help;
	/* Read when the profiles are loaded (-base, -symbolize, ...): the
	 * shell, which has its profile already, refuses to change it. */
	bool at_load;
};

extern const struct pp_setting pp_settings[];
extern const size_t pp_nsettings;

void pp_cli_config_init(struct pp_cli_config *c);
void pp_cli_config_release(struct pp_cli_config *c);

/* Find a setting by name; NULL if unknown. */
const struct pp_setting *pp_setting_find(const char *name);

/* The sample type a legacy flag (-alloc_space, -total_delay, ...) stands
 * for; NULL for every other setting. */
const char *pp_setting_sample_type(const struct pp_setting *s);

/* True if the setting takes no value (a bare -name sets it). */
bool pp_setting_is_flag(const struct pp_setting *s);

/*
 * Apply value (NULL for a bare flag) to c. On error writes a message to
 * err (size errsize) and returns -1.
 */
int pp_setting_apply(const struct pp_setting *s, struct pp_cli_config *c,
                     const char *value, char *err, size_t errsize);

typedef void (*pp_cli_warn_fn)(void *data, const char *msg);

/*
 * After all options are applied: turn pprof's legacy sample flags into
 * sample_index as pprof does (an explicit -sample_index wins, else the
 * first in pprof's order; each flag ignored is warned about). -1 on
 * allocation failure.
 */
int pp_cli_config_resolve(struct pp_cli_config *c, pp_cli_warn_fn warn,
                          void *data);

/*
 * dst = a deep copy of src (release with pp_cli_config_release): every
 * string, string list and check rule is duplicated. -1 on allocation
 * failure (dst is then released).
 */
int pp_cli_config_copy(struct pp_cli_config *dst,
                       const struct pp_cli_config *src);

/*
 * The current value of s in c as the shell shows it ("true", "80",
 * "0.005", "lines", "" for an unset string); a list's values and check
 * rules separated by spaces; for the alias kinds, "true" if c selects that
 * alias. Truncated to size.
 */
void pp_setting_format(const struct pp_setting *s,
                       const struct pp_cli_config *c, char *buf, size_t size);

/* The help lines for every setting. */
void pp_settings_print_help(FILE *out);

/* The view options of cfg (src/options/viewopts.c); strings are borrowed
 * from cfg. pprof's flag values become the report's (pprof/report.h: zero
 * means the default there). PP_EUSAGE for -divide_by=0, as pprof's "zero
 * divisor specified". */
int pp_cli_view_opts(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     struct pp_view_opts *out);

#endif
