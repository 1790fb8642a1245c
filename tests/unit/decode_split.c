/*
 * Big profiles are decoded by two threads, each taking half of the
 * samples, into shared arrays. This builds a profile big enough to be
 * split, with labels and varied stacks, and checks that the split decode,
 * the owned decode (which returns input pages as it goes) and the
 * single-threaded decode give the same model, sample by sample.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pbuild.h"
#include "pprof/decode.h"

enum { NSAMPLES = 250000, NLOCS = 3000 };

/* Which samples have a label: a sample's label ranges are kept only once
 * one has labels, and each thread starts without, so each half is tried
 * with and without. */
enum labelled { EVERY_FIFTH, FIRST_QUARTER, LAST_QUARTER, NONE };

static bool has_label(enum labelled which, uint32_t s)
{
	switch (which) {
	case EVERY_FIFTH:
		return s % 5 == 0;
	case FIRST_QUARTER:
		return s < NSAMPLES / 4 && s % 5 == 0;
	case LAST_QUARTER:
		return s >= NSAMPLES / 4 * 3 && s % 5 == 0;
	case NONE:
		break;
	}
	return false;
}

/* poison: make one sample late in the run name a location that does not
 * exist, so the second thread meets the error. */
static struct gbuf build(bool poison, enum labelled which)
{
	struct gbuf b = {0}, m = {0}, packed = {0};
	uint64_t x = 12345;

	m.len = 0;
	gb_uint(&m, 1, 1);
	gb_uint(&m, 2, 2);
	gb_msg(&b, 1, &m);
	m.len = 0;
	gb_uint(&m, 1, 3);
	gb_uint(&m, 2, 4);
	gb_msg(&b, 1, &m);
	for (uint32_t s = 0; s < NSAMPLES; s++) {
		uint32_t depth;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		depth = 1 + (uint32_t)(x >> 59);
		m.len = 0;
		packed.len = 0;
		for (uint32_t i = 0; i < depth; i++)
			gb_varint(&packed,
			          1 + (x >> ((i * 2 + 3) % 61)) % NLOCS);
		if (poison && s == NSAMPLES - 10)
			gb_varint(&packed, NLOCS + 99);
		gb_msg(&m, 1, &packed);
		packed.len = 0;
		gb_varint(&packed, s % 7);
		gb_varint(&packed, (s % 13) * 1000);
		gb_msg(&m, 2, &packed);
		if (has_label(which, s)) {
			struct gbuf l = {0};

			gb_uint(&l, 1, 5);
			gb_uint(&l, 2, 6 + s % 2);
			gb_msg(&m, 3, &l);
			free(l.p);
		}
		gb_msg(&b, 2, &m);
	}
	for (uint32_t i = 1; i <= NLOCS; i++) {
		m.len = 0;
		gb_uint(&m, 1, i);
		gb_uint(&m, 3, 0x1000 + i);
		gb_msg(&b, 4, &m);
	}
	{
		static const char *const strs[] = {
		        "",  "samples", "count", "cpu", "nanoseconds",
		        "k", "v1",      "v2"};

		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
			gb_str(&b, 6, strs[i]);
	}
	free(m.p);
	free(packed.p);
	return b;
}

static void *plain_malloc(void *data, size_t size)
{
	(void)data;
	return malloc(size);
}

static void *plain_realloc(void *data, void *ptr, size_t size)
{
	(void)data;
	return realloc(ptr, size);
}

static void plain_free(void *data, void *ptr)
{
	(void)data;
	free(ptr);
}

static void same_model(const struct pp_profile *a, const struct pp_profile *b)
{
	assert_int_equal(a->nsamples, NSAMPLES);
	assert_int_equal(b->nsamples, a->nsamples);
	assert_int_equal(b->nlabels, a->nlabels);
	for (uint32_t s = 0; s < a->nsamples; s++) {
		const struct pp_sample *x = &a->samples[s], *y = &b->samples[s];
		uint32_t nx, ny;
		const struct pp_label *lx = pp_sample_labels(a, s, &nx);
		const struct pp_label *ly = pp_sample_labels(b, s, &ny);

		assert_int_equal(x->loc_count, y->loc_count);
		assert_int_equal(nx, ny);
		for (uint32_t k = 0; k < x->loc_count; k++)
			assert_int_equal(pp_sample_loc(a, x, k),
			                 pp_sample_loc(b, y, k));
		assert_memory_equal(pp_profile_sample_values(a, s),
		                    pp_profile_sample_values(b, s),
		                    2 * sizeof(int64_t));
		for (uint32_t l = 0; l < nx; l++) {
			const struct pp_label *la = &lx[l];
			const struct pp_label *lb = &ly[l];

			assert_string_equal(pp_profile_str(a, la->str),
			                    pp_profile_str(b, lb->str));
		}
	}
}

static void same_as_single_thread(enum labelled which)
{
	struct gbuf b = build(false, which);
	struct pp_ctx one = PP_CTX_INIT, two = PP_CTX_INIT, own = PP_CTX_INIT;
	struct pp_profile *p1 = NULL, *p2 = NULL, *p3 = NULL;
	uint8_t *copy = malloc(b.len);

	/* An allocation hook keeps the decoder on one thread. */
	one.alloc.malloc_fn = plain_malloc;
	one.alloc.realloc_fn = plain_realloc;
	one.alloc.free_fn = plain_free;
	assert_int_equal(pp_decode(&one, "one", b.p, b.len, &p1), 0);
	assert_int_equal(pp_decode(&two, "two", b.p, b.len, &p2), 0);
	assert_non_null(copy);
	memcpy(copy, b.p, b.len);
	assert_int_equal(pp_decode_owned(&own, "own", copy, b.len, &p3), 0);
	same_model(p1, p2);
	same_model(p1, p3);
	/* The labelled samples have one each, alternating v1 and v2. */
	for (uint32_t s = 0; s < NSAMPLES; s++) {
		uint32_t n;
		const struct pp_label *l = pp_sample_labels(p2, s, &n);

		assert_int_equal(n, has_label(which, s) ? 1 : 0);
		if (n)
			assert_string_equal(pp_profile_str(p2, l->str),
			                    s % 2 ? "v2" : "v1");
	}
	if (which == NONE)
		assert_null(p2->sample_labels);
	else
		assert_non_null(p2->sample_labels);
	pp_profile_free(p1);
	pp_profile_free(p2);
	pp_profile_free(p3);
	free(b.p);
}

static void test_decode_split__same_as_single_thread(void **state)
{
	(void)state;
	same_as_single_thread(EVERY_FIFTH);
}

static void test_decode_split__labels_in_first_half_only(void **state)
{
	(void)state;
	same_as_single_thread(FIRST_QUARTER);
}

static void test_decode_split__labels_in_second_half_only(void **state)
{
	(void)state;
	same_as_single_thread(LAST_QUARTER);
}

static void test_decode_split__no_labels(void **state)
{
	(void)state;
	same_as_single_thread(NONE);
}

static void test_decode_split__error_in_second_half(void **state)
{
	struct gbuf b = build(true, EVERY_FIFTH);
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(pp_decode(&ctx, "bad", b.p, b.len, &p), PP_EFORMAT);
	assert_null(p);
	assert_string_equal(ctx.message, "bad: malformed profile: sample "
	                                 "refers to unknown location 3099");
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_decode_split__same_as_single_thread),
	        cmocka_unit_test(test_decode_split__labels_in_first_half_only),
	        cmocka_unit_test(test_decode_split__labels_in_second_half_only),
	        cmocka_unit_test(test_decode_split__no_labels),
	        cmocka_unit_test(test_decode_split__error_in_second_half),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
