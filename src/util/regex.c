/* The PCRE2 wrapper behind src/util/regex.h. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <string.h>

#include "util/regex.h"
#include "util/utf8.h"

struct pp_regex {
	struct pp_ctx *ctx;
	pcre2_code *code;
	/* One match-data block per regex: the report code is single-threaded
	 * per regex, and allocating one per match would dominate filters. */
	pcre2_match_data *md;
	char *pattern;
};

int pp_regex_compile(struct pp_ctx *ctx, const char *what, const char *pattern,
                     struct pp_regex **out)
{
	return pp_regex_compilen(ctx, what, pattern, strlen(pattern), out);
}

int pp_regex_compilen(struct pp_ctx *ctx, const char *what, const char *pattern,
                      size_t len, struct pp_regex **out)
{
	struct pp_regex *re;
	int errcode = 0;
	PCRE2_SIZE erroff = 0;

	*out = NULL;
	re = pp_calloc(ctx, 1, sizeof(*re));
	if (!re)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	re->ctx = ctx;
	re->pattern = pp_malloc(ctx, len + 1);
	if (!re->pattern) {
		pp_regex_free(re);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	/* UTF mode so that "." is one character as in RE2; names from a
	 * profile are not checked for valid UTF-8, hence MATCH_INVALID_UTF. */
	memcpy(re->pattern, pattern, len);
	re->pattern[len] = '\0';
	re->code = pcre2_compile((PCRE2_SPTR)pattern, len,
	                         PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &errcode,
	                         &erroff, NULL);
	if (!re->code) {
		PCRE2_UCHAR msg[256];

		pcre2_get_error_message(errcode, msg, sizeof(msg));
		pp_regex_free(re);
		return pp_error(ctx, PP_EUSAGE, "%s %s: %s at offset %zu", what,
		                pattern, (const char *)msg, (size_t)erroff);
	}
	/* JIT when available; a failure only means slower matching. */
	(void)pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE);
	re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
	if (!re->md) {
		pp_regex_free(re);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	*out = re;
	return 0;
}

void pp_regex_free(struct pp_regex *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_code_free(re->code);
	pp_free(re->ctx, re->pattern);
	pp_free(re->ctx, re);
}

/*
 * Go's regexp reads invalid UTF-8 one byte at a time, each byte a U+FFFD
 * that "." and negated classes match; PCRE2 (MATCH_INVALID_UTF) lets no
 * pattern item match such bytes. So a subject with invalid UTF-8 is
 * matched as Go sees it: a copy with each invalid byte replaced by U+FFFD
 * (PP_UTF8_REPLACEMENT, 3 bytes). NULL when s is valid UTF-8, or when the
 * copy cannot be allocated (then PCRE2 matches the bytes as they are).
 */
static char *as_go_reads(const struct pp_regex *re, const char *s, size_t len,
                         size_t *outlen)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, n = 0;
	char *copy;

	while (i < len && u[i] < 0x80)
		i++;
	for (size_t k = i; k < len;) {
		size_t l = pp_utf8_len(u + k, len - k);

		if (l == 0)
			break;
		k += l;
		if (k == len)
			return NULL;
	}
	/* Zeroed past the end: PCRE2's JIT reads whole vectors beyond a
	 * subject, and memcheck flags branches on unwritten bytes. */
	if (i == len || !(copy = pp_calloc(re->ctx, 3 * len + 64, 1)))
		return NULL;
	for (i = 0; i < len;) {
		size_t l = pp_utf8_len(u + i, len - i);

		if (l == 0) {
			memcpy(copy + n, PP_UTF8_REPLACEMENT, 3);
			n += 3, i++;
		} else {
			memcpy(copy + n, s + i, l);
			n += l, i += l;
		}
	}
	copy[n] = '\0';
	*outlen = n;
	return copy;
}

/* The offset in the original subject of offset at in its copy made by
 * as_go_reads (each invalid byte 3 bytes there, 1 here). */
static size_t original_offset(const char *s, size_t len, size_t at)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, c = 0;

	while (i < len && c < at) {
		size_t l = pp_utf8_len(u + i, len - i);

		c += l ? l : 3;
		i += l ? l : 1;
	}
	return i;
}

bool pp_regex_match(const struct pp_regex *re, const char *s, size_t len)
{
	size_t n;
	char *copy = as_go_reads(re, s, len, &n);
	bool yes;

	if (!copy)
		return pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, re->md,
		                   NULL) >= 0;
	yes = pcre2_match(re->code, (PCRE2_SPTR)copy, n, 0, 0, re->md, NULL) >=
	      0;
	pp_free(re->ctx, copy);
	return yes;
}

bool pp_regex_group(const struct pp_regex *re, const char *s, size_t len,
                    unsigned group, size_t *start, size_t *end)
{
	PCRE2_SIZE *ov;
	size_t n;
	char *copy = as_go_reads(re, s, len, &n);
	int rc = pcre2_match(re->code, (PCRE2_SPTR)(copy ? copy : s),
	                     copy ? n : len, 0, 0, re->md, NULL);

	pp_free(re->ctx, copy);
	if (rc < 0)
		return false;
	ov = pcre2_get_ovector_pointer(re->md);
	if (group >= pcre2_get_ovector_count(re->md) || (unsigned)rc <= group ||
	    ov[2 * group] == PCRE2_UNSET) {
		*start = *end = len;
		return true;
	}
	*start = copy ? original_offset(s, len, ov[2 * group]) : ov[2 * group];
	*end = copy ? original_offset(s, len, ov[2 * group + 1])
	            : ov[2 * group + 1];
	return true;
}

bool pp_regex_matchz(const struct pp_regex *re, const char *s)
{
	return pp_regex_match(re, s, strlen(s));
}

const char *pp_regex_pattern(const struct pp_regex *re)
{
	return re->pattern;
}
