/*
 * The shell's tokenizer: a line into words, as a POSIX shell would split a
 * simple command, without expansions.
 *
 *   blanks separate words;  'single quotes' keep everything literally;
 *   "double quotes" keep everything but \" and \\;  a backslash outside
 *   quotes takes a blank, a quote or '>' after it literally;  an unquoted
 *   '>' that starts a word, or follows the command word, is a word of its
 *   own (an output redirection: `top>x`, `top > x`, `top >x`); inside a
 *   later word, or after the '=' of a first word name=value, it is part
 *   of it, as in pprof's shell (`list std::vector<int>::at`,
 *   `focus=Outer<int>::f`).
 *
 * Any other backslash stays, with the character after it: pprof's shell
 * passes words on as typed, so its regexes (`peek main\.\(\*T\)\.f`,
 * `focus=a\.b`, `a\\b`) reach the command whole, as they do there.
 */
#ifndef PP_CLI_TOKENIZE_H
#define PP_CLI_TOKENIZE_H

#include <stdbool.h>
#include <stddef.h>

struct pp_tokens {
	char **v;       /* the words, each NUL-terminated */
	bool *redirect; /* redirect[i]: v[i] is an unquoted ">" */
	size_t n;
	char *buf; /* storage of the words */
	/* Where word i was in the line: bytes [at[i], after[i]), quotes
	 * and backslashes included. The blanks between two words are
	 * line[after[i - 1], at[i]), for a value that takes the rest of
	 * the line as typed (focus=a  b). line is the caller's. */
	const char *line;
	size_t *at, *after;
};

/*
 * Split line into *t (release with pp_tokens_release, also after an
 * error). An unbalanced quote writes "unbalanced quote" style message to
 * err and returns -1; t then holds the words read before it. -2 on
 * allocation failure.
 */
int pp_tokenize(const char *line, struct pp_tokens *t, char *err,
                size_t errsize);
void pp_tokens_release(struct pp_tokens *t);

#endif
