/* The shell's commands: dispatch of one line, settings, help, and the
 * report kept across commands. Reading lines is shell_edit.c's job. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "output.h"
#include "pipeline.h"
#include "shell.h"
#include "tokenize.h"
#include "tty.h"

extern char **environ;

struct pp_shell {
	struct pp_ctx *ctx;
	struct pp_session *session; /* borrowed */
	struct pp_cli_config cfg;   /* the options now */
	struct pp_cli_config start; /* the command line's, for reset */
	bool failed; /* some command failed (the exit status of scripts) */
};

const struct pp_shell_builtin pp_shell_builtins[] = {
        {"help", "[COMMAND|OPTION]", "list the commands, or explain one"},
        {"options", NULL, "show every option and its value (also: o)"},
        {"reset", NULL, "restore the options given on the command line"},
        {"web", NULL,
         "draw the call graph as SVG and open it in a browser (xdg-open)"},
        {"webflame", NULL, "the same for the flame graph"},
        {"quit", NULL, "leave the shell (also: exit, Ctrl-D)"},
        {"exit", NULL, "leave the shell"},
};
const size_t pp_shell_nbuiltins =
        sizeof(pp_shell_builtins) / sizeof(pp_shell_builtins[0]);

int pp_shell_new(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 struct pp_session *session, struct pp_shell **out)
{
	struct pp_shell *sh = calloc(1, sizeof(*sh));

	*out = NULL;
	if (!sh)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	sh->ctx = ctx;
	sh->session = session;
	if (pp_cli_config_copy(&sh->cfg, cfg) < 0) {
		free(sh);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	if (pp_cli_config_copy(&sh->start, cfg) < 0) {
		pp_cli_config_release(&sh->cfg);
		free(sh);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	/* As pprof's shell: the header lines once at the start, not above
	 * every report. */
	sh->cfg.report.compact_labels = sh->start.report.compact_labels = true;
	*out = sh;
	return 0;
}

void pp_shell_free(struct pp_shell *sh)
{
	if (!sh)
		return;
	pp_cli_config_release(&sh->cfg);
	pp_cli_config_release(&sh->start);
	free(sh);
}

/* A message may quote a profile's names: escaped on a terminal, as
 * main.c's messages (cli/tty.h). */
static void say_error(struct pp_shell *sh, int err)
{
	const char *msg =
	        sh->ctx->message[0] ? sh->ctx->message : pp_strerror(err);

	/* Ctrl-C may have cut a report's line short. */
	if (err == PP_EINTR)
		fputc('\n', stdout);
	fflush(stdout);
	size_t n =
	        sh->ctx->message[0] ? pp_ctx_message_len(sh->ctx) : strlen(msg);

	if (isatty(STDERR_FILENO))
		pp_cli_tty_write(msg, n, stderr);
	else
		fwrite(msg, 1, n, stderr);
	fputc('\n', stderr);
	sh->ctx->message[0] = '\0';
}

/* Build what a report with options c needs (the session keeps it): checks
 * c against the profile. */
static int prepare(struct pp_shell *sh, const struct pp_cli_config *c,
                   enum pp_report_kind kind)
{
	struct pp_view_opts view;
	int err = pp_cli_view_opts(sh->ctx, c, &view);

	if (err < 0)
		return err;
	return pp_session_prepare(sh->session, kind, &view);
}

/* ---- settings ------------------------------------------------------------ */

static bool shows_value(const struct pp_setting *s)
{
	return s->kind != PP_SET_ALIAS_GRANULARITY &&
	       s->kind != PP_SET_ALIAS_SAMPLE_INDEX;
}

static void print_setting(const struct pp_shell *sh, const struct pp_setting *s,
                          bool with_help)
{
	char val[512];

	pp_setting_format(s, &sh->cfg, val, sizeof(val));
	if (with_help)
		printf("  %-16s = %-14s %s\n", s->name, val, s->help);
	else
		printf("%s = %s\n", s->name, val);
}

/* Apply name=value (value NULL: a bare flag) to c, as argv would, then
 * resolve pprof's legacy sample flags. A legacy flag given in the shell
 * replaces the sample type chosen before it. */
static int apply_setting(struct pp_shell *sh, struct pp_cli_config *c,
                         const struct pp_setting *s, const char *value)
{
	char msg[256];

	if (s->at_load)
		return pp_error(sh->ctx, PP_EUSAGE,
		                "%s cannot be changed in the shell: its "
		                "profile is read already (give -%s on the "
		                "command line)",
		                s->name, s->name);
	if (s->kind == PP_SET_ALIAS_SAMPLE_INDEX) {
		free(c->sample_index);
		c->sample_index = NULL;
	}
	if (pp_setting_apply(s, c, value, msg, sizeof(msg)) < 0)
		return pp_error(sh->ctx, PP_EUSAGE, "%s", msg);
	if (pp_cli_config_resolve(c, NULL, NULL) < 0)
		return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* name=value, `name value`, or a bare name (show it; flags: set them). */
static int set_option(struct pp_shell *sh, const struct pp_setting *s,
                      const char *value)
{
	struct pp_cli_config next;
	int err;

	/* A bare alias (lines, cum, alloc_space) selects itself. */
	if (!value && !(pp_setting_is_flag(s) && s->kind != PP_SET_BOOL)) {
		print_setting(sh, s, false);
		return 0;
	}
	if (pp_cli_config_copy(&next, &sh->cfg) < 0)
		return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
	if ((err = apply_setting(sh, &next, s, value)) < 0)
		goto fail;
	/* Check the new options against the profile now (a sample type it
	 * lacks, a bad unit), not at the next report: this also makes the
	 * one recomputation a change costs. */
	if (strcmp(s->name, "output") != 0 &&
	    (err = prepare(sh, &next, PP_REPORT_TOP)) < 0)
		goto fail;
	pp_cli_config_release(&sh->cfg);
	sh->cfg = next;
	return 0;
fail:
	pp_cli_config_release(&next);
	return err;
}

/* ---- help ---------------------------------------------------------------- */

static void print_help(void)
{
	printf("Commands (each takes [N] [-cum] [FOCUS_REGEX]... "
	       "[-IGNORE_REGEX]...\n[-OPTION=VALUE]... [> FILE]; for tags the "
	       "regexes filter labels):\n");
	for (size_t i = 0; i < pp_ncommands; i++) {
		char left[32];

		snprintf(left, sizeof(left), "%s%s", pp_commands[i].name,
		         pp_commands[i].wants_regex ? " REGEX" : "");
		printf("  %-20s %s\n", left, pp_commands[i].help);
	}
	printf("  %-20s %s\n", "topN", "top with nodecount=N");
	printf("\nShell:\n");
	for (size_t i = 0; i < pp_shell_nbuiltins; i++) {
		char left[32];

		snprintf(left, sizeof(left), "%s%s%s",
		         pp_shell_builtins[i].name,
		         pp_shell_builtins[i].args ? " " : "",
		         pp_shell_builtins[i].args ? pp_shell_builtins[i].args
		                                   : "");
		printf("  %-20s %s\n", left, pp_shell_builtins[i].help);
	}
	printf("  %-20s %s\n", "NAME=VALUE", "set an option (see options)");
	printf("  %-20s %s\n", "NAME", "show an option's value");
}

static int help_one(struct pp_shell *sh, const char *name)
{
	const struct pp_command *c;
	const struct pp_setting *s;
	int count;

	if ((c = pp_command_find(name, &count))) {
		printf("%s%s: %s\n", c->name, c->wants_regex ? " REGEX" : "",
		       c->help);
		return 0;
	}
	for (size_t i = 0; i < pp_shell_nbuiltins; i++)
		if (strcmp(name, pp_shell_builtins[i].name) == 0) {
			printf("%s%s%s: %s\n", name,
			       pp_shell_builtins[i].args ? " " : "",
			       pp_shell_builtins[i].args
			               ? pp_shell_builtins[i].args
			               : "",
			       pp_shell_builtins[i].help);
			return 0;
		}
	if ((s = pp_setting_find(name))) {
		printf("%s%s%s: %s\n", s->name, s->arg ? "=" : "",
		       s->arg ? s->arg : "", s->help);
		return 0;
	}
	return pp_error(sh->ctx, PP_EUSAGE,
	                "no help for \"%s\": not a command or option", name);
}

/* ---- reports ------------------------------------------------------------- */

/* Reserve profileNNN.EXT in the current directory, as pprof names the
 * files it writes for the shell: the first number not taken. */
static int reserve_file(struct pp_shell *sh, const char *ext, char **out)
{
	for (int i = 1; i < 10000; i++) {
		char path[64];
		int fd;

		snprintf(path, sizeof(path), "profile%03d.%.16s", i, ext);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0) {
			close(fd);
			if (!(*out = strdup(path)))
				return pp_error(sh->ctx, PP_ENOMEM,
				                "out of memory");
			return 0;
		}
		if (errno != EEXIST)
			return pp_error(sh->ctx, PP_EIO, "%s: %s", path,
			                strerror(errno));
	}
	return pp_error(sh->ctx, PP_EIO, "no free %s file name", ext);
}

/* A picture or binary output never goes to the screen (svg, flame, png,
 * proto...): pprof's shell writes it to the next free profileNNN.EXT. */
static bool to_file(const struct pp_command *cmd)
{
	return !cmd->viewers && (cmd->binary || cmd->ext);
}

/* a|b: pprof's catRegex, the words of one kind joined. *out: free(). */
static int cat_regex(struct pp_shell *sh, char **out, const char *w)
{
	size_t have = *out ? strlen(*out) : 0, len = strlen(w);
	char *s;

	if (!len)
		return 0;
	if (!(s = realloc(*out, have + len + 2)))
		return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
	if (have)
		s[have++] = '|';
	memcpy(s + have, w, len + 1);
	*out = s;
	return 0;
}

/* The words gathered by command_args set for this command: focus and
 * ignore, or for tags tagfocus and tagignore (pprof filters the labels
 * there, not the functions). */
static int apply_words(struct pp_shell *sh, struct pp_cli_config *c, bool tags,
                       const char *focus, const char *ignore)
{
	const struct pp_setting *s;

	if (focus && (!(s = pp_setting_find(tags ? "tagfocus" : "focus")) ||
	              apply_setting(sh, c, s, focus) < 0))
		return PP_EUSAGE;
	if (ignore && (!(s = pp_setting_find(tags ? "tagignore" : "ignore")) ||
	               apply_setting(sh, c, s, ignore) < 0))
		return PP_EUSAGE;
	return 0;
}

/* A whole word that is a number (pprof's strconv.ParseInt(w, 10, 32)). */
static bool node_count(const char *w, int *out)
{
	char *end;
	long n;

	if (!((w[0] >= '0' && w[0] <= '9') ||
	      ((w[0] == '-' || w[0] == '+') && w[1] >= '0' && w[1] <= '9')))
		return false;
	errno = 0;
	n = strtol(w, &end, 10);
	if (*end || errno || n > 2147483647L || n < -2147483647L - 1)
		return false;
	*out = (int)n;
	return true;
}

/*
 * The words after a report command, as pprof's shell reads them: a number
 * is nodecount, -cum the order, "> FILE" the destination; any other word
 * is a focus regex and a -WORD an ignore regex, several joined with |
 * (for tags: tagfocus and tagignore), replacing the session's for this
 * command. pprof-c adds -NAME[=VALUE] for any of its settings (-output
 * FILE, -nodecount=5, -lines): a -WORD that names no setting is the ignore
 * regex WORD.
 */
static int command_args(struct pp_shell *sh, const struct pp_tokens *t,
                        size_t i, bool tags, struct pp_cli_config *c)
{
	char *focus = NULL, *ignore = NULL;
	int err = 0;

	for (; i < t->n && err >= 0; i++) {
		const char *w = t->v[i];
		const struct pp_setting *s;
		int count;

		if (t->redirect[i]) {
			if (i + 1 >= t->n || t->redirect[i + 1]) {
				err = pp_error(
				        sh->ctx, PP_EUSAGE,
				        "unexpected end of line after >");
				break;
			}
			s = pp_setting_find("output");
			if (!s || apply_setting(sh, c, s, t->v[++i]) < 0)
				err = PP_EUSAGE;
			continue;
		}
		if (node_count(w, &count)) {
			c->nodecount = count;
			continue;
		}
		if (w[0] == '-' && w[1]) {
			char name[128];
			const char *body = w + (w[1] == '-' ? 2 : 1);
			const char *eq = strchr(body, '=');
			size_t len = eq ? (size_t)(eq - body) : strlen(body);
			const char *value = eq ? eq + 1 : NULL;

			if (len >= sizeof(name))
				len = sizeof(name) - 1;
			memcpy(name, body, len);
			name[len] = '\0';
			if (!(s = pp_setting_find(name))) {
				/* pprof: "top -runtime" ignores runtime. */
				err = cat_regex(sh, &ignore, w + 1);
				continue;
			}
			if (!value && !pp_setting_is_flag(s)) {
				if (i + 1 >= t->n) {
					err = pp_error(
					        sh->ctx, PP_EUSAGE,
					        "option -%s needs a value",
					        name);
					break;
				}
				value = t->v[++i];
			}
			if (apply_setting(sh, c, s, value) < 0)
				err = PP_EUSAGE;
			continue;
		}
		err = cat_regex(sh, &focus, w);
	}
	if (err >= 0)
		err = apply_words(sh, c, tags, focus, ignore);
	free(focus);
	free(ignore);
	return err;
}

/* Run cmd with the words after it; *written is set to the file written
 * (owned by the caller), if any. */
static int run_report(struct pp_shell *sh, const struct pp_command *cmd,
                      int count, const struct pp_tokens *t, size_t i,
                      char **written)
{
	struct pp_cli_config c;
	const char *regex = NULL;
	int err;

	*written = NULL;
	if (cmd->wants_regex) {
		if (i >= t->n || t->redirect[i])
			return pp_error(sh->ctx, PP_EUSAGE,
			                "command %s requires an argument",
			                cmd->name);
		regex = t->v[i++];
	}
	if (pp_cli_config_copy(&c, &sh->cfg) < 0)
		return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
	if (count >= 0)
		c.nodecount = count;
	if ((err = command_args(sh, t, i, cmd->kind == PP_REPORT_TAGS, &c)) < 0)
		goto done;
	/* pprof's shell shows ten lines of top unless told otherwise. */
	if (c.nodecount < 0 &&
	    (strcmp(cmd->name, "top") == 0 || strcmp(cmd->name, "text") == 0))
		c.nodecount = 10;
	if (!c.output && to_file(cmd)) {
		if ((err = reserve_file(sh, cmd->ext ? cmd->ext : cmd->name,
		                        &c.output)) < 0)
			goto done;
		pp_cli_signals_hold();
		pp_cli_signals_reserved(c.output);
		pp_cli_signals_release();
	}
	if ((err = prepare(sh, &c, cmd->kind)) < 0)
		goto done;
	if (c.output)
		fprintf(stderr, "Generating report in %s\n", c.output);
	err = pp_cli_run(sh->ctx, &c, cmd, regex, sh->session);
	if (err >= 0 && c.output && !(*written = strdup(c.output)))
		err = pp_error(sh->ctx, PP_ENOMEM, "out of memory");
	if (err < 0 && c.output && !sh->cfg.output)
		unlink(c.output); /* the reserved name, if the report failed */
done:
	pp_cli_signals_hold();
	pp_cli_signals_reserved(NULL);
	pp_cli_signals_release();
	pp_cli_config_release(&c);
	return err;
}

/* A setting's value that takes the rest of the line, as pprof's shell
 * does: first (the end of word from - 1, after its '='), then the words
 * from on with the blanks typed between them (pprof keeps `focus=a  b`
 * whole); first and a leading blank are left out when first is empty,
 * as pprof trims the value. NULL when out of memory. */
static char *rest_of_line(const char *first, const struct pp_tokens *t,
                          size_t from)
{
	size_t len = strlen(first) + 1, used;
	char *v;

	for (size_t i = from; i < t->n; i++)
		len += strlen(t->v[i]) + (t->at[i] - t->after[i - 1]);
	if (!(v = malloc(len)))
		return NULL;
	used = strlen(first);
	memcpy(v, first, used);
	for (size_t i = from; i < t->n; i++) {
		size_t n = strlen(t->v[i]), gap = t->at[i] - t->after[i - 1];

		if (used) {
			memcpy(v + used, t->line + t->after[i - 1], gap);
			used += gap;
		}
		memcpy(v + used, t->v[i], n);
		used += n;
	}
	v[used] = '\0';
	return v;
}

/* ---- one line ------------------------------------------------------------ */

static int dispatch(struct pp_shell *sh, const struct pp_tokens *t, bool *quit)
{
	const char *name = t->v[0];
	const struct pp_command *cmd;
	const struct pp_setting *s;
	char *eq, *written = NULL;
	int count, err;

	if (t->redirect[0])
		return pp_error(sh->ctx, PP_EUSAGE, "missing command before >");
	if (strcmp(name, "quit") == 0 || strcmp(name, "exit") == 0) {
		*quit = true;
		return 0;
	}
	if (strcmp(name, "help") == 0) {
		if (t->n > 1)
			return help_one(sh, t->v[1]);
		print_help();
		return 0;
	}
	if (strcmp(name, "options") == 0 || strcmp(name, "o") == 0) {
		for (size_t i = 0; i < pp_nsettings; i++)
			if (shows_value(&pp_settings[i]))
				print_setting(sh, &pp_settings[i], true);
		return 0;
	}
	if (strcmp(name, "reset") == 0) {
		struct pp_cli_config c;

		if (pp_cli_config_copy(&c, &sh->start) < 0)
			return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
		pp_cli_config_release(&sh->cfg);
		sh->cfg = c;
		return 0;
	}
	/* name=value; also `name = value` and `name value`. */
	if ((eq = strchr(name, '=')) && eq != name) {
		char setting[128];
		size_t len = (size_t)(eq - name);
		char *value;

		if (len >= sizeof(setting))
			return pp_error(sh->ctx, PP_EUSAGE,
			                "unexpected words after %s", name);
		memcpy(setting, name, len);
		setting[len] = '\0';
		if (!(s = pp_setting_find(setting)))
			return pp_error(sh->ctx, PP_EUSAGE,
			                "unknown option \"%s\"", setting);
		/* pprof's shell takes the rest of the line, trimmed, as the
		 * value (focus=a  b, focus= main). */
		if (!(value = rest_of_line(eq + 1, t, 1)))
			return pp_error(sh->ctx, PP_ENOMEM, "out of memory");
		err = set_option(sh, s, value);
		free(value);
		return err;
	}
	if ((cmd = pp_command_find(name, &count))) {
		err = run_report(sh, cmd, count, t, 1, &written);
		free(written);
		return err;
	}
	if ((s = pp_setting_find(name))) {
		char *value;

		/* `name = value`, `name =value`: as name=value. */
		if (t->n > 1 && t->v[1][0] == '=' && !t->redirect[1]) {
			if (!(value = rest_of_line(t->v[1] + 1, t, 2)))
				return pp_error(sh->ctx, PP_ENOMEM,
				                "out of memory");
			err = set_option(sh, s, value);
			free(value);
			return err;
		}
		if (t->n > 2)
			return pp_error(sh->ctx, PP_EUSAGE,
			                "unexpected words after %s", name);
		/* `name` alone shows its value; `name value` sets it. */
		return set_option(sh, s, t->n == 2 ? t->v[1] : NULL);
	}
	return pp_error(sh->ctx, PP_EUSAGE,
	                "unrecognized command: \"%s\" (type help for the "
	                "commands)",
	                name);
}

int pp_shell_execute(struct pp_shell *sh, const char *line, bool *quit)
{
	struct pp_tokens t;
	char msg[128];
	int err;

	*quit = false;
	sh->ctx->message[0] = '\0';
	err = pp_tokenize(line, &t, msg, sizeof(msg));
	if (err < 0) {
		err = pp_error(sh->ctx, err == -1 ? PP_EUSAGE : PP_ENOMEM, "%s",
		               msg);
	} else if (t.n > 0 && t.v[0][0] != '#') {
		err = dispatch(sh, &t, quit);
	}
	pp_tokens_release(&t);
	fflush(stdout);
	if (err < 0) {
		say_error(sh, err);
		sh->failed = true;
	}
	return err;
}

static int plain_loop(struct pp_shell *sh)
{
	char *line = NULL;
	size_t cap = 0;
	bool quit = false;

	while (!quit && getline(&line, &cap, stdin) >= 0)
		pp_shell_execute(sh, line, &quit);
	free(line);
	return sh->failed ? 1 : 0;
}

int pp_shell_run(struct pp_shell *sh)
{
	struct pp_view_opts view;

	if (!isatty(STDIN_FILENO))
		return plain_loop(sh);
	/* As pprof: the profile's header, then the prompt. */
	if (pp_cli_view_opts(sh->ctx, &sh->cfg, &view) < 0 ||
	    pp_session_report(sh->session, PP_REPORT_HEADER, NULL, &view,
	                      stderr) < 0)
		say_error(sh, PP_EUSAGE);
	fprintf(stderr, "Entering interactive mode (type \"help\" for "
	                "commands, \"o\" for options)\n");
	return pp_shell__edit_loop(sh);
}

const struct pp_profile *pp_shell__profile(const struct pp_shell *sh)
{
	return pp_session_profile(sh->session);
}
