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
	/* Needs pprof's merge (identical samples summed, zero ones dropped)
	 * even of one profile. pprof 1.19 merged one profile for traces, raw
	 * and proto; 1.24 does not, so no command sets it.
	 * NEEDSWORK: remove it with the shell's merged-profile cache. */
	bool merged;
	/* NULL for check, which main runs itself (it needs two profiles). */
	int (*run)(struct pp_report *r, const char *arg, FILE *out);
	const char *help;
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
