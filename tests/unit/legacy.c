/* The legacy readers: gperftools CPU profiles in every word size and byte
 * order, pprof's frame clean-ups, memory maps in both forms, tcmalloc heap
 * profiles with unsampling, and rejected shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/decode.h"

struct buf {
	uint8_t b[8192];
	size_t n;
	unsigned word;
	int big;
};

static void put(struct buf *b, uint64_t v)
{
	for (unsigned i = 0; i < b->word; i++) {
		unsigned shift = b->big ? 8 * (b->word - 1 - i) : 8 * i;

		b->b[b->n++] = (uint8_t)(v >> shift);
	}
}

static void text(struct buf *b, const char *s)
{
	memcpy(b->b + b->n, s, strlen(s));
	b->n += strlen(s);
}

static void header(struct buf *b, unsigned word, int big, uint64_t period)
{
	memset(b, 0, sizeof(*b));
	b->word = word;
	b->big = big;
	put(b, 0);
	put(b, 3);
	put(b, 0);
	put(b, period);
	put(b, 0);
}

static void record(struct buf *b, uint64_t count, size_t n, const uint64_t *pcs)
{
	put(b, count);
	put(b, n);
	for (size_t i = 0; i < n; i++)
		put(b, pcs[i]);
}

static void trailer(struct buf *b)
{
	static const uint64_t zero[] = {0};

	record(b, 0, 1, zero);
}

static const char maps[] =
        "00400000-00401000 r--p 00000000 00:00 1   /bin/prog\n"
        "00401000-00402000 r-xp 00001000 00:00 1   /bin/prog\n"
        "7f000000-7f001000 r-xp 00002000 08:01 2 /lib/libc.so.6\n"
        "this line is not a mapping\n";

/* The profile keeps a pointer to ctx: callers own one for its lifetime. */
static struct pp_profile *decode(struct pp_ctx *ctx, struct buf *b)
{
	struct pp_profile *p = NULL;
	int err = pp_decode(ctx, "t.prof", b->b, b->n, &p);

	if (err)
		fail_msg("decode: %s", ctx->message);
	return p;
}

static void expect_cpu_profile(unsigned word, int big)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct buf b;
	struct pp_profile *p;
	static const uint64_t s1[] = {0x401010, 0x401100, 0x7f000100};
	/* a second sample with another caller, or pprof would take the
	 * shared second frame for the signal handler's and drop it */
	static const uint64_t s2[] = {0x401020, 0x401200};

	header(&b, word, big, 10000);
	record(&b, 3, 3, s1);
	record(&b, 1, 2, s2);
	trailer(&b);
	text(&b, maps);
	p = decode(&ctx, &b);
	assert_int_equal(p->nsample_types, 2);
	assert_string_equal(pp_profile_str(p, p->sample_types[1].type), "cpu");
	assert_int_equal(p->period, 10000000);
	assert_int_equal(p->nsamples, 2);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 3);
	assert_int_equal(pp_profile_sample_values(p, 0)[1], 30000000);
	/* callers at return address - 1 */
	assert_int_equal(p->locations[0].address, 0x401010);
	assert_int_equal(p->locations[1].address, 0x4010ff);
	assert_int_equal(p->locations[2].address, 0x7f0000ff);
	/* executable entries only, merged; the non-PIE main mapping moved
	 * to 0x400000 with offset 0, as pprof does */
	assert_int_equal(p->nmappings, 2);
	assert_string_equal(pp_profile_str(p, p->mappings[0].file),
	                    "/bin/prog");
	assert_int_equal(p->mappings[0].start, 0x400000);
	assert_int_equal(p->mappings[0].offset, 0);
	assert_int_equal(p->locations[0].mapping, 0);
	assert_int_equal(p->locations[2].mapping, 1);
	assert_false(p->mappings[0].has_functions);
	pp_profile_free(p);
}

static void test_legacy__cpu_word_sizes_and_orders(void **state)
{
	(void)state;
	expect_cpu_profile(8, 0);
	expect_cpu_profile(8, 1);
	expect_cpu_profile(4, 0);
	expect_cpu_profile(4, 1);
}

