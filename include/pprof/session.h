/*
 * The session: libpprof's front door. Every front end (the command line, the
 * shell, the web server, check, the fuzz targets) loads its profiles through
 * pp_session_open and runs reports through pp_session_report.
 *
 * Opening runs the load stages once:
 *
 *   sources -> bytes -> profiles -> merged -> symbolized -> pruned -> combined
 *   read/fetch  decode   (several)   executable  drop_frames   -base/-diff_base
 *
 * The source stage (pprof/source.h, pprof/fetch.h) hands back bytes; the
 * session decodes them (pprof/decode.h).
 *
 * Reports then go through a staged cache that the session owns, each stage
 * keyed only by the options that shape it:
 *
 *   combined ─(filter opts)→ filtered
 *            ─(sample_index, mean, granularity, noinlines, unit, divide_by,
 *              drop_negative, relative_percentages, source/trim path)→
 * aggregate ─(nodecount, nodefraction, edgefraction, trim, cum_sort,
 *              compact_labels, inverted)→ view
 *
 * so that a new nodecount re-trims the kept aggregate, a new sample_index
 * re-aggregates the kept filtered profile and a new focus re-filters; nothing
 * re-decodes. Memory is bounded: the session keeps the last
 * PP_SESSION_KEEP_FILTERED filtered profiles and the last
 * PP_SESSION_KEEP_AGGREGATES aggregates (least recently used goes first,
 * with the aggregates made from it), and one view per aggregate.
 *
 * Threads: a session is used by one thread at a time (it has no lock; its
 * cache changes on every report). A server that answers from several
 * threads holds a mutex around each pp_session_* call, or one session per
 * thread. The pp_ctx given at open is the session's for its whole life:
 * errors and warnings of every call go to it.
 */
#ifndef PPROF_SESSION_H
#define PPROF_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pprof/profile.h"
#include "pprof/report.h"
#include "pprof/source.h"
#include "pprof/transform.h"

#define PP_SESSION_KEEP_FILTERED 2
#define PP_SESSION_KEEP_AGGREGATES 4

/* Progress lines ("Fetching profile over HTTP from URL"), no newline. */
typedef void (*pp_session_progress_fn)(void *data, const char *msg);
/* A profile loaded from some URL, symbolized, before any base is applied
 * (pprof saves it under $PPROF_TMPDIR: that is the front end's job). */
typedef void (*pp_session_fetched_fn)(void *data, const struct pp_profile *p);

/* How sources become the profile reports see. Zero is the default of each
 * field. */
struct pp_load_opts {
	/* -base / -diff_base: profiles subtracted (several are merged into
	 * one base, read with the sources' executable); both set is
	 * PP_EUSAGE. NULL / 0: none. */
	const char *const *base;
	size_t nbase;
	const char *const *diff_base;
	size_t ndiff_base;
	/* -normalize: scale the profile to the base's totals (PP_EUSAGE
	 * without a base). */
	bool normalize;
	/* Keep the base apart instead of subtracting it (`check`, which
	 * compares the two): pp_session_base returns it. The base is then
	 * read before the sources, and its sample types must be the
	 * profile's. */
	bool base_apart;
	/* pprof's -symbolize value; NULL: local symbolization. */
	const char *symbolize;
	/* pprof's -all_frames (google/pprof after Go 1.24): keep every
	 * frame, ignoring the profile's drop_frames and keep_frames. false. */
	bool all_frames;
	/* pprof's -add_comment: appended to the loaded profile's comments
	 * (after merging and symbolizing, so a fetched copy keeps it).
	 * NULL or "": none. */
	const char *add_comment;
	/* pprof's -buildid: the build-id of each source's main (first)
	 * mapping when it has none, before symbolization looks binaries up
	 * by it; a build-id the profile has is never replaced. NULL or "":
	 * none. */
	const char *buildid;
	/* Where binaries are searched (PPROF_BINARY_PATH's syntax); NULL:
	 * none. The library reads no environment: front ends pass it. */
	const char *binary_path;
	/* Fetching: pprof's -seconds and -timeout (0: unset), and its
	 * -tls_cert, -tls_key, -tls_ca (pprof/fetch.h; NULL: unset). */
	int seconds, timeout;
	const char *tls_cert, *tls_key, *tls_ca;
	/* Optional: bytes already in memory for sources[i] (data[i]) and for
	 * the bases (base_data[i], of base or diff_base, whichever is set),
	 * which then are names only (fuzz targets, tests, uploads). NULL:
	 * read files and fetch URLs. */
	const struct pp_bytes *data;
	const struct pp_bytes *base_data;
	pp_session_progress_fn progress; /* NULL: silent */
	pp_session_fetched_fn fetched;   /* NULL: not told */
	void *data_cb;                   /* passed to both callbacks */
};

struct pp_session;

