/* pprof-c: the command-line client of libpprof. The only place that exits,
 * and the only one with process state: what the signal handlers need. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "check.h"
#include "exitcodes.h"
#include "fetch.h"
#include "output.h"
#include "pipeline.h"
#include "progress.h"
#include "shell.h"
#include "tty.h"
#include "web.h"

#ifndef PPROF_C_VERSION
#define PPROF_C_VERSION "0.0.0"
#endif

/* The temporary output file and the shell's reserved file name a signal
 * removes (see cli/output.h), the signal mask to go back to after a hold,
 * and the signals caught instead of ending the process: the interactive
 * shell's Ctrl-C (SIGINT), or every stop signal while the web server
 * warms up. A caught one only sets the flag the library's long loops
 * check (pp_ctx.interrupt). */
static const char *volatile signal_temp;
static const char *volatile signal_reserved;
static sigset_t signal_saved_mask;
static volatile sig_atomic_t interrupted, catch_interrupt, catch_stops;

static void on_signal(int sig)
{
	const char *tmp = signal_temp, *reserved = signal_reserved;

	if ((sig == SIGINT && catch_interrupt) || catch_stops) {
		interrupted = 1;
		return;
	}
	if (tmp)
		unlink(tmp);
	if (reserved)
		unlink(reserved);
	/* End as the signal would have ended us (exit status 128 + sig
	 * in the shell, and a shell loop calling us stops too). */
	signal(sig, SIG_DFL);
	raise(sig);
}

static const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

static void signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(int); i++) {
		struct sigaction old;

		/* A signal ignored by whoever started us (nohup, a
		 * background job) stays ignored. */
		if (sigaction(handled_signals[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(handled_signals[i], &sa, NULL);
	}
}

void pp_cli_signals_hold(void)
{
	sigset_t set;

	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(handled_signals) / sizeof(int); i++)
		sigaddset(&set, handled_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, &signal_saved_mask);
}

void pp_cli_signals_release(void)
{
	pthread_sigmask(SIG_SETMASK, &signal_saved_mask, NULL);
}

void pp_cli_signals_temp(const char *path)
{
	signal_temp = path;
}

void pp_cli_signals_reserved(const char *path)
{
	signal_reserved = path;
}

void pp_cli_signals_catch_interrupt(bool on)
{
	interrupted = 0;
	catch_interrupt = on;
}

void pp_cli_signals_catch_stops(bool on)
{
	interrupted = 0;
	catch_stops = on;
}

void pp_cli_signals_restart(bool on)
{
	struct sigaction sa;

	/* Only when we handle SIGINT (not when it was left ignored). */
	if (sigaction(SIGINT, NULL, &sa) != 0 || sa.sa_handler != on_signal)
		return;
	if (on)
		sa.sa_flags |= SA_RESTART;
	else
		sa.sa_flags &= ~SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
}

bool pp_cli_signals_interrupted(void)
{
	return interrupted != 0;
}

/* One line on stderr, the n bytes at msg; a message may quote a
 * profile's names, NUL bytes and all, so control characters print escaped
 * when stderr is a terminal (cli/tty.h), and as pprof prints them (raw)
 * to a file or pipe. */
static void print_line_n(const char *prefix, const char *msg, size_t n)
{
	fputs(prefix, stderr);
	if (isatty(STDERR_FILENO))
		pp_cli_tty_write(msg, n, stderr);
	else
		fwrite(msg, 1, n, stderr);
	fputc('\n', stderr);
}

static void print_line(const char *prefix, const char *msg)
{
	print_line_n(prefix, msg, strlen(msg));
}

/* The error rc with its detail from ctx, whole. */
static void print_error(const struct pp_ctx *ctx, int rc)
{
	if (ctx->message[0])
		print_line_n("pprof-c: ", ctx->message,
		             pp_ctx_message_len(ctx));
	else
		print_line("pprof-c: ", pp_strerror(rc));
}

/* data: the progress line (cli/progress.h), kept off this one. */
static void print_warning(void *data, const char *msg)
{
	pp_cli_progress_hold(data);
	print_line("pprof-c: warning: ", msg);
	pp_cli_progress_release(data);
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "pprof-c: %s\n", msg);
	fprintf(stderr, "Try 'pprof-c --help' for more information.\n");
}

static void print_help(FILE *out)
{
	fprintf(out,
	        "usage: pprof-c [options] COMMAND [ARG] [options] [BINARY] "
	        "PROFILE...\n"
	        "       pprof-c [options] -COMMAND[=ARG] [BINARY] PROFILE...\n"
	        "       pprof-c [options] [BINARY] PROFILE...   (the "
	        "interactive shell)\n"
	        "\n"
	        "Analyze pprof profiles (profile.proto, gzip'd or not) and "
	        "print reports\nas `go tool pprof` does. Several profiles are "
	        "merged. A PROFILE may be a URL\n(host:port, "
	        "http://host:port/debug/pprof/heap), fetched as pprof fetches "
	        "it.\nOptions may stand anywhere on the command line, as "
	        "-opt=value, -opt value\nor --opt=value.\n"
	        "\nCommands:\n");
	for (size_t i = 0; i < pp_ncommands; i++) {
		char left[32];

		snprintf(left, sizeof(left), "%s%s", pp_commands[i].name,
		         pp_commands[i].wants_regex ? " REGEX" : "");
		fprintf(out, "  %-26s %s\n", left, pp_commands[i].help);
	}
	fprintf(out, "  %-26s %s\n", "topN", "top with -nodecount=N");
	fprintf(out, "\nOptions:\n");
	pp_settings_print_help(out);
	fprintf(out, "  %-26s %s\n", "-h, --help", "show this help");
	fprintf(out, "  %-26s %s\n", "--version", "show the version");
	fprintf(out, "\nExit status: 0 success, 1 bad input, failed fetch or "
	             "failed write,\n2 usage error, 3 a broken check rule.\n"
	             "See pprof-c(1) for details.\n");
}

