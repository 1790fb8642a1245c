/*
 * Regular expressions as pprof uses them (Go's RE2 syntax), through PCRE2.
 * The flags, filters and report arguments all compile through here so that
 * every regex in pprof-c has the same dialect and the same error wording.
 *
 * Matching is a search anywhere in the subject, as Go's MatchString; the
 * subject may be any bytes (invalid UTF-8 never matches a multi-byte
 * character but does not fail).
 */
#ifndef PP_UTIL_REGEX_H
#define PP_UTIL_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "pprof/error.h"

struct pp_regex;

/*
 * Compile pattern into *out (free with pp_regex_free). On a syntax error
 * records "WHAT PATTERN: REASON at offset N" (WHAT names the flag or
 * argument, e.g. "parsing argument regexp") and returns PP_EUSAGE.
 */
int pp_regex_compile(struct pp_ctx *ctx, const char *what, const char *pattern,
                     struct pp_regex **out);
/* The same for a pattern of len bytes that may hold NUL bytes (a
 * profile's own drop_frames, say), each an ordinary character. */
int pp_regex_compilen(struct pp_ctx *ctx, const char *what, const char *pattern,
                      size_t len, struct pp_regex **out);
void pp_regex_free(struct pp_regex *re);

/* True if re matches somewhere in s[0..len). */
bool pp_regex_match(const struct pp_regex *re, const char *s, size_t len);

/*
 * Like pp_regex_match, and on a match also where capture group `group`
 * (1 for the first) matched: s[*start, *end). A group that took no part
 * in the match gives *start == *end == len.
 */
bool pp_regex_group(const struct pp_regex *re, const char *s, size_t len,
                    unsigned group, size_t *start, size_t *end);

/* pp_regex_match on a NUL-terminated string. */
bool pp_regex_matchz(const struct pp_regex *re, const char *s);

/* The pattern as given. */
const char *pp_regex_pattern(const struct pp_regex *re);

#endif
