/* Exit statuses of pprof-c. */
#ifndef PP_CLI_EXITCODES_H
#define PP_CLI_EXITCODES_H

enum pp_exit {
	PP_EXIT_OK = 0,
	PP_EXIT_INPUT = 1, /* bad input, failed fetch, failed write */
	PP_EXIT_USAGE = 2, /* bad command line */
	PP_EXIT_CHECK = 3, /* `check` found a broken rule */
};

#endif
