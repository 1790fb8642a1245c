/*
 * A gzip'd profile.proto decoded while its bytes arrive
 * (pp_decode_stream_*), fed by ISA-L inflating on a second thread
 * (pp_source_gunzip_each): the same model as pp_decode of the whole bytes
 * whatever the pieces, location ids in order, out of order or sparse;
 * and "give up" (1, nothing in ctx) for whatever this path does not take,
 * so that the caller decodes the whole bytes and names the error.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "pbuild.h"
#include "pprof/decode.h"
#include "pprof/session.h"
#include "pprof/source.h"

enum { NSAMPLES = 20000, NLOCS = 500 };

/* HIGH_LAST: in order but the last location's id is past 16 bits, and
 * only the last samples name it (the stream widens late). */
enum ids { IN_ORDER, REVERSED, SPARSE, HIGH_LAST };

enum flaw {
	NONE,
	TYPE_AFTER_SAMPLE, /* a sample type after the samples */
	UNKNOWN_LOCATION,  /* a sample names a location that is not there */
	LABEL_STRING,      /* a label's string index past the table */
};

/* The file id of location i (0-based). */
static uint64_t loc_id(enum ids ids, uint32_t i)
{
	if (ids == HIGH_LAST && i == NLOCS - 1)
		return 100000;
	return ids == SPARSE ? ((uint64_t)i + 1) * 1000003u : (uint64_t)i + 1;
}

/* Go's layout: sample types, samples, locations, functions, strings;
 * nsamples samples. */
static struct gbuf build_n(enum ids ids, enum flaw flaw, uint32_t nsamples)
{
	struct gbuf b = {0}, m = {0}, packed = {0};
	uint64_t x = 12345;

	for (int t = 0; t < 2; t++) {
		m.len = 0;
		gb_uint(&m, 1, 1 + 2 * (uint64_t)t);
		gb_uint(&m, 2, 2 + 2 * (uint64_t)t);
		gb_msg(&b, 1, &m);
	}
	for (uint32_t s = 0; s < nsamples; s++) {
		uint32_t depth, nlocs = ids == HIGH_LAST ? NLOCS - 1 : NLOCS;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		depth = 1 + (uint32_t)(x >> 59);
		m.len = 0;
		packed.len = 0;
		for (uint32_t i = 0; i < depth; i++)
			gb_varint(
			        &packed,
			        loc_id(ids, (x >> ((i * 2 + 3) % 61)) % nlocs));
		if (ids == HIGH_LAST && s >= nsamples - 10)
			gb_varint(&packed, loc_id(ids, NLOCS - 1));
		if (flaw == UNKNOWN_LOCATION && s == nsamples - 10)
			gb_varint(&packed, 7777777);
		gb_msg(&m, 1, &packed);
		packed.len = 0;
		gb_varint(&packed, s % 7);
		gb_varint(&packed, (s % 13) * 1000);
		gb_msg(&m, 2, &packed);
		if (s % 5 == 0) {
			struct gbuf l = {0};

			gb_uint(&l, 1, 5);
			gb_uint(&l, 2,
			        flaw == LABEL_STRING && s == 500 ? 99
			                                         : 6 + s % 2);
			gb_msg(&m, 3, &l);
			free(l.p);
		}
		if (s % 11 == 0) {
			struct gbuf l = {0};

			gb_uint(&l, 1, 8);
			gb_uint(&l, 3, s);
			gb_uint(&l, 4, 4);
			gb_msg(&m, 3, &l);
			free(l.p);
		}
		gb_msg(&b, 2, &m);
	}
	if (flaw == TYPE_AFTER_SAMPLE) {
		m.len = 0;
		gb_uint(&m, 1, 1);
		gb_uint(&m, 2, 2);
		gb_msg(&b, 1, &m);
	}
	for (uint32_t k = 0; k < NLOCS; k++) {
		uint32_t i = ids == REVERSED ? NLOCS - 1 - k : k;

		m.len = 0;
		gb_uint(&m, 1, loc_id(ids, i));
		gb_uint(&m, 3, 0x1000 + i);
		gb_msg(&b, 4, &m);
	}
	{
		static const char *const strs[] = {
		        "",  "samples", "count", "cpu", "nanoseconds",
		        "k", "v1",      "v2",    "n"};

		for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
			gb_str(&b, 6, strs[i]);
	}
	free(m.p);
	free(packed.p);
	return b;
}

