/* The profile.proto reader: a good profile, every rejected shape, gzip
 * errors, the size cap, and allocation failure at every step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include <cmocka.h>

#include "helpers.h"
#include "pbuild.h"
#include "pprof/decode.h"
#include "pprof/session.h"

static void test_decode__small_profile(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	struct pb b;

	(void)state;
	pb_small_profile(&b);
	assert_int_equal(pp_decode(&ctx, "t", b.buf, b.len, &p), 0);
	assert_non_null(p);
	assert_int_equal(p->nsample_types, 2);
	assert_string_equal(pp_profile_str(p, p->sample_types[1].type), "cpu");
	assert_int_equal(p->nsamples, 2);
	assert_int_equal(p->samples[0].loc_count, 2);
	assert_int_equal(p->nlocations, 2);
	assert_int_equal(p->nfunctions, 2);
	assert_int_equal(p->nmappings, 1);
	/* location 1 has the inline chain work (innermost) then main */
	assert_int_equal(p->locations[0].line_count, 2);
	assert_string_equal(
	        pp_profile_str(p, p->functions[p->lines[0].function].name),
	        "work");
	assert_int_equal(pp_profile_sample_values(p, 0)[1], 30000000);
	assert_int_equal(p->time_nanos, 1700000000000000000ll);
	assert_int_equal(p->period, 10000000);
	assert_int_equal(pp_profile_default_index(p), 1);
	pp_profile_free(p);
}

static void expect_format_error(const struct pb *b, const char *needle)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	int err = pp_decode(&ctx, "bad.pb", b->buf, b->len, &p);

	assert_int_equal(err, PP_EFORMAT);
	assert_null(p);
	if (!strstr(ctx.message, needle))
		fail_msg("message \"%s\" lacks \"%s\"", ctx.message, needle);
	assert_non_null(strstr(ctx.message, "bad.pb"));
}

static void test_decode__dangling_location(void **state)
{
	struct pb b;
	static const uint64_t locs[] = {7};
	static const int64_t v[] = {1, 1};

	(void)state;
	pb_small_profile(&b);
	pb_sample(&b, locs, 1, v, 2);
	expect_format_error(&b, "unknown location 7");
}

static void test_decode__dangling_function(void **state)
{
	struct pb b;
	static const uint64_t f[] = {9};

	(void)state;
	pb_small_profile(&b);
	pb_location(&b, 3, 1, f, 1);
	expect_format_error(&b, "unknown function 9");
}

static void test_decode__dangling_mapping(void **state)
{
	struct pb b;
	static const uint64_t f[] = {1};

	(void)state;
	pb_small_profile(&b);
	pb_location(&b, 3, 5, f, 1);
	expect_format_error(&b, "unknown mapping 5");
}

static void test_decode__bad_string_index(void **state)
{
	struct pb b;

	(void)state;
	pb_small_profile(&b);
	pb_function(&b, 3, 99, 7);
	expect_format_error(&b, "string index 99 out of range");
}

static void test_decode__wrong_value_count(void **state)
{
	struct pb b;
	static const uint64_t locs[] = {1};
	static const int64_t v[] = {1, 2, 3};

	(void)state;
	pb_small_profile(&b);
	pb_sample(&b, locs, 1, v, 3);
	expect_format_error(&b, "sample has 3 values, but there are 2");
}

static void test_decode__duplicate_id(void **state)
{
	struct pb b;

	(void)state;
	pb_small_profile(&b);
	pb_function(&b, 2, 6, 7);
	expect_format_error(&b, "duplicate function id 2");
}

static void test_decode__truncated(void **state)
{
	struct pb b;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	pb_small_profile(&b);
	/* Every proper prefix that ends inside a field is rejected cleanly;
	 * prefixes that end between fields may decode, and must then be
	 * well-formed. */
	for (size_t n = 1; n < b.len; n++) {
		int err = pp_decode(&ctx, "t", b.buf, n, &p);

		if (err == 0) {
			assert_non_null(p);
			pp_profile_free(p);
			p = NULL;
		} else {
			assert_int_equal(err, PP_EFORMAT);
			assert_null(p);
		}
	}
}

