/*
 * Progress of long work on a terminal's stderr: one line that updates
 * ("pprof-c: decoding big.pb.gz: 70.2/155.0 MB (45%), 1.4 s") and is
 * erased when the work is over. Only when stderr is a terminal and the
 * work has lasted PPROF_C_PROGRESS_DELAY seconds (default 0.5): a short
 * run, or stderr to a file or pipe, shows nothing and costs nothing but
 * the library's cheap callbacks.
 *
 * A thread redraws the line ten times a second, so work that is one long
 * call (reading a file, graphviz's layout) still shows its time. Every
 * other line on stderr must go through pp_cli_progress_hold/_release, so
 * that it never lands on the progress line.
 */
#ifndef PP_CLI_PROGRESS_H
#define PP_CLI_PROGRESS_H

#include <stdint.h>

struct pp_cli_progress;

/* A progress line on fd's terminal, or NULL (*out) when fd is no terminal
 * or the thread cannot start: then every function below does nothing. */
int pp_cli_progress_new(int fd, struct pp_cli_progress **out);

/* Stop the thread and erase the line; accepts NULL. */
void pp_cli_progress_free(struct pp_cli_progress *p);

/* The library's pp_progress_fn; data is the struct pp_cli_progress. */
void pp_cli_progress_update(void *data, const char *what, const char *unit,
                            uint64_t done, uint64_t total);

/* Erase the line and keep it erased until _release: around any other
 * output to stderr. */
void pp_cli_progress_hold(struct pp_cli_progress *p);
void pp_cli_progress_release(struct pp_cli_progress *p);

#endif