/*
 * Load sources[0..n-1] as pprof loads them: the first, when it is an ELF
 * file and more follow, is the executable; every other is read (a file,
 * "-" for stdin) or fetched (a URL, all at once after the files), decoded,
 * merged with the others, symbolized, stripped of the profile's
 * drop_frames, then combined with the base. On success *out is the
 * caller's (pp_session_free). Errors name the failing source: PP_EUSAGE
 * (no source, both bases, normalize without base, a malformed URL),
 * PP_EIO, PP_EFORMAT, PP_EFETCH, PP_ELIMIT, PP_ENOMEM.
 */
int pp_session_open(struct pp_ctx *ctx, const char *const *sources, size_t n,
                    const struct pp_load_opts *opts, struct pp_session **out);

/*
 * The load's first stages on one source alone, for tests and tools that
 * want a profile as its file has it: nothing merged, located or
 * symbolized. pp_session_decode_file reads path ("-": stdin) and inflates
 * it (pprof/source.h: pp_source_load, pp_source_inflate); pp_session_decode
 * takes bytes in memory (borrowed; gzip'd or not; name is for messages).
 * Then the bytes are decoded (pprof/decode.h); a gzip'd profile.proto is
 * decoded while a second thread inflates it where ISA-L is built in
 * (pp_source_gunzip_each; a named file's compressed pages given back as
 * they are passed). *out is the caller's (pp_profile_free). An empty
 * input is PP_EFORMAT "NAME: empty input file"; else errors as reading,
 * inflating and decoding give them.
 */
int pp_session_decode_file(struct pp_ctx *ctx, const char *path,
                           struct pp_profile **out);
int pp_session_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out);

/* A session over a profile already loaded (taken over: the session frees
 * it): the load stages are skipped. */
int pp_session_adopt(struct pp_ctx *ctx, struct pp_profile *prof,
                     struct pp_session **out);

void pp_session_free(struct pp_session *s);

/* The combined profile (borrowed), and the base kept apart (NULL unless
 * base_apart). */
const struct pp_profile *pp_session_profile(const struct pp_session *s);
const struct pp_profile *pp_session_base(const struct pp_session *s);

/* What one report is asked with. */
struct pp_view_opts {
	struct pp_filter_opts filter;
	/* total_profile and active_filters are the session's to set. */
	struct pp_report_opts report;
	/* false: percentages of the unfiltered total, as pprof. */
	bool relative_percentages;
	/* pprof's -tagroot / -tagleaf: label keys (comma-separated) made
	 * pseudo frames at the root / leaf of every stack before the
	 * filters (pprof/transform.h, pp_profile_label_frames); NULL or "":
	 * none. */
	const char *tagroot, *tagleaf;
	/* PP_REPORT_CHECK's rules. */
	const struct pp_check_rule *rules;
	size_t nrules;
};

/*
 * Run report kind on the session's profile as o asks, writing to out.
 * arg is the regex of the kinds that take one (peek, list), else ignored.
 * Returns 0, or for PP_REPORT_CHECK the number of rows that break a rule;
 * a negative error as the report's (see pprof/report.h).
 */
int pp_session_report(struct pp_session *s, enum pp_report_kind kind,
                      const char *arg, const struct pp_view_opts *o, FILE *out);

/* The report (aggregate and view) for o, for a front end's own printers
 * (JSON, HTML): borrowed from the session, valid until the next call on
 * s. Errors as pp_session_prepare. */
int pp_session_get_report(struct pp_session *s, const struct pp_view_opts *o,
                          struct pp_report **out);

/*
 * The same for the reports made from the calling-context tree alone (the
 * flame graph's and pivot's JSON, folded): what they print is what
 * pp_session_get_report's report prints, but when o's only filters are
 * focus, ignore, hide, show and show_from, the tree is made from the
 * cached tree of the whole profile (pprof/tree.h: pp_tree_select for
 * focus and ignore, pp_tree_refine with the others) and no filtered
 * profile is made: a refine from the web UI costs a pass or two over the
 * tree's nodes, not over the samples, and the memory of a filtered copy. Any
 * other report from *out is wrong: ask pp_session_get_report, which then
 * filters.
 */
int pp_session_get_tree_report(struct pp_session *s,
                               const struct pp_view_opts *o,
                               struct pp_report **out);

/* Build the stages report kind needs with o, printing nothing: checks o
 * against the profile (a sample type it lacks, a bad unit or filter
 * regex) and warms the cache. */
int pp_session_prepare(struct pp_session *s, enum pp_report_kind kind,
                       const struct pp_view_opts *o);

/* How many times each stage was built (tests, benchmarks). */
struct pp_session_stats {
	unsigned long long filters;    /* filtered profiles made */
	unsigned long long aggregates; /* reports bound (totals, units) */
	unsigned long long graphs;     /* passes over the samples into a
	                                  graph or tree */
	unsigned long long selected;   /* trees selected from a cached one
	                                  (pp_session_get_tree_report) */
};
void pp_session_stats(const struct pp_session *s, struct pp_session_stats *out);

#endif
