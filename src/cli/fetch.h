/*
 * The CLI's side of fetching: libcurl started only when some source is a
 * URL, and a profile loaded from any URL saved under $PPROF_TMPDIR as
 * pprof saves it (the session fetches; see pp_load_opts.fetched).
 */
#ifndef PP_CLI_FETCH_H
#define PP_CLI_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "pprof/profile.h"
#include "settings.h"

/* Start libcurl if a source, -base or -diff_base is a URL (TLS setup
 * costs milliseconds that a file never needs). */
int pp_cli_fetch_init(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const char *const *sources, size_t nsources);
void pp_cli_fetch_cleanup(void);

/*
 * Save p as pprof saves what it fetched: in the first of $PPROF_TMPDIR,
 * $HOME/pprof and $TMPDIR (or /tmp) that exists or can be made, named
 * pprof.BINARY.TYPES.NNN.pb.gz, announced as "Saved profile in PATH" on
 * stderr. A failure is a warning, as in pprof: the report goes on.
 */
void pp_cli_save_fetched(struct pp_ctx *ctx, const struct pp_profile *p);

#endif
