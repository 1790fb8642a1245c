/*
 * Output files: written whole or not at all, and the directories they go
 * in. Front ends (the command line, the shell, the web UI's settings) write
 * reports and saved profiles through this.
 *
 * Output files that are never left half-written.
 *
 * A regular file (or a new name) is written to a temporary file in its
 * directory and renamed over the destination on commit, keeping the old
 * file's mode (and owner and group where the system allows): a failed or
 * abandoned write leaves the destination as it was and no temporary behind.
 * What is not a regular file is written through, as pprof writes it: a
 * device (/dev/null), a FIFO, an open file named under /proc (/dev/stdout,
 * /dev/fd/N). A symlink is followed, and the file it points to is replaced
 * in its own directory; the link stays. A regular file with several hard
 * links is still written to a temporary first, then copied into the file
 * in place on commit, so every link sees the new report.
 */
#ifndef PPROF_OUTFILE_H
#define PPROF_OUTFILE_H

#include <stdio.h>

#include "pprof/error.h"

enum pp_atomic_how {
	PP_ATOMIC_REPLACE, /* temporary, renamed over the target */
	PP_ATOMIC_COPY_IN, /* temporary, copied into the target */
	PP_ATOMIC_THROUGH, /* the target itself, opened for writing */
};

struct pp_atomic_file {
	char *path;     /* the destination as given (for messages) */
	char *target;   /* the file written: path with symlinks followed */
	char *tmp_path; /* the temporary, while it exists; else NULL */
	FILE *fp;       /* write here */
	enum pp_atomic_how how;
	/* The existing target's mode, owner and group, to keep. */
	int keep;
	unsigned mode;
	long uid, gid;
};

/* pp_atomic_prepare, then pp_atomic_start. */
int pp_atomic_open(struct pp_ctx *ctx, const char *path,
                   struct pp_atomic_file *af);
/*
 * The first half of pp_atomic_open: follow symlinks, decide how the
 * destination is written, and open it when it is written through (which
 * may block: a FIFO's open waits for a reader). Makes no temporary, so a
 * caller that removes temporaries on a signal can leave signals alone here
 * and hold them only around pp_atomic_start.
 */
int pp_atomic_prepare(struct pp_ctx *ctx, const char *path,
                      struct pp_atomic_file *af);
/* The second half: create the temporary (af->tmp_path), if one is wanted.
 * Never blocks. On failure af is released. */
int pp_atomic_start(struct pp_ctx *ctx, struct pp_atomic_file *af);
/* Flush, sync and close; rename (or copy) into place. On failure the
 * temporary is removed and a replaced destination untouched. Releases af
 * either way. */
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

/*
 * Make directory path and any missing parents with mode (before the
 * umask), as Go's os.MkdirAll: 0 when it exists as a directory afterwards,
 * else -1 with errno set (ENOTDIR when something else is in the way).
 */
int pp_path_mkdir_all(const char *path, unsigned mode);

#endif