static struct gbuf build(enum ids ids, enum flaw flaw)
{
	return build_n(ids, flaw, NSAMPLES);
}

static void same_model(const struct pp_profile *a, const struct pp_profile *b)
{
	assert_int_equal(b->nsamples, a->nsamples);
	assert_int_equal(b->nsample_locs, a->nsample_locs);
	assert_int_equal(b->nlabels, a->nlabels);
	assert_int_equal(b->nlocations, a->nlocations);
	assert_int_equal(b->nsample_types, a->nsample_types);
	for (uint32_t l = 0; l < a->nlocations; l++)
		assert_int_equal(a->locations[l].address,
		                 b->locations[l].address);
	assert_memory_equal(a->samples, b->samples,
	                    a->nsamples * sizeof(*a->samples));
	assert_int_equal(b->loc_bytes, a->loc_bytes);
	assert_memory_equal(a->sample_locs, b->sample_locs,
	                    a->nsample_locs * a->loc_bytes);
	assert_memory_equal(a->values, b->values,
	                    a->nsamples * a->nsample_types * sizeof(int64_t));
	for (size_t l = 0; l < a->nlabels; l++) {
		const struct pp_label *la = &a->labels[l], *lb = &b->labels[l];

		assert_string_equal(pp_profile_str(a, la->key),
		                    pp_profile_str(b, lb->key));
		assert_string_equal(pp_profile_str(a, la->str),
		                    pp_profile_str(b, lb->str));
		assert_string_equal(pp_profile_str(a, la->num_unit),
		                    pp_profile_str(b, lb->num_unit));
		assert_int_equal(la->num, lb->num);
	}
}

/* Feed b in pieces: the first 4096 bytes, then sizes from steps, having
 * said that expect bytes will come (0: unknown). 0, or 1 as the stream
 * gave up. */
static int stream_expecting(struct pp_ctx *ctx, const struct gbuf *b,
                            const size_t *steps, size_t nsteps, uint64_t expect,
                            struct pp_profile **out)
{
	struct pp_decode_stream *s;
	size_t at = 0, k = 0;
	int r = 0;

	*out = NULL;
	assert_int_equal(pp_decode_stream_new(ctx, "s", &s), 0);
	pp_decode_stream_expect(s, expect);
	while (at < b->len && r == 0) {
		size_t n = at == 0 ? 4096 : steps[k++ % nsteps];

		if (n > b->len - at)
			n = b->len - at;
		r = pp_decode_stream_push(s, b->p + at, n);
		at += n;
	}
	if (r == 0)
		r = pp_decode_stream_finish(s, out);
	pp_decode_stream_free(s);
	assert_string_equal(ctx->message, "");
	return r;
}

static int stream(struct pp_ctx *ctx, const struct gbuf *b, const size_t *steps,
                  size_t nsteps, struct pp_profile **out)
{
	return stream_expecting(ctx, b, steps, nsteps, 0, out);
}

static void test_decode_stream__same_model(void **state)
{
	static const size_t steps[][4] = {{1, 1, 1, 1},
	                                  {3, 17, 250, 1},
	                                  {4096, 5000, 65536, 2},
	                                  {1 << 20}};

	(void)state;
	for (int ids = IN_ORDER; ids <= HIGH_LAST; ids++) {
		struct gbuf b = build((enum ids)ids, NONE);
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *want = NULL;

		assert_int_equal(pp_decode(&ctx, "s", b.p, b.len, &want), 0);
		assert_int_equal(want->nsamples, NSAMPLES);
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			struct pp_profile *got = NULL;

			assert_int_equal(stream(&ctx, &b, steps[i], 4, &got),
			                 0);
			same_model(want, got);
			/* 500 locations: 16-bit indices, however read. */
			assert_int_equal(got->loc_bytes, 2);
			pp_profile_free(got);
		}
		pp_profile_free(want);
		free(b.p);
	}
}

