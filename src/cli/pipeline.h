/*
 * The CLI's pipeline, shared by one-shot commands and the shell:
 *
 *   load     sources -> one profile (read/fetch, decode, merge)
 *   prepare  profile -> the profile reports see (base/diff_base)
 *   report   that profile, filtered, -> a report with its aggregate
 *   run      one command on a report, to stdout or -output FILE atomically
 *
 * Each stage is a function here so that later stages (symbolization,
 * fetching, filters) plug in at one place.
 */
#ifndef PP_CLI_PIPELINE_H
#define PP_CLI_PIPELINE_H

#include "cli/commands.h"
#include "cli/settings.h"
#include "pprof/profile.h"

/* Read (or fetch) and decode every source and merge them into *out. */
int pp_cli_load(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *const *sources, size_t nsources,
                struct pp_profile **out);

/*
 * The base of cfg (-base or -diff_base; several are merged into one, as
 * pprof merges them), read, symbolized and pruned as pp_cli_load reads
 * sources, with the executable that leads sources if any. *out is NULL
 * when cfg has no base. Both -base and -diff_base is PP_EUSAGE.
 */
int pp_cli_load_base(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     const char *const *sources, size_t nsources,
                     struct pp_profile **out);

/* Apply the transforms the config asks for to in, the profile loaded from
 * sources: the base (pp_cli_load_base) subtracted. *out may be set to a
 * new profile (the caller frees it) or to NULL meaning "use the input".
 * -normalize without a base is PP_EUSAGE, as in pprof. */
int pp_cli_prepare(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                   const char *const *sources, size_t nsources,
                   const struct pp_profile *in, struct pp_profile **out);

/* Run cmd with arg on prof, writing to stdout or cfg->output. */
int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               const struct pp_profile *prof);

/*
 * A report on prof as cfg shapes it: cfg's filters applied to a copy (pprof
 * filters per report), then the report and its cached aggregate. Strings
 * are borrowed from cfg and prof is borrowed: both must outlive it.
 */
struct pp_cli_report;
int pp_cli_report_new(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const struct pp_profile *prof,
                      struct pp_cli_report **out);
struct pp_report *pp_cli_report_get(const struct pp_cli_report *r);
void pp_cli_report_free(struct pp_cli_report *r);

/* Run cmd with arg on a report made earlier (the shell keeps one across
 * commands, so its cached aggregate is reused), writing to stdout or to
 * cfg->output atomically. */
int pp_cli_run_report(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const struct pp_command *cmd, const char *arg,
                      struct pp_report *rpt);

#endif
