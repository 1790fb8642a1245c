/*
 * Report files for the command line and the shell: the atomic output file
 * of util/atomicfile.h, with its temporary known to the signal handlers in
 * main.c, so Ctrl-C, SIGTERM or SIGHUP during a report removes it.
 */
#ifndef PP_CLI_OUTPUT_H
#define PP_CLI_OUTPUT_H

#include <stdbool.h>

#include "pprof/outfile.h"

int pp_cli_output_open(struct pp_ctx *ctx, const char *path,
                       struct pp_atomic_file *af);
int pp_cli_output_commit(struct pp_ctx *ctx, struct pp_atomic_file *af);
void pp_cli_output_abort(struct pp_ctx *ctx, struct pp_atomic_file *af);

/*
 * Kept in main.c, the one place with process state. While signals are held
 * a SIGINT, SIGTERM or SIGHUP waits; pp_cli_signals_temp names the file a
 * signal removes before the process ends (NULL: none), and is called with
 * signals held. The string must live until it is replaced.
 */
void pp_cli_signals_hold(void);
void pp_cli_signals_release(void);
void pp_cli_signals_temp(const char *path);
/* A file the shell created to reserve its name (profileNNN.EXT), removed
 * by a signal too; NULL: none. */
void pp_cli_signals_reserved(const char *path);
/*
 * The interactive shell's Ctrl-C: while on, SIGINT ends no process but
 * asks the running report to stop (the library fails it with PP_EINTR)
 * and interrupts a read; turning it on or off clears the flag that
 * pp_cli_signals_interrupted returns.
 */
void pp_cli_signals_catch_interrupt(bool on);
/* The web server's stop signals: while on, SIGINT, SIGTERM and SIGHUP
 * end no process but set the interrupt flag (pp_ctx.interrupt), which
 * this clears. */
void pp_cli_signals_catch_stops(bool on);
/* While on, a caught SIGINT restarts the system call it interrupted (the
 * report's writes to the terminal go on until its loop sees the flag);
 * off at the prompt, where libedit's read must return EINTR. */
void pp_cli_signals_restart(bool on);
bool pp_cli_signals_interrupted(void);

#endif
