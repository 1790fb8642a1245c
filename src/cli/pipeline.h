/*
 * The CLI's pipeline, shared by one-shot commands and the shell:
 *
 *   load     sources -> one profile (read/fetch, decode, merge)
 *   prepare  profile -> the profile reports see (base/diff_base, filters)
 *   run      one command on it, to stdout or to -output FILE atomically
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

/* Apply the transforms the config asks for. *out may be set to a new
 * profile (the caller frees it) or to NULL meaning "use the input". */
int pp_cli_prepare(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                   const struct pp_profile *in, struct pp_profile **out);

/* Run cmd with arg on prof, writing to stdout or cfg->output. */
int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               const struct pp_profile *prof);

#endif
