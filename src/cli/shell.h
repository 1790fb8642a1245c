/*
 * The interactive shell: `pprof-c [options] PROFILE...` with no report
 * command. Every command of the command table is a shell command, every
 * setting of the settings table is set with name=value; both tables are
 * read at run time, so commands and settings added there appear here (in
 * help, completion and dispatch) with no change to the shell.
 *
 * The shell holds one session (pprof/session.h) across commands: its
 * staged cache rebuilds only the stages that a changed option shapes.
 */
#ifndef PP_CLI_SHELL_H
#define PP_CLI_SHELL_H

#include <stdbool.h>
#include <stdio.h>

#include "pprof/session.h"
#include "settings.h"

struct pp_shell;

/* A shell over session (borrowed) starting from cfg's options (copied;
 * `reset` returns to them). */
int pp_shell_new(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 struct pp_session *session, struct pp_shell **out);
void pp_shell_free(struct pp_shell *sh);

/*
 * Read commands from stdin until EOF, quit or exit. On a terminal: prompt,
 * line editing, completion and history (the file named by
 * $PPROF_C_HISTORY, else ~/.pprof-c_history). Otherwise lines are read
 * plainly and nothing but reports goes to stdout. Returns 0, or an exit
 * status of 1 if the last command of a non-interactive session failed.
 */
int pp_shell_run(struct pp_shell *sh);

/* Run one line; *quit is set by quit/exit. Errors are printed to stderr
 * and returned (negative) but never end the session. */
int pp_shell_execute(struct pp_shell *sh, const char *line, bool *quit);

/* ---- inside the shell (shell.c, shell_edit.c, complete.c) ------------- */

/* The shell's own commands, beside the report commands of the table. */
struct pp_shell_builtin {
	const char *name;
	const char *args; /* for help; NULL: none */
	const char *help;
};
extern const struct pp_shell_builtin pp_shell_builtins[];
extern const size_t pp_shell_nbuiltins;

/* Words that may complete the word [start, end) of line (end = cursor):
 * commands and setting names first in a line, then values of the setting
 * being set, sample types, function names, option names after '-'.
 * Calls add(data, word) for each candidate with the prefix typed. */
void pp_shell_complete(const struct pp_shell *sh, const char *line,
                       size_t start, size_t end,
                       void (*add)(void *data, const char *word), void *data);

const struct pp_profile *pp_shell__profile(const struct pp_shell *sh);

/* The line-editing loop (shell_edit.c); returns like pp_shell_run. */
int pp_shell__edit_loop(struct pp_shell *sh);

#endif