/*
 * Arrays past a megabyte are sized once from the size the input is said
 * to have: the same model whether that is true, too small, far too large
 * or less than what already came, with labels on every fifth sample.
 */
static void test_decode_stream__expected_size(void **state)
{
	static const size_t steps[] = {65536};
	struct gbuf b = build_n(IN_ORDER, NONE, 200000);
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *want = NULL;
	const uint64_t expects[] = {
	        b.len, b.len / 3, (uint64_t)b.len * 1000, (uint64_t)1 << 45,
	        4096,  1};

	(void)state;
	assert_int_equal(pp_decode(&ctx, "s", b.p, b.len, &want), 0);
	assert_int_equal(want->nsamples, 200000);
	/* Past a megabyte of locations, as the sizing needs. */
	assert_true(want->nsample_locs * want->loc_bytes > (1u << 21));
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++) {
		struct pp_profile *got = NULL;

		assert_int_equal(
		        stream_expecting(&ctx, &b, steps, 1, expects[i], &got),
		        0);
		same_model(want, got);
		pp_profile_free(got);
	}
	pp_profile_free(want);
	free(b.p);
}

static void test_decode_stream__gives_up(void **state)
{
	static const size_t steps[] = {1000};
	static const enum flaw flaws[] = {TYPE_AFTER_SAMPLE, UNKNOWN_LOCATION,
	                                  LABEL_STRING};

	(void)state;
	for (size_t i = 0; i < sizeof(flaws) / sizeof(flaws[0]); i++) {
		struct gbuf b = build(IN_ORDER, flaws[i]);
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = NULL;

		assert_int_equal(stream(&ctx, &b, steps, 1, &p), 1);
		assert_null(p);
		free(b.p);
	}
	{
		/* Truncated inside the strings. */
		struct gbuf b = build(IN_ORDER, NONE);
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = NULL;

		b.len -= 2;
		assert_int_equal(stream(&ctx, &b, steps, 1, &p), 1);
		assert_null(p);
		free(b.p);
	}
	{
		/* Text (a legacy heap profile) and a start too short to
		 * tell. */
		struct gbuf b = {0};
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *p = NULL;
		static const char heap[] =
		        "heap profile: 1: 2 [3: 4] @ heap/1048576\n";

		while (b.len < 8192)
			gb_put(&b, heap, sizeof(heap) - 1);
		assert_int_equal(stream(&ctx, &b, steps, 1, &p), 1);
		b.len = 100;
		assert_int_equal(stream(&ctx, &b, steps, 1, &p), 1);
		assert_null(p);
		free(b.p);
	}
}

/* gzip members of b, cut into n members. */
static struct gbuf gzip_of(const struct gbuf *b, int n)
{
	struct gbuf out = {0};
	size_t at = 0;

	for (int i = 0; i < n; i++) {
		size_t part = i == n - 1 ? b->len - at : b->len / (size_t)n;
		uint8_t tmp[65536];
		z_stream z;
		int zr;

		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 31, 8,
		                              Z_DEFAULT_STRATEGY),
		                 Z_OK);
		z.next_in = b->p + at;
		z.avail_in = (uInt)part;
		do {
			z.next_out = tmp;
			z.avail_out = sizeof(tmp);
			zr = deflate(&z, Z_FINISH);
			gb_put(&out, tmp, sizeof(tmp) - z.avail_out);
		} while (zr == Z_OK);
		assert_int_equal(zr, Z_STREAM_END);
		deflateEnd(&z);
		at += part;
	}
	return out;
}

static int collect(void *arg, const uint8_t *piece, size_t n)
{
	gb_put(arg, piece, n);
	return 0;
}

static int refuse(void *arg, const uint8_t *piece, size_t n)
{
	(void)arg;
	(void)piece;
	(void)n;
	return 1;
}

