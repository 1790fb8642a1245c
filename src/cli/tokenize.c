#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenize.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int pp_tokenize(const char *line, struct pp_tokens *t, char *err,
                size_t errsize)
{
	size_t len = strlen(line), w = 0;
	const char *p = line;

	memset(t, 0, sizeof(*t));
	/* No word is longer than the line, and there are at most len + 1
	 * words (every '>' may be one): size everything once. */
	t->buf = malloc(2 * len + 2);
	t->v = calloc(len + 1, sizeof(*t->v));
	t->redirect = calloc(len + 1, sizeof(*t->redirect));
	t->at = calloc(len + 1, sizeof(*t->at));
	t->after = calloc(len + 1, sizeof(*t->after));
	t->line = line;
	if (!t->buf || !t->v || !t->redirect || !t->at || !t->after) {
		snprintf(err, errsize, "out of memory");
		return -2;
	}
	for (;;) {
		char quote = 0;
		bool has_eq = false; /* the word holds an '=' (name=value) */

		while (is_blank(*p))
			p++;
		if (!*p)
			return 0;
		t->at[t->n] = (size_t)(p - line);
		if (*p == '>') {
			t->after[t->n] = t->at[t->n] + 1;
			t->redirect[t->n] = true;
			t->v[t->n++] = t->buf + w;
			t->buf[w++] = '>';
			t->buf[w++] = '\0';
			p++;
			continue;
		}
		t->v[t->n] = t->buf + w;
		for (; *p; p++) {
			if (quote == '\'') {
				if (*p == '\'')
					quote = 0;
				else
					t->buf[w++] = *p;
				continue;
			}
			if (quote == '"') {
				if (*p == '"')
					quote = 0;
				else if (*p == '\\' &&
				         (p[1] == '"' || p[1] == '\\'))
					t->buf[w++] = *++p;
				else
					t->buf[w++] = *p;
				continue;
			}
			/* Past the command word, or after the '=' of a
			 * name=value, a '>' inside a word is part of it: C++
			 * and Java names hold them (std::vector<int>::at,
			 * Outer$Inner.<init>). */
			if (is_blank(*p) || (*p == '>' && t->n == 0 && !has_eq))
				break;
			has_eq = has_eq || *p == '=';
			if (*p == '\'' || *p == '"') {
				quote = *p;
			} else if (*p == '\\' &&
			           (is_blank(p[1]) || p[1] == '\'' ||
			            p[1] == '"' || p[1] == '>')) {
				t->buf[w++] = *++p;
			} else {
				t->buf[w++] = *p;
			}
		}
		t->buf[w++] = '\0';
		t->after[t->n++] = (size_t)(p - line);
		if (quote) {
			snprintf(err, errsize, "unbalanced %s quote",
			         quote == '\'' ? "single" : "double");
			/* The unfinished word is not a word. */
			t->n--;
			return -1;
		}
	}
}

void pp_tokens_release(struct pp_tokens *t)
{
	free(t->buf);
	free(t->v);
	free(t->redirect);
	free(t->at);
	free(t->after);
	memset(t, 0, sizeof(*t));
}
