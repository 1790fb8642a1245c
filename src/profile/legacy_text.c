/*
 * The legacy text profiles pprof reads besides heap profiles, read as its
 * legacy_profile.go reads them:
 *
 *   goroutine profile: total 9          Go's debug=1 count profiles
 *   3 @ 0x43a336 0x407dfb 0x500f31      (goroutine, threadcreate, ...)
 *
 *   --- mutex:                          contention: gperftools
 *   cycles/second=2596171660            ("--- contentionz 1 ---"), Go's
 *   sampling period=1                   debug=1 mutex ("--- mutex:") and
 *   35538282 137 @ 0x5008e5 0x5008bc    block ("--- contention:")
 *
 *   --- threadz 1 ---                   threadz: one stack per thread
 *   --- Thread 7f3a (name: worker/12) stack: ---
 *     0x4005d0 0x400712 ...
 *
 * each optionally followed by the process's memory map after a
 * "--- Memory map: ---" or "MAPPED_LIBRARIES:" line. Where pprof answers
 * "unrecognized profile format" the reader returns 1 so that the next
 * reader can try.
 */
#include <string.h>

#include "profile/legacy.h"
#include "profile/textscan.h"
#include "util/goint.h"

enum { UNRECOGNIZED = 1 };

struct reader {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_legacy lg;
	uint64_t *stack;
	size_t nstack, cap_stack;
};

static void reader_init(struct reader *r, struct pp_ctx *ctx, const char *name)
{
	memset(r, 0, sizeof(*r));
	r->ctx = ctx;
	r->name = name;
	pp_legacy__init(&r->lg, ctx, name);
}

static void reader_release(struct reader *r)
{
	pp_legacy__release(&r->lg);
	pp_free(r->ctx, r->stack);
}

static int malformed(struct reader *r, size_t lineno, const char *what)
{
	return pp_error(r->ctx, PP_EFORMAT, "%s:%zu: malformed %s", r->name,
	                lineno, what);
}

/* The next line, or false and an empty line at the end: what Go's
 * Scanner.Text() gives after Scan() has returned false. */
static bool next_line(struct pp_lines *ls, struct pp_span *line)
{
	if (pp_lines__next(ls, line))
		return true;
	line->s = line->e = ls->end;
	return false;
}

/* The stack in r->stack, each frame but the first (leaf_exact) or every
 * frame moved back by one onto the call instruction, as one sample. */
static int add_sample(struct reader *r, bool leaf_exact, const int64_t *v)
{
	int64_t values[PP_LEGACY_MAXVALUES] = {0};

	for (size_t i = leaf_exact ? 1 : 0; i < r->nstack; i++)
		r->stack[i]--;
	if (r->nstack > UINT32_MAX)
		return pp_error(r->ctx, PP_ELIMIT, "%s: too many frames",
		                r->name);
	memcpy(values, v, 2 * sizeof(*v));
	return pp_legacy__add(&r->lg, r->stack, (uint32_t)r->nstack, values,
	                      NULL);
}

/* Skip to the line after the memory-map sentinel (pprof's
 * parseAdditionalSections); at is the line the caller stopped on. */
static int finish(struct reader *r, struct pp_lines *ls, struct pp_span at,
                  bool have_at, struct pp_profile *p)
{
	struct pp_span line = at;
	bool found = have_at && pp_span__is_map_sentinel(at);

	while (!found && pp_lines__next(ls, &line))
		found = pp_span__is_map_sentinel(line);
	if (!found)
		ls->p = ls->end;
	return pp_legacy__finish(&r->lg, ls->p, (size_t)(ls->end - ls->p), p);
}

/* ---- Go count profiles ----------------------------------------------------
 */

static bool is_re_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* `\A(\S+) profile: total \d+\z`; *type gets the \S+ part. */
static bool count_header(struct pp_span line, struct pp_span *type)
{
	static const char mid[] = " profile: total ";
	const char *p = line.s;

	while (p < line.e && !is_re_space(*p))
		p++;
	if (p == line.s || (size_t)(line.e - p) < sizeof(mid) ||
	    memcmp(p, mid, sizeof(mid) - 1) != 0)
		return false;
	type->s = line.s;
	type->e = p;
	for (p += sizeof(mid) - 1; p < line.e; p++)
		if (*p < '0' || *p > '9')
			return false;
	return line.e[-1] >= '0' && line.e[-1] <= '9';
}

/*
 * `N @ 0x.. 0x..`: pprof's `\A(\d+) @(( 0x[0-9a-f]+)+)\z`, with the count
 * parsed as strconv.ParseInt(s, 0, 64) does (a leading 0 means octal).
 * Unlike pprof we also take `N @` with no frames, which Go writes for
 * threads created before profiling started (pprof rejects the whole
 * threadcreate profile).
 */
