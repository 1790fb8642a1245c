/* Where and how the CLI saves a fetched profile (pprof's names). */
#ifndef PP_CLI_SAVE_H
#define PP_CLI_SAVE_H

#include "pprof/profile.h"

/*
 * The start of the name pprof saves a fetched profile under:
 * "pprof.", the base name of the first mapping's file and ".", if it has
 * one, then each sample type followed by "." ("pprof.server.samples.cpu.").
 * Unlike pprof, a '/' or control character from the profile becomes '_'
 * (a hostile server cannot write outside the directory), and the name is
 * cut to leave room for the number and suffix. *out: pp_free.
 */
int pp_cli_save_prefix(struct pp_ctx *ctx, const struct pp_profile *p,
                       char **out);

/*
 * Save p, gzip'd, as DIR/PREFIXNNN.pb.gz with PREFIX from
 * pp_cli_save_prefix and NNN (001 to 9999) the first number not taken,
 * written to a temporary file first and linked into place, so the name
 * appears only with the whole profile in it and no file is ever replaced.
 * dir must exist. *path_out (pp_free) is the file's name.
 */
int pp_cli_save(struct pp_ctx *ctx, const struct pp_profile *p, const char *dir,
                char **path_out);

#endif
