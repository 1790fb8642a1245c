/*
 * Atomic output files: write to a temporary file in the destination's
 * directory, then rename over the destination. A failed or abandoned write
 * leaves the destination as it was and no temporary behind.
 */
#ifndef PP_UTIL_ATOMICFILE_H
#define PP_UTIL_ATOMICFILE_H

#include <stdio.h>

#include "pprof/error.h"

struct pp_atomic_file {
	char *path;     /* the destination */
	char *tmp_path; /* the temporary, while open */
	FILE *fp;       /* write here */
};

int pp_atomic_open(struct pp_ctx *ctx, const char *path,
                   struct pp_atomic_file *af);
/* Flush, sync, close and rename into place. On failure the temporary is
 * removed and the destination untouched. Releases af either way. */
int pp_atomic_commit(struct pp_ctx *ctx, struct pp_atomic_file *af);
/*
 * Commit under the first free name af->path + NNN + suffix, NNN from 001
 * to 9999 (pprof's numbering of saved profiles): the file is linked into
 * place, so it appears whole and never replaces another. *out (pp_free)
 * is the name used. Releases af either way.
 */
int pp_atomic_commit_numbered(struct pp_ctx *ctx, struct pp_atomic_file *af,
                              const char *suffix, char **out);
/* Throw the temporary away. Accepts an unopened (zeroed) af. */
void pp_atomic_abort(struct pp_ctx *ctx, struct pp_atomic_file *af);

#endif