static int count_sample(struct reader *r, struct pp_span line, size_t lineno)
{
	const char *p = line.s, *q;
	struct pp_span num;
	int64_t n;
	int err;

	while (p < line.e && *p >= '0' && *p <= '9')
		p++;
	num.s = line.s;
	num.e = p;
	if (p == line.s || line.e - p < 2 || p[0] != ' ' || p[1] != '@' ||
	    !pp_text__parse_int(num, 0, &n))
		return malformed(r, lineno, "count profile sample");
	r->nstack = 0;
	for (p += 2; p < line.e; p = q) {
		struct pp_span hex;
		uint64_t a;

		if (line.e - p < 4 || p[0] != ' ' || p[1] != '0' || p[2] != 'x')
			return malformed(r, lineno, "count profile sample");
		for (q = p + 3; q < line.e && ((*q >= '0' && *q <= '9') ||
		                               (*q >= 'a' && *q <= 'f'));
		     q++)
			;
		hex.s = p + 1;
		hex.e = q;
		if (q == p + 3 || !pp_text__parse_uint(hex, 0, &a))
			return malformed(r, lineno, "count profile sample");
		if ((err = pp_grow(r->ctx, (void **)&r->stack, &r->cap_stack,
		                   r->nstack + 1, sizeof(*r->stack))) < 0)
			return err;
		r->stack[r->nstack++] = a;
	}
	return add_sample(r, false, (int64_t[2]){n, 0});
}

static int decode_count(struct reader *r, const uint8_t *data, size_t len,
                        struct pp_profile **out)
{
	struct pp_lines ls;
	struct pp_span line = {NULL, NULL}, type;
	struct pp_profile *p = NULL;
	bool have = false;
	char *tname = NULL;
	int err;

	pp_lines__init(&ls, data, len);
	while ((have = next_line(&ls, &line)) &&
	       pp_span__blank_or_comment(line))
		;
	if (!have || !count_header(line, &type))
		return UNRECOGNIZED;
	while ((have = next_line(&ls, &line))) {
		if (pp_span__blank_or_comment(line))
			continue;
		if (pp_span__starts(line, "---"))
			break;
		if ((err = count_sample(r, line, ls.lineno)) < 0)
			return err;
	}
	tname = pp_malloc(r->ctx, (size_t)(type.e - type.s) + 1);
	if (!tname)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	memcpy(tname, type.s, (size_t)(type.e - type.s));
	tname[type.e - type.s] = '\0';
	err = pp_legacy__new_profile(
	        r->ctx, (const char *const[]){tname, "count"}, 1, tname,
	        "count", 1, pp_legacy__cpu_drop, &p);
	pp_free(r->ctx, tname);
	if (err < 0)
		return err;
	if ((err = finish(r, &ls, line, have, p)) < 0) {
		pp_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}

/* ---- contention -----------------------------------------------------------
 */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * pprof's `(\d+) *(\d+) @([ x0-9a-f]*)`, found anywhere in the line with
 * Go's leftmost-first matching: the first number is a whole digit run
 * followed by spaces and a second run, or (when no space separates them)
 * a run split before its last digit.
 */
static bool contention_match(struct pp_span line, struct pp_span *a,
                             struct pp_span *b, struct pp_span *stack)
{
	for (const char *i = line.s; i < line.e; i++) {
		const char *j, *k, *m;

		if (!is_digit(*i))
			continue;
		for (j = i; j < line.e && is_digit(*j); j++)
			;
		for (k = j; k < line.e && *k == ' '; k++)
			;
		for (m = k; m < line.e && is_digit(*m); m++)
			;
		if (k > j && m > k && line.e - m >= 2 && m[0] == ' ' &&
		    m[1] == '@') {
			*a = (struct pp_span){i, j};
			*b = (struct pp_span){k, m};
		} else if (j - i >= 2 && line.e - j >= 2 && j[0] == ' ' &&
		           j[1] == '@') {
			m = j;
			*a = (struct pp_span){i, j - 1};
			*b = (struct pp_span){j - 1, j};
		} else {
			continue;
		}
		stack->s = m + 2;
		for (stack->e = stack->s;
		     stack->e < line.e &&
		     (*stack->e == ' ' || *stack->e == 'x' ||
		      is_digit(*stack->e) ||
		      (*stack->e >= 'a' && *stack->e <= 'f'));
		     stack->e++)
			;
		return true;
	}
	return false;
}

/* One "key = value" line before the samples; 1 if pprof would call the
 * profile unrecognized. */
static int contention_attr(struct pp_span key, struct pp_span val,
                           int64_t *cpu_hz, int64_t *period, int64_t *duration)
{
	int64_t ms;

	if (pp_span__equals(key, "cycles/second"))
		return pp_text__parse_int(val, 0, cpu_hz) ? 0 : UNRECOGNIZED;
	if (pp_span__equals(key, "sampling period"))
		return pp_text__parse_int(val, 0, period) ? 0 : UNRECOGNIZED;
	if (pp_span__equals(key, "ms since reset")) {
		if (!pp_text__parse_int(val, 0, &ms))
			return UNRECOGNIZED;
		*duration = ms * 1000 * 1000;
		return 0;
	}
	if (pp_span__equals(key, "discarded samples"))
		return 0;
	/* "format" and "resolution" mark Java's contentionz; anything else
	 * is no contention profile pprof knows. */
	return UNRECOGNIZED;
}

static int contention_sample(struct reader *r, struct pp_span line,
                             size_t lineno, int64_t period, int64_t cpu_hz)
{
	struct pp_span a, b, stack;
	int64_t delay, count;
	int err;

	if (!contention_match(line, &a, &b, &stack))
		return UNRECOGNIZED;
	if (!pp_text__parse_int(a, 10, &delay) ||
	    !pp_text__parse_int(b, 10, &count))
		return malformed(r, lineno, "contention sample");
	/* Unsampled as pprof does: cycles to nanoseconds, then the period. */
	if (period > 0) {
		if (cpu_hz > 0) {
			double ghz = (double)cpu_hz / 1e9;

			delay = pp_go_int64((double)delay * (double)period /
			                    ghz);
		}
		count *= period;
	}
	r->nstack = 0;
	if ((err = pp_text__hex_addrs(r->ctx, stack, &r->stack, &r->nstack,
	                              &r->cap_stack)) != 0)
		return err < 0 ? err
		               : malformed(r, lineno, "contention sample");
	return add_sample(r, false, (int64_t[2]){count, delay});
}

static int decode_contention(struct reader *r, const uint8_t *data, size_t len,
                             struct pp_profile **out)
{
	static const char *const types[] = {"contentions", "count", "delay",
	                                    "nanoseconds"};
	struct pp_lines ls;
	struct pp_span line = {NULL, NULL};
	struct pp_profile *p = NULL;
	int64_t cpu_hz = 0, period = 1, duration = 0;
	bool have;
	int err;