static void test_decode_stream__gunzip_each(void **state)
{
	struct gbuf raw = build(REVERSED, NONE);
#ifdef PP_HAVE_ISAL
	const int streams = 0;
#else
	const int streams = 1; /* built without ISA-L: never this way */
#endif

	(void)state;
	for (int members = 1; members <= 3; members++) {
		struct gbuf gz = gzip_of(&raw, members), got = {0};
		struct pp_ctx ctx = PP_CTX_INIT;

		/* Zero padding after the last member is fine. */
		gb_put(&gz, "\0\0\0", 3);
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len,
		                                       false, collect, &got),
		                 streams);
		if (!streams) {
			assert_int_equal(got.len, raw.len);
			assert_memory_equal(got.p, raw.p, raw.len);
		}
		/* The consumer gives up: so does the inflater. */
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len,
		                                       false, refuse, NULL),
		                 1);
		/* Truncated, corrupt, over --max-size: not this way. */
		got.len = 0;
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p,
		                                       gz.len - 12, false,
		                                       collect, &got),
		                 1);
		gz.p[gz.len / 2] ^= 0x55;
		got.len = 0;
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len,
		                                       false, collect, &got),
		                 1);
		gz.p[gz.len / 2] ^= 0x55;
		ctx.max_size = raw.len - 1;
		got.len = 0;
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len,
		                                       false, collect, &got),
		                 1);
		ctx.max_size = raw.len;
		got.len = 0;
		assert_int_equal(pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len,
		                                       false, collect, &got),
		                 streams);
		assert_string_equal(ctx.message, "");
		free(gz.p);
		free(got.p);
	}
	free(raw.p);
}

/* Through pp_session_decode: the same profile as inflating it whole. */
static void test_decode_stream__source_decode(void **state)
{
	struct gbuf raw = build(IN_ORDER, NONE), gz = gzip_of(&raw, 1);
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *want = NULL, *got = NULL;

	(void)state;
	assert_int_equal(pp_decode(&ctx, "s", raw.p, raw.len, &want), 0);
	assert_int_equal(pp_session_decode(&ctx, "s", gz.p, gz.len, &got), 0);
	same_model(want, got);
	pp_profile_free(want);
	pp_profile_free(got);
	free(raw.p);
	free(gz.p);
}

/* Incompressible bytes: a gzip of n of them is as big. */
static void random_bytes(struct gbuf *b, size_t n)
{
	uint64_t x = 99;

	for (size_t i = 0; i < n; i++) {
		uint8_t c;

		x = x * 6364136223846793005ull + 1442695040888963407ull;
		c = (uint8_t)(x >> 56);
		gb_put(b, &c, 1);
	}
}

/* b into a new file named from the template path (the caller unlinks
 * it). */
static void write_temp(char *path, const struct gbuf *b)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b->p, 1, b->len, f), b->len);
	assert_int_equal(fclose(f), 0);
}

struct stop_after {
	size_t pieces, limit;
};

static int stop_after(void *arg, const uint8_t *piece, size_t n)
{
	struct stop_after *s = arg;

	(void)piece;
	(void)n;
	return ++s->pieces > s->limit;
}

/*
 * The compressed input's pages are given back as the inflate passes them
 * (release_input): 2 when the consumer gives up after that; and a file
 * whose stream gives up at its very end, after its first pages went, is
 * read again and decoded whole.
 */
static void test_decode_stream__release_input(void **state)
{
	struct gbuf raw = build(IN_ORDER, NONE), noise = {0}, type = {0};
	struct gbuf sample = {0}, gz;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *want = NULL, *got = NULL;
	struct stop_after stop = {0, 20};
	char path[] = "/tmp/decode_stream_XXXXXX";
	int r;

	(void)state;
	/* An unused 6 MB string, then a sample at a location whose id
	 * needs 34 bits, which the stream does not take and pp_decode
	 * does. */
	random_bytes(&noise, 6u << 20);
	gb_msg(&raw, 6, &noise);
	gb_uint(&sample, 1, (uint64_t)1 << 33);
	gb_uint(&sample, 2, 1);
	gb_uint(&sample, 2, 2);
	gb_msg(&raw, 2, &sample);
	gb_uint(&type, 1, (uint64_t)1 << 33);
	gb_msg(&raw, 4, &type);
	gz = gzip_of(&raw, 1);
	assert_true(gz.len > (6u << 20));
	r = pp_source_gunzip_each(&ctx, NULL, gz.p, gz.len, true, stop_after,
	                          &stop);
#ifdef PP_HAVE_ISAL
	assert_int_equal(r, 2);
#else
	assert_int_equal(r, 1);
#endif
	free(gz.p);
	gz = gzip_of(&raw, 1);
	assert_int_equal(pp_decode(&ctx, "want", raw.p, raw.len, &want), 0);
	assert_int_equal(want->nsamples, NSAMPLES + 1);
	write_temp(path, &gz);
	assert_int_equal(pp_session_decode_file(&ctx, path, &got), 0);
	unlink(path);
	same_model(want, got);
	pp_profile_free(want);
	pp_profile_free(got);
	free(raw.p);
	free(noise.p);
	free(type.p);
	free(sample.p);
	free(gz.p);
}

