/*
 * Java's legacy profiles, read as pprof's legacy_java_profile.go reads
 * them: heapz and contentionz text, and (through legacy_cpu.c) the binary
 * CPU profile whose header says Java. Stacks are ids, not addresses; the
 * file ends with one line per id naming its frame:
 *
 *   --- heapz 1 ---
 *   format = java
 *   resolution = bytes
 *    8388608 16 @ 0x1 0x2
 *   0x0000000000000001 java.util.Arrays.copyOf (Arrays.java:3512)
 *   0x0000000000000002 libzip_inflate (/usr/lib/jvm/lib/libzip.so)
 *
 * A sample line is "value count @ ids". Every location ends with address
 * 0 (pprof's Aggregate drops them "for better merge").
 */
#include <string.h>

#include "profile/legacy.h"
#include "profile/textscan.h"

enum { UNRECOGNIZED = 1 };

/* ---- the id lines at the end ----------------------------------------------
 */

struct frame {
	pp_str name, file;
	int64_t line;
	bool named;
};

struct builder {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_profile *p;
	uint64_t *ids; /* distinct ids, first use first */
	struct frame *frames;
	uint32_t nids;
	uint64_t *keys; /* id -> index + 1 hash table */
	uint32_t *vals;
	size_t mask;
	uint32_t *file_of, *fn_of; /* by name string: file + 1, function + 1 */
	size_t cap_by_name;
};

static int nomem(struct pp_ctx *ctx)
{
	return pp_error(ctx, PP_ENOMEM, "out of memory");
}

static uint32_t *slot(struct builder *b, uint64_t id)
{
	size_t i = (size_t)((id * 0x9e3779b97f4a7c15ULL) >> 20) & b->mask;

	while (b->vals[i] && b->keys[i] != id)
		i = (i + 1) & b->mask;
	b->keys[i] = id;
	return &b->vals[i];
}

static int index_ids(struct builder *b, const struct pp_legacy *lg)
{
	size_t size = 16;

	while (size < lg->naddrs * 2 + 2)
		size *= 2;
	b->mask = size - 1;
	b->keys = pp_calloc(b->ctx, size, sizeof(*b->keys));
	b->vals = pp_calloc(b->ctx, size, sizeof(*b->vals));
	b->ids = pp_calloc(b->ctx, lg->naddrs + 1, sizeof(*b->ids));
	b->frames = pp_calloc(b->ctx, lg->naddrs + 1, sizeof(*b->frames));
	if (!b->keys || !b->vals || !b->ids || !b->frames)
		return nomem(b->ctx);
	for (size_t i = 0; i < lg->naddrs; i++) {
		uint32_t *v = slot(b, lg->addrs[i]);

		if (!*v) {
			b->ids[b->nids] = lg->addrs[i];
			*v = ++b->nids;
		}
	}
	return 0;
}

static bool is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The rightmost k <= maxk at which "<space>(" starts, or NULL. */
static const char *last_open(const char *s, const char *maxk)
{
	for (const char *k = maxk; k >= s; k--)
		if (is_ws(k[0]) && k[1] == '(')
			return k;
	return NULL;
}

/* filepath.Base: the last element of a slash-separated path. */
static struct pp_span base_name(struct pp_span path)
{
	static const char dot[] = ".", slash[] = "/";
	const char *q;

	while (path.e - path.s > 1 && path.e[-1] == '/')
		path.e--;
	if (path.s == path.e)
		return (struct pp_span){dot, dot + 1};
	if (path.e - path.s == 1 && *path.s == '/')
		return (struct pp_span){slash, slash + 1};
	for (q = path.e; q > path.s && q[-1] != '/'; q--)
		;
	return (struct pp_span){q, path.e};
}

/*
 * What follows an id: "func (file:line)", "func (/path/lib.so)", a JIT
 * stub, or a bare name such as "GC" (pprof's regular expressions).
 */
