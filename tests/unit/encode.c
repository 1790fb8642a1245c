/* The profile.proto writer: decode(encode(p)) equals p, for every real
 * profile in testdata/go, plain and merged; the gzip'd form decodes too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/decode.h"
#include "pprof/encode.h"
#include "pprof/session.h"
#include "pprof/transform.h"

static const char *const profiles[] = {
        "testdata/go/cpu.pb.gz",          "testdata/go/heap.pb.gz",
        "testdata/go/allocs.pb.gz",       "testdata/go/mutex.pb.gz",
        "testdata/go/block.pb.gz",        "testdata/go/goroutine.pb.gz",
        "testdata/go/threadcreate.pb.gz",
};

#define S(p, s) pp_profile_str((p), (s))

static void assert_same_str(const struct pp_profile *a, pp_str x,
                            const struct pp_profile *b, pp_str y)
{
	assert_string_equal(S(a, x), S(b, y));
}

/* Field by field, strings by their text. */
static void assert_same(const struct pp_profile *a, const struct pp_profile *b)
{
	assert_int_equal(a->nsample_types, b->nsample_types);
	for (uint32_t i = 0; i < a->nsample_types; i++) {
		assert_same_str(a, a->sample_types[i].type, b,
		                b->sample_types[i].type);
		assert_same_str(a, a->sample_types[i].unit, b,
		                b->sample_types[i].unit);
	}
	assert_same_str(a, a->default_sample_type, b, b->default_sample_type);
	assert_int_equal(a->nsamples, b->nsamples);
	for (uint32_t s = 0; s < a->nsamples; s++) {
		const struct pp_sample *x = &a->samples[s], *y = &b->samples[s];
		uint32_t nx, ny;
		const struct pp_label *lx = pp_sample_labels(a, s, &nx);
		const struct pp_label *ly = pp_sample_labels(b, s, &ny);

		assert_int_equal(x->loc_count, y->loc_count);
		for (uint32_t k = 0; k < x->loc_count; k++)
			assert_int_equal(
			        a->locations[pp_profile_loc(a,
			                                    x->loc_first + k)]
			                .id,
			        b->locations[pp_profile_loc(b,
			                                    y->loc_first + k)]
			                .id);
		assert_memory_equal(pp_profile_sample_values(a, s),
		                    pp_profile_sample_values(b, s),
		                    a->nsample_types * sizeof(int64_t));
		assert_int_equal(nx, ny);
		for (uint32_t k = 0; k < nx; k++) {
			const struct pp_label *la = &lx[k];
			const struct pp_label *lb = &ly[k];

			assert_same_str(a, la->key, b, lb->key);
			assert_same_str(a, la->str, b, lb->str);
			assert_same_str(a, la->num_unit, b, lb->num_unit);
			assert_int_equal(la->num, lb->num);
		}
	}
	assert_int_equal(a->nlocations, b->nlocations);
	for (uint32_t i = 0; i < a->nlocations; i++) {
		const struct pp_location *x = &a->locations[i],
		                         *y = &b->locations[i];

		assert_int_equal(x->id, y->id);
		assert_int_equal(x->address, y->address);
		assert_int_equal(x->mapping, y->mapping);
		assert_int_equal(x->is_folded, y->is_folded);
		assert_int_equal(x->line_count, y->line_count);
		for (uint32_t k = 0; k < x->line_count; k++) {
			const struct pp_line *la = &a->lines[x->line_first + k];
			const struct pp_line *lb = &b->lines[y->line_first + k];

			assert_int_equal(la->function, lb->function);
			assert_int_equal(la->line, lb->line);
			assert_int_equal(la->column, lb->column);
		}
	}
	assert_int_equal(a->nfunctions, b->nfunctions);
	for (uint32_t i = 0; i < a->nfunctions; i++) {
		const struct pp_function *x = &a->functions[i],
		                         *y = &b->functions[i];

		assert_int_equal(x->id, y->id);
		assert_same_str(a, x->name, b, y->name);
		assert_same_str(a, x->system_name, b, y->system_name);
		assert_same_str(a, x->filename, b, y->filename);
		assert_int_equal(x->start_line, y->start_line);
	}
	assert_int_equal(a->nmappings, b->nmappings);
	for (uint32_t i = 0; i < a->nmappings; i++) {
		const struct pp_mapping *x = &a->mappings[i],
		                        *y = &b->mappings[i];

		assert_int_equal(x->id, y->id);
		assert_int_equal(x->start, y->start);
		assert_int_equal(x->limit, y->limit);
		assert_int_equal(x->offset, y->offset);
		assert_same_str(a, x->file, b, y->file);
		assert_same_str(a, x->build_id, b, y->build_id);
		assert_int_equal(x->has_functions, y->has_functions);
		assert_int_equal(x->has_filenames, y->has_filenames);
		assert_int_equal(x->has_line_numbers, y->has_line_numbers);
		assert_int_equal(x->has_inline_frames, y->has_inline_frames);
	}
	assert_int_equal(a->ncomments, b->ncomments);
	for (uint32_t i = 0; i < a->ncomments; i++)
		assert_same_str(a, a->comments[i], b, b->comments[i]);
	assert_same_str(a, a->drop_frames, b, b->drop_frames);
	assert_same_str(a, a->keep_frames, b, b->keep_frames);
	assert_same_str(a, a->doc_url, b, b->doc_url);
	assert_int_equal(a->time_nanos, b->time_nanos);
	assert_int_equal(a->duration_nanos, b->duration_nanos);
	assert_int_equal(a->period, b->period);
	assert_same_str(a, a->period_type.type, b, b->period_type.type);
	assert_same_str(a, a->period_type.unit, b, b->period_type.unit);
}

