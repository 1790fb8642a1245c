/* Path cleaning as Go's filepath.Clean, and Base. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/path.h"

static void test_path__clean(void **state)
{
	static const char *const cases[][2] = {
	        {"", "."},
	        {"abc", "abc"},
	        {"/", "/"},
	        {"a//b", "a/b"},
	        {"a/./b", "a/b"},
	        {"a/b/../c", "a/c"},
	        {"/../a", "/a"},
	        {"../../a", "../../a"},
	        {"a/../..", ".."},
	        {"./", "."},
	        {"/usr/lib/go/src/runtime/proc.go",
	         "/usr/lib/go/src/runtime/proc.go"},
	        {"abc/", "abc"},
	};
	char out[128];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pp_path_clean(cases[i][0], out);
		if (strcmp(out, cases[i][1]) != 0)
			fail_msg("clean(\"%s\") = \"%s\", want \"%s\"",
			         cases[i][0], out, cases[i][1]);
	}
}

static void test_path__base(void **state)
{
	(void)state;
	assert_string_equal(pp_path_base("/usr/lib/libc.so.6"), "libc.so.6");
	assert_string_equal(pp_path_base("prog"), "prog");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_path__clean),
	        cmocka_unit_test(test_path__base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
