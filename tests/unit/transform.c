/* src/transform on small hand-built profiles: merge, base/diff_base and
 * normalize, the name filters, the tag filters with numeric ranges, and
 * drop_frames/keep_frames, each checked against the exact stacks, values
 * and labels pprof's own code (profile/merge.go, filter.go, prune.go,
 * driver/driver_focus.go, fetch.go) gives for the same input: each was
 * checked once against go tool pprof 1.19 -traces/-raw on these profiles
 * written out with pp_encode_proto_gzip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/encode.h"
#include "pprof/transform.h"
#include "pprof/tree.h"
#include "profile/internal.h"

/* ---- building profiles from text ----------------------------------------
 *
 * A sample is one string "STACK VALUES [LABEL...]":
 *   STACK   frames root first, separated by ';'. A frame is one location;
 *           inlined functions in it are separated by '|', outermost first
 *           ("hashLoop|mix" is mix inlined into hashLoop). A function is
 *           NAME or NAME@FILE (default file "prog.go"). The same frame text
 *           is the same location; the same NAME@FILE the same function.
 *   VALUES  comma-separated, one per sample type.
 *           A frame "TEXT#N" is a location of its own that is otherwise
 *           TEXT's twin (same address and lines), as profiles sometimes
 *           hold.
 *   LABEL   key=value (string), key#N or key#N@UNIT (numeric).
 * A '~' in a function name is a space.
 * Every location is in one mapping, /bin/prog.
 */

struct built {
	struct pp_profile *p;
	char *frames[64]; /* the frame text of each location */
	uint32_t nframes;
};

static uint32_t function(struct pp_profile *p, const char *spec, size_t len)
{
	char buf[256];
	const char *at;
	struct pp_function f = {0};
	uint32_t idx;

	assert_true(len < sizeof(buf));
	memcpy(buf, spec, len);
	buf[len] = '\0';
	at = strchr(buf, '@');
	f.filename = pp_profile_intern(p, at ? at + 1 : "prog.go");
	if (at)
		buf[at - buf] = '\0';
	for (char *t = buf; *t; t++)
		if (*t == '~')
			*t = ' ';
	f.name = f.system_name = pp_profile_intern(p, buf);
	for (uint32_t i = 0; i < p->nfunctions; i++)
		if (p->functions[i].name == f.name &&
		    p->functions[i].filename == f.filename)
			return i;
	f.id = p->nfunctions + 1;
	assert_int_equal(pp_profile_add_function(p, &f, &idx), 0);
	return idx;
}

static uint32_t location(struct built *b, const char *frame, size_t len)
{
	struct pp_location l = {0};
	struct pp_line lines[8];
	size_t n = 0, start = 0;
	uint32_t idx;

	size_t full = len;

	for (uint32_t i = 0; i < b->nframes; i++)
		if (strlen(b->frames[i]) == len &&
		    memcmp(b->frames[i], frame, len) == 0)
			return i;
	/* "TEXT#N": TEXT's twin. */
	for (size_t i = 0; i < len; i++)
		if (frame[i] == '#')
			len = i;
	/* Lines outermost first in the text, innermost first in the model. */
	for (size_t i = 0; i <= len; i++) {
		if (i < len && frame[i] != '|')
			continue;
		assert_true(n < 8);
		lines[n].function = function(b->p, frame + start, i - start);
		lines[n].line = 10 * (int64_t)(n + 1);
		lines[n].column = 0;
		n++;
		start = i + 1;
	}
	for (size_t i = 0; i < n / 2; i++) {
		struct pp_line t = lines[i];

		lines[i] = lines[n - 1 - i];
		lines[n - 1 - i] = t;
	}
	l.id = b->nframes + 1;
	/* The same frame text gets the same address in every profile, so
	 * that merging finds it (pprof keys locations by address). */
	l.address = 0x1000;
	for (size_t i = 0; i < len; i++)
		l.address = (l.address * 31 + (unsigned char)frame[i]) % 0x7ff0;
	l.address = 0x1000 + (l.address & ~(uint64_t)0xf);
	l.mapping = 0;
	assert_int_equal(pp_profile_add_location(b->p, &l, lines, n, &idx), 0);
	assert_int_equal(idx, b->nframes);
	b->frames[b->nframes++] = strndup(frame, full);
	return idx;
}

static void add_sample(struct built *b, const char *spec)
{
	char *copy = strdup(spec), *save = NULL;
	char *stack = strtok_r(copy, " ", &save);
	char *values = strtok_r(NULL, " ", &save), *tok;
	uint32_t frames[64], locs[64], nf = 0;
	int64_t v[8];
	struct pp_label labels[8];
	size_t nv = 0, nl = 0, start = 0, len = strlen(stack);

	for (size_t i = 0; i <= len; i++) {
		if (i < len && stack[i] != ';')
			continue;
		if (i > start)
			frames[nf++] = location(b, stack + start, i - start);
		start = i + 1;
	}
	for (uint32_t i = 0; i < nf; i++)
		locs[i] = frames[nf - 1 - i]; /* leaf first */
	for (char *vs = NULL, *t = strtok_r(values, ",", &vs); t;
	     t = strtok_r(NULL, ",", &vs))
		v[nv++] = strtoll(t, NULL, 10);
	assert_int_equal(nv, b->p->nsample_types);
	while ((tok = strtok_r(NULL, " ", &save))) {
		struct pp_label *l = &labels[nl++];
		char *eq = strchr(tok, '='), *hash = strchr(tok, '#');

		memset(l, 0, sizeof(*l));
		if (eq) {
			*eq = '\0';
			l->key = pp_profile_intern(b->p, tok);
			l->str = pp_profile_intern(b->p, eq + 1);
		} else {
			char *at = strchr(tok, '@');

			assert_non_null(hash);
			*hash = '\0';
			if (at) {
				*at = '\0';
				l->num_unit = pp_profile_intern(b->p, at + 1);
			}
			l->key = pp_profile_intern(b->p, tok);
			l->num = strtoll(hash + 1, NULL, 10);
		}
	}
	assert_int_equal(pp_profile_add_sample(b->p, locs, nf, v, labels, nl),
	                 0);
	free(copy);
}