static void round_trip(struct pp_ctx *ctx, const struct pp_profile *p, bool gz)
{
	struct pp_profile *q = NULL;
	uint8_t *data = NULL;
	size_t len = 0;

	if (gz)
		assert_int_equal(
		        pp_encode_proto_gzip(ctx, p, NULL, &data, &len), 0);
	else
		assert_int_equal(pp_encode_proto(ctx, p, NULL, &data, &len), 0);
	assert_int_equal(pp_session_decode(ctx, "encoded", data, len, &q), 0);
	assert_same(p, q);
	pp_profile_free(q);
	pp_free(ctx, data);
}

static void test_encode__round_trip(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++) {
		struct pp_profile *p = NULL;

		assert_int_equal(pp_session_decode_file(&ctx, profiles[i], &p),
		                 0);
		round_trip(&ctx, p, false);
		round_trip(&ctx, p, true);
		pp_profile_free(p);
	}
}

static void test_encode__round_trip_merged(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *in[2] = {NULL, NULL}, *m = NULL;

	(void)state;
	assert_int_equal(pp_session_decode_file(
	                         &ctx, "testdata/go/cpu_before.pb.gz", &in[0]),
	                 0);
	assert_int_equal(pp_session_decode_file(
	                         &ctx, "testdata/go/cpu_after.pb.gz", &in[1]),
	                 0);
	assert_int_equal(pp_profile_merge(&ctx, in, NULL, 2, &m), 0);
	round_trip(&ctx, m, true);
	pp_profile_free(m);
	pp_profile_free(in[0]);
	pp_profile_free(in[1]);
}

/* Negative values (a subtracted base) and labels of both kinds survive. */
static void test_encode__negative_values_and_labels(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = pp_profile_new(&ctx);
	struct pp_function f = {7, 0, 0, 0, 12};
	struct pp_location l = {0};
	struct pp_line line = {0, 42, 3};
	struct pp_label labels[2] = {{0}, {0}};
	int64_t v[2] = {-5, INT64_MIN};
	uint32_t fi, li;

	(void)state;
	assert_non_null(p);
	assert_int_equal(
	        pp_profile_add_sample_type(p, pp_profile_intern(p, "samples"),
	                                   pp_profile_intern(p, "count")),
	        0);
	assert_int_equal(
	        pp_profile_add_sample_type(p, pp_profile_intern(p, "cpu"),
	                                   pp_profile_intern(p, "nanoseconds")),
	        0);
	f.name = f.system_name = pp_profile_intern(p, "main.f");
	f.filename = pp_profile_intern(p, "f.go");
	assert_int_equal(pp_profile_add_function(p, &f, &fi), 0);
	line.function = fi;
	l.id = 9;
	l.address = 0x1234;
	l.mapping = PP_NONE;
	assert_int_equal(pp_profile_add_location(p, &l, &line, 1, &li), 0);
	labels[0].key = pp_profile_intern(p, "k");
	labels[0].str = pp_profile_intern(p, "v");
	labels[1].key = pp_profile_intern(p, "bytes");
	labels[1].num = -1;
	labels[1].num_unit = pp_profile_intern(p, "bytes");
	assert_int_equal(pp_profile_add_sample(p, &li, 1, v, labels, 2), 0);
	p->time_nanos = -3;
	p->period = 100;
	round_trip(&ctx, p, false);
	pp_profile_free(p);
}

/* Location ids of every varint length a sample's stack can hold, written
 * from the encoder's table of encoded ids, read back the same. */
static void test_encode__location_ids_of_every_length(void **state)
{
	static const uint64_t ids[] = {1,          127,
	                               128,        (1ull << 14) + 3,
	                               1ull << 21, (1ull << 28) - 1,
	                               1ull << 28, 1ull << 35,
	                               1ull << 42, 1ull << 49,
	                               1ull << 56, 1ull << 63,
	                               UINT64_MAX};
	enum { N = sizeof(ids) / sizeof(ids[0]) };
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = count_profile(&ctx);
	struct pp_function f = {1, 0, 0, 0, 0};
	uint32_t fi, locs[N];
	int64_t v = 1;

	(void)state;
	assert_non_null(p);
	f.name = f.system_name = pp_profile_intern(p, "main.f");
	assert_int_equal(pp_profile_add_function(p, &f, &fi), 0);
	for (uint32_t i = 0; i < N; i++) {
		struct pp_location l = {0};
		struct pp_line line = {0, 1, 0};

		line.function = fi;
		l.id = ids[i];
		l.mapping = PP_NONE;
		assert_int_equal(
		        pp_profile_add_location(p, &l, &line, 1, &locs[i]), 0);
	}
	assert_int_equal(pp_profile_add_sample(p, locs, N, &v, NULL, 0), 0);
	/* And again in the other order. */
	for (uint32_t i = 0; i < N / 2; i++) {
		uint32_t t = locs[i];

		locs[i] = locs[N - 1 - i];
		locs[N - 1 - i] = t;
	}
	assert_int_equal(pp_profile_add_sample(p, locs, N, &v, NULL, 0), 0);
	round_trip(&ctx, p, false);
	pp_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_encode__round_trip),
	        cmocka_unit_test(test_encode__round_trip_merged),
	        cmocka_unit_test(test_encode__negative_values_and_labels),
	        cmocka_unit_test(test_encode__location_ids_of_every_length),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
