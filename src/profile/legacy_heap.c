/*
 * tcmalloc / gperftools heap profiles (text), read as pprof reads them:
 *
 *   heap profile: 4: 1577032 [85: 14537032] @ heapprofile
 *   1: 1048576 [1: 1048576] @ 0x55d0c4a0f1a2 0x7f...
 *   ...
 *   MAPPED_LIBRARIES:
 *   <the process's memory map>
 *
 * Sampled kinds (heap_v2/RATE, heapz_v2, heap/2*RATE) are unsampled with
 * pprof's Poisson estimate; heapprofile, growthz and fragmentationz are
 * exact.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile/legacy.h"
#include "util/goint.h"

struct header {
	int64_t v[4]; /* inuse objs, inuse bytes, alloc objs, alloc bytes */
	bool sampled;
	int64_t period;
	bool has_alloc;
};

struct cursor {
	const char *p, *end;
};

static void skip_spaces(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool eat(struct cursor *c, char ch)
{
	skip_spaces(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* A decimal integer (optional '-' when sign); false if none or too big. */
static bool number(struct cursor *c, bool sign, int64_t *out)
{
	char buf[32];
	size_t n = 0;
	char *e;

	skip_spaces(c);
	if (sign && c->p < c->end && *c->p == '-')
		buf[n++] = *c->p++;
	while (c->p < c->end && isdigit((unsigned char)*c->p) &&
	       n < sizeof(buf) - 1)
		buf[n++] = *c->p++;
	buf[n] = '\0';
	if (n == 0 || (n == 1 && buf[0] == '-'))
		return false;
	errno = 0;
	*out = strtoll(buf, &e, 10);
	return errno == 0 && *e == '\0';
}

/* "N: N [N: N]" */
static bool four_numbers(struct cursor *c, bool sign, int64_t v[4])
{
	return number(c, sign, &v[0]) && eat(c, ':') &&
	       number(c, sign, &v[1]) && eat(c, '[') &&
	       number(c, false, &v[2]) && eat(c, ':') &&
	       number(c, false, &v[3]) && eat(c, ']');
}

static bool starts(const struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(c->end - c->p) >= n && memcmp(c->p, s, n) == 0;
}

static const char *find_in(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	for (; (size_t)(end - p) >= n; p++)
		if (memcmp(p, s, n) == 0)
			return p;
	return NULL;
}

/* The first line; false if it is not a heap profile header. */
static bool parse_header(const char *line, const char *end, struct header *h)
{
	struct cursor c;
	const char *at = line;

	/* pprof finds the header anywhere in the line; we want it first, so
	 * that no profile.proto is ever taken for a heap profile. */
	memset(h, 0, sizeof(*h));
	while (at < end && isspace((unsigned char)*at))
		at++;
	if ((size_t)(end - at) < 13 || memcmp(at, "heap profile:", 13) != 0)
		return false;
	c.p = at + 13;
	c.end = end;
	if (!four_numbers(&c, false, h->v) || !eat(&c, '@'))
		return false;
	skip_spaces(&c);
	h->period = 1;
	if (starts(&c, "growthz") || starts(&c, "growth") ||
	    starts(&c, "fragmentationz") || starts(&c, "fragmentation")) {
		return true; /* pprof gives these two types, period 1 */
	}
	{
		const char *k = c.p;
		size_t n;
		int64_t rate = 0;

		while (c.p < c.end &&
		       (islower((unsigned char)*c.p) ||
		        isdigit((unsigned char)*c.p) || *c.p == '_'))
			c.p++;
		n = (size_t)(c.p - k);
		if (c.p < c.end && *c.p == '/')
			c.p++;
		if (c.p < c.end && isdigit((unsigned char)*c.p) &&
		    !number(&c, false, &rate))
			return false;
		if ((h->v[2] != h->v[0] && h->v[2] != 0) ||
		    (h->v[3] != h->v[1] && h->v[3] != 0))
			h->has_alloc = true;
		if ((n == 8 && memcmp(k, "heapz_v2", 8) == 0) ||
		    (n == 7 && memcmp(k, "heap_v2", 7) == 0)) {
			h->sampled = true;
			h->period = rate;
		} else if (n == 11 && memcmp(k, "heapprofile", 11) == 0) {
			h->period = 1;
		} else if (n == 4 && memcmp(k, "heap", 4) == 0) {
			h->sampled = true;
			h->period = rate / 2;
		} else {
			return false;
		}
	}
	return true;
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

bool pp_legacy__is_heap(const uint8_t *data, size_t len)
{
	const char *p = (const char *)data, *end = p + len;
	struct header h;

	return parse_header(p, line_end(p, end), &h);
}

/* pprof's estimate of the unsampled values of a Poisson-sampled stack. */
void pp_legacy__unsample(int64_t *count, int64_t *size, int64_t rate)
{
	double avg, scale;

	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return;
	}
	if (rate <= 1)
		return;
	avg = (double)*size / (double)*count;
	scale = 1 / (1 - exp(-avg / (double)rate));
	*count = pp_go_int64((double)*count * scale);
	*size = pp_go_int64((double)*size * scale);
}

static bool is_map_sentinel(const char *p, const char *end)
{
	return find_in(p, end, "MAPPED_LIBRARIES:") ||
	       find_in(p, end, "--- Memory map: ---");
}

static int parse_sample(struct pp_legacy *lg, const struct header *h,
                        const char *line, const char *end, uint64_t **stack,
                        size_t *cap, size_t lineno)
{
	struct cursor c = {line, end};
	int64_t v[4], values[PP_LEGACY_MAXVALUES] = {0}, bytes = 0;
	size_t n = 0, nv = 0;
	int err;

	if (!four_numbers(&c, true, v) || !eat(&c, '@'))
		return pp_error(lg->ctx, PP_EFORMAT,
		                "%s:%zu: malformed heap sample", lg->name,
		                lineno);
	/* The alloc pair (when kept) first, then the in-use pair. */
	for (int pair = h->has_alloc ? 1 : 0; pair >= 0; pair--) {
		int64_t count = v[2 * pair], size = v[2 * pair + 1];

		if (count == 0 && size != 0)
			return pp_error(
			        lg->ctx, PP_EFORMAT,
			        "%s:%zu: %s count was 0 but %s bytes "
			        "was %lld",
			        lg->name, lineno, pair ? "allocation" : "inuse",
			        pair ? "allocation" : "inuse", (long long)size);
		if (count != 0) {
			bytes = size / count;
			if (h->sampled)
				pp_legacy__unsample(&count, &size, h->period);
		}
		values[nv++] = count;
		values[nv++] = size;
	}
	while (c.p < c.end) {
		const char *q;
		uint64_t a = 0;
		size_t digits = 0;

		q = find_in(c.p, c.end, "0x");
		if (!q)
			break;
		c.p = q + 2;
		while (c.p < c.end && isxdigit((unsigned char)*c.p) &&
		       !isupper((unsigned char)*c.p)) {
			int ch = (unsigned char)*c.p++;

			digits++;
			if (a >> 60)
				return pp_error(lg->ctx, PP_EFORMAT,
				                "%s:%zu: address too large",
				                lg->name, lineno);
			a = a << 4 |
			    (uint64_t)(isdigit(ch) ? ch - '0' : ch - 'a' + 10);
		}
		if (digits == 0)
			continue;
		if ((err = pp_grow(lg->ctx, (void **)stack, cap, n + 1,
		                   sizeof(**stack))) < 0)
			return err;
		/* Return addresses point after the call, the first too. */
		(*stack)[n++] = a - 1;
	}
	if (n > UINT32_MAX)
		return pp_error(lg->ctx, PP_ELIMIT, "%s: too many frames",
		                lg->name);
	return pp_legacy__add(lg, *stack, (uint32_t)n, values, &bytes);
}

int pp_legacy__decode_heap(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out)
{
	const char *p = (const char *)data, *end = p + len, *le;
	struct pp_legacy lg;
	struct pp_profile *prof = NULL;
	struct header h;
	uint64_t *stack = NULL;
	size_t cap = 0, lineno = 1;
	int err = 0;

	*out = NULL;
	pp_legacy__init(&lg, ctx, name);
	le = line_end(p, end);
	if (!parse_header(p, le, &h))
		return pp_error(ctx, PP_EFORMAT,
		                "%s: unrecognized profile format", name);
	p = le < end ? le + 1 : end;
	while (p < end) {
		const char *s = p, *e;

		le = line_end(p, end);
		p = le < end ? le + 1 : end;
		lineno++;
		while (s < le && isspace((unsigned char)*s))
			s++;
		e = le;
		while (e > s && isspace((unsigned char)e[-1]))
			e--;
		if (s == e || *s == '#')
			continue;
		if (is_map_sentinel(s, e))
			break;
		if ((err = parse_sample(&lg, &h, s, e, &stack, &cap, lineno)) <
		    0)
			goto done;
	}
	if (!(prof = pp_profile_new(ctx))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	{
		static const char *const four[] = {
		        "alloc_objects", "count", "alloc_space", "bytes",
		        "inuse_objects", "count", "inuse_space", "bytes"};
		static const char *const two[] = {"objects", "count", "space",
		                                  "bytes"};
		const char *const *names = h.has_alloc ? four : two;
		size_t nt = h.has_alloc ? 4 : 2;
		pp_str drop, keep;

		for (size_t i = 0; i < nt; i++) {
			pp_str t = pp_profile_intern(prof, names[2 * i]),
			       u = pp_profile_intern(prof, names[2 * i + 1]);

			if (t == PP_NONE || u == PP_NONE) {
				err = pp_error(ctx, PP_ENOMEM, "out of memory");
				goto done;
			}
			if ((err = pp_profile_add_sample_type(prof, t, u)) < 0)
				goto done;
		}
		prof->period_type.type = pp_profile_intern(prof, "space");
		prof->period_type.unit = pp_profile_intern(prof, "bytes");
		prof->period = h.period;
		/* pprof's allocator frames, dropped from heap stacks. */
		drop = pp_profile_intern(prof, pp_legacy__alloc_drop);
		keep = pp_profile_intern(prof, pp_legacy__alloc_keep);
		if (prof->period_type.type == PP_NONE ||
		    prof->period_type.unit == PP_NONE || drop == PP_NONE ||
		    keep == PP_NONE) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		prof->drop_frames = drop;
		prof->keep_frames = keep;
	}
	if ((err = pp_legacy__finish(&lg, p, (size_t)(end - p), prof)) < 0)
		goto done;
	*out = prof;
	prof = NULL;
done:
	pp_free(ctx, stack);
	pp_legacy__release(&lg);
	pp_profile_free(prof);
	return err;
}
