/* Interned strings: identity, stability of returned pointers, growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/profile.h"

static void test_strtab__empty_is_zero(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strtab *t = pp_strtab_new(&ctx);

	(void)state;
	assert_non_null(t);
	assert_int_equal(pp_strtab_count(t), 1);
	assert_int_equal(pp_strtab_intern(t, "", 0), 0);
	assert_string_equal(pp_strtab_get(t, 0), "");
	pp_strtab_free(t);
}

static void test_strtab__interning(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strtab *t = pp_strtab_new(&ctx);
	pp_str a, b, c;

	(void)state;
	a = pp_strtab_intern(t, "main.main", 9);
	b = pp_strtab_intern(t, "main.mainXYZ", 9); /* same 9 bytes */
	c = pp_strtab_intern(t, "runtime.main", 12);
	assert_int_equal(a, 1);
	assert_int_equal(b, a);
	assert_int_equal(c, 2);
	assert_int_equal(pp_strtab_find(t, "runtime.main", 12), c);
	assert_int_equal(pp_strtab_find(t, "nope", 4), PP_NONE);
	assert_int_equal(pp_strtab_len(t, c), 12);
	/* Out-of-range ids read as "" rather than outside the table. */
	assert_string_equal(pp_strtab_get(t, 12345), "");
	pp_strtab_free(t);
}

static void test_strtab__growth_keeps_pointers(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strtab *t = pp_strtab_new(&ctx);
	const char *first;
	char buf[32];

	(void)state;
	pp_strtab_intern(t, "first", 5);
	first = pp_strtab_get(t, 1);
	for (int i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof(buf), "name%d", i);

		assert_int_equal(pp_strtab_intern(t, buf, (size_t)n),
		                 (pp_str)(i + 2));
	}
	assert_ptr_equal(pp_strtab_get(t, 1), first);
	assert_string_equal(first, "first");
	assert_int_equal(pp_strtab_find(t, "name99999", 9), 100001);
	assert_int_equal(pp_strtab_count(t), 100002);
	pp_strtab_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_strtab__empty_is_zero),
	        cmocka_unit_test(test_strtab__interning),
	        cmocka_unit_test(test_strtab__growth_keeps_pointers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