static int run_shell(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     struct pp_session *session)
{
	struct pp_shell *sh = NULL;
	int status;

	if (pp_shell_new(ctx, cfg, session, &sh) < 0) {
		print_line("pprof-c: ", ctx->message);
		return PP_EXIT_INPUT;
	}
	status = pp_shell_run(sh);
	pp_shell_free(sh);
	return status;
}

int main(int argc, char **argv)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_cli_args args;
	struct pp_session *session = NULL;
	struct pp_cli_progress *progress = NULL;
	char err[512];
	int status = PP_EXIT_OK, rc;

	ctx.warn = print_warning;
	ctx.interrupt = &interrupted;
	signals_install();
	if (pp_cli_parse(argc, argv, &args, err, sizeof(err)) < 0) {
		usage_error(err);
		pp_cli_args_release(&args);
		return PP_EXIT_USAGE;
	}
	if (args.help) {
		print_help(stdout);
		goto out;
	}
	if (args.version) {
		printf("pprof-c %s\n", PPROF_C_VERSION);
		goto out;
	}
	if (args.config.http && args.command) {
		usage_error("-http serves every view: give no report command "
		            "with it");
		status = PP_EXIT_USAGE;
		goto out;
	}
	if (args.nsources == 0) {
		usage_error("no profile given");
		status = PP_EXIT_USAGE;
		goto out;
	}
	if (pp_cli_config_resolve(&args.config, print_warning, NULL) < 0) {
		fprintf(stderr, "pprof-c: out of memory\n");
		status = PP_EXIT_INPUT;
		goto out;
	}
	ctx.max_size = args.config.max_size;
	ctx.folded_type = args.config.folded_type;
	/* Progress of long work, on a terminal's stderr only (made here: every
	 * return from now on passes its free at out:). */
	if (pp_cli_progress_new(STDERR_FILENO, &progress) == 0 && progress) {
		ctx.progress = pp_cli_progress_update;
		ctx.progress_data = progress;
		ctx.warn_data = progress;
	}
	/* One renderer for every picture of the run (pprof/report.h). */
	if (pp_renderer_new(&ctx, &ctx.renderer) < 0 ||
	    pp_cli_fetch_init(&ctx, &args.config, args.sources, args.nsources) <
	            0) {
		print_line("pprof-c: ", ctx.message);
		status = PP_EXIT_INPUT;
		goto out;
	}
	if (args.command && args.command->kind == PP_REPORT_CHECK) {
		size_t nbroken = 0;

		rc = pp_cli_check(&ctx, &args.config, args.sources,
		                  args.nsources, &nbroken);
		if (rc < 0) {
			print_error(&ctx, rc);
			status =
			        rc == PP_EUSAGE ? PP_EXIT_USAGE : PP_EXIT_INPUT;
		} else if (nbroken > 0) {
			status = PP_EXIT_CHECK;
		}
		goto out;
	}
	if ((rc = pp_cli_open(&ctx, &args.config, args.sources, args.nsources,
	                      false, &session)) < 0) {
		print_error(&ctx, rc);
		status = rc == PP_EUSAGE ? PP_EXIT_USAGE : PP_EXIT_INPUT;
		goto out;
	}
	if (args.config.http) {
		/* The server lets a stop signal in only while it builds the
		 * flame graph's trees, which it then stops (pp_web_serve). */
		pp_cli_signals_catch_stops(true);
		if ((rc = pp_web_serve(&ctx, &args.config, session, stderr)) <
		    0) {
			print_line("pprof-c: ", ctx.message);
			status =
			        rc == PP_EUSAGE ? PP_EXIT_USAGE : PP_EXIT_INPUT;
		}
		goto out;
	}
	if (!args.command) {
		status = run_shell(&ctx, &args.config, session);
		goto out;
	}
	if ((rc = pp_cli_run(&ctx, &args.config, args.command, args.regex,
	                     session)) < 0) {
		print_error(&ctx, rc);
		status = rc == PP_EUSAGE ? PP_EXIT_USAGE : PP_EXIT_INPUT;
	} else if (args.config.output) {
		/* pprof's words; said once the file is there, so that a
		 * failure stays one line. */
		print_line("Generating report in ", args.config.output);
	}
out:
	pp_session_free(session);
	pp_renderer_free(ctx.renderer);
	pp_cli_fetch_cleanup();
	pp_cli_args_release(&args);
	pp_cli_progress_free(progress);
	return status;
}