/* A profile with sample types "type/unit type/unit ..." and samples. */
static struct pp_profile *build(struct pp_ctx *ctx, const char *types,
                                const char *const *samples)
{
	struct built b = {0};
	struct pp_mapping m = {0};
	char *copy = strdup(types), *save = NULL;

	b.p = pp_profile_new(ctx);
	assert_non_null(b.p);
	for (char *t = strtok_r(copy, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		char *slash = strchr(t, '/');

		*slash = '\0';
		assert_int_equal(pp_profile_add_sample_type(
		                         b.p, pp_profile_intern(b.p, t),
		                         pp_profile_intern(b.p, slash + 1)),
		                 0);
	}
	free(copy);
	m.id = 1;
	m.start = 0x1000;
	m.limit = 0x9000;
	m.file = pp_profile_intern(b.p, "/bin/prog");
	m.has_functions = true;
	assert_int_equal(pp_profile_add_mapping(b.p, &m, NULL), 0);
	b.p->period_type = b.p->sample_types[b.p->nsample_types - 1];
	b.p->period = 10;
	for (size_t i = 0; samples[i]; i++)
		add_sample(&b, samples[i]);
	for (uint32_t i = 0; i < b.nframes; i++)
		free(b.frames[i]);
	return b.p;
}

#define CPU "samples/count cpu/nanoseconds"
#define PROFILE(ctx, types, ...) \
	build((ctx), (types), (const char *const[]){__VA_ARGS__, NULL})

/* ---- printing profiles as text ------------------------------------------
 * The samples in order, in the notation above (function names only), one
 * per line. */

static void put(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 1 > *cap) {
		*cap = 2 * (*len + n + 1);
		*buf = realloc(*buf, *cap);
		assert_non_null(*buf);
	}
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

static char *dump(const struct pp_profile *p)
{
	char *buf = NULL, tmp[256];
	size_t len = 0, cap = 0;

	put(&buf, &len, &cap, "");
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = pp_profile_sample_values(p, s);
		uint32_t nl;
		const struct pp_label *labels = pp_sample_labels(p, s, &nl);

		for (uint32_t i = smp->loc_count; i-- > 0;) {
			const struct pp_location *l =
			        &p->locations[pp_profile_loc(p, smp->loc_first +
			                                                i)];

			for (uint32_t k = l->line_count; k-- > 0;) {
				uint32_t f =
				        p->lines[l->line_first + k].function;

				put(&buf, &len, &cap,
				    pp_profile_str(p, p->functions[f].name));
				if (k)
					put(&buf, &len, &cap, "|");
			}
			if (i)
				put(&buf, &len, &cap, ";");
		}
		for (uint32_t t = 0; t < p->nsample_types; t++) {
			snprintf(tmp, sizeof(tmp), "%s%lld", t ? "," : " ",
			         (long long)v[t]);
			put(&buf, &len, &cap, tmp);
		}
		for (uint32_t i = 0; i < nl; i++) {
			const struct pp_label *l = &labels[i];

			if (l->str)
				snprintf(tmp, sizeof(tmp), " %s=%s",
				         pp_profile_str(p, l->key),
				         pp_profile_str(p, l->str));
			else
				snprintf(tmp, sizeof(tmp), " %s#%lld%s%s",
				         pp_profile_str(p, l->key),
				         (long long)l->num,
				         l->num_unit ? "@" : "",
				         pp_profile_str(p, l->num_unit));
			put(&buf, &len, &cap, tmp);
		}
		put(&buf, &len, &cap, "\n");
	}
	return buf;
}

#define assert_profile(p, expected)                  \
	do {                                         \
		char *got_ = dump(p);                \
		assert_string_equal(got_, expected); \
		free(got_);                          \
	} while (0)

/* ---- fixture: a context that records warnings ---------------------------- */

struct fixture {
	struct pp_ctx ctx;
	char warnings[4096];
};

