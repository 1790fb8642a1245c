/* The report commands: one table for argv, the shell and help. */
#ifndef PP_CLI_COMMANDS_H
#define PP_CLI_COMMANDS_H

#include <stdbool.h>
#include <stdio.h>

#include "pprof/report.h"

struct pp_command {
	const char *name;
	/* Takes a REGEX argument (list, peek). */
	bool wants_regex;
	/* Writes binary data that must not go to a terminal. */
	bool binary;
	/* The report (pprof/report.h); PP_REPORT_CHECK compares two
	 * profiles, which main opens itself. */
	enum pp_report_kind kind;
	const char *help;
	/* A front end's own printer on the report (html), run instead of
	 * kind; NULL: the library's report. */
	int (*run)(struct pp_report *r, const char *arg, FILE *out);
	/* Opened with a program instead of printed (cli/viewer.h): the
	 * programs tried in turn, "NAME [ARGS]", NULL-ended; "$BROWSER" is
	 * that variable. NULL: printed. */
	const char *const *viewers;
	/* The extension of a file the report is written to by the shell or
	 * for a viewer ("pb.gz"); NULL: the command's name. A command with
	 * one (or binary) and no viewer is a picture or file format: the
	 * shell never prints it, but writes the next free profileNNN.EXT,
	 * as pprof's shell does. */
	const char *ext;
};

typedef int (*pp_command_run_fn)(struct pp_report *r, const char *arg,
                                 FILE *out);

/* The JSON form of c's report (-json), or NULL if it has none. */
pp_command_run_fn pp_command_json_run(const struct pp_command *c);

extern const struct pp_command pp_commands[];
extern const size_t pp_ncommands;

/* Find a command by name; "top10" finds top with *count = 10. */
const struct pp_command *pp_command_find(const char *name, int *count);

#endif