	pp_lines__init(&ls, data, len);
	if (!pp_lines__next(&ls, &line) ||
	    !(pp_span__starts(line, "--- contentionz ") ||
	      pp_span__starts(line, "--- mutex:") ||
	      pp_span__starts(line, "--- contention:")))
		return UNRECOGNIZED;
	while ((have = next_line(&ls, &line))) {
		struct pp_span t = pp_span__trim(line), key, val;
		const char *eq;

		if (pp_span__blank_or_comment(t))
			continue;
		if (pp_span__starts(t, "---"))
			break;
		eq = memchr(t.s, '=', (size_t)(t.e - t.s));
		if (!eq)
			break;
		key = pp_span__trim((struct pp_span){t.s, eq});
		val = pp_span__trim((struct pp_span){eq + 1, t.e});
		if ((err = contention_attr(key, val, &cpu_hz, &period,
		                           &duration)) != 0)
			return err;
	}
	/* The samples start at the line that ended the attributes (Go's
	 * scanner then still holds the last line read). */
	for (;;) {
		struct pp_span t = pp_span__trim(line);

		if (pp_span__starts(t, "---"))
			break;
		if (!pp_span__blank_or_comment(t) &&
		    (err = contention_sample(r, t, ls.lineno, period,
		                             cpu_hz)) != 0)
			return err;
		if (!(have = next_line(&ls, &line)))
			break;
	}
	if ((err = pp_legacy__new_profile(r->ctx, types, 2, "contentions",
	                                  "count", period, pp_legacy__lock_drop,
	                                  &p)) < 0)
		return err;
	p->duration_nanos = duration;
	if ((err = finish(r, &ls, line, have, p)) < 0) {
		pp_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}

/* ---- threadz --------------------------------------------------------------
 */

/* `--- threadz \d+ ---`, anywhere in the line. */
static bool threadz_header(struct pp_span line)
{
	static const char head[] = "--- threadz ";

	for (const char *p = line.s; line.e - p >= 17; p++) {
		const char *q;

		if (memcmp(p, head, sizeof(head) - 1) != 0)
			continue;
		for (q = p + sizeof(head) - 1; q < line.e && is_digit(*q); q++)
			;
		if (q > p + sizeof(head) - 1 && line.e - q >= 4 &&
		    memcmp(q, " ---", 4) == 0)
			return true;
	}
	return false;
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* `--- Thread ([[:xdigit:]]+) \(name: (.*)/(\d+)\) stack: ---`, anywhere. */
static bool thread_start(struct pp_span line)
{
	static const char head[] = "--- Thread ", tail[] = ") stack: ---";

	for (const char *p = line.s; (size_t)(line.e - p) >= sizeof(head);
	     p++) {
		const char *q, *t;

		if (memcmp(p, head, sizeof(head) - 1) != 0)
			continue;
		for (q = p + sizeof(head) - 1; q < line.e && is_xdigit(*q); q++)
			;
		if (q == p + sizeof(head) - 1 || line.e - q < 8 ||
		    memcmp(q, " (name: ", 8) != 0)
			continue;
		q += 8;
		/* (.*)/(\d+)\) stack: --- : some "/digits) stack: ---" after
		 * q (the name may hold anything, even that text). */
		for (t = q; (size_t)(line.e - t) >= sizeof(tail) + 1; t++) {
			const char *d;

			if (*t != '/')
				continue;
			for (d = t + 1; d < line.e && is_digit(*d); d++)
				;
			if (d > t + 1 &&
			    (size_t)(line.e - d) >= sizeof(tail) - 1 &&
			    memcmp(d, tail, sizeof(tail) - 1) == 0)
				return true;
		}
	}
	return false;
}

/*
 * One thread's stack lines up to the next "---" line (left in *line).
 * *same: the thread said "same as previous thread".
 */
static int thread_stack(struct reader *r, struct pp_lines *ls,
                        struct pp_span *line, bool *same)
{
	struct pp_span raw;
	int err;

	*same = false;
	r->nstack = 0;
	line->s = line->e = ls->end;
	while (pp_lines__next(ls, &raw)) {
		*line = pp_span__trim(raw);
		if (pp_span__empty(*line))
			continue;
		if (pp_span__starts(*line, "---"))
			break;
		if (pp_span__contains(*line, "same as previous thread")) {
			*same = true;
			continue;
		}
		if ((err = pp_text__hex_addrs(r->ctx, *line, &r->stack,
		                              &r->nstack, &r->cap_stack)) != 0)
			return err < 0 ? err
			               : malformed(r, ls->lineno,
			                           "thread stack");
	}
	return 0;
}

static int decode_threadz(struct reader *r, const uint8_t *data, size_t len,
                          struct pp_profile **out)
{
	static const char *const types[] = {"thread", "count"};
	struct pp_lines ls;
	struct pp_span line = {NULL, NULL};
	struct pp_profile *p = NULL;
	bool have;
	int err;

	pp_lines__init(&ls, data, len);
	while ((have = next_line(&ls, &line)) &&
	       pp_span__blank_or_comment(line))
		;
	if (!have)
		return UNRECOGNIZED;
	if (threadz_header(line)) {
		while (next_line(&ls, &line))
			if (pp_span__is_map_sentinel(line) ||
			    pp_span__starts(line, "-"))
				break;
	} else if (!thread_start(line)) {
		return UNRECOGNIZED;
	}
	while (!pp_span__is_map_sentinel(line)) {
		bool same;

		if (pp_span__starts(line, "---- no stack trace for")) {
			line.s = line.e = ls.end;
			break;
		}
		if (!thread_start(line))
			return UNRECOGNIZED;
		if ((err = thread_stack(r, &ls, &line, &same)) < 0)
			return err;
		if (same || r->nstack == 0) {
			/* Another thread with the stack of the one before. */
			if (r->lg.nsamples)
				r->lg.samples[r->lg.nsamples - 1].values[0]++;
			continue;
		}
		if ((err = add_sample(r, true, (int64_t[2]){1, 0})) < 0)
			return err;
	}
	if ((err = pp_legacy__new_profile(r->ctx, types, 1, "thread", "count",
	                                  1, pp_legacy__cpu_drop, &p)) < 0)
		return err;
	pp_legacy__drop_duplicate_leaves(&r->lg);
	if ((err = finish(r, &ls, line, true, p)) < 0) {
		pp_profile_free(p);
		return err;
	}
	*out = p;
	return 0;
}

/* ---- entry point ----------------------------------------------------------
 */

int pp_legacy__decode_text(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out)
{
	static int (*const readers[])(struct reader *, const uint8_t *, size_t,
	                              struct pp_profile **) = {
	        decode_count, decode_threadz, decode_contention};
	int err = UNRECOGNIZED;

	*out = NULL;
	/* pprof's order: count, threadz, contention, Java. */
	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		struct reader r;

		reader_init(&r, ctx, name);
		err = readers[i](&r, data, len, out);
		reader_release(&r);
		if (err != UNRECOGNIZED)
			return err;
	}
	return pp_legacy__decode_java(ctx, name, data, len, out);
}