static void record_warning(void *data, const char *msg)
{
	struct fixture *f = data;
	size_t n = strlen(f->warnings);

	snprintf(f->warnings + n, sizeof(f->warnings) - n, "%s\n", msg);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct pp_ctx init = PP_CTX_INIT;

	if (!f)
		return -1;
	f->ctx = init;
	f->ctx.warn = record_warning;
	f->ctx.warn_data = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* Filter in with o; the result, which the caller frees. */
static struct pp_profile *filtered(struct fixture *f,
                                   const struct pp_profile *in,
                                   const struct pp_filter_opts *o)
{
	struct pp_profile *out = NULL;

	assert_int_equal(pp_profile_filter(&f->ctx, in, o, &out), 0);
	assert_non_null(out);
	return out;
}

/* ---- merge --------------------------------------------------------------- */

static void test_transform__merge_sums_and_shares(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a = PROFILE(&f->ctx, CPU, "main;work 1,10",
	                               "main;idle 0,0", "main;work|mix 2,20");
	struct pp_profile *b = PROFILE(&f->ctx, CPU, "main;work|mix 3,30",
	                               "main;other 4,40", "main;work 5,50");
	struct pp_profile *both[2] = {a, b}, *m = NULL;

	a->time_nanos = 2000;
	b->time_nanos = 1000;
	a->duration_nanos = 7;
	b->duration_nanos = 8;
	b->period = 99;
	assert_int_equal(
	        pp_profile_add_comment(a, pp_profile_intern(a, "run 1")), 0);
	assert_int_equal(
	        pp_profile_add_comment(b, pp_profile_intern(b, "run 1")), 0);
	assert_int_equal(
	        pp_profile_add_comment(b, pp_profile_intern(b, "run 2")), 0);
	assert_int_equal(pp_profile_merge(&f->ctx, both, NULL, 2, &m), 0);
	/* Equal stacks summed in first-seen order; the zero sample gone. */
	assert_profile(m, "main;work 6,60\n"
	                  "main;work|mix 5,50\n"
	                  "main;other 4,40\n");
	/* One record per function and location, whichever file had it;
	 * only what the samples use (idle is gone). */
	assert_int_equal(m->nfunctions, 4);
	assert_int_equal(m->nlocations, 4);
	assert_int_equal(m->nmappings, 1);
	/* Ids renumbered 1.. in the order samples reach them. */
	for (uint32_t i = 0; i < m->nlocations; i++)
		assert_int_equal(m->locations[i].id, i + 1);
	/* Functions too, in the order samples reach them (leaf first). */
	assert_string_equal(pp_profile_str(m, m->functions[0].name), "work");
	assert_string_equal(pp_profile_str(m, m->functions[1].name), "main");
	assert_string_equal(pp_profile_str(m, m->functions[2].name), "mix");
	assert_string_equal(pp_profile_str(m, m->functions[3].name), "other");
	assert_int_equal(m->time_nanos, 1000);
	assert_int_equal(m->duration_nanos, 15);
	assert_int_equal(m->period, 99);
	assert_int_equal(m->ncomments, 2);
	assert_string_equal(pp_profile_str(m, m->comments[0]), "run 1");
	assert_string_equal(pp_profile_str(m, m->comments[1]), "run 2");
	pp_profile_free(m);
	pp_profile_free(a);
	pp_profile_free(b);
}

static void test_transform__merge_keeps_label_sets_apart(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a =
	        PROFILE(&f->ctx, CPU, "main;work 1,10 handler=login region=eu",
	                "main;work 2,20 region=eu handler=login",
	                "main;work 4,40 handler=search region=eu",
	                "main;work 8,80", "main;work 16,160 bytes#64@bytes",
	                "main;work 32,320 bytes#64@bytes");
	struct pp_profile *m = NULL;

	assert_int_equal(pp_profile_merge(&f->ctx, &a, NULL, 1, &m), 0);
	/* Labels are compared as a set (the order in the file does not
	 * matter), strings before numbers, keys in order of interning. */
	assert_profile(m, "main;work 3,30 handler=login region=eu\n"
	                  "main;work 4,40 handler=search region=eu\n"
	                  "main;work 8,80\n"
	                  "main;work 48,480 bytes#64@bytes\n");
	pp_profile_free(m);
	pp_profile_free(a);
}

/* A profile alone: equal samples found through its own location indices
 * when they are distinct, through the merge's keys when two locations are
 * twins; label values of one key compared in order. */
static void test_transform__merge_one_profile(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a =
	        PROFILE(&f->ctx, CPU, "main;work 1,10 k=a k=b",
	                "main;work 2,20 k=b k=a", "main;work 4,40 k=a k=b",
	                "main;work 8,80 k=a j=x k=b",
	                "main;work 16,160 j=x k=a k=b", "main;idle 0,0");
	struct pp_profile *b = PROFILE(&f->ctx, CPU, "main;work 1,10",
	                               "main;work#2 2,20", "main#2;work 4,40",
	                               "main;other 8,80", "main;work#2 16,160");
	struct pp_profile *m = NULL;

	assert_int_equal(pp_profile_merge(&f->ctx, &a, NULL, 1, &m), 0);
	assert_profile(m, "main;work 5,50 k=a k=b\n"
	                  "main;work 2,20 k=b k=a\n"
	                  "main;work 24,240 k=a k=b j=x\n");
	assert_int_equal(m->nlocations, 2);
	pp_profile_free(m);
	assert_int_equal(b->nlocations, 5);
	assert_int_equal(pp_profile_merge(&f->ctx, &b, NULL, 1, &m), 0);
	assert_profile(m, "main;work 23,230\n"
	                  "main;other 8,80\n");
	assert_int_equal(m->nlocations, 3);
	pp_profile_free(m);
	pp_profile_free(a);
	pp_profile_free(b);
}

static void test_transform__merge_refuses_other_types(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a = PROFILE(&f->ctx, CPU, "main 1,1");
	struct pp_profile *b =
	        PROFILE(&f->ctx, "samples/count cpu/bytes", "main 1,1");
	struct pp_profile *c = PROFILE(&f->ctx, "alloc/count", "main 1");
	struct pp_profile *ab[2] = {a, b}, *ac[2] = {a, c}, *m = NULL;
	const char *names[2] = {"a.pb.gz", "b.pb.gz"};

	/* Units of two kinds cannot be brought to one: cpu/nanoseconds and
	 * cpu/bytes are different period types. */
	assert_int_equal(pp_profile_merge(&f->ctx, ab, names, 2, &m),
	                 PP_EUSAGE);
	assert_null(m);
	assert_string_equal(f->ctx.message, "b.pb.gz: cannot merge profiles "
	                                    "with different period types");
	/* A type kept with a unit of another kind. */
	b->period_type.unit = pp_profile_intern(b, "nanoseconds");
	assert_int_equal(pp_profile_merge(&f->ctx, ab, names, 2, &m),
	                 PP_EUSAGE);
	assert_string_equal(f->ctx.message, "b.pb.gz: cannot merge profiles "
	                                    "with different sample types");
	/* No type in common (checked before the period types, as pprof). */
	assert_int_equal(pp_profile_merge(&f->ctx, ac, names, 2, &m),
	                 PP_EUSAGE);
	assert_string_equal(f->ctx.message, "b.pb.gz: profiles have empty "
	                                    "common sample type list");
	pp_profile_free(a);
	pp_profile_free(b);
	pp_profile_free(c);
}

/* pprof's CompatibilizeSampleTypes: the types all profiles have, in the
 * first one's order, each profile's values moved to them; the default is
 * the first profile's, or the first type kept when its types changed. */
static void test_transform__merge_keeps_common_types(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a = PROFILE(
	        &f->ctx, "wall/nanoseconds samples/count cpu/nanoseconds",
	        "main;work 10,1,7", "main;idle 0,0,3");
	struct pp_profile *b =
	        PROFILE(&f->ctx, "samples/count wall/nanoseconds",
	                "main;work 2,20", "main;new 1,5");
	struct pp_profile *ab[2] = {a, b}, *m = NULL;

	b->period_type.type = pp_profile_intern(b, "cpu");
	b->period_type.unit = pp_profile_intern(b, "nanoseconds");
	assert_int_equal(pp_profile_merge(&f->ctx, ab, NULL, 2, &m), 0);
	assert_int_equal(m->nsample_types, 2);
	assert_string_equal(pp_profile_str(m, m->sample_types[0].type), "wall");
	assert_string_equal(pp_profile_str(m, m->sample_types[1].type),
	                    "samples");
	/* idle is worth nothing in the types kept: it goes. */
	assert_profile(m, "main;work 30,3\n"
	                  "main;new 5,1\n");
	assert_string_equal(pp_profile_str(m, m->default_sample_type), "wall");
	pp_profile_free(m);
	/* A default that is kept stays. */
	a->default_sample_type = pp_profile_intern(a, "samples");
	assert_int_equal(pp_profile_merge(&f->ctx, ab, NULL, 2, &m), 0);
	assert_string_equal(pp_profile_str(m, m->default_sample_type),
	                    "samples");
	pp_profile_free(m);
	pp_profile_free(a);
	pp_profile_free(b);
}

/* pprof's ScaleProfiles: units of one kind become the smaller one, the
 * other profile's values scaled (rounded) to it, its period too; a sample
 * whose scaled values come to 0 goes, whatever its others hold. Either
 * order gives the same. */
static void test_transform__merge_scales_units(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *a = PROFILE(
	        &f->ctx, "samples/count wall/nanoseconds", "main;work 1,5000");
	struct pp_profile *b =
	        PROFILE(&f->ctx, "samples/count wall/microseconds",
	                "main;work 2,7", "main;tiny 1,0");
	struct pp_profile *ab[2] = {a, b}, *ba[2] = {b, a}, *m = NULL;

	for (int order = 0; order < 2; order++) {
		assert_int_equal(
		        pp_profile_merge(&f->ctx, order ? ba : ab, NULL, 2, &m),
		        0);
		assert_profile(m, "main;work 3,12000\n");
		assert_string_equal(pp_profile_str(m, m->sample_types[1].unit),
		                    "nanoseconds");
		assert_string_equal(pp_profile_str(m, m->period_type.unit),
		                    "nanoseconds");
		assert_int_equal(m->period, 10000);
		pp_profile_free(m);
	}
	pp_profile_free(a);
	pp_profile_free(b);
}

/* One at a time (each input freed once added, as files are merged while
 * they are read): the merge of all at once, and the same refusal. */
static void test_transform__merger_one_at_a_time(void **state)
{
	struct fixture *f = *state;
	const char *const texts[3][3] = {
	        {"main;work 1,10", "main;idle 0,0", "main;work|mix 2,20"},
	        {"main;work|mix 3,30", "main;other 4,40", "main;work 5,50"},
	        {"main;other -4,-40", "main;work 1,10", "main;new 7,70"},
	};
	struct pp_profile *all[3], *whole = NULL, *m = NULL;
	struct pp_merger *mg = NULL;

	for (int i = 0; i < 3; i++)
		all[i] = PROFILE(&f->ctx, CPU, texts[i][0], texts[i][1],
		                 texts[i][2]);
	assert_int_equal(pp_profile_merge(&f->ctx, all, NULL, 3, &whole), 0);
	for (int i = 0; i < 3; i++) {
		struct pp_profile *p = PROFILE(&f->ctx, CPU, texts[i][0],
		                               texts[i][1], texts[i][2]);

		if (!mg)
			assert_int_equal(pp_merger_new(&f->ctx, p, &mg), 0);
		assert_int_equal(pp_merger_add(mg, p, "p.pb.gz"), 0);
		pp_profile_free(p);
	}
	assert_int_equal(pp_merger_finish(mg, &m), 0);
	pp_merger_free(mg);
	/* other's values cancel out: that sample and its location go. */
	assert_profile(m, "main;work 7,70\n"
	                  "main;work|mix 5,50\n"
	                  "main;new 7,70\n");
	assert_profile(whole, "main;work 7,70\n"
	                      "main;work|mix 5,50\n"
	                      "main;new 7,70\n");
	assert_int_equal(m->nlocations, whole->nlocations);
	assert_int_equal(m->nfunctions, whole->nfunctions);
	pp_profile_free(m);
	pp_profile_free(whole);
	/* A profile of other sample types is refused, named. */
	assert_int_equal(pp_merger_new(&f->ctx, all[0], &mg), 0);
	assert_int_equal(pp_merger_add(mg, all[0], "a.pb.gz"), 0);
	{
		struct pp_profile *c =
		        PROFILE(&f->ctx, "samples/count", "main 1");

		assert_int_equal(pp_merger_add(mg, c, "c.pb.gz"), PP_EUSAGE);
		assert_string_equal(f->ctx.message,
		                    "c.pb.gz: cannot merge profiles with "
		                    "different period types");
		pp_profile_free(c);
	}
	pp_merger_free(mg);
	for (int i = 0; i < 3; i++)
		pp_profile_free(all[i]);
}

/* ---- base, diff_base, normalize ----------------------------------------- */

static void test_transform__base_subtracts(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *now = PROFILE(&f->ctx, CPU, "main;work 5,50",
	                                 "main;new 1,10", "main;same 2,20");
	struct pp_profile *old = PROFILE(&f->ctx, CPU, "main;work 3,30",
	                                 "main;gone 4,40", "main;same 2,20");
	struct pp_profile *out = NULL;

	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, false, false,
	                                       NULL, &out),
	                 0);
	/* Equal stacks net out; "same" cancels to zero and is dropped. */
	assert_profile(out, "main;work 2,20\n"
	                    "main;new 1,10\n"
	                    "main;gone -4,-40\n");
	for (uint32_t s = 0; s < out->nsamples; s++)
		assert_false(pp_profile_is_base_sample(out, s));
	pp_profile_free(out);
	pp_profile_free(now);
	pp_profile_free(old);
}

