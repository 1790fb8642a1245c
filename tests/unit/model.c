/*
 * The model's location indices: 16 bits each while they fit, 32 once one
 * does not, and narrowed again when the profile allows. Its per-sample
 * label ranges: none until a sample has labels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/profile.h"

enum { NLOCATIONS = 70000 };

/* A profile of NLOCATIONS locations (one function) and one sample type. */
static struct pp_profile *many_locations(struct pp_ctx *ctx)
{
	struct pp_profile *p = count_profile(ctx);
	struct pp_function fn = {0};
	uint32_t f;

	assert_non_null(p);
	fn.id = 1;
	fn.name = pp_profile_intern(p, "f");
	assert_int_equal(pp_profile_add_function(p, &fn, &f), 0);
	for (uint32_t i = 0; i < NLOCATIONS; i++) {
		struct pp_location l = {.id = i + 1, .mapping = PP_NONE};
		struct pp_line line = {.function = f, .line = i};

		assert_int_equal(pp_profile_add_location(p, &l, &line, 1, NULL),
		                 0);
	}
	return p;
}

/* Sample s's stack: s + 1 locations, counting down from s * 1999 (past
 * 65,535 from sample 33 on). */
static uint32_t stack_of(uint32_t s, uint32_t *locs)
{
	for (uint32_t k = 0; k <= s; k++)
		locs[k] = (s * 1999 + NLOCATIONS - k) % NLOCATIONS;
	return s + 1;
}

static void check_stacks(const struct pp_profile *p, uint32_t nsamples)
{
	uint32_t want[64], got[64];

	assert_int_equal(p->nsamples, nsamples);
	for (uint32_t s = 0; s < nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		uint32_t n = stack_of(s, want);

		assert_int_equal(smp->loc_count, n);
		pp_sample_stack(p, smp, got);
		assert_memory_equal(got, want, n * sizeof(*got));
		assert_true(pp_sample_stack_is(p, smp, want, n));
		for (uint32_t k = 0; k < n; k++)
			assert_int_equal(pp_sample_loc(p, smp, k), want[k]);
	}
}

/* Indices under 65,536 stay 16 bits wide; the first past it widens the
 * ones before, which keep their values. */
static void test_model__widens_on_the_first_wide_index(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = many_locations(&ctx);
	uint32_t locs[64], nwide = 0;
	int64_t v = 1;

	(void)state;
	assert_int_equal(p->loc_bytes, 2);
	for (uint32_t s = 0; s < 60; s++) {
		uint32_t n = stack_of(s, locs);
		bool wide = false;

		for (uint32_t k = 0; k < n; k++)
			wide = wide || locs[k] > UINT16_MAX;
		if (wide && !nwide++)
			assert_int_equal(p->loc_bytes, 2);
		assert_int_equal(pp_profile_add_sample(p, locs, n, &v, NULL, 0),
		                 0);
		assert_int_equal(p->loc_bytes, nwide ? 4 : 2);
	}
	assert_true(nwide > 0);
	check_stacks(p, 60);
	/* 70,000 locations: it stays wide. */
	pp_profile_narrow_locs(p);
	assert_int_equal(p->loc_bytes, 4);
	check_stacks(p, 60);
	pp_profile_free(p);
}

/* set_sample_locs takes 32-bit indices and narrows them when every
 * location index fits; a profile with more locations keeps them wide. */
static void test_model__set_sample_locs_narrows(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = count_profile(&ctx);
	uint32_t *locs = pp_malloc(&ctx, 3 * sizeof(*locs));
	struct pp_location l = {.id = 1, .mapping = PP_NONE};
	int64_t v = 1;

	(void)state;
	assert_non_null(p);
	assert_non_null(locs);
	for (uint32_t i = 0; i < 3; i++) {
		l.id = i + 1;
		assert_int_equal(pp_profile_add_location(p, &l, NULL, 0, NULL),
		                 0);
	}
	locs[0] = 2;
	assert_int_equal(pp_profile_add_sample(p, locs, 1, &v, NULL, 0), 0);
	locs[0] = 0;
	locs[1] = 1;
	locs[2] = 2;
	p->samples[0].loc_first = 0;
	p->samples[0].loc_count = 3;
	pp_profile_set_sample_locs(p, locs, 3);
	assert_int_equal(p->loc_bytes, 2);
	assert_int_equal(pp_profile_loc(p, 0), 0);
	assert_int_equal(pp_profile_loc(p, 1), 1);
	assert_int_equal(pp_profile_loc(p, 2), 2);
	assert_true(pp_profile_locs_equal(p, 1, 1, 2));
	assert_false(pp_profile_locs_equal(p, 0, 1, 2));
	pp_profile_free(p);
}

/* Every allocation failure while widening is PP_ENOMEM with the profile
 * as it was. */
static void test_model__allocation_failures(void **state)
{
	(void)state;
	for (long n = 0;; n++) {
		struct failing_alloc f;
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = many_locations(&ctx);
		uint32_t locs[64], count;
		int64_t v = 1;
		bool failed;
		int err = 0;

		failing_alloc_install(&ctx, &f, n);
		for (uint32_t s = 0; s < 60 && err == 0; s++) {
			count = stack_of(s, locs);
			err = pp_profile_add_sample(p, locs, count, &v, NULL,
			                            0);
		}
		failed = f.failed;
		failing_alloc_install(&ctx, &f, -1);
		if (!failed) {
			assert_int_equal(err, 0);
			check_stacks(p, 60);
			pp_profile_free(p);
			break;
		}
		assert_int_equal(err, PP_ENOMEM);
		check_stacks(p, p->nsamples);
		pp_profile_free(p);
		assert_true(n < 10000);
	}
}

/* No label range is kept while no sample has labels; the first sample
 * with some gives every earlier one an empty range, and allocation
 * failures leave the profile as it was. */
static void test_model__label_ranges_from_the_first_label(void **state)
{
	(void)state;
	for (long n = 0;; n++) {
		struct failing_alloc f;
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = many_locations(&ctx);
		struct pp_label l = {0};
		uint32_t locs[64], count, nl;
		int64_t v = 1;
		bool failed;
		int err = 0;

		l.key = pp_profile_intern(p, "k");
		l.num = 7;
		failing_alloc_install(&ctx, &f, n);
		for (uint32_t s = 0; s < 20 && err == 0; s++) {
			count = stack_of(s, locs);
			/* Samples 10 and 12 have one label each. */
			err = pp_profile_add_sample(p, locs, count, &v, &l,
			                            s >= 10 && s % 2 == 0 &&
			                                    s < 14);
			if (err == 0 && s < 10)
				assert_null(p->sample_labels);
		}
		failed = f.failed;
		failing_alloc_install(&ctx, &f, -1);
		if (!failed)
			assert_int_equal(err, 0);
		else
			assert_int_equal(err, PP_ENOMEM);
		check_stacks(p, p->nsamples);
		for (uint32_t s = 0; s < p->nsamples; s++) {
			const struct pp_label *got =
			        pp_sample_labels(p, s, &nl);

			assert_int_equal(nl, s == 10 || s == 12);
			if (nl)
				assert_int_equal(got->num, 7);
		}
		assert_int_equal(p->nlabels, p->nsamples > 12   ? 2
		                             : p->nsamples > 10 ? 1
		                                                : 0);
		pp_profile_free(p);
		if (!failed)
			break;
		assert_true(n < 10000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_model__widens_on_the_first_wide_index),
	        cmocka_unit_test(test_model__set_sample_locs_narrows),
	        cmocka_unit_test(test_model__allocation_failures),
	        cmocka_unit_test(test_model__label_ranges_from_the_first_label),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