static void split_frame(struct pp_span rest, struct pp_span *fn,
                        struct pp_span *file, int64_t *line)
{
	static const char stub[] = "STUB";
	const char *close = rest.e - 1, *d, *c, *k;

	*line = 0;
	file->s = file->e = rest.e;
	if (rest.e > rest.s && *close == ')') {
		/* "^(.*)\s+\((.+):(-?\d+)\)$" */
		for (d = close; d > rest.s && is_digit(d[-1]); d--)
			;
		c = d;
		if (c > rest.s && c[-1] == '-')
			c--;
		if (d < close && c > rest.s && c[-1] == ':' &&
		    (k = last_open(rest.s, c - 1 - 3))) {
			int64_t n;

			*fn = (struct pp_span){rest.s, k};
			*file = (struct pp_span){k + 2, c - 1};
			if (pp_text__parse_int((struct pp_span){c, close}, 10,
			                       &n) &&
			    n > 0)
				*line = n;
			return;
		}
		/* "^(.*)\s+\((.*)\)$" */
		if ((k = last_open(rest.s, close - 2))) {
			*fn = (struct pp_span){rest.s, k};
			*file = base_name((struct pp_span){k + 2, close});
			return;
		}
	}
	if (pp_span__contains(rest, "generated stub/JIT")) {
		*fn = (struct pp_span){stub, stub + 4};
		return;
	}
	*fn = rest;
}

static int by_name_room(struct builder *b, pp_str name)
{
	size_t old = b->cap_by_name, cap = old;
	int err;

	if (name < old)
		return 0;
	if ((err = pp_grow(b->ctx, (void **)&b->file_of, &cap, (size_t)name + 1,
	                   sizeof(*b->file_of))) < 0)
		return err;
	cap = old;
	if ((err = pp_grow(b->ctx, (void **)&b->fn_of, &cap, (size_t)name + 1,
	                   sizeof(*b->fn_of))) < 0)
		return err;
	memset(b->file_of + old, 0, (cap - old) * sizeof(*b->file_of));
	memset(b->fn_of + old, 0, (cap - old) * sizeof(*b->fn_of));
	b->cap_by_name = cap;
	return 0;
}

static int read_frames(struct builder *b, const char *text, size_t len)
{
	struct pp_lines ls;
	struct pp_span raw;
	int err;

	pp_lines__init(&ls, text, len);
	while (pp_lines__next(&ls, &raw)) {
		struct pp_span t = pp_span__trim(raw), hex, rest, fn, file;
		const char *q;
		uint64_t id;
		uint32_t *v;
		struct frame *f;
		int64_t line;

		/* `^\s*0x([[:xdigit:]]+)\s+(.*)\s*$` */
		if (!pp_span__starts(t, "0x"))
			continue;
		for (q = t.s + 2;
		     q < t.e && (is_digit(*q) || (*q >= 'a' && *q <= 'f') ||
		                 (*q >= 'A' && *q <= 'F'));
		     q++)
			;
		hex = (struct pp_span){t.s + 2, q};
		if (q == hex.s || q == t.e || !is_ws(*q))
			continue;
		while (q < t.e && is_ws(*q))
			q++;
		rest = (struct pp_span){q, t.e};
		if (!pp_text__parse_uint(hex, 16, &id))
			return pp_error(b->ctx, PP_EFORMAT,
			                "%s:%zu: malformed Java location",
			                b->name, ls.lineno);
		v = slot(b, id);
		if (!*v)
			continue; /* no sample uses it */
		f = &b->frames[*v - 1];
		split_frame(rest, &fn, &file, &line);
		f->name = pp_strtab_intern(b->p->strings, fn.s,
		                           (size_t)(fn.e - fn.s));
		if (f->name == PP_NONE)
			return nomem(b->ctx);
		if ((err = by_name_room(b, f->name)) < 0)
			return err;
		/* A function's file is the one its first line names. */
		if (!b->file_of[f->name]) {
			pp_str s = pp_strtab_intern(b->p->strings, file.s,
			                            (size_t)(file.e - file.s));

			if (s == PP_NONE)
				return nomem(b->ctx);
			b->file_of[f->name] = s + 1;
		}
		f->line = line;
		f->named = true;
	}
	return 0;
}