static void test_transform__diff_base_marks_base_samples(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *now =
	        PROFILE(&f->ctx, CPU, "main;work 5,50", "main;same 2,20");
	struct pp_profile *old = PROFILE(&f->ctx, CPU, "main;work 3,30",
	                                 "main;same 2,20 pprof::base=false");
	struct pp_profile *out = NULL;

	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, true, false,
	                                       NULL, &out),
	                 0);
	/* The base's samples carry pprof::base=true (replacing a label of
	 * that key), so equal stacks stay apart. */
	assert_profile(out, "main;work 5,50\n"
	                    "main;same 2,20\n"
	                    "main;work -3,-30 pprof::base=true\n"
	                    "main;same -2,-20 pprof::base=true\n");
	assert_false(pp_profile_is_base_sample(out, 0));
	assert_false(pp_profile_is_base_sample(out, 1));
	assert_true(pp_profile_is_base_sample(out, 2));
	assert_true(pp_profile_is_base_sample(out, 3));
	pp_profile_free(out);
	pp_profile_free(now);
	pp_profile_free(old);
}

static void test_transform__normalize_scales_to_base(void **state)
{
	struct fixture *f = *state;
	/* Totals: now 3 and 30; base 9 and 10; a third type zero in now. */
	struct pp_profile *now =
	        PROFILE(&f->ctx, "samples/count cpu/nanoseconds alloc/count",
	                "main;work 1,10,0", "main;idle 2,20,0");
	struct pp_profile *old =
	        PROFILE(&f->ctx, "samples/count cpu/nanoseconds alloc/count",
	                "main;work 9,10,5");
	struct pp_profile *out = NULL;

	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, false, true,
	                                       NULL, &out),
	                 0);
	/* now * (9/3, 10/30, 0): 1*3 - 9, 10/3 rounds to 3, minus 10; idle
	 * 2*3 = 6, 20/3 rounds to 7; a type with a zero total scales to 0. */
	assert_profile(out, "main;work -6,-7,-5\n"
	                    "main;idle 6,7,0\n");
	pp_profile_free(out);
	pp_profile_free(now);
	pp_profile_free(old);
}

