/* The shell's tokenizer: quoting, escapes, redirections, unbalanced
 * quotes reported with the words before them kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tokenize.h"

/* Words joined with '|', redirections written as "<>". */
static void joined(const struct pp_tokens *t, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < t->n; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
		                        i ? "|" : "",
		                        t->redirect[i] ? "<>" : t->v[i]);
}

static void test_tokenize__words(void **state)
{
	static const char *const cases[][2] = {
	        {"", ""},
	        {"   \t\n", ""},
	        {"top", "top"},
	        {"  top  10 -cum\n", "top|10|-cum"},
	        {"list 'main\\.f g'", "list|main\\.f g"},
	        {"list \"a \\\"b\\\" \\\\ \\n\"", "list|a \"b\" \\ \\n"},
	        {"peek a\\ b", "peek|a b"},
	        /* Other backslashes stay: pprof's regexes pass whole. */
	        {"peek main\\.\\(\\*T\\)\\.f", "peek|main\\.\\(\\*T\\)\\.f"},
	        {"focus=a\\\\b \\'x\\\" \\>", "focus=a\\\\b|'x\"|>"},
	        {"top>x", "top|<>|x"},
	        {"list std::vector<int>::at x>y >z",
	         "list|std::vector<int>::at|x>y|<>|z"},
	        {"focus=Outer<int>::f", "focus=Outer<int>::f"},
	        {"top > 'x y'", "top|<>|x y"},
	        {"top '>' x", "top|>|x"},
	        {"focus=''", "focus="},
	        {"a\"b\"'c'd", "abcd"},
	};
	char err[64], out[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_tokens t;

		assert_int_equal(pp_tokenize(cases[i][0], &t, err, sizeof(err)),
		                 0);
		joined(&t, out, sizeof(out));
		if (strcmp(out, cases[i][1]) != 0)
			fail_msg("tokenize(%s) = %s, want %s", cases[i][0], out,
			         cases[i][1]);
		pp_tokens_release(&t);
	}
}

static void test_tokenize__unbalanced(void **state)
{
	struct pp_tokens t;
	char err[64], out[256];

	(void)state;
	assert_int_equal(pp_tokenize("list main 'f", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "unbalanced single quote");
	joined(&t, out, sizeof(out));
	assert_string_equal(out, "list|main");
	pp_tokens_release(&t);
	assert_int_equal(pp_tokenize("\"", &t, err, sizeof(err)), -1);
	assert_string_equal(err, "unbalanced double quote");
	assert_int_equal(t.n, 0);
	pp_tokens_release(&t);
}

/* Where each word was typed, quotes included, so that a value taking the
 * rest of the line keeps the blanks between its words. */
static void test_tokenize__positions(void **state)
{
	static const char line[] = "  focus='a b'\t >x  \"c\"";
	static const size_t at[] = {2, 15, 16, 19}, after[] = {13, 16, 17, 22};
	struct pp_tokens t;
	char err[64];

	(void)state;
	assert_int_equal(pp_tokenize(line, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n, 4);
	assert_ptr_equal(t.line, line);
	for (size_t i = 0; i < t.n; i++) {
		assert_int_equal(t.at[i], at[i]);
		assert_int_equal(t.after[i], after[i]);
	}
	assert_string_equal(t.v[0], "focus=a b");
	assert_true(t.redirect[1]);
	assert_string_equal(t.v[3], "c");
	pp_tokens_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_tokenize__words),
	        cmocka_unit_test(test_tokenize__unbalanced),
	        cmocka_unit_test(test_tokenize__positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