static int build(struct builder *b, const struct pp_legacy *lg)
{
	struct pp_profile *p = b->p;
	uint32_t fake = PP_NONE, *stack = NULL, maxdepth = 0;
	pp_str bytes_key = 0;
	int err = 0;

	/* Functions in the order locations first use them. */
	for (uint32_t l = 0; l < b->nids; l++) {
		struct frame *f = &b->frames[l];
		struct pp_function fn;

		if (!f->named || b->fn_of[f->name])
			continue;
		memset(&fn, 0, sizeof(fn));
		fn.id = (uint64_t)p->nfunctions + 1;
		fn.name = fn.system_name = f->name;
		fn.filename = b->file_of[f->name] - 1;
		if ((err = pp_profile_add_function(p, &fn, NULL)) < 0)
			return err;
		b->fn_of[f->name] = p->nfunctions;
	}
	/* An id no line names keeps no frame; pprof gives it its fake
	 * mapping (then zeroes every address). */
	for (uint32_t l = 0; l < b->nids; l++) {
		struct pp_mapping m;

		if (b->frames[l].named || b->ids[l] == 0)
			continue;
		memset(&m, 0, sizeof(m));
		m.id = 1;
		m.limit = UINT64_MAX;
		if ((err = pp_profile_add_mapping(p, &m, &fake)) < 0)
			return err;
		break;
	}
	for (uint32_t l = 0; l < b->nids; l++) {
		const struct frame *f = &b->frames[l];
		struct pp_location loc;
		struct pp_line ln = {0, f->line, 0};

		memset(&loc, 0, sizeof(loc));
		loc.id = (uint64_t)l + 1;
		loc.mapping = f->named || b->ids[l] == 0 ? PP_NONE : fake;
		if (f->named)
			ln.function = b->fn_of[f->name] - 1;
		if ((err = pp_profile_add_location(p, &loc, &ln,
		                                   f->named ? 1 : 0, NULL)) < 0)
			return err;
	}
	if (lg->nsamples && p->nsample_types == 0)
		return pp_error(b->ctx, PP_EFORMAT,
		                "%s: malformed profile: missing sample type "
		                "information",
		                b->name);
	for (size_t s = 0; s < lg->nsamples; s++)
		if (lg->samples[s].n > maxdepth)
			maxdepth = lg->samples[s].n;
	stack = pp_malloc(b->ctx, ((size_t)maxdepth + 1) * sizeof(*stack));
	if (!stack)
		return nomem(b->ctx);
	if (lg->nsamples && lg->samples[0].has_bytes &&
	    (bytes_key = pp_profile_intern(p, "bytes")) == PP_NONE) {
		err = nomem(b->ctx);
		goto done;
	}
	for (size_t s = 0; s < lg->nsamples; s++) {
		const struct pp_legacy_sample *ls = &lg->samples[s];
		struct pp_label lab = {bytes_key, 0, ls->bytes, 0};

		for (uint32_t k = 0; k < ls->n; k++)
			stack[k] = *slot(b, lg->addrs[ls->first + k]) - 1;
		if ((err = pp_profile_add_sample(p, stack, ls->n, ls->values,
		                                 &lab, ls->has_bytes ? 1 : 0)) <
		    0)
			goto done;
	}
done:
	pp_free(b->ctx, stack);
	return err;
}

int pp_legacy__java_finish(struct pp_legacy *lg, const char *text, size_t len,
                           struct pp_profile *p)
{
	struct builder b;
	int err;