static void test_transform__base_with_other_types(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *now = PROFILE(&f->ctx, CPU, "main 1,1");
	struct pp_profile *old = PROFILE(
	        &f->ctx, "alloc_space/bytes inuse_space/bytes", "main 1,1");
	struct pp_profile *out = NULL;
	const char *names[2] = {"now.pb.gz", "old.pb.gz"};

	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, true, false,
	                                       names, &out),
	                 PP_EUSAGE);
	assert_null(out);
	assert_string_equal(f->ctx.message,
	                    "old.pb.gz: base profile has sample types "
	                    "[alloc_space/bytes inuse_space/bytes], now.pb.gz "
	                    "has [samples/count cpu/nanoseconds]");
	pp_profile_free(old);
	/* A base sharing some types: the merge keeps those, as pprof's;
	 * -normalize still needs them all. */
	old = PROFILE(&f->ctx, "samples/count", "main 1");
	old->period_type.type = pp_profile_intern(old, "cpu");
	old->period_type.unit = pp_profile_intern(old, "nanoseconds");
	pp_profile_free(now);
	now = PROFILE(&f->ctx, CPU, "main 3,30");
	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, false, false,
	                                       names, &out),
	                 0);
	assert_int_equal(out->nsample_types, 1);
	assert_profile(out, "main 2\n");
	pp_profile_free(out);
	assert_int_equal(pp_profile_apply_base(&f->ctx, now, old, false, true,
	                                       names, &out),
	                 PP_EUSAGE);
	assert_null(out);
	pp_profile_free(now);
	pp_profile_free(old);
}

/* ---- name filters -------------------------------------------------------- */

/* One profile for the name filters: an inlined pair (mix inlined into
 * hash), a recursion, a file of its own. */
static struct pp_profile *names_profile(struct fixture *f)
{
	return PROFILE(&f->ctx, CPU, "main;handle;hash|mix 1,10",
	               "main;handle;json@json.go;alloc 2,20",
	               "main;walk;walk;leaf 4,40", "main;gc 8,80",
	               "runtime;gc 16,160");
}

static void test_transform__focus_and_ignore(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = names_profile(f), *out;
	struct pp_filter_opts o = {0};

	/* focus keeps whole samples with a matching frame: by function
	 * name (an inlined one too), */
	o.focus = "^mix$";
	out = filtered(f, p, &o);
	assert_profile(out, "main;handle;hash|mix 1,10\n");
	pp_profile_free(out);
	/* by file name, */
	o.focus = "json\\.go";
	out = filtered(f, p, &o);
	assert_profile(out, "main;handle;json;alloc 2,20\n");
	pp_profile_free(out);
	/* by the mapping's file: everything. */
	o.focus = "^/bin/prog$";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 5);
	pp_profile_free(out);
	/* ignore drops samples with any matching frame; with focus, a sample
	 * must have a focused frame and no ignored one. */
	o.focus = "main";
	o.ignore = "gc|mix";
	out = filtered(f, p, &o);
	assert_profile(out, "main;handle;json;alloc 2,20\n"
	                    "main;walk;walk;leaf 4,40\n");
	pp_profile_free(out);
	assert_string_equal(f->warnings, "");
	/* A filter that matches nothing warns, as pprof does. */
	o.focus = "nosuch";
	o.ignore = "nosuch";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 0);
	assert_string_equal(f->warnings,
	                    "Focus expression matched no samples\n"
	                    "Ignore expression matched no samples\n");
	pp_profile_free(out);
	pp_profile_free(p);
}

static void test_transform__hide_and_show(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = names_profile(f), *out;
	struct pp_filter_opts o = {0};

	/* hide drops matching frames, an inlined line on its own; a sample
	 * left without frames goes. */
	o.hide = "^(mix|walk|gc)$";
	out = filtered(f, p, &o);
	assert_profile(out, "main;handle;hash 1,10\n"
	                    "main;handle;json;alloc 2,20\n"
	                    "main;leaf 4,40\n"
	                    "main 8,80\n"
	                    "runtime 16,160\n");
	pp_profile_free(out);
	o.hide = "^(runtime|gc)$";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 4);
	pp_profile_free(out);
	/* show keeps only matching frames (by name or file). */
	o.hide = NULL;
	o.show = "^(handle|mix|walk)$|json\\.go";
	out = filtered(f, p, &o);
	assert_profile(out, "handle;mix 1,10\n"
	                    "handle;json 2,20\n"
	                    "walk;walk 4,40\n");
	pp_profile_free(out);
	/* show and hide together: shown, then hidden. */
	o.hide = "walk";
	out = filtered(f, p, &o);
	assert_profile(out, "handle;mix 1,10\n"
	                    "handle;json 2,20\n");
	pp_profile_free(out);
	assert_string_equal(f->warnings, "");
	o.show = "nosuch";
	o.hide = "nosuch";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 0);
	assert_string_equal(f->warnings,
	                    "Hide expression matched no samples\n"
	                    "Show expression matched no samples\n");
	pp_profile_free(out);
	pp_profile_free(p);
}

static void test_transform__show_from(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p =
	        PROFILE(&f->ctx, CPU, "A;B;C;B 1,10", "A;X|B|Y;Z 2,20",
	                "A;D 4,40", "A;handle|B 8,80");
	struct pp_profile *out;
	struct pp_filter_opts o = {0};

	/* pprof's example: [A B C B] from B is [B C B]; from C, [C B]; a
	 * sample without a match goes. Inside a location, the lines that
	 * B is inlined into (X, handle) go, those inlined into B stay. */
	o.show_from = "^B$";
	out = filtered(f, p, &o);
	assert_profile(out, "B;C;B 1,10\n"
	                    "B|Y;Z 2,20\n"
	                    "B 8,80\n");
	pp_profile_free(out);
	o.show_from = "^C$";
	out = filtered(f, p, &o);
	assert_profile(out, "C;B 1,10\n");
	pp_profile_free(out);
	/* The outermost match wins: A everywhere. */
	o.show_from = "^(A|B)$";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 4);
	pp_profile_free(out);
	assert_string_equal(f->warnings, "");
	o.show_from = "nosuch";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 0);
	assert_string_equal(f->warnings,
	                    "ShowFrom expression matched no samples\n");
	pp_profile_free(out);
	pp_profile_free(p);
}

