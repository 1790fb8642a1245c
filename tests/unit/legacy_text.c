/* The legacy text readers (src/profile/legacy_text.c): exact values for
 * shapes the goldens cannot hold (pprof rejects them or they are edge
 * cases of its regular expressions), and the errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/decode.h"

static struct pp_profile *decode(struct pp_ctx *ctx, const char *text)
{
	struct pp_profile *p = NULL;

	if (pp_decode(ctx, "t.txt", (const uint8_t *)text, strlen(text), &p))
		fail_msg("decode: %s", ctx->message);
	return p;
}

static void expect_error(const char *text, const char *message)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	assert_int_equal(pp_decode(&ctx, "t.txt", (const uint8_t *)text,
	                           strlen(text), &p),
	                 PP_EFORMAT);
	assert_null(p);
	assert_string_equal(ctx.message, message);
}

static const char *type_name(const struct pp_profile *p, uint32_t i)
{
	return pp_profile_str(p, p->sample_types[i].type);
}

/* Go writes "N @" for threads made before profiling began; pprof refuses
 * the whole profile, we keep them as samples with no stack. */
static void test_legacy_text__threadcreate_empty_stacks(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;

	(void)state;
	p = decode(&ctx, "threadcreate profile: total 7\n"
	                 "6 @\n"
	                 "#\t0x0\n"
	                 "\n"
	                 "1 @ 0x43d455 0x43dc5b\n"
	                 "#\t0x43d454\truntime.allocm+0xd4\n");
	assert_int_equal(p->nsample_types, 1);
	assert_string_equal(type_name(p, 0), "threadcreate");
	assert_string_equal(pp_profile_str(p, p->period_type.type),
	                    "threadcreate");
	assert_int_equal(p->period, 1);
	assert_int_equal(p->nsamples, 2);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 6);
	assert_int_equal(p->samples[0].loc_count, 0);
	assert_int_equal(pp_profile_sample_values(p, 1)[0], 1);
	/* every frame, the leaf too, moved back onto its call */
	assert_int_equal(p->nlocations, 2);
	assert_int_equal(p->locations[0].address, 0x43d454);
	assert_int_equal(p->locations[1].address, 0x43dc5a);
	/* no memory map: pprof's fake mapping covering everything */
	assert_int_equal(p->nmappings, 1);
	assert_int_equal(p->mappings[0].limit, UINT64_MAX);
	pp_profile_free(p);
}

/* pprof's `(\d+) *(\d+) @` splits "123 @" into 12 and 3, and its
 * ParseInt(s, 0, 64) reads a leading 0 as octal. */
static void test_legacy_text__regexp_corners(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;

	(void)state;
	p = decode(&ctx, "--- contention:\n123 @ 0x10\n");
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 3);
	assert_int_equal(pp_profile_sample_values(p, 0)[1], 12);
	pp_profile_free(p);
	p = decode(&ctx, "goroutine profile: total 8\n010 @ 0x10\n");
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 8);
	pp_profile_free(p);
}

/* Delays in cycles become nanoseconds (cycles/second), and both values
 * are multiplied by the sampling period. */
static void test_legacy_text__contention_unsampling(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;

	(void)state;
	p = decode(&ctx, "--- contentionz 1 ---\n"
	                 "cycles/second = 2000000000\n"
	                 "sampling period = 100\n"
	                 "ms since reset = 60000\n"
	                 "  4000000 20 @ 0x1000 0x2000\n"
	                 "--- Memory map: ---\n"
	                 "00001000-00003000 r-xp 00000000 08:01 1 /bin/srv\n");
	assert_string_equal(type_name(p, 0), "contentions");
	assert_string_equal(type_name(p, 1), "delay");
	assert_int_equal(p->period, 100);
	assert_int_equal(p->duration_nanos, 60000000000LL);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 2000);
	assert_int_equal(pp_profile_sample_values(p, 0)[1], 200000000);
	assert_int_equal(p->locations[0].address, 0xfff);
	assert_int_equal(p->locations[1].address, 0x1fff);
	assert_string_equal(pp_profile_str(p, p->mappings[0].file), "/bin/srv");
	pp_profile_free(p);
}

/* "same as previous thread" counts the thread in the sample before. */
static void test_legacy_text__threadz_same_as_previous(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;

	(void)state;
	p = decode(&ctx, "--- threadz 1 ---\n"
	                 "--- Thread 1 (name: a/1) stack: ---\n"
	                 "  0x5000 0x6001\n"
	                 "--- Thread 2 (name: b/2) stack: ---\n"
	                 "  same as previous thread\n"
	                 "---- no stack trace for thread 3\n");
	assert_int_equal(p->nsamples, 1);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 2);
	assert_int_equal(p->locations[0].address, 0x5000);
	assert_int_equal(p->locations[1].address, 0x6000);
	pp_profile_free(p);
}

