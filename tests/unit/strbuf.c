/* The growable string (util/strbuf.h): appends, NUL bytes, printf, the
 * sticky error and every allocation failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "util/strbuf.h"

static void test_strbuf__appends(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strbuf b;
	char *s;
	size_t len;

	(void)state;
	pp_strbuf_init(&b, &ctx);
	assert_int_equal(pp_strbuf_addstr(&b, "key"), 0);
	assert_int_equal(pp_strbuf_addch(&b, ':'), 0);
	assert_int_equal(pp_strbuf_add(&b, "a\0b", 3), 0);
	assert_int_equal(pp_strbuf_addf(&b, "[%d %s]", 42, "x"), 0);
	assert_int_equal(b.len, 13);
	assert_memory_equal(b.s, "key:a\0b[42 x]", 13);
	assert_int_equal(b.s[13], '\0');
	assert_int_equal(pp_strbuf_detach(&b, &s, &len), 0);
	assert_int_equal(len, 13);
	assert_memory_equal(s, "key:a\0b[42 x]", 14);
	/* Detached: b is empty and can be used again. */
	assert_null(b.s);
	assert_int_equal(b.len, 0);
	pp_free(&ctx, s);
	pp_strbuf_release(&b);
}

static void test_strbuf__empty_and_reset(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strbuf b;
	char *s, *kept;
	size_t len = 99;

	(void)state;
	pp_strbuf_init(&b, &ctx);
	/* Nothing appended: "" (the caller's), not NULL. */
	assert_int_equal(pp_strbuf_detach(&b, &s, &len), 0);
	assert_string_equal(s, "");
	assert_int_equal(len, 0);
	pp_free(&ctx, s);
	/* An empty append still makes a string. */
	assert_int_equal(pp_strbuf_add(&b, NULL, 0), 0);
	assert_non_null(b.s);
	assert_string_equal(b.s, "");
	assert_int_equal(pp_strbuf_addstr(&b, "hello"), 0);
	kept = b.s;
	pp_strbuf_reset(&b);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.s, "");
	assert_int_equal(pp_strbuf_addstr(&b, "hi"), 0);
	/* Reset keeps the memory. */
	assert_ptr_equal(b.s, kept);
	assert_string_equal(b.s, "hi");
	pp_strbuf_release(&b);
	assert_null(b.s);
}

/* A long string grows in steps and keeps every byte. */
static void test_strbuf__long(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_strbuf b;

	(void)state;
	pp_strbuf_init(&b, &ctx);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(pp_strbuf_addf(&b, "%04d", i % 10000), 0);
	assert_int_equal(b.len, 40000);
	assert_true(b.cap >= 40001);
	assert_memory_equal(b.s, "0000000100020003", 16);
	assert_memory_equal(b.s + 39992, "99989999", 9);
	pp_strbuf_release(&b);
}

/* The n-th allocation failing: that append and every later one return
 * PP_ENOMEM, detach hands nothing over, nothing leaks. */
static void test_strbuf__alloc_failure(void **state)
{
	struct failing_alloc fa;
	long n;

	(void)state;
	for (n = 0;; n++) {
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_strbuf b;
		char *s;
		size_t len;
		int err = 0, first = -1;

		failing_alloc_install(&ctx, &fa, n);
		pp_strbuf_init(&b, &ctx);
		for (int i = 0; i < 50; i++) {
			err = i % 2 ? pp_strbuf_addf(&b, "<%d>", i)
			            : pp_strbuf_addstr(&b, "abcdefgh");
			if (err < 0 && first < 0)
				first = i;
		}
		if (!fa.failed) {
			assert_int_equal(err, 0);
			assert_int_equal(pp_strbuf_detach(&b, &s, &len), 0);
			assert_int_equal(len, 25 * 8 + 5 * 3 + 20 * 4);
			pp_free(&ctx, s);
			break;
		}
		assert_true(first >= 0);
		assert_int_equal(err, PP_ENOMEM);
		assert_int_equal(b.err, PP_ENOMEM);
		assert_int_equal(pp_strbuf_detach(&b, &s, &len), PP_ENOMEM);
		assert_null(s);
		assert_int_equal(len, 0);
		assert_null(b.s);
		assert_int_equal(b.err, 0);
	}
	/* 16, 32, 64, 128, 256 and 512 bytes: six allocations. */
	assert_int_equal(n, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_strbuf__appends),
	        cmocka_unit_test(test_strbuf__empty_and_reset),
	        cmocka_unit_test(test_strbuf__long),
	        cmocka_unit_test(test_strbuf__alloc_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
