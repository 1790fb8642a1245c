/* Text scanning with the Go library semantics pprof's readers rely on. */
#include <string.h>

#include "pprof/error.h"
#include "profile/textscan.h"

void pp_lines__init(struct pp_lines *ls, const void *data, size_t len)
{
	ls->p = data;
	ls->end = ls->p + len;
	ls->lineno = 0;
}

bool pp_lines__next(struct pp_lines *ls, struct pp_span *line)
{
	const char *nl;

	if (ls->p >= ls->end)
		return false;
	nl = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
	line->s = ls->p;
	line->e = nl ? nl : ls->end;
	ls->p = nl ? nl + 1 : ls->end;
	if (line->e > line->s && line->e[-1] == '\r')
		line->e--;
	ls->lineno++;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

struct pp_span pp_span__trim(struct pp_span sp)
{
	while (sp.s < sp.e && is_space(*sp.s))
		sp.s++;
	while (sp.e > sp.s && is_space(sp.e[-1]))
		sp.e--;
	return sp;
}

bool pp_span__empty(struct pp_span sp)
{
	return sp.s == sp.e;
}

bool pp_span__starts(struct pp_span sp, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(sp.e - sp.s) >= n && memcmp(sp.s, prefix, n) == 0;
}

bool pp_span__equals(struct pp_span sp, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(sp.e - sp.s) == n && memcmp(sp.s, s, n) == 0;
}

bool pp_span__contains(struct pp_span sp, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = sp.s; (size_t)(sp.e - p) >= n; p++) {
		p = memchr(p, needle[0], (size_t)(sp.e - p));
		if (!p || (size_t)(sp.e - p) < n)
			return false;
		if (memcmp(p, needle, n) == 0)
			return true;
	}
	return false;
}

bool pp_span__blank_or_comment(struct pp_span sp)
{
	sp = pp_span__trim(sp);
	return sp.s == sp.e || *sp.s == '#';
}

bool pp_span__is_map_sentinel(struct pp_span sp)
{
	return pp_span__contains(sp, "--- Memory map: ---") ||
	       pp_span__contains(sp, "MAPPED_LIBRARIES:");
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/*
 * The magnitude of an unsigned Go literal in base 10, 16 or 0 (prefixes
 * 0x, 0o, 0b, a leading 0 for octal, and '_' between digits only with
 * base 0). False on a syntax error or a value over 64 bits.
 */
static bool parse_magnitude(const char *s, const char *e, int base,
                            uint64_t *out)
{
	bool base0 = base == 0, any = false, prev_us = false;
	uint64_t v = 0;

	if (s == e)
		return false;
	if (base0) {
		base = 10;
		if (*s == '0') {
			if (e - s >= 3 && (s[1] == 'x' || s[1] == 'X')) {
				base = 16;
				s += 2;
				prev_us = true; /* '_' may follow a prefix */
			} else if (e - s >= 3 && (s[1] == 'o' || s[1] == 'O')) {
				base = 8;
				s += 2;
				prev_us = true;
			} else if (e - s >= 3 && (s[1] == 'b' || s[1] == 'B')) {
				base = 2;
				s += 2;
				prev_us = true;
			} else {
				base = 8;
				any = true;
				s++;
				prev_us = true;
			}
		}
	}
	/* Go's underscoreOK: '_' only between digits (or after a prefix);
	 * prev_us here means "an underscore may come next". */
	for (; s < e; s++) {
		int d;

		if (*s == '_' && base0) {
			if (!prev_us || s + 1 == e)
				return false;
			prev_us = false;
			continue;
		}
		d = digit_value(*s);
		if (d >= base)
			return false;
		if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + (uint64_t)d;
		any = true;
		prev_us = true;
	}
	*out = v;
	return any;
}

bool pp_text__parse_int(struct pp_span sp, int base, int64_t *out)
{
	const char *s = sp.s;
	bool neg = false;
	uint64_t m;

	if (s < sp.e && (*s == '+' || *s == '-')) {
		neg = *s == '-';
		s++;
	}
	if (!parse_magnitude(s, sp.e, base, &m))
		return false;
	if (neg) {
		if (m > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - m);
	} else {
		if (m > (uint64_t)INT64_MAX)
			return false;
		*out = (int64_t)m;
	}
	return true;
}

bool pp_text__parse_uint(struct pp_span sp, int base, uint64_t *out)
{
	return parse_magnitude(sp.s, sp.e, base, out);
}

static bool is_lower_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

int pp_text__hex_addrs(struct pp_ctx *ctx, struct pp_span sp, uint64_t **addrs,
                       size_t *n, size_t *cap)
{
	const char *p = sp.s;
	int err;

	while (sp.e - p >= 3) {
		const char *q;
		uint64_t v = 0;
		bool over = false;

		if (!(p[0] == '0' && p[1] == 'x' && is_lower_hex(p[2]))) {
			p++;
			continue;
		}
		for (q = p + 2; q < sp.e && is_lower_hex(*q); q++) {
			if (v >> 60)
				over = true;
			v = v << 4 | (uint64_t)digit_value(*q);
		}
		if (over)
			return 1;
		if ((err = pp_grow(ctx, (void **)addrs, cap, *n + 1,
		                   sizeof(**addrs))) < 0)
			return err;
		(*addrs)[(*n)++] = v;
		p = q;
	}
	return 0;
}