/* Java's frames: "func (file:line)", a library path's base name, JIT
 * stubs, bare names; every address 0 in the end, no mapping until the
 * driver's placeholder. */
static void test_legacy_text__java_frames(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;
	const struct pp_function *f;

	(void)state;
	p = decode(&ctx, "--- contentionz 1 ---\n"
	                 "format = java\n"
	                 "resolution = microseconds\n"
	                 "sampling period = 10\n"
	                 " 100 3 @ 0x1 0x2 0x3 0x4\n"
	                 "0x1 a.B.c (B.java:12:34)\n"
	                 "0x2 native (/usr/lib/libz.so)\n"
	                 "0x3 generated stub/JIT\n");
	assert_string_equal(pp_profile_str(p, p->sample_types[1].unit),
	                    "microseconds");
	assert_true(p->has_period_type);
	assert_int_equal(p->period, 10);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 30);
	assert_int_equal(pp_profile_sample_values(p, 0)[1], 1000);
	assert_int_equal(p->nfunctions, 3);
	f = &p->functions[0];
	assert_string_equal(pp_profile_str(p, f->name), "a.B.c");
	assert_string_equal(pp_profile_str(p, f->filename), "B.java:12");
	assert_int_equal(p->lines[p->locations[0].line_first].line, 34);
	assert_string_equal(pp_profile_str(p, p->functions[1].filename),
	                    "libz.so");
	assert_string_equal(pp_profile_str(p, p->functions[2].name), "STUB");
	/* 0x4 is named by no line: pprof's fake mapping holds it */
	assert_int_equal(p->locations[3].line_count, 0);
	assert_int_equal(p->nmappings, 1);
	assert_int_equal(p->locations[3].mapping, 0);
	assert_int_equal(p->locations[0].mapping, PP_NONE);
	for (uint32_t l = 0; l < p->nlocations; l++)
		assert_int_equal(p->locations[l].address, 0);
	pp_profile_free(p);
}

/* pprof's locateBinaries: a placeholder mapping for a profile with
 * none, and the binary's name for the first mapping. */
static void test_legacy_text__locate(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p;

	(void)state;
	p = decode(&ctx, "--- heapz 1 ---\nformat = java\nresolution = bytes\n"
	                 " 64 2 @ 0x1\n0x1 f (F.java:1)\n");
	assert_int_equal(p->nmappings, 0);
	assert_int_equal(pp_profile_locate(p, NULL), 0);
	assert_int_equal(p->nmappings, 1);
	assert_int_equal(p->mappings[0].id, 1);
	assert_int_equal(p->mappings[0].limit, 0);
	assert_int_equal(p->locations[0].mapping, 0);
	assert_int_equal(pp_profile_locate(p, "/srv/app"), 0);
	assert_int_equal(p->nmappings, 1);
	assert_string_equal(pp_profile_str(p, p->mappings[0].file), "/srv/app");
	pp_profile_free(p);
}

static void test_legacy_text__errors(void **state)
{
	(void)state;
	expect_error("goroutine profile: total 1\n1 @ 0x10000000000000000\n",
	             "t.txt:2: malformed count profile sample");
	expect_error("goroutine profile: total 1\nx @ 0x10\n",
	             "t.txt:2: malformed count profile sample");
	/* text no reader takes is never a protobuf error */
	expect_error("hello\n", "t.txt: unrecognized profile format");
	expect_error("--- contentionz 1 ---\nformat = cpp\n",
	             "t.txt: unrecognized profile format");
	expect_error("--- heapz 1 ---\nformat = java\n 1 2 @ 0x1\n",
	             "t.txt: malformed profile: missing sample type "
	             "information");
	expect_error("--- heapz 1 ---\nformat = java\nresolution = bytes\n"
	             " 5 0 @ 0x1\n",
	             "t.txt:4: a Java heap sample's count must be non-zero");
	expect_error("--- threadz 1 ---\n--- Thread 1 (name: a/1) stack: ---\n"
	             "0x10\n",
	             "t.txt: unrecognized profile format");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_legacy_text__threadcreate_empty_stacks),
	        cmocka_unit_test(test_legacy_text__regexp_corners),
	        cmocka_unit_test(test_legacy_text__contention_unsampling),
	        cmocka_unit_test(test_legacy_text__threadz_same_as_previous),
	        cmocka_unit_test(test_legacy_text__java_frames),
	        cmocka_unit_test(test_legacy_text__locate),
	        cmocka_unit_test(test_legacy_text__errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
