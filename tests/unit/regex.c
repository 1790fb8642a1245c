/* The regex wrapper (Go RE2 syntax through PCRE2) and pprof's source path
 * trimming, which list uses to find files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/srcfile.h"
#include "util/regex.h"

static void test_regex__search_not_anchored(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_regex *re = NULL;

	(void)state;
	assert_int_equal(pp_regex_compile(&ctx, "focus", "main\\.", &re), 0);
	assert_true(pp_regex_matchz(re, "main.mix"));
	assert_true(pp_regex_matchz(re, "x/main.go:main.f"));
	assert_false(pp_regex_matchz(re, "mainXmix"));
	assert_string_equal(pp_regex_pattern(re), "main\\.");
	pp_regex_free(re);
	assert_int_equal(pp_regex_compile(&ctx, "focus",
	                                  "^runtime\\.(mallocgc|memmove)$",
	                                  &re),
	                 0);
	assert_true(pp_regex_matchz(re, "runtime.memmove"));
	assert_false(pp_regex_matchz(re, "runtime.memmove2"));
	/* Only the first len bytes are the subject. */
	assert_true(pp_regex_match(re, "runtime.mallocgcXYZ", 16));
	pp_regex_free(re);
}

/* Capture groups: pprof's C++ rule keeps the class and method, template
 * arguments included (greedy to the last '>'); an optional group that
 * took no part gives an empty span at the end. */
static void test_regex__group(void **state)
{
	static const char cpp[] = "^(?:[_a-zA-Z]\\w*::)+(_*[A-Z]\\w*::~?"
	                          "[_a-zA-Z]\\w*(?:<.*>)?)";
	static const char name[] = "outer::Inner::method<int, less<int> >(int)";
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_regex *re = NULL;
	size_t a = 99, b = 99;

	(void)state;
	assert_int_equal(pp_regex_compile(&ctx, "t", cpp, &re), 0);
	assert_true(pp_regex_group(re, name, strlen(name), 1, &a, &b));
	assert_int_equal(a, 7);
	assert_int_equal(b, 37);
	assert_memory_equal(name + a, "Inner::method<int, less<int> >", b - a);
	/* Group 0 is the whole match. */
	assert_true(pp_regex_group(re, name, strlen(name), 0, &a, &b));
	assert_int_equal(a, 0);
	assert_int_equal(b, 37);
	/* Backtracking: the last Class::member that fits. */
	assert_true(pp_regex_group(re, "a::b::C::~C()", 13, 1, &a, &b));
	assert_int_equal(a, 6);
	assert_int_equal(b, 11);
	assert_false(
	        pp_regex_group(re, "std::vector::push_back", 22, 1, &a, &b));
	pp_regex_free(re);
	assert_int_equal(pp_regex_compile(&ctx, "t", "^a(x)?b", &re), 0);
	assert_true(pp_regex_group(re, "abc", 3, 1, &a, &b));
	assert_int_equal(a, 3);
	assert_int_equal(b, 3);
	/* A group the pattern does not have. */
	assert_true(pp_regex_group(re, "abc", 3, 5, &a, &b));
	assert_int_equal(a, 3);
	assert_int_equal(b, 3);
	pp_regex_free(re);
}

static void test_regex__utf8_and_invalid_bytes(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_regex *re = NULL;

	(void)state;
	/* "." is one character, as in RE2, not one byte. */
	assert_int_equal(pp_regex_compile(&ctx, "focus", "^a.b$", &re), 0);
	assert_true(pp_regex_matchz(re, "a\xc2\xb5"
	                                "b"));
	/* Invalid UTF-8 is read as Go's regexp reads it: each bad byte one
	 * U+FFFD, which "." matches. */
	assert_false(pp_regex_matchz(re, "a\xff\xfe"
	                                 "b"));
	assert_true(pp_regex_matchz(re, "a\xff"
	                                "b"));
	/* A sequence cut short is a rune per byte; an overlong form too. */
	assert_true(pp_regex_matchz(re, "a\xe2"
	                                "b"));
	assert_false(pp_regex_matchz(re, "a\xe2\x82"
	                                 "b"));
	pp_regex_free(re);
	assert_int_equal(pp_regex_compile(&ctx, "focus", "^c[^x]{2}d$", &re),
	                 0);
	assert_true(pp_regex_matchz(re, "c\xc0\xaf"
	                                "d"));
	pp_regex_free(re);
	/* Matching a U+FFFD in the pattern, as Go would. */
	assert_int_equal(pp_regex_compile(&ctx, "focus", "\xef\xbf\xbd$", &re),
	                 0);
	assert_true(pp_regex_matchz(re, "tail\xff"));
	pp_regex_free(re);
	/* Groups are offsets into the subject as given, not into the
	 * replaced copy: "\xff" is one byte there. */
	{
		size_t a, b;
		const char *s = "x\xffy\xc3\xa9zz";

		assert_int_equal(pp_regex_compile(&ctx, "g", "y(.z)", &re), 0);
		assert_true(pp_regex_group(re, s, strlen(s), 1, &a, &b));
		assert_int_equal(a, 3);
		assert_int_equal(b, 6);
		assert_true(pp_regex_group(re, s, strlen(s), 0, &a, &b));
		assert_int_equal(a, 2);
		assert_int_equal(b, 6);
		pp_regex_free(re);
	}
}