	memset(&b, 0, sizeof(b));
	b.ctx = lg->ctx;
	b.name = lg->name;
	b.p = p;
	if ((err = index_ids(&b, lg)) < 0 ||
	    (err = read_frames(&b, text, len)) < 0)
		goto done;
	err = build(&b, lg);
done:
	pp_free(b.ctx, b.keys);
	pp_free(b.ctx, b.vals);
	pp_free(b.ctx, b.ids);
	pp_free(b.ctx, b.frames);
	pp_free(b.ctx, b.file_of);
	pp_free(b.ctx, b.fn_of);
	return err;
}

/* ---- heapz and contentionz text --------------------------------------------
 */

static bool is_word_or_space(char c)
{
	return c == ' ' || c == '_' || is_digit(c) || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* `([\w ]+)=([\w ]+)`, leftmost, trimmed. */
static bool attribute(struct pp_span line, struct pp_span *key,
                      struct pp_span *val)
{
	for (const char *q = line.s; q < line.e; q++) {
		const char *a, *z;

		if (*q != '=')
			continue;
		for (a = q; a > line.s && is_word_or_space(a[-1]); a--)
			;
		if (a == q || q + 1 == line.e || !is_word_or_space(q[1]))
			continue;
		for (z = q + 1; z < line.e && is_word_or_space(*z); z++)
			;
		*key = pp_span__trim((struct pp_span){a, q});
		*val = pp_span__trim((struct pp_span){q + 1, z});
		return true;
	}
	return false;
}

/* ` *(\d+) +(\d+) +@ +([ x0-9a-f]*)`, leftmost. */
static bool sample_match(struct pp_span line, struct pp_span *a,
                         struct pp_span *b, struct pp_span *ids)
{
	for (const char *i = line.s; i < line.e; i++) {
		const char *j, *k, *m, *n, *o;

		if (!is_digit(*i) || (i > line.s && is_digit(i[-1])))
			continue;
		for (j = i; j < line.e && is_digit(*j); j++)
			;
		for (k = j; k < line.e && *k == ' '; k++)
			;
		for (m = k; m < line.e && is_digit(*m); m++)
			;
		for (n = m; n < line.e && *n == ' '; n++)
			;
		if (k == j || m == k || n == m || n == line.e || *n != '@')
			continue;
		for (o = n + 1; o < line.e && *o == ' '; o++)
			;
		if (o == n + 1)
			continue;
		*a = (struct pp_span){i, j};
		*b = (struct pp_span){k, m};
		ids->s = o;
		for (ids->e = o;
		     ids->e < line.e &&
		     (*ids->e == ' ' || *ids->e == 'x' || is_digit(*ids->e) ||
		      (*ids->e >= 'a' && *ids->e <= 'f'));
		     ids->e++)
			;
		return true;
	}
	return false;
}

int pp_legacy__decode_java(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out)
{
	const char *text = (const char *)data, *end = text + len, *nl, *at;
	struct pp_legacy lg;
	struct pp_profile *p = NULL;
	struct pp_span head, unit = {NULL, NULL};
	bool heap, has_period_type = false;
	int64_t period = 0, duration = 0;
	uint64_t *ids = NULL;
	size_t nids = 0, cap_ids = 0, lineno = 1;
	int err = 0;

	*out = NULL;
	nl = memchr(text, '\n', len);
	if (!nl)
		return UNRECOGNIZED;
	head = pp_span__trim((struct pp_span){text, nl});
	if (pp_span__equals(head, "--- heapz 1 ---"))
		heap = true;
	else if (pp_span__equals(head, "--- contentionz 1 ---"))
		heap = false;
	else
		return UNRECOGNIZED;
	pp_legacy__init(&lg, ctx, name);
	/* Attributes, one a line, until a line that is none. */
	for (at = nl + 1;
	     at < end && (nl = memchr(at, '\n', (size_t)(end - at)));
	     at = nl + 1, lineno++) {
		struct pp_span t = pp_span__trim((struct pp_span){at, nl}), k,
		               v;

		if (pp_span__empty(t))
			continue;
		if (!attribute(t, &k, &v))
			break;
		if (pp_span__equals(k, "format")) {
			if (!pp_span__equals(v, "java")) {
				err = UNRECOGNIZED;
				goto done;
			}
		} else if (pp_span__equals(k, "resolution")) {
			unit = v;
		} else if (!heap && pp_span__equals(k, "sampling period")) {
			has_period_type = true;
			if (!pp_text__parse_int(v, 0, &period)) {
				err = pp_error(
				        ctx, PP_EFORMAT,
				        "%s:%zu: malformed sampling period",
				        name, lineno + 1);
				goto done;
			}
		} else if (!heap && pp_span__equals(k, "ms since reset")) {
			int64_t ms;

			if (!pp_text__parse_int(v, 0, &ms)) {
				err = pp_error(
				        ctx, PP_EFORMAT,
				        "%s:%zu: malformed ms since reset",
				        name, lineno + 1);
				goto done;
			}
			duration = ms * 1000 * 1000;
		} else {
			err = UNRECOGNIZED;
			goto done;
		}
	}
	/* Samples, until a line that is none. */
	for (; at < end && (nl = memchr(at, '\n', (size_t)(end - at)));
	     at = nl + 1, lineno++) {
		struct pp_span t = pp_span__trim((struct pp_span){at, nl}), a,
		               b, ids_text;
		int64_t v[PP_LEGACY_MAXVALUES] = {0}, bytes = 0;

		if (pp_span__empty(t))
			continue;
		if (!sample_match(t, &a, &b, &ids_text))
			break;
		nids = 0;
		if ((err = pp_text__hex_addrs(ctx, ids_text, &ids, &nids,
		                              &cap_ids)) != 0 ||
		    !pp_text__parse_int(b, 0, &v[0]) ||
		    !pp_text__parse_int(a, 0, &v[1])) {
			if (err >= 0)
				err = pp_error(ctx, PP_EFORMAT,
				               "%s:%zu: malformed Java sample",
				               name, lineno + 1);
			goto done;
		}
		if (heap) {
			if (v[0] == 0) {
				err = pp_error(ctx, PP_EFORMAT,
				               "%s:%zu: a Java heap sample's "
				               "count must be non-zero",
				               name, lineno + 1);
				goto done;
			}
			bytes = v[1] / v[0];
			pp_legacy__unsample(&v[0], &v[1], 524288);
		} else if (period != 0) {
			v[0] *= period;
			v[1] *= period;
		}
		if (nids > UINT32_MAX) {
			err = pp_error(ctx, PP_ELIMIT, "%s: too many frames",
			               name);
			goto done;
		}
		if ((err = pp_legacy__add(&lg, ids, (uint32_t)nids, v,
		                          heap ? &bytes : NULL)) < 0)
			goto done;
	}
	{
		char unit_name[256];
		size_t n = unit.s ? (size_t)(unit.e - unit.s) : 0;
		const char *types[4];

		if (n >= sizeof(unit_name))
			n = sizeof(unit_name) - 1;
		if (n)
			memcpy(unit_name, unit.s, n);
		unit_name[n] = '\0';
		types[0] = heap ? "inuse_objects" : "contentions";
		types[1] = "count";
		types[2] = heap ? "inuse_space" : "delay";
		types[3] = unit_name;
		if ((err = pp_legacy__new_profile(
		             ctx, types, unit.s ? 2 : 0,
		             has_period_type ? "contentions" : "",
		             has_period_type ? "count" : "", period,
		             heap ? pp_legacy__alloc_drop
		                  : pp_legacy__lock_drop,
		             &p)) < 0)
			goto done;
	}
	if (heap && (p->keep_frames = pp_profile_intern(
	                     p, pp_legacy__alloc_keep)) == PP_NONE) {
		err = nomem(ctx);
		goto done;
	}
	p->duration_nanos = duration;
	if ((err = pp_legacy__java_finish(&lg, at, (size_t)(end - at), p)) < 0)
		goto done;
	*out = p;
	p = NULL;
done:
	pp_free(ctx, ids);
	pp_legacy__release(&lg);
	pp_profile_free(p);
	return err;
}
