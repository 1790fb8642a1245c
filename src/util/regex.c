/* The PCRE2 wrapper behind src/util/regex.h. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <string.h>

#include "util/regex.h"

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
	struct pp_regex *re;
	int errcode = 0;
	PCRE2_SIZE erroff = 0;

	*out = NULL;
	re = pp_calloc(ctx, 1, sizeof(*re));
	if (!re)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	re->ctx = ctx;
	re->pattern = pp_strdup(ctx, pattern);
	if (!re->pattern) {
		pp_regex_free(re);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	/* UTF mode so that "." is one character as in RE2; names from a
	 * profile are not checked for valid UTF-8, hence MATCH_INVALID_UTF. */
	re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
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

bool pp_regex_match(const struct pp_regex *re, const char *s, size_t len)
{
	return pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, re->md, NULL) >=
	       0;
}

bool pp_regex_group(const struct pp_regex *re, const char *s, size_t len,
                    unsigned group, size_t *start, size_t *end)
{
	PCRE2_SIZE *ov;
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, 0, 0, re->md, NULL);

	if (rc < 0)
		return false;
	ov = pcre2_get_ovector_pointer(re->md);
	if (group >= pcre2_get_ovector_count(re->md) || (unsigned)rc <= group ||
	    ov[2 * group] == PCRE2_UNSET) {
		*start = *end = len;
		return true;
	}
	*start = ov[2 * group];
	*end = ov[2 * group + 1];
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