/* The filters read a stack where the profile keeps it, 16 or 32 bits a
 * frame, and copy the stacks only to take locations out of them (hide,
 * show): the same results either way. */
static void test_transform__stacks_of_either_width(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = PROFILE(
	        &f->ctx, CPU, "A;B;C;B 1,10", "A;X|B|Y;Z 2,20", "A;D 4,40",
	        "A;handle|B 8,80", "Q;R;handle 16,160 k=v", "A;B;D;Z 32,320");
	static const struct pp_filter_opts cases[] = {
	        {.focus = "B"},
	        {.ignore = "D"},
	        {.hide = "B|Y"},
	        {.show = "^(A|C|Z)$"},
	        {.show_from = "^B$"},
	        {.prune_from = "^D$"},
	        {.focus = "A", .hide = "^B$", .show_from = "^(D|X)$"},
	        {.ignore = "Z", .show = "handle|B|R", .prune_from = "B"},
	        {.tagfocus = "k=v"},
	};
	char *narrow[sizeof(cases) / sizeof(cases[0])], *all = dump(p);

	assert_int_equal(p->loc_bytes, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_profile *out = filtered(f, p, &cases[i]);

		narrow[i] = dump(out);
		pp_profile_free(out);
	}
	assert_int_equal(pp_profile__widen_locs(p), 0);
	assert_int_equal(p->loc_bytes, 4);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pp_profile *out = filtered(f, p, &cases[i]);
		char *wide = dump(out);

		assert_string_equal(wide, narrow[i]);
		/* Each case filters something. */
		assert_true(strcmp(narrow[i], all) != 0);
		free(wide);
		free(narrow[i]);
		pp_profile_free(out);
	}
	free(all);
	pp_profile_free(p);
}

static void test_transform__prune_from(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p =
	        PROFILE(&f->ctx, CPU, "main;malloc;grow;mmap 1,10",
	                "main;work|malloc(int)|memclr 2,20", "main;work 4,40",
	                "main;malloc;malloc 8,80");
	struct pp_profile *out;
	struct pp_filter_opts o = {0};

	/* The callees of the leafmost matching frame go, inlined ones too;
	 * names are matched without their argument list. */
	o.prune_from = "^malloc$";
	out = filtered(f, p, &o);
	assert_profile(out, "main;malloc 1,10\n"
	                    "main;work|malloc(int) 2,20\n"
	                    "main;work 4,40\n"
	                    "main;malloc;malloc 8,80\n");
	pp_profile_free(out);
	/* prune_from is not a name filter: no warning when it matches
	 * nothing (pprof has none). */
	o.prune_from = "nosuch";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 4);
	assert_string_equal(f->warnings, "");
	pp_profile_free(out);
	pp_profile_free(p);
}

static void test_transform__bad_regex(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = names_profile(f), *out = NULL;
	static const char *const names[] = {
	        "focus",      "ignore",   "hide",      "show",    "show_from",
	        "prune_from", "tagfocus", "tagignore", "tagshow", "taghide"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct pp_filter_opts o = {0};
		const char **slot[] = {&o.focus,    &o.ignore,    &o.hide,
		                       &o.show,     &o.show_from, &o.prune_from,
		                       &o.tagfocus, &o.tagignore, &o.tagshow,
		                       &o.taghide};
		char want[128];

		*slot[i] = "main(";
		assert_int_equal(pp_profile_filter(&f->ctx, p, &o, &out),
		                 PP_EUSAGE);
		assert_null(out);
		snprintf(want, sizeof(want),
		         "parsing %s regexp main(: ", names[i]);
		assert_memory_equal(f->ctx.message, want, strlen(want));
	}
	pp_profile_free(p);
}

/* ---- tag filters --------------------------------------------------------- */

static struct pp_profile *tags_profile(struct fixture *f)
{
	return PROFILE(&f->ctx, CPU, "main;a 1,1 handler=login region=eu",
	               "main;b 2,2 handler=search region=us",
	               "main;c 4,4 handler=login region=us tenant=acme",
	               "main;d 8,8");
}

static void test_transform__tagfocus_strings(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = tags_profile(f), *out;
	struct pp_filter_opts o = {0};

	/* KEY=REGEX: any of the comma-separated regexes on KEY's value. */
	o.tagfocus = "handler=^log";
	out = filtered(f, p, &o);
	assert_profile(out, "main;a 1,1 handler=login region=eu\n"
	                    "main;c 4,4 handler=login region=us tenant=acme\n");
	pp_profile_free(out);
	o.tagfocus = "region=eu,search";
	out = filtered(f, p, &o);
	assert_profile(out, "main;a 1,1 handler=login region=eu\n");
	pp_profile_free(out);
	/* Without a key, every regex must match some "key:value". */
	o.tagfocus = "login,region:us";
	out = filtered(f, p, &o);
	assert_profile(out, "main;c 4,4 handler=login region=us tenant=acme\n");
	pp_profile_free(out);
	/* tagignore drops the samples it matches; both together. */
	o.tagfocus = "handler=.";
	o.tagignore = "tenant=acme";
	out = filtered(f, p, &o);
	assert_profile(out, "main;a 1,1 handler=login region=eu\n"
	                    "main;b 2,2 handler=search region=us\n");
	pp_profile_free(out);
	assert_string_equal(f->warnings, "");
	/* A key no sample has matches nothing. */
	o.tagfocus = "nokey=.";
	o.tagignore = "nokey=.";
	out = filtered(f, p, &o);
	assert_int_equal(out->nsamples, 0);
	assert_string_equal(f->warnings,
	                    "TagFocus expression matched no samples\n"
	                    "TagIgnore expression matched no samples\n");
	pp_profile_free(out);
	pp_profile_free(p);
}

static void test_transform__tagshow_taghide(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = tags_profile(f), *out;
	struct pp_filter_opts o = {0};

	o.tagshow = "^(handler|tenant)$";
	o.taghide = "tenant";
	out = filtered(f, p, &o);
	/* Samples stay; only label keys go. */
	assert_profile(out, "main;a 1,1 handler=login\n"
	                    "main;b 2,2 handler=search\n"
	                    "main;c 4,4 handler=login\n"
	                    "main;d 8,8\n");
	pp_profile_free(out);
	pp_profile_free(p);
}

