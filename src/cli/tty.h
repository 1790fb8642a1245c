/*
 * Reports on a terminal: a profile's names are other people's bytes, and
 * an ESC sequence in a function name (a title change, an OSC 52 clipboard
 * write) must not drive the user's terminal. To a terminal, control
 * characters print escaped (\x1b); to a file or a pipe, the bytes print as
 * pprof prints them.
 */
#ifndef PP_CLI_TTY_H
#define PP_CLI_TTY_H

#include <stdio.h>

/* A stream that writes to `to` with C0 controls (but newline and tab),
 * DEL and UTF-8-encoded C1 controls escaped as \xNN. NULL when out of
 * memory. fclose it to flush into `to` (which stays open). */
FILE *pp_cli_tty_open(FILE *to);

/* Write s to `to`, escaped as above. */
void pp_cli_tty_puts(const char *s, FILE *to);
/* The same for the n bytes at s (NUL bytes too, written \x00). */
void pp_cli_tty_write(const char *s, size_t n, FILE *to);

#endif
