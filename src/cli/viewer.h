/*
 * Reports opened with a program instead of printed: web, eog, evince, gv,
 * kcachegrind, webflame. The report is written to a file (-output FILE, or
 * a new $TMPDIR/pprof-c.NNN.EXT that is kept), then handed to the first
 * viewer of the command found on PATH, started in its own session and not
 * waited for, so nothing hangs on it. Without a display (no DISPLAY nor
 * WAYLAND_DISPLAY) nothing is started; $BROWSER, when set, is used even
 * then, since the user chose it.
 */
#ifndef PP_CLI_VIEWER_H
#define PP_CLI_VIEWER_H

#include "commands.h"

/* A new empty file DIR/pprof-c.NNN.EXT, created exclusively (NNN the first
 * number free; DIR is $TMPDIR, else /tmp). *out: free(). */
int pp_cli_viewer_file(struct pp_ctx *ctx, const struct pp_command *cmd,
                       char **out);

/* Open path with cmd's viewer. Says on stderr what was opened, or why
 * nothing was (no display; no viewer installed) and where the file is;
 * without a display the path is also printed on stdout, alone on its
 * line. Never fails: the report is written either way. */
void pp_cli_viewer_open(const struct pp_command *cmd, const char *path);

#endif