/* Numeric labels: bytes with a unit, a latency in nanoseconds, a count
 * without unit (its key names its unit, as in pprof), and "request"
 * without unit (bytes, as pprof assumes). */
static struct pp_profile *numbers_profile(struct fixture *f)
{
	return PROFILE(&f->ctx, CPU, "main;a 1,1 bytes#64@bytes",
	               "main;b 2,2 bytes#2048@bytes",
	               "main;c 4,4 bytes#1048576@bytes",
	               "main;d 8,8 latency#150000000@nanoseconds",
	               "main;e 16,16 latency#2000000000@nanoseconds",
	               "main;f 32,32 objects#3", "main;g 64,64 request#4096");
}

/* The functions of the samples tagfocus=spec keeps, as a string. */
static char *kept(struct fixture *f, const struct pp_profile *p,
                  const char *focus, const char *ignore)
{
	struct pp_filter_opts o = {0};
	struct pp_profile *out;
	char *s = calloc(1, 64);
	size_t n = 0;

	o.tagfocus = focus;
	o.tagignore = ignore;
	out = filtered(f, p, &o);
	for (uint32_t i = 0; i < out->nsamples && n < 63; i++) {
		const struct pp_sample *smp = &out->samples[i];
		const struct pp_location *l =
		        &out->locations[pp_profile_loc(out, smp->loc_first)];

		s[n++] = pp_profile_str(
		        out, out->functions[out->lines[l->line_first].function]
		                     .name)[0];
	}
	pp_profile_free(out);
	return s;
}

#define assert_kept(f, p, focus, ignore, want)                \
	do {                                                  \
		char *k_ = kept((f), (p), (focus), (ignore)); \
		assert_string_equal(k_, want);                \
		free(k_);                                     \
	} while (0)

static void test_transform__tagfocus_numeric_ranges(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = numbers_profile(f);

	/* N:, :N, N:M and N, scaled through the units (1kb = 1024 bytes). */
	assert_kept(f, p, "1kb:", NULL, "bcfg");
	assert_kept(f, p, ":2kb", NULL, "ab");
	assert_kept(f, p, "64b:2kb", NULL, "ab");
	assert_kept(f, p, "1mb", NULL, "c");
	assert_kept(f, p, "bytes=1kb:", NULL, "bc");
	assert_kept(f, p, "request=4kb", NULL, "g");
	/* Time units against nanoseconds. */
	assert_kept(f, p, "100ms:1s", NULL, "d");
	assert_kept(f, p, "latency=2s:", NULL, "e");
	/* As in pprof, a label in a unit pprof does not know (objects#3)
	 * is taken to be in the range's unit: 3 >= 1kb above. */
	/* A unit that is no unit matches only labels in that unit, here
	 * the key's own name: objects#3; a bare number only labels of no
	 * known unit (objects again), not bytes#64. */
	assert_kept(f, p, "3objects", NULL, "f");
	assert_kept(f, p, ":64", NULL, "f");
	/* tagignore takes ranges too. */
	assert_kept(f, p, NULL, "1kb:", "ade");
	assert_string_equal(f->warnings,
	                    "tagfocus:Interpreted '1kb:' as range, not regexp\n"
	                    "tagfocus:Interpreted ':2kb' as range, not regexp\n"
	                    "tagfocus:Interpreted '64b:2kb' as range, not "
	                    "regexp\n"
	                    "tagfocus:Interpreted '1mb' as range, not regexp\n"
	                    "tagfocus:Interpreted '1kb:' as range, not regexp\n"
	                    "tagfocus:Interpreted '4kb' as range, not regexp\n"
	                    "tagfocus:Interpreted '100ms:1s' as range, not "
	                    "regexp\n"
	                    "tagfocus:Interpreted '2s:' as range, not regexp\n"
	                    "tagfocus:Interpreted '3objects' as range, not "
	                    "regexp\n"
	                    "tagfocus:Interpreted ':64' as range, not regexp\n"
	                    "tagignore:Interpreted '1kb:' as range, not "
	                    "regexp\n");
	pp_profile_free(p);
}

static void test_transform__filters_in_pprof_order(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = PROFILE(
	        &f->ctx, CPU, "main;serve;parse;malloc;mmap 1,10 handler=login",
	        "main;serve;render;malloc;mmap 2,20 handler=search",
	        "main;gc;malloc 4,40 handler=login",
	        "main;serve;log 8,80 handler=login");
	struct pp_profile *out;
	struct pp_filter_opts o = {0};

	/* focus/ignore/hide/show, then show_from, then the tags, then
	 * prune_from: a sample ignored, a frame hidden, callers dropped,
	 * a handler left out, callees of malloc cut. */
	o.focus = "malloc|log";
	o.ignore = "^gc$";
	o.hide = "^parse$";
	o.show_from = "^serve$";
	o.tagfocus = "handler=login";
	o.prune_from = "^malloc$";
	out = filtered(f, p, &o);
	assert_profile(out, "serve;malloc 1,10 handler=login\n"
	                    "serve;log 8,80 handler=login\n");
	/* Records stay as they were: the filter cuts samples, not the
	 * tables (merge drops what no sample uses). */
	assert_int_equal(out->nfunctions, p->nfunctions);
	pp_profile_free(out);
	assert_false(pp_filter_opts_active(&(struct pp_filter_opts){0}));
	o = (struct pp_filter_opts){0};
	o.taghide = "";
	assert_false(pp_filter_opts_active(&o));
	o.taghide = "x";
	assert_true(pp_filter_opts_active(&o));
	pp_profile_free(p);
}

/* Asked to stop (pp_ctx.interrupt), each filter, a merge, the proto
 * encoder and the stack tree fail with PP_EINTR and make nothing; the
 * flag down, the same calls work. */