static void test_legacy__cpu_frame_cleanups(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct buf b;
	struct pp_profile *p;
	/* every sample has the handler frame 0x7f000500 second */
	static const uint64_t a[] = {0x401010, 0x7f000500, 0x401200};
	static const uint64_t c[] = {0x401020, 0x7f000500, 0x401300};
	/* a leaf repeated as its own caller */
	static const uint64_t d[] = {0x401030, 0x401030, 0x401400};

	(void)state;
	header(&b, 8, 0, 1000);
	record(&b, 1, 3, a);
	record(&b, 1, 3, c);
	trailer(&b);
	text(&b, maps);
	p = decode(&ctx, &b);
	assert_int_equal(p->samples[0].loc_count, 2);
	assert_int_equal(p->locations[pp_profile_loc(p, 1)].address, 0x4011ff);
	pp_profile_free(p);

	header(&b, 8, 0, 1000);
	record(&b, 1, 3, d);
	record(&b, 1, 3, a);
	record(&b, 1, 3, c);
	record(&b, 1, 3, c);
	trailer(&b);
	text(&b, maps);
	p = decode(&ctx, &b);
	/* 3 of 4 samples share frame 1: below the threshold, so kept; the
	 * duplicated leaf goes */
	assert_int_equal(p->samples[0].loc_count, 2);
	assert_int_equal(p->samples[1].loc_count, 3);
	pp_profile_free(p);
}

static void test_legacy__cpu_no_trailer_and_brief_maps(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct buf b;
	struct pp_profile *p;
	static const uint64_t s1[] = {0x5010};

	(void)state;
	header(&b, 8, 0, 1000);
	record(&b, 2, 1, s1);
	p = decode(&ctx,
	           &b); /* ends without the trailer or a map: fake mapping */
	assert_int_equal(p->nmappings, 1);
	assert_int_equal(p->mappings[0].limit, UINT64_MAX);
	pp_profile_free(p);

	header(&b, 8, 0, 1000);
	record(&b, 2, 1, s1);
	trailer(&b);
	text(&b, "0x5000-0x6000 r-xp /opt/server (@1000) abcdef0123\n");
	p = decode(&ctx, &b);
	assert_int_equal(p->nmappings, 1);
	assert_int_equal(p->mappings[0].offset, 0x1000);
	assert_string_equal(pp_profile_str(p, p->mappings[0].build_id),
	                    "abcdef0123");
	assert_string_equal(pp_profile_str(p, p->mappings[0].file),
	                    "/opt/server");
	pp_profile_free(p);
}

static void expect_error(struct buf *b, const char *needle)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	assert_int_equal(pp_decode(&ctx, "t.prof", b->b, b->n, &p), PP_EFORMAT);
	assert_null(p);
	if (!strstr(ctx.message, needle))
		fail_msg("message \"%s\" lacks \"%s\"", ctx.message, needle);
}

static void test_legacy__cpu_bad_records(void **state)
{
	struct buf b;
	static const uint64_t s1[] = {0x5010, 0x5020};

	(void)state;
	header(&b, 8, 0, 1000);
	put(&b, 1);
	put(&b, 1000); /* more frames than the file holds */
	put(&b, 0x5010);
	expect_error(&b, "more than the file holds");

	header(&b, 8, 0, 1000);
	record(&b, 1, 2, s1);
	b.b[b.n++] = 1; /* half a word */
	expect_error(&b, "truncated CPU profile record");

	memset(&b, 0, sizeof(b));
	text(&b, "\x00\x01\x02garbage");
	expect_error(&b, "t.prof");
}