static void test_decode__random_bytes(void **state)
{
	static const uint8_t junk[] = "this is not a profile at all\xff\xff";
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(pp_decode(&ctx, "junk", junk, sizeof(junk) - 1, &p),
	                 PP_EFORMAT);
	assert_string_equal(ctx.message, "junk: unrecognized profile format");
}

static void test_decode__empty(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(
	        pp_session_decode(&ctx, "e", (const uint8_t *)"", 0, &p),
	        PP_EFORMAT);
	assert_string_equal(ctx.message, "e: empty input file");
}

static size_t gzip_bytes(const uint8_t *in, size_t len, uint8_t *out,
                         size_t cap)
{
	z_stream z;

	memset(&z, 0, sizeof(z));
	assert_int_equal(deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 8,
	                              Z_DEFAULT_STRATEGY),
	                 Z_OK);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	deflateEnd(&z);
	return z.total_out;
}

static void test_decode__gzip_and_truncated_gzip(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	struct pb b;
	uint8_t gz[16384];
	size_t n;

	(void)state;
	pb_small_profile(&b);
	n = gzip_bytes(b.buf, b.len, gz, sizeof(gz));
	assert_int_equal(pp_session_decode(&ctx, "g", gz, n, &p), 0);
	assert_int_equal(p->nsamples, 2);
	pp_profile_free(p);
	p = NULL;
	/* Cut the stream anywhere: a clean "truncated" or "corrupt" error. */
	for (size_t cut = 2; cut < n; cut++) {
		int err = pp_session_decode(&ctx, "g", gz, cut, &p);

		assert_int_equal(err, PP_EFORMAT);
		assert_null(p);
		if (!strstr(ctx.message, "truncated gzip stream") &&
		    !strstr(ctx.message, "corrupt gzip data"))
			fail_msg("cut at %zu: %s", cut, ctx.message);
	}
}

static void test_decode__size_cap(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	/* Spaces, not zeros: text may be a profile, so only the cap stops
	 * it (zeros are refused by their first kilobytes). */
	uint8_t *zeros = malloc(1 << 20), gz[8192];
	size_t n;

	(void)state;
	assert_non_null(zeros);
	memset(zeros, ' ', 1 << 20);
	n = gzip_bytes(zeros, 1 << 20, gz, sizeof(gz));
	free(zeros);
	ctx.max_size = 64 * 1024;
	assert_int_equal(pp_session_decode(&ctx, "bomb", gz, n, &p), PP_ELIMIT);
	assert_non_null(
	        strstr(ctx.message, "larger than the 65536-byte limit"));
}

static void test_decode__allocation_failures(void **state)
{
	struct pb b;

	(void)state;
	pb_small_profile(&b);
	for (long n = 0;; n++) {
		struct failing_alloc f;
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = NULL;
		int err;

		failing_alloc_install(&ctx, &f, n);
		err = pp_decode(&ctx, "t", b.buf, b.len, &p);
		if (!f.failed) {
			assert_int_equal(err, 0);
			pp_profile_free(p);
			break;
		}
		assert_int_equal(err, PP_ENOMEM);
		assert_null(p);
		assert_true(n < 10000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_decode__small_profile),
	        cmocka_unit_test(test_decode__dangling_location),
	        cmocka_unit_test(test_decode__dangling_function),
	        cmocka_unit_test(test_decode__dangling_mapping),
	        cmocka_unit_test(test_decode__bad_string_index),
	        cmocka_unit_test(test_decode__wrong_value_count),
	        cmocka_unit_test(test_decode__duplicate_id),
	        cmocka_unit_test(test_decode__truncated),
	        cmocka_unit_test(test_decode__random_bytes),
	        cmocka_unit_test(test_decode__empty),
	        cmocka_unit_test(test_decode__gzip_and_truncated_gzip),
	        cmocka_unit_test(test_decode__size_cap),
	        cmocka_unit_test(test_decode__allocation_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
