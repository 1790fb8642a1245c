/* The shell on a terminal: libedit for the prompt, line editing, tab
 * completion and history kept in a file across sessions. */
#include <errno.h>
#include <histedit.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "output.h"
#include "pprof/outfile.h"
#include "shell.h"

static char *prompt(EditLine *el)
{
	(void)el;
	return (char *)"(pprof) ";
}

/* The candidates of one completion, sorted and without repeats. */
struct matches {
	char **v;
	size_t n, cap;
	bool failed;
};

static void add_match(void *data, const char *word)
{
	struct matches *m = data;

	if (m->failed)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		char **v = realloc(m->v, cap * sizeof(*v));

		if (!v) {
			m->failed = true;
			return;
		}
		m->v = v;
		m->cap = cap;
	}
	if (!(m->v[m->n] = strdup(word))) {
		m->failed = true;
		return;
	}
	m->n++;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void show_matches(EditLine *el, const struct matches *m)
{
	FILE *out = NULL;
	size_t width = 0, cols, shown = m->n > 200 ? 200 : m->n;

	el_get(el, EL_GETFP, 1, &out);
	if (!out)
		out = stdout;
	for (size_t i = 0; i < shown; i++)
		if (strlen(m->v[i]) > width)
			width = strlen(m->v[i]);
	cols = 78 / (width + 2);
	if (cols == 0)
		cols = 1;
	fputc('\n', out);
	for (size_t i = 0; i < shown; i++)
		fprintf(out, "%-*s%s", (int)width + 2, m->v[i],
		        (i + 1) % cols == 0 || i + 1 == shown ? "\n" : "");
	if (shown < m->n)
		fprintf(out, "... and %zu more\n", m->n - shown);
}

/* Tab: complete the word under the cursor to the longest common prefix of
 * its candidates; when that adds nothing, list them. */
static unsigned char complete(EditLine *el, int ch)
{
	const struct pp_shell *sh = NULL;
	const LineInfo *li = el_line(el);
	struct matches m = {0};
	size_t start, end, typed, common, w;
	unsigned char rc = CC_ERROR;
	char *line;

	(void)ch;
	el_get(el, EL_CLIENTDATA, &sh);
	end = (size_t)(li->cursor - li->buffer);
	if (!sh || !(line = malloc(end + 1)))
		return CC_ERROR;
	memcpy(line, li->buffer, end);
	line[end] = '\0';
	for (start = end; start > 0 && line[start - 1] != ' ' &&
	                  line[start - 1] != '\t' && line[start - 1] != '>';
	     start--)
		;
	pp_shell_complete(sh, line, start, end, add_match, &m);
	if (m.failed || m.n == 0)
		goto done;
	qsort(m.v, m.n, sizeof(*m.v), cmp_str);
	for (size_t i = w = 1; i < m.n; i++)
		if (strcmp(m.v[i], m.v[w - 1]) != 0)
			m.v[w++] = m.v[i];
		else
			free(m.v[i]);
	m.n = w;
	typed = end - start;
	common = strlen(m.v[0]);
	for (size_t i = 1; i < m.n; i++) {
		size_t j = 0;

		while (j < common && m.v[i][j] == m.v[0][j])
			j++;
		common = j;
	}
	if (common < typed || strncmp(m.v[0], line + start, typed) != 0) {
		/* Matched by a dot-separated suffix ("LoggingM" for
		 * main.LoggingMiddleware): the word becomes the candidates'
		 * common start when that still holds what was typed;
		 * otherwise they are listed. */
		char *full = strndup(m.v[0], common);
		char *was = strndup(line + start, typed);
		size_t same = 0;

		/* Past what both share (an option's "name="), the rest of
		 * what was typed must be in the rest of the candidate. */
		while (full && was && full[same] && full[same] == was[same])
			same++;
		if (full && was && common > 0 &&
		    strstr(full + same, was + same)) {
			el_deletestr(el, (int)typed);
			if (el_insertstr(el, full) == 0)
				rc = CC_REFRESH;
			if (m.n == 1 && rc == CC_REFRESH)
				el_insertstr(el, " ");
		} else {
			show_matches(el, &m);
			rc = CC_REDISPLAY;
		}
		free(full);
		free(was);
	} else if (common > typed) {
		char *add = strndup(m.v[0] + typed, common - typed);

		if (add && el_insertstr(el, add) == 0)
			rc = CC_REFRESH;
		free(add);
		/* One candidate, complete: end the word, unless it waits
		 * for a value after '='. */
		if (m.n == 1 && rc == CC_REFRESH && m.v[0][common - 1] != '=')
			el_insertstr(el, " ");
	} else if (m.n == 1) {
		if (m.v[0][common - 1] != '=' && el_insertstr(el, " ") == 0)
			rc = CC_REFRESH;
	} else {
		show_matches(el, &m);
		rc = CC_REDISPLAY;
	}
done:
	for (size_t i = 0; i < m.n; i++)
		free(m.v[i]);
	free(m.v);
	free(line);
	return rc;
}

