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
	/* Shows samples one by one (traces, raw, proto): needs pprof's merge
	 * (identical samples summed, zero ones dropped) even of one profile. */
	bool merged;
	/* NULL for check, which main runs itself (it needs two profiles). */
	int (*run)(struct pp_report *r, const char *arg, FILE *out);
	const char *help;
};

extern const struct pp_command pp_commands[];
extern const size_t pp_ncommands;

/* Find a command by name; "top10" finds top with *count = 10. */
const struct pp_command *pp_command_find(const char *name, int *count);

#endif
