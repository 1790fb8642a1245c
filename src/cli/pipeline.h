/*
 * The CLI's side of the session (pprof/session.h): the settings turned
 * into load and view options, and one report run to stdout or to -output
 * FILE atomically. One-shot commands, check and the shell all go through
 * here.
 */
#ifndef PP_CLI_PIPELINE_H
#define PP_CLI_PIPELINE_H

#include "commands.h"
#include "pprof/session.h"
#include "settings.h"

/*
 * Open a session on sources as cfg asks: base/diff_base, symbolize,
 * fetching (pprof's lines on stderr, a fetched profile saved under
 * $PPROF_TMPDIR), PPROF_BINARY_PATH. base_apart as in struct
 * pp_load_opts.
 */
int pp_cli_open(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *const *sources, size_t nsources, bool base_apart,
                struct pp_session **out);

/* Run cmd with arg on the session, with cfg's options, writing to stdout
 * or to cfg->output atomically. Returns as pp_session_report. */
int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               struct pp_session *s);

#endif
