/* Folded stacks (src/profile/folded.c): exact samples and frames, the
 * sample type option, and text that is not folded stacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/decode.h"

static int decode(struct pp_ctx *ctx, const char *text, struct pp_profile **p)
{
	return pp_decode(ctx, "f.txt", (const uint8_t *)text, strlen(text), p);
}

static const char *fn(const struct pp_profile *p, uint32_t sample, uint32_t k)
{
	const struct pp_location *l = &p->locations[pp_profile_loc(
	        p, p->samples[sample].loc_first + k)];

	return pp_profile_str(
	        p, p->functions[p->lines[l->line_first].function].name);
}

static void test_folded__stacks(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(decode(&ctx,
	                        "main;serve;parse 42\n"
	                        "\n"
	                        "main;std::vector<int>::push_back 7\r\n"
	                        "main 0\n",
	                        &p),
	                 0);
	assert_int_equal(p->nsample_types, 1);
	assert_string_equal(pp_profile_str(p, p->sample_types[0].type),
	                    "samples");
	assert_string_equal(pp_profile_str(p, p->sample_types[0].unit),
	                    "count");
	assert_int_equal(p->nsamples, 3);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 42);
	assert_int_equal(pp_profile_sample_values(p, 1)[0], 7);
	assert_int_equal(pp_profile_sample_values(p, 2)[0], 0);
	/* leaf first */
	assert_int_equal(p->samples[0].loc_count, 3);
	assert_string_equal(fn(p, 0, 0), "parse");
	assert_string_equal(fn(p, 0, 2), "main");
	assert_string_equal(fn(p, 1, 0), "std::vector<int>::push_back");
	/* one location per distinct frame */
	assert_int_equal(p->nlocations, 4);
	assert_int_equal(p->nfunctions, 4);
	assert_int_equal(p->nmappings, 0);
	pp_profile_free(p);
}

static void test_folded__type_option(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	ctx.folded_type = "cpu/nanoseconds";
	assert_int_equal(decode(&ctx, "a;b 5\n", &p), 0);
	assert_string_equal(pp_profile_str(p, p->sample_types[0].type), "cpu");
	assert_string_equal(pp_profile_str(p, p->sample_types[0].unit),
	                    "nanoseconds");
	pp_profile_free(p);
	ctx.folded_type = "wall";
	assert_int_equal(decode(&ctx, "a;b 5\n", &p), 0);
	assert_string_equal(pp_profile_str(p, p->sample_types[0].type), "wall");
	assert_string_equal(pp_profile_str(p, p->sample_types[0].unit),
	                    "count");
	pp_profile_free(p);
}

static void test_folded__not_folded(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(decode(&ctx, "a;b 5\nno count here\n", &p),
	                 PP_EFORMAT);
	assert_string_equal(ctx.message, "f.txt: unrecognized profile format");
	assert_int_equal(decode(&ctx, "a;b 99999999999999999999\n", &p),
	                 PP_EFORMAT);
	assert_string_equal(ctx.message, "f.txt:1: count out of range");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_folded__stacks),
	        cmocka_unit_test(test_folded__type_option),
	        cmocka_unit_test(test_folded__not_folded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