/*
 * A file whose stream gives up only when it is finished (a sample names a
 * location the file lacks, seen once every location is known), after the
 * inflate gave back its first pages: it is read again and decoded whole,
 * so the error is pp_decode's, not that of inflating zeroed pages.
 */
static void test_decode_stream__gives_up_at_finish(void **state)
{
	struct gbuf raw = build(IN_ORDER, UNKNOWN_LOCATION), noise = {0}, gz;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	char path[] = "/tmp/decode_stream_XXXXXX", want[sizeof(ctx.message)];
	int err;

	(void)state;
	random_bytes(&noise, 6u << 20);
	gb_msg(&raw, 6, &noise);
	err = pp_decode(&ctx, "x", raw.p, raw.len, &p);
	assert_true(err < 0);
	gz = gzip_of(&raw, 1);
	assert_true(gz.len > (6u << 20));
	write_temp(path, &gz);
	/* The same message, naming the file: "x" was the name. */
	memcpy(want, ctx.message + 1, sizeof(want) - 1);
	ctx.message[0] = '\0';
	assert_int_equal(pp_session_decode_file(&ctx, path, &p), err);
	unlink(path);
	assert_null(p);
	assert_memory_equal(ctx.message, path, strlen(path));
	assert_string_equal(ctx.message + strlen(path), want);
	free(raw.p);
	free(noise.p);
	free(gz.p);
}

/* Location ids of the sample shapes below: each side of every varint
 * length the stream's id reader tells apart (1, 2, 3 bytes, then more). */
static const uint64_t shape_ids[] = {1,     2,     5,       127,     128,
                                     16383, 16384, 2097151, 2097152, 7};

/* A profile of n copies of the sample whose body is body, over locations
 * shape_ids, in Go's layout; big enough for the stream (4096 bytes). */
static struct gbuf shape_profile(const struct gbuf *body, size_t n)
{
	struct gbuf b = {0}, m = {0};
	static const char *const strs[] = {"", "samples", "count", "cpu",
	                                   "nanoseconds"};

	for (int t = 0; t < 2; t++) {
		m.len = 0;
		gb_uint(&m, 1, 1 + 2 * (uint64_t)t);
		gb_uint(&m, 2, 2 + 2 * (uint64_t)t);
		gb_msg(&b, 1, &m);
	}
	for (size_t i = 0; i < n; i++)
		gb_msg(&b, 2, body);
	for (size_t i = 0; i < sizeof(shape_ids) / sizeof(shape_ids[0]); i++) {
		m.len = 0;
		gb_uint(&m, 1, shape_ids[i]);
		gb_uint(&m, 3, 0x1000 + i);
		gb_msg(&b, 4, &m);
	}
	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		gb_str(&b, 6, strs[i]);
	free(m.p);
	return b;
}

/* n bytes at raw as a packed field of body (raw may be NULL when n is 0). */
static void shape_packed(struct gbuf *body, uint32_t field, const uint8_t *raw,
                         size_t n)
{
	gb_varint(body, (uint64_t)field << 3 | 2);
	gb_varint(body, n);
	if (n)
		gb_put(body, raw, n);
}

/*
 * Samples in every shape a writer may give them: the stream's packed-sample
 * reader takes Go's, and hands the others to the general one (ids or values
 * one per field, fields in another order, fields it does not know, lengths
 * of three bytes, ids written in more bytes than they need); each makes
 * the model pp_decode makes. An id 0, in any spelling and anywhere in its
 * field, makes the stream give up.
 */
