/* Units and percentages, against values go tool pprof prints. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/format.h"

static void check_label(int64_t v, const char *from, const char *to,
                        const char *want)
{
	char buf[64];

	pp_scaled_label(v, from, to, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("%lld %s -> %s: got \"%s\", want \"%s\"", (long long)v,
		         from, to, buf, want);
}

static void test_format__time(void **state)
{
	(void)state;
	check_label(1480000000, "nanoseconds", "s", "1.48s");
	check_label(10000000, "nanoseconds", "s", "0.01s");
	check_label(1610000000, "nanoseconds", "auto", "1.61s");
	check_label(1500, "nanoseconds", "auto", "1.50us");
	check_label(2000000, "nanoseconds", "ms", "2ms");
	check_label(7200000000000ll, "nanoseconds", "auto", "2hrs");
	check_label(0, "nanoseconds", "s", "0");
	check_label(-30000000, "nanoseconds", "ms", "-30ms");
	/* Unknown target units fall back to the type's default (s). */
	check_label(3000000000ll, "nanoseconds", "furlongs", "3s");
}

static void test_format__bytes(void **state)
{
	(void)state;
	check_label(6404618, "bytes", "kB", "6254.51kB");
	check_label(524288, "bytes", "auto", "512kB");
	check_label(1536, "bytes", "minimum", "1.50kB");
	check_label(3, "bytes", "auto", "3B");
	check_label(1073741824, "bytes", "MB", "1024MB");
}

static void test_format__counts(void **state)
{
	(void)state;
	check_label(42, "count", "minimum", "42");
	check_label(42, "count", "count", "42");
	/* A unit nobody knows is printed after the number, as pprof does. */
	check_label(5, "widgets", "minimum", "5");
	check_label(5, "widgets", "widgets", "5widgets");
}

/* A profile's unit may hold NUL bytes: it is compared whole ("ns\0x" is
 * no "ns", so nothing is scaled) and printed whole after the value, as
 * pprof prints an unknown unit. */
static void test_format__units_with_nul(void **state)
{
	static const char unit[] = "ns\0x";
	char buf[64];
	size_t n;

	(void)state;
	n = pp_scaled_label_n(1500, unit, 4, unit, 4, buf, sizeof(buf));
	assert_int_equal(n, 8);
	assert_memory_equal(buf, "1500ns\0x", 9);
	n = pp_scaled_label_n(1500, unit, 4, "minimum", 7, buf, sizeof(buf));
	assert_int_equal(n, 4);
	assert_string_equal(buf, "1500");
	/* Cut to fit, still NUL-terminated. */
	n = pp_scaled_label_n(1500, unit, 4, unit, 4, buf, 7);
	assert_int_equal(n, 6);
	assert_memory_equal(buf, "1500ns", 7);
	/* The first two bytes alone are a unit. */
	n = pp_scaled_label_n(1500, unit, 2, "auto", 4, buf, sizeof(buf));
	assert_string_equal(buf, "1.50us");
	assert_int_equal(n, 6);
}

/* A label in two parts: the number, and the unit borrowed whole at any
 * length (a known unit's static name, "" for none or a zero). */
static void test_format__label_parts(void **state)
{
	char big[300], num[PP_LABEL_NUM_MAX];
	const char *u;
	size_t n, ul;

	(void)state;
	memset(big, 'x', sizeof(big));
	big[3] = '\0';
	n = pp_scaled_label_parts(1500, big, sizeof(big), big, sizeof(big), num,
	                          sizeof(num), &u, &ul);
	assert_int_equal(n, 4);
	assert_string_equal(num, "1500");
	assert_ptr_equal(u, big);
	assert_int_equal(ul, sizeof(big));
	n = pp_scaled_label_parts(1536, "bytes", 5, "auto", 4, num, sizeof(num),
	                          &u, &ul);
	assert_string_equal(num, "1.50");
	assert_int_equal(n, 4);
	assert_memory_equal(u, "kB", 3);
	assert_int_equal(ul, 2);
	n = pp_scaled_label_parts(0, big, sizeof(big), big, sizeof(big), num,
	                          sizeof(num), &u, &ul);
	assert_string_equal(num, "0");
	assert_int_equal(n, 1);
	assert_int_equal(ul, 0);
	/* The widest number fits: INT64_MIN P*GCU in n*GCU (1e24 times). */
	n = pp_scaled_label_parts(INT64_MIN, "petagcu", 7, "nanogcu", 7, num,
	                          sizeof(num), &u, &ul);
	/* A sign and 43 digits; the ".00" is dropped. */
	assert_int_equal(n, 44);
	assert_int_equal(strlen(num), 44);
	assert_memory_equal(num, "-9223372036854775", 17);
	assert_string_equal(u, "n*GCU");
}

static void check_pct(int64_t v, int64_t total, const char *want)
{
	char buf[32];

	pp_percentage(v, total, buf, sizeof(buf));
	if (strcmp(buf, want) != 0)
		fail_msg("%lld/%lld: got \"%s\", want \"%s\"", (long long)v,
		         (long long)total, buf, want);
}

static void test_format__percentage(void **state)
{
	(void)state;
	check_pct(148, 148, "  100%");
	check_pct(143, 148, "96.62%");
	check_pct(1, 148, " 0.68%");
	check_pct(1, 10000, " 0.01%");
	check_pct(1, 1000000, "0.0001%");
	check_pct(0, 148, "    0%");
	check_pct(5, 0, "    0%");
	check_pct(-143, 148, "96.62%");
}

static void test_format__units_known(void **state)
{
	(void)state;
	assert_true(pp_unit_known("ms"));
	assert_true(pp_unit_known("MB"));
	assert_true(pp_unit_known("minimum"));
	assert_true(pp_unit_known("seconds"));
	assert_false(pp_unit_known("parsecs"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_format__time),
	        cmocka_unit_test(test_format__bytes),
	        cmocka_unit_test(test_format__counts),
	        cmocka_unit_test(test_format__units_with_nul),
	        cmocka_unit_test(test_format__label_parts),
	        cmocka_unit_test(test_format__percentage),
	        cmocka_unit_test(test_format__units_known),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
