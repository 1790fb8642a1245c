/*
 * Go goroutine dumps, which no pprof reads: the text of
 * /debug/pprof/goroutine?debug=2, and what a panic or SIGQUIT prints:
 *
 *   goroutine 19 [chan receive, 5 minutes, locked to thread]:
 *   main.waitOnChannel(0x0?, 0x0?)
 *   	/src/main.go:150 +0x31
 *   created by main.park in goroutine 1
 *   	/src/main.go:130 +0x1a5
 *
 * Each goroutine is one goroutine/count sample, its frames locations with
 * function, file and line (leaf first, as printed), and labels: state
 * ("chan receive"), wait (minutes, numeric), locked ("true") and
 * created_by. Goroutines with the same stack and labels are one sample
 * whose count is their number, so a dump of a million parked goroutines
 * costs what its distinct stacks cost, beyond the input itself. Lines
 * outside goroutine blocks (the panic message, registers) are skipped.
 */
#include <string.h>

#include "profile/godump.h"
#include "profile/textscan.h"

/* ---- a small open-addressing map from two 64-bit keys to an index ------- */

struct map2 {
	uint64_t *a, *b;
	uint32_t *v; /* index + 1; 0 = empty */
	size_t mask, n;
};

static uint64_t mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 32);
}

static int map2_grow(struct pp_ctx *ctx, struct map2 *m)
{
	struct map2 old = *m;
	size_t size = old.mask ? (old.mask + 1) * 2 : 1024;

	m->a = pp_calloc(ctx, size, sizeof(*m->a));
	m->b = pp_calloc(ctx, size, sizeof(*m->b));
	m->v = pp_calloc(ctx, size, sizeof(*m->v));
	m->mask = size - 1;
	if (!m->a || !m->b || !m->v) {
		pp_free(ctx, m->a);
		pp_free(ctx, m->b);
		pp_free(ctx, m->v);
		*m = old;
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; old.mask && i <= old.mask; i++) {
		size_t j;

		if (!old.v[i])
			continue;
		for (j = mix(old.a[i], old.b[i]) & m->mask; m->v[j];
		     j = (j + 1) & m->mask)
			;
		m->a[j] = old.a[i];
		m->b[j] = old.b[i];
		m->v[j] = old.v[i];
	}
	pp_free(ctx, old.a);
	pp_free(ctx, old.b);
	pp_free(ctx, old.v);
	return 0;
}

/* The slot for (a, b): *slot is 0 when new (the caller fills it in). */
static int map2_slot(struct pp_ctx *ctx, struct map2 *m, uint64_t a, uint64_t b,
                     uint32_t **slot)
{
	size_t j;
	int err;

	if ((m->n + 1) * 2 > m->mask + 1 && (err = map2_grow(ctx, m)) < 0)
		return err;
	for (j = mix(a, b) & m->mask; m->v[j]; j = (j + 1) & m->mask)
		if (m->a[j] == a && m->b[j] == b)
			break;
	if (!m->v[j]) {
		m->a[j] = a;
		m->b[j] = b;
		m->n++;
	}
	*slot = &m->v[j];
	return 0;
}

static void map2_release(struct pp_ctx *ctx, struct map2 *m)
{
	pp_free(ctx, m->a);
	pp_free(ctx, m->b);
	pp_free(ctx, m->v);
}

/* ---- frames seen before, by their text --------------------------------- */

/*
 * Dumps repeat the same frames thousands of times: each distinct pair of
 * function text and file text is resolved to its location once, and then
 * found again by a hash of its bytes, compared with the text in place.
 */
struct seen {
	uint64_t hash;
	const char *fn, *file; /* into the input */
	uint32_t fn_len, file_len;
	uint32_t loc; /* + 1; 0 = empty */
};

struct frame_cache {
	struct seen *v;
	size_t mask, n;
};

static uint64_t hash_span(uint64_t h, const char *s, size_t n)
{
	uint64_t w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 31;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w ^ n) * 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

static int cache_grow(struct pp_ctx *ctx, struct frame_cache *c)
{
	size_t size = c->mask ? (c->mask + 1) * 2 : 4096;
	struct seen *v = pp_calloc(ctx, size, sizeof(*v));

	if (!v)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; c->mask && i <= c->mask; i++) {
		size_t j;

		if (!c->v[i].loc)
			continue;
		for (j = c->v[i].hash & (size - 1); v[j].loc;
		     j = (j + 1) & (size - 1))
			;
		v[j] = c->v[i];
	}
	pp_free(ctx, c->v);
	c->v = v;
	c->mask = size - 1;
	return 0;
}