/* $PPROF_C_HISTORY, else ~/.pprof-c_history; NULL if neither is known. */
static char *history_path(void)
{
	const char *env = getenv("PPROF_C_HISTORY"), *home = getenv("HOME");
	char *path;
	size_t n;

	if (env && *env)
		return strdup(env);
	if (!home || !*home)
		return NULL;
	n = strlen(home) + sizeof("/.pprof-c_history");
	if ((path = malloc(n)))
		snprintf(path, n, "%s/.pprof-c_history", home);
	return path;
}

/* Write the history whole and atomically: a second session saving at the
 * same time leaves one complete file, never a mix. */
static void save_history(History *h, const char *path)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_atomic_file af = {0};
	HistEvent ev;

	if (pp_atomic_open(&ctx, path, &af) < 0) {
		fprintf(stderr, "history not saved: %s\n", ctx.message);
		return;
	}
	if (history(h, &ev, H_SAVE_FP, af.fp) < 0) {
		pp_atomic_abort(&ctx, &af);
		fprintf(stderr, "history not saved: %s\n", path);
		return;
	}
	if (pp_atomic_commit(&ctx, &af) < 0)
		fprintf(stderr, "history not saved: %s\n", ctx.message);
}

int pp_shell__edit_loop(struct pp_shell *sh)
{
	EditLine *el = el_init("pprof-c", stdin, stdout, stderr);
	History *h = history_init();
	char *hpath = history_path();
	HistEvent ev;
	bool quit = false;

	if (!el || !h) {
		fprintf(stderr, "cannot start line editing\n");
		if (el)
			el_end(el);
		if (h)
			history_end(h);
		free(hpath);
		return 1;
	}
	history(h, &ev, H_SETSIZE, 1000);
	history(h, &ev, H_SETUNIQUE, 1);
	if (hpath)
		history(h, &ev, H_LOAD, hpath); /* none yet is fine */
	el_set(el, EL_EDITOR, "emacs");
	el_set(el, EL_HIST, history, h);
	el_set(el, EL_PROMPT, prompt);
	el_set(el, EL_CLIENTDATA, sh);
	/* The wide form: libedit's narrow EL_ADDFN copies the two strings
	 * and never frees them. */
	el_wset(el, EL_ADDFN, L"pp-complete", L"complete a word", complete);
	el_set(el, EL_BIND, "^I", "pp-complete", NULL);
	el_source(el, NULL); /* the user's ~/.editrc, if any */
	/* Ctrl-C stops the running report, or clears the line being
	 * typed, as bash does; only Ctrl-D or quit leave. */
	pp_cli_signals_catch_interrupt(true);
	while (!quit) {
		int count = 0;
		const char *line;

		errno = 0;
		pp_cli_signals_catch_interrupt(true); /* a new Ctrl-C only */
		line = el_gets(el, &count);
		if (pp_cli_signals_interrupted() ||
		    (count < 0 && errno == EINTR)) {
			el_reset(el); /* the line typed so far is dropped */
			fputs("^C\n", stdout);
			continue;
		}
		if (!line || count <= 0) {
			fputc('\n', stdout); /* Ctrl-D: end the prompt line */
			break;
		}
		if (line[strspn(line, " \t\r\n")] != '\0') {
			history(h, &ev, H_ENTER, line);
			if (hpath)
				save_history(h, hpath);
		}
		pp_cli_signals_catch_interrupt(true);
		pp_cli_signals_restart(true);
		pp_shell_execute(sh, line, &quit);
		pp_cli_signals_restart(false);
	}
	pp_cli_signals_catch_interrupt(false);
	history_end(h);
	el_end(el);
	free(hpath);
	return 0;
}
