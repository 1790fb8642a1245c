/* `pprof-c check`: the CI gate (see pp_report_check). */
#ifndef PP_CLI_CHECK_H
#define PP_CLI_CHECK_H

#include <stddef.h>

#include "settings.h"

/*
 * Load the new profile(s) from sources and the old one from -diff_base,
 * check cfg's rules and print the report to stdout. *nbroken counts the
 * rows that broke a rule. PP_EUSAGE without -diff_base or without rules.
 */
int pp_cli_check(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 const char *const *sources, size_t nsources, size_t *nbroken);

#endif