/* The entry for the frame's text: loc 0 when new, the key filled in. */
static int cache_slot(struct pp_ctx *ctx, struct frame_cache *c,
                      struct pp_span fn, struct pp_span file, struct seen **out)
{
	uint64_t h = hash_span(
	        hash_span(0x2545f4914f6cdd1dULL, fn.s, (size_t)(fn.e - fn.s)),
	        file.s, (size_t)(file.e - file.s));
	size_t j;
	int err;

	if ((size_t)(fn.e - fn.s) > UINT32_MAX ||
	    (size_t)(file.e - file.s) > UINT32_MAX)
		return pp_error(ctx, PP_ELIMIT, "frame text too long");
	if ((c->n + 1) * 2 > c->mask + 1 && (err = cache_grow(ctx, c)) < 0)
		return err;
	for (j = h & c->mask; c->v[j].loc; j = (j + 1) & c->mask) {
		struct seen *e = &c->v[j];

		if (e->hash == h && e->fn_len == fn.e - fn.s &&
		    e->file_len == file.e - file.s &&
		    memcmp(e->fn, fn.s, e->fn_len) == 0 &&
		    memcmp(e->file, file.s, e->file_len) == 0)
			break;
	}
	if (!c->v[j].loc) {
		c->v[j] = (struct seen){h,
		                        fn.s,
		                        file.s,
		                        (uint32_t)(fn.e - fn.s),
		                        (uint32_t)(file.e - file.s),
		                        0};
		c->n++;
	}
	*out = &c->v[j];
	return 0;
}

/* ---- the reader -----------------------------------------------------------
 */

struct goroutine {
	uint32_t *locs;
	size_t nlocs, cap_locs;
	pp_str state, created_by;
	int64_t wait;
	bool has_wait, locked, open;
};

struct reader {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_profile *p;
	struct map2 functions, locations, samples;
	struct frame_cache frames;
	struct goroutine g;
	pp_str k_state, k_wait, k_minutes, k_locked, k_true, k_created;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * "goroutine N [state, M minutes, locked to thread]:", with Go 1.23's
 * optional "gp=... m=... mp=..." words before the bracket. *inside gets
 * the bracket's text.
 */
static bool goroutine_header(struct pp_span line, struct pp_span *inside)
{
	const char *p = line.s, *open;

	if (!pp_span__starts(line, "goroutine ") || line.e - line.s < 15 ||
	    line.e[-1] != ':' || line.e[-2] != ']')
		return false;
	p += 10;
	if (!is_digit(*p))
		return false;
	while (p < line.e && is_digit(*p))
		p++;
	if (*p != ' ')
		return false;
	open = memchr(p, '[', (size_t)(line.e - p));
	if (!open)
		return false;
	inside->s = open + 1;
	inside->e = line.e - 2;
	return true;
}

bool pp_godump__is_dump(const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line, inside;

	/* The first goroutine block is near the top: after a panic's or a
	 * signal's message, a few lines of program output at most. */
	pp_lines__init(&ls, data, len < 65536 ? len : 65536);
	while (pp_lines__next(&ls, &line) && ls.lineno <= 200) {
		struct pp_span next;

		if (!goroutine_header(line, &inside))
			continue;
		/* The header is followed by a frame and its file line. */
		return pp_lines__next(&ls, &next) &&
		       pp_lines__next(&ls, &next) && next.s < next.e &&
		       *next.s == '\t';
	}
	return false;
}

static pp_str intern(struct reader *r, const char *s, const char *e)
{
	return pp_strtab_intern(r->p->strings, s, (size_t)(e - s));
}

static int nomem(struct reader *r)
{
	return pp_error(r->ctx, PP_ENOMEM, "%s: out of memory", r->name);
}

static int start(struct reader *r, struct pp_span inside)
{
	struct goroutine *g = &r->g;
	const char *p = inside.s;
	bool first = true;

	g->nlocs = 0;
	g->state = g->created_by = 0;
	g->wait = 0;
	g->has_wait = g->locked = false;
	g->open = true;
	/* "state, N minutes, locked to thread"; the state may hold ", " only
	 * in no runtime we know of. */
	while (p <= inside.e) {
		const char *q = p;
		struct pp_span part;

		while (q + 1 < inside.e && !(q[0] == ',' && q[1] == ' '))
			q++;
		if (q + 1 >= inside.e)
			q = inside.e;
		part = (struct pp_span){p, q};
		if (first) {
			if ((g->state = intern(r, part.s, part.e)) == PP_NONE)
				return nomem(r);
			first = false;
		} else if (pp_span__equals(part, "locked to thread")) {
			g->locked = true;
		} else if (pp_span__contains(part, " minute")) {
			struct pp_span num = {part.s, part.s};

			while (num.e < part.e && is_digit(*num.e))
				num.e++;
			if (pp_text__parse_int(num, 10, &g->wait))
				g->has_wait = true;
		}
		p = q + 2;
	}
	return 0;
}

/* "file.go:123 +0x45 fp=... sp=... pc=..." without the offset on. */
static struct pp_span cut_offset(struct pp_span t)
{
	const char *q = t.s;