static void test_transform__interrupted(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = PROFILE(
	        &f->ctx, CPU, "main;serve;parse;malloc;mmap 1,10 handler=login",
	        "main;gc;malloc 4,40 handler=login");
	static const char *const filters[] = {
	        "focus",     "ignore",   "hide",    "show",
	        "show_from", "tagfocus", "tagshow", "prune_from"};
	volatile sig_atomic_t flag = 1;
	struct pp_profile *out = NULL;
	struct pp_tree *t = NULL;
	struct pp_graph_opts go = {0};
	uint8_t *bytes = NULL;
	size_t len = 0;

	f->ctx.interrupt = &flag;
	for (int down = 0; down < 2; down++) {
		int want = down ? 0 : PP_EINTR;

		flag = !down;
		for (size_t i = 0; i < sizeof(filters) / sizeof(*filters);
		     i++) {
			struct pp_filter_opts o = {0};
			const char **v[] = {&o.focus,     &o.ignore,
			                    &o.hide,      &o.show,
			                    &o.show_from, &o.tagfocus,
			                    &o.tagshow,   &o.prune_from};

			*v[i] = i == 5   ? "handler=login"
			        : i == 6 ? "handler"
			        : i == 1 ? "^gc$"
			                 : "malloc";
			assert_int_equal(
			        pp_profile_filter(&f->ctx, p, &o, &out), want);
			if (!down)
				assert_string_equal(f->ctx.message,
				                    "interrupted");
			assert_true(down ? out != NULL : out == NULL);
			pp_profile_free(out);
			out = NULL;
		}
		assert_int_equal(pp_profile_merge(&f->ctx, &p, NULL, 1, &out),
		                 want);
		assert_true(down ? out != NULL : out == NULL);
		pp_profile_free(out);
		out = NULL;
		assert_int_equal(
		        pp_encode_proto(&f->ctx, p, NULL, &bytes, &len), want);
		assert_true(down ? bytes != NULL : bytes == NULL);
		pp_free(&f->ctx, bytes);
		bytes = NULL;
		assert_int_equal(pp_tree_new(&f->ctx, p, &go, &t), want);
		assert_true(down ? t != NULL : t == NULL);
		pp_tree_free(t);
		t = NULL;
	}
	pp_profile_free(p);
}

/* ---- drop_frames / keep_frames ------------------------------------------- */

static void test_transform__drop_frames(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p =
	        PROFILE(&f->ctx, CPU, "main;work;malloc;sbrk 1,10",
	                "main;work;operator~new(unsigned~long);malloc 2,20",
	                "malloc;sbrk 4,40", "main;work|calloc|memset 8,80",
	                "main;keepme_malloc;sbrk 16,160",
	                ".main;work;malloc(int) 32,320");

	p->drop_frames = pp_profile_intern(p, "malloc|calloc|operator new|"
	                                      "keepme_malloc");
	p->keep_frames = pp_profile_intern(p, "keepme_.*");
	assert_int_equal(pp_profile_remove_uninteresting(&f->ctx, p), 0);
	/* The rootmost dropped frame goes with everything leafward of it;
	 * names are matched whole, without their argument list; nothing
	 * goes before the first kept frame; a match on an inlined line
	 * keeps the lines it is inlined into; keep_frames wins. */
	assert_profile(p, "main;work 1,10\n"
	                  "main;work 2,20\n"
	                  "malloc;sbrk 4,40\n"
	                  "main;work 8,80\n"
	                  "main;keepme_malloc;sbrk 16,160\n"
	                  ".main;work 32,320\n");
	assert_string_equal(f->warnings, "");
	pp_profile_free(p);
}

static void test_transform__drop_frames_bad_regex(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = PROFILE(&f->ctx, CPU, "main;malloc 1,10");

	p->drop_frames = pp_profile_intern(p, "malloc(");
	assert_int_equal(pp_profile_remove_uninteresting(&f->ctx, p), 0);
	assert_profile(p, "main;malloc 1,10\n");
	assert_memory_equal(f->warnings, "ignoring the profile's drop_frames: ",
	                    strlen("ignoring the profile's drop_frames: "));
	pp_profile_free(p);
}

/* ---- allocation failures ------------------------------------------------- */

/* Each transform, with its Nth allocation failing for every N until it
 * makes none that fail: PP_ENOMEM, no output and (under ASan) no leak. */
static void test_transform__allocation_failures(void **state)
{
	struct fixture *f = *state;
	struct pp_profile *p = tags_profile(f);
	struct pp_profile *q = numbers_profile(f);

	for (int what = 0; what < 4; what++) {
		int n;

		for (n = 1; n < 100000; n++) {
			struct failing_alloc fl;
			struct pp_ctx ctx = PP_CTX_INIT;
			struct pp_profile *out = NULL, *both[2] = {p, p};
			struct pp_filter_opts o = {0};
			int err;

			failing_alloc_install(&ctx, &fl, n - 1);
			switch (what) {
			case 0:
				err = pp_profile_merge(&ctx, both, NULL, 2,
				                       &out);
				break;
			case 1:
				err = pp_profile_apply_base(&ctx, p, p, true,
				                            true, NULL, &out);
				break;
			case 2:
				o.focus = "main";
				o.hide = "b";
				o.show_from = "main";
				o.tagfocus = "login,region:eu";
				o.tagshow = "handler";
				o.prune_from = "a";
				err = pp_profile_filter(&ctx, p, &o, &out);
				break;
			default:
				o.tagfocus = "bytes=1kb:";
				o.tagignore = "handler=x";
				err = pp_profile_filter(&ctx, q, &o, &out);
				break;
			}
			if (!fl.failed) {
				assert_int_equal(err, 0);
				pp_profile_free(out);
				break;
			}
			assert_int_equal(err, PP_ENOMEM);
			assert_null(out);
		}
		/* Every case allocates, so some N failed before success. */
		assert_true(n > 1);
	}
	pp_profile_free(p);
	pp_profile_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	        T(test_transform__merge_sums_and_shares),
	        T(test_transform__merge_keeps_label_sets_apart),
	        T(test_transform__merge_one_profile),
	        T(test_transform__merge_refuses_other_types),
	        T(test_transform__merge_keeps_common_types),
	        T(test_transform__merge_scales_units),
	        T(test_transform__merger_one_at_a_time),
	        T(test_transform__base_subtracts),
	        T(test_transform__diff_base_marks_base_samples),
	        T(test_transform__normalize_scales_to_base),
	        T(test_transform__base_with_other_types),
	        T(test_transform__focus_and_ignore),
	        T(test_transform__hide_and_show),
	        T(test_transform__show_from),
	        T(test_transform__stacks_of_either_width),
	        T(test_transform__prune_from),
	        T(test_transform__bad_regex),
	        T(test_transform__tagfocus_strings),
	        T(test_transform__tagshow_taghide),
	        T(test_transform__tagfocus_numeric_ranges),
	        T(test_transform__filters_in_pprof_order),
	        T(test_transform__interrupted),
	        T(test_transform__drop_frames),
	        T(test_transform__drop_frames_bad_regex),
	        T(test_transform__allocation_failures),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