static void test_legacy__heap_profile(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct buf b;
	struct pp_profile *p;
	const int64_t *v;

	(void)state;
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile:    2:   300 [     5:  1000] @ heapprofile\n"
	         "     1:   100 [     2:   400] @ 0x401011 0x401101\n"
	         "\n"
	         "# a comment\n"
	         "     1:   200 [     3:   600] @ 0x401021\n"
	         "MAPPED_LIBRARIES:\n");
	text(&b, maps);
	p = decode(&ctx, &b);
	assert_int_equal(p->nsample_types, 4);
	assert_string_equal(pp_profile_str(p, p->sample_types[0].type),
	                    "alloc_objects");
	assert_string_equal(pp_profile_str(p, p->sample_types[3].type),
	                    "inuse_space");
	v = pp_profile_sample_values(p, 0);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 400);
	assert_int_equal(v[2], 1);
	assert_int_equal(v[3], 100);
	/* every address, the first too, is a return address */
	assert_int_equal(p->locations[0].address, 0x401010);
	/* the bytes label is the in-use block size */
	assert_int_equal(pp_sample_label_range(p, 0).count, 1);
	assert_string_equal(pp_profile_str(p, p->labels[0].key), "bytes");
	assert_int_equal(p->labels[0].num, 100);
	assert_int_equal(p->period, 1);
	pp_profile_free(p);
}

static void test_legacy__heap_unsampling(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct buf b;
	struct pp_profile *p;
	const int64_t *v;

	(void)state;
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile:   17:  1224 [    17:  1224] @ heap_v2/262144\n"
	         "     1:    72 [     1:    72] @ 0x401011\n");
	p = decode(&ctx, &b);
	assert_int_equal(p->nsample_types, 2);
	assert_string_equal(pp_profile_str(p, p->sample_types[0].type),
	                    "objects");
	assert_int_equal(p->period, 262144);
	v = pp_profile_sample_values(p, 0);
	/* scale = 1 / (1 - exp(-72 / 262144)) = 3641.38... */
	assert_int_equal(v[0], 3641);
	assert_int_equal(v[1], 262180);
	pp_profile_free(p);

	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ heap/1024\n"
	         "1: 2 [1: 2] @ 0x401011\n");
	p = decode(&ctx, &b);
	assert_int_equal(p->period, 512); /* v1: rate is half the number */
	pp_profile_free(p);
}

static void test_legacy__heap_bad_samples(void **state)
{
	struct buf b;

	(void)state;
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	         "1: 2 [1: 2] @ 0x401011\n"
	         "what is this\n");
	expect_error(&b, "t.prof:3: malformed heap sample");
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	         "0: 2 [1: 2] @ 0x401011\n");
	expect_error(&b, "inuse count was 0 but inuse bytes was 2");
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	         "1: 2 [1: 2] @ 0x12345678901234567\n");
	expect_error(&b, "address too large");
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ mystery\n");
	expect_error(&b, "t.prof");
}

/* ("a0=" would be the range a-0, a mapping.) Each line doubling the one before
 * would make a 2^40-byte name: the map is refused at 64 MiB instead. */
static void test_legacy__heap_map_substitution_bomb(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	struct buf b;
	char line[64];

	(void)state;
	memset(&b, 0, sizeof(b));
	text(&b, "heap profile: 1: 2 [1: 2] @ heapprofile\n"
	         "1: 2 [1: 2] @ 0x401011\n"
	         "MAPPED_LIBRARIES:\n"
	         "k00=xxxxxxxx\n");
	for (int i = 1; i < 40; i++) {
		snprintf(line, sizeof(line), "k%02d=$k%02d$k%02d\n", i, i - 1,
		         i - 1);
		text(&b, line);
	}
	text(&b, "00400000-00500000 r-xp 00000000 08:01 1 /bin/$k39\n");
	assert_int_equal(pp_decode(&ctx, "t.prof", b.b, b.n, &p), PP_ELIMIT);
	assert_null(p);
	assert_string_equal(ctx.message, "t.prof: memory map over 64 MiB after "
	                                 "its $name substitutions");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_legacy__cpu_word_sizes_and_orders),
	        cmocka_unit_test(test_legacy__cpu_frame_cleanups),
	        cmocka_unit_test(test_legacy__cpu_no_trailer_and_brief_maps),
	        cmocka_unit_test(test_legacy__cpu_bad_records),
	        cmocka_unit_test(test_legacy__heap_profile),
	        cmocka_unit_test(test_legacy__heap_unsampling),
	        cmocka_unit_test(test_legacy__heap_bad_samples),
	        cmocka_unit_test(test_legacy__heap_map_substitution_bomb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