	while ((q = memchr(q, '+', (size_t)(t.e - q)))) {
		if (q > t.s && q[-1] == ' ' && t.e - q >= 3 && q[1] == '0' &&
		    q[2] == 'x')
			return (struct pp_span){t.s, q - 1};
		q++;
	}
	return t;
}

/* "file.go:123" -> file, line. */
static bool file_line(struct pp_span t, struct pp_span *file, int64_t *line)
{
	const char *e = t.e, *colon;
	struct pp_span num;

	for (colon = e; colon > t.s && colon[-1] != ':'; colon--)
		;
	if (colon == t.s)
		return false;
	num = (struct pp_span){colon, e};
	while (num.e > num.s && num.e[-1] == ' ')
		num.e--;
	*file = (struct pp_span){t.s, colon - 1};
	return pp_text__parse_int(num, 10, line);
}

static int new_location(struct reader *r, struct pp_span fn,
                        struct pp_span file, int64_t line, uint32_t *out)
{
	pp_str name = intern(r, fn.s, fn.e), fname = intern(r, file.s, file.e);
	uint32_t *slot;
	int err;

	if (name == PP_NONE || fname == PP_NONE)
		return nomem(r);
	if ((err = map2_slot(r->ctx, &r->functions, name, fname, &slot)) < 0)
		return err;
	if (!*slot) {
		struct pp_function f = {r->p->nfunctions + 1, name, name, fname,
		                        0};

		if ((err = pp_profile_add_function(r->p, &f, NULL)) < 0)
			return err;
		*slot = r->p->nfunctions;
	}
	{
		uint32_t fi = *slot - 1;

		if ((err = map2_slot(r->ctx, &r->locations, fi, (uint64_t)line,
		                     &slot)) < 0)
			return err;
		if (!*slot) {
			struct pp_location loc;
			struct pp_line ln = {fi, line, 0};

			memset(&loc, 0, sizeof(loc));
			loc.id = (uint64_t)r->p->nlocations + 1;
			loc.mapping = PP_NONE;
			if ((err = pp_profile_add_location(r->p, &loc, &ln, 1,
			                                   NULL)) < 0)
				return err;
			*slot = r->p->nlocations;
		}
	}
	*out = *slot - 1;
	return 0;
}

/* A frame: fn is its function, where the file line (without the tab and
 * the " +0x..." offset) names its file and line. */
static int add_frame(struct reader *r, struct pp_span fn, struct pp_span where)
{
	struct seen *e = NULL;
	struct pp_span file;
	int64_t line;
	uint32_t loc = 0;
	int err;

	if ((err = cache_slot(r->ctx, &r->frames, fn, where, &e)) < 0)
		return err;
	if (!e->loc) {
		if (!file_line(where, &file, &line)) {
			/* Not a frame after all: forget the entry. */
			e->loc = 0;
			return 1;
		}
		if ((err = new_location(r, fn, file, line, &loc)) < 0)
			return err;
		e->loc = loc + 1;
	}
	if ((err = pp_grow(r->ctx, (void **)&r->g.locs, &r->g.cap_locs,
	                   r->g.nlocs + 1, sizeof(*r->g.locs))) < 0)
		return err;
	r->g.locs[r->g.nlocs++] = e->loc - 1;
	return 0;
}

static bool same_sample(const struct reader *r, uint32_t s,
                        const struct pp_label *labels, size_t nlabels)
{
	const struct pp_profile *p = r->p;
	const struct pp_sample *ps = &p->samples[s];
	uint32_t has;
	const struct pp_label *own = pp_sample_labels(p, s, &has);

	/* memcmp must not see the NULL arrays of a goroutine with no frames
	 * or no labels, even for zero bytes (C11 7.24.1p2). */
	if (ps->loc_count != r->g.nlocs || has != nlabels)
		return false;
	if (!pp_sample_stack_is(p, ps, r->g.locs, r->g.nlocs))
		return false;
	return nlabels == 0 ||
	       memcmp(own, labels, nlabels * sizeof(*labels)) == 0;
}

/* The goroutine read so far becomes a sample, or counts in an equal one. */
static int finish_goroutine(struct reader *r)
{
	struct goroutine *g = &r->g;
	struct pp_label labels[4];
	size_t n = 0;
	uint64_t h = 0x51ed270b27b3c8f1ULL;
	uint32_t *slot;
	int64_t one = 1;
	int err;

	if (!g->open)
		return 0;
	g->open = false;
	memset(labels, 0, sizeof(labels));
	labels[n++] = (struct pp_label){r->k_state, g->state, 0, 0};
	if (g->has_wait)
		labels[n++] =
		        (struct pp_label){r->k_wait, 0, g->wait, r->k_minutes};
	if (g->locked)
		labels[n++] = (struct pp_label){r->k_locked, r->k_true, 0, 0};
	if (g->created_by)
		labels[n++] =
		        (struct pp_label){r->k_created, g->created_by, 0, 0};
	for (size_t i = 0; i < g->nlocs; i++)
		h = mix(h, g->locs[i]);
	for (size_t i = 0; i < n; i++)
		h = mix(h, (uint64_t)labels[i].str << 32 ^
		                   (uint64_t)labels[i].num);
	/* Probe with the hash and a counter: equal hashes of different
	 * goroutines take the next counter. */
	for (uint64_t k = 0;; k++) {
		if ((err = map2_slot(r->ctx, &r->samples, h, k, &slot)) < 0)
			return err;
		if (!*slot)
			break;
		if (same_sample(r, *slot - 1, labels, n)) {
			r->p->values[*slot - 1]++;
			return 0;
		}
	}
	if ((err = pp_profile_add_sample(r->p, g->locs, g->nlocs, &one, labels,
	                                 n)) < 0)
		return err;
	*slot = r->p->nsamples;
	return 0;
}

static int read_dump(struct reader *r, const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line, inside;
	int err;

	pp_lines__init(&ls, data, len);
	while (pp_lines__next(&ls, &line)) {
		struct pp_span fn, file, where;
		int64_t lineno;
		bool created;

		if (goroutine_header(line, &inside)) {
			if ((err = finish_goroutine(r)) < 0 ||
			    (err = start(r, inside)) < 0)
				return err;
			continue;
		}
		if (!r->g.open)
			continue;
		if (line.s == line.e) {
			if ((err = finish_goroutine(r)) < 0)
				return err;
			continue;
		}
		if (*line.s == '\t')
			continue; /* a file line without its function */
		/* A function line, then its file line. */
		fn = line;
		created = pp_span__starts(fn, "created by ");
		if (created) {
			const char *in;

			fn.s += 11;
			/* Go 1.21+: "created by f in goroutine 7" */
			for (in = fn.s; in + 4 <= fn.e; in++)
				if (memcmp(in, " in ", 4) == 0) {
					fn.e = in;
					break;
				}
		} else {
			const char *paren = fn.e;

			if (fn.e > fn.s && fn.e[-1] == ')')
				for (paren = fn.e - 1;
				     paren > fn.s && *paren != '('; paren--)
					;
			if (paren > fn.s)
				fn.e = paren;
		}
		{
			/* Only a file line is taken: "...additional frames
			 * elided..." has none. */
			struct pp_lines peek = ls;

			if (!pp_lines__next(&peek, &line) || line.s == line.e ||
			    *line.s != '\t')
				continue;
			where = cut_offset(
			        (struct pp_span){line.s + 1, line.e});
			if (created) {
				if (!file_line(where, &file, &lineno))
					continue;
				ls = peek;
				r->g.created_by = intern(r, fn.s, fn.e);
				if (r->g.created_by == PP_NONE)
					return nomem(r);
				continue;
			}
			if ((err = add_frame(r, fn, where)) < 0)
				return err;
			if (err == 0)
				ls = peek;
		}
	}
	return finish_goroutine(r);
}

int pp_godump__decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out)
{
	struct reader r;
	int err;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.name = name;
	if (!(r.p = pp_profile_new(ctx)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	{
		pp_str t = pp_profile_intern(r.p, "goroutine"),
		       u = pp_profile_intern(r.p, "count");

		r.k_state = pp_profile_intern(r.p, "state");
		r.k_wait = pp_profile_intern(r.p, "wait");
		r.k_minutes = pp_profile_intern(r.p, "minutes");
		r.k_locked = pp_profile_intern(r.p, "locked");
		r.k_true = pp_profile_intern(r.p, "true");
		r.k_created = pp_profile_intern(r.p, "created_by");
		if (t == PP_NONE || u == PP_NONE || r.k_state == PP_NONE ||
		    r.k_wait == PP_NONE || r.k_minutes == PP_NONE ||
		    r.k_locked == PP_NONE || r.k_true == PP_NONE ||
		    r.k_created == PP_NONE) {
			err = nomem(&r);
			goto done;
		}
		if ((err = pp_profile_add_sample_type(r.p, t, u)) < 0)
			goto done;
		r.p->period_type = (struct pp_value_type){t, u};
		r.p->has_period_type = true;
		r.p->period = 1;
	}
	if ((err = read_dump(&r, data, len)) < 0)
		goto done;
	*out = r.p;
	r.p = NULL;
done:
	map2_release(ctx, &r.functions);
	map2_release(ctx, &r.locations);
	map2_release(ctx, &r.samples);
	pp_free(ctx, r.frames.v);
	pp_free(ctx, r.g.locs);
	pp_profile_free(r.p);
	return err;
}