static void test_decode_stream__sample_shapes(void **state)
{
	static const size_t steps[][1] = {{1}, {333}, {1 << 20}};
	struct gbuf ids = {0}, vals = {0}, body = {0};
	size_t nids = sizeof(shape_ids) / sizeof(shape_ids[0]);

	(void)state;
	for (size_t i = 0; i < nids; i++)
		gb_varint(&ids, shape_ids[i]);
	gb_varint(&vals, 3);
	gb_varint(&vals, 10000000);
	for (int shape = 0; shape < 9; shape++) {
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_profile *want = NULL;
		struct gbuf b;

		body.len = 0;
		switch (shape) {
		case 0: /* Go's */
			shape_packed(&body, 1, ids.p, ids.len);
			shape_packed(&body, 2, vals.p, vals.len);
			break;
		case 1: /* one id, one value a field */
			for (size_t i = 0; i < nids; i++)
				gb_uint(&body, 1, shape_ids[i]);
			gb_uint(&body, 2, 3);
			gb_uint(&body, 2, 10000000);
			break;
		case 2: /* values first, an unknown field between */
			shape_packed(&body, 2, vals.p, vals.len);
			gb_uint(&body, 9, 42);
			shape_packed(&body, 1, ids.p, ids.len);
			break;
		case 3: { /* ids in more bytes than they need: 1, 2, 1 */
			static const uint8_t raw[] = {0x81, 0x00, 0x82, 0x80,
			                              0x00, 0x81, 0x80, 0x80,
			                              0x80, 0x00};

			shape_packed(&body, 1, raw, sizeof(raw));
			shape_packed(&body, 2, vals.p, vals.len);
			break;
		}
		case 4: /* no ids; then a field of 20,000 (a 3-byte length) */
		case 5: /* 8,000 (2 bytes) */
		{
			struct gbuf many = {0};
			size_t n = shape == 4 ? 20000 : 8000;

			shape_packed(&body, 1, NULL, 0);
			for (size_t i = 0; i < n; i++)
				gb_varint(&many, shape_ids[i % nids]);
			shape_packed(&body, 1, many.p, many.len);
			shape_packed(&body, 2, vals.p, vals.len);
			free(many.p);
			break;
		}
		case 6: /* an id 0, alone */
		case 7: /* in two bytes */
		case 8: /* in the field's last byte */
		{
			static const uint8_t zero1[] = {0x05, 0x00, 0x05, 0x05};
			static const uint8_t zero2[] = {0x05, 0x80, 0x00, 0x05};
			static const uint8_t zero_last[] = {0x05, 0x05, 0x00};

			if (shape == 6)
				shape_packed(&body, 1, zero1, sizeof(zero1));
			else if (shape == 7)
				shape_packed(&body, 1, zero2, sizeof(zero2));
			else
				shape_packed(&body, 1, zero_last,
				             sizeof(zero_last));
			shape_packed(&body, 2, vals.p, vals.len);
			break;
		}
		}
		b = shape_profile(&body, 4096 / body.len + 2);
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			struct pp_profile *got = NULL;

			if (shape >= 6) {
				assert_int_equal(
				        stream(&ctx, &b, steps[i], 1, &got), 1);
				assert_null(got);
				continue;
			}
			if (!want)
				assert_int_equal(
				        pp_decode(&ctx, "s", b.p, b.len, &want),
				        0);
			assert_int_equal(stream(&ctx, &b, steps[i], 1, &got),
			                 0);
			same_model(want, got);
			pp_profile_free(got);
		}
		pp_profile_free(want);
		free(b.p);
	}
	free(ids.p);
	free(vals.p);
	free(body.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_decode_stream__same_model),
	        cmocka_unit_test(test_decode_stream__expected_size),
	        cmocka_unit_test(test_decode_stream__gives_up),
	        cmocka_unit_test(test_decode_stream__gunzip_each),
	        cmocka_unit_test(test_decode_stream__source_decode),
	        cmocka_unit_test(test_decode_stream__release_input),
	        cmocka_unit_test(test_decode_stream__gives_up_at_finish),
	        cmocka_unit_test(test_decode_stream__sample_shapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