static void test_regex__syntax_error(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_regex *re = NULL;

	(void)state;
	assert_int_equal(
	        pp_regex_compile(&ctx, "parsing argument regexp", "main(", &re),
	        PP_EUSAGE);
	assert_null(re);
	assert_non_null(strstr(ctx.message, "parsing argument regexp main(: "));
	pp_regex_free(NULL);
}

static void test_regex__trim_path(void **state)
{
	const char *p;

	(void)state;
	/* No trim_path: cut after "/BASE/" of a search path directory. */
	p = "/build/remote/my-project/foo/bar.c";
	assert_string_equal(
	        p + pp_srcfile_trim_path(p, NULL, "/home/me/my-project"),
	        "foo/bar.c");
	assert_string_equal(
	        p + pp_srcfile_trim_path(p, "", "/a:/x/my-project/"),
	        "foo/bar.c");
	/* Configured prefixes, with or without the trailing slash. */
	assert_string_equal(p + pp_srcfile_trim_path(p, "/nope:/build/remote",
	                                             "/home/me/other"),
	                    "my-project/foo/bar.c");
	assert_string_equal(p + pp_srcfile_trim_path(p, "/build/", NULL),
	                    "remote/my-project/foo/bar.c");
	/* A prefix must end at a path element. */
	assert_int_equal(pp_srcfile_trim_path(p, "/buil", NULL), 0);
	/* Bazel's working directory always goes. */
	p = "/proc/self/cwd/./src/x.cc";
	assert_string_equal(p + pp_srcfile_trim_path(p, NULL, NULL),
	                    "src/x.cc");
	p = "/proc/self/cwd/src/x.cc";
	assert_string_equal(p + pp_srcfile_trim_path(p, NULL, NULL),
	                    "src/x.cc");
	p = "runtime/proc.go";
	assert_int_equal(pp_srcfile_trim_path(p, NULL, "/usr/lib/go"), 0);
}

static void test_regex__read_text(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_bytes b = {NULL, 0};

	(void)state;
	/* Relative names are found under a search directory's parents. */
	assert_int_equal(pp_srcfile_read(&ctx, "testdata/gen/goprog/compute.go",
	                                 "testdata/gen/goprog/x", NULL, &b),
	                 0);
	assert_non_null(b.data);
	assert_true(b.len > 100);
	pp_bytes_release(&ctx, &b);
	assert_int_equal(pp_srcfile_read(&ctx, "no/such/file.go",
	                                 "/nonexistent", NULL, &b),
	                 PP_ENOTFOUND);
	assert_string_equal(ctx.message, "could not find file no/such/file.go "
	                                 "on path /nonexistent");
	assert_int_equal(pp_srcfile_read(&ctx, "/no/such/file.go",
	                                 "/nonexistent", NULL, &b),
	                 PP_ENOTFOUND);
	assert_string_equal(ctx.message,
	                    "open /no/such/file.go: no such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_regex__search_not_anchored),
	        cmocka_unit_test(test_regex__group),
	        cmocka_unit_test(test_regex__utf8_and_invalid_bytes),
	        cmocka_unit_test(test_regex__syntax_error),
	        cmocka_unit_test(test_regex__trim_path),
	        cmocka_unit_test(test_regex__read_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
