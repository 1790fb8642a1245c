/* Command-line parsing: options anywhere, Go-style report flags. */
#ifndef PP_CLI_ARGS_H
#define PP_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "commands.h"
#include "settings.h"

struct pp_cli_args {
	struct pp_cli_config config;
	const struct pp_command *command;
	const char *regex;    /* the argument of list/peek */
	const char **sources; /* profiles (and a leading binary), in order */
	size_t nsources;
	bool help;
	bool version;
};

/*
 * Parse argv into args (release with pp_cli_args_release). On a usage error
 * writes one line to err and returns -1.
 */
int pp_cli_parse(int argc, char **argv, struct pp_cli_args *args, char *err,
                 size_t errsize);
void pp_cli_args_release(struct pp_cli_args *args);

#endif
