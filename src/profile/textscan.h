/*
 * Line scanning and number parsing for the text profile readers, with the
 * semantics of the Go functions pprof's readers use: bufio.Scanner's lines
 * (a trailing "\r" dropped), strings.TrimSpace, strconv.ParseInt and
 * ParseUint (base 10, or base 0 with Go's prefixes), and pprof's
 * `0x[0-9a-f]+` address lists. Spans point into the input; nothing is
 * copied or allocated.
 */
#ifndef PP_PROFILE_TEXTSCAN_H
#define PP_PROFILE_TEXTSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_span {
	const char *s, *e; /* [s, e) */
};

struct pp_lines {
	const char *p, *end; /* what is left to scan */
	size_t lineno;       /* of the line last returned, from 1 */
};

void pp_lines__init(struct pp_lines *ls, const void *data, size_t len);
/* The next line without its "\n" (or "\r\n"); false at the end. */
bool pp_lines__next(struct pp_lines *ls, struct pp_span *line);

struct pp_span pp_span__trim(struct pp_span sp);
bool pp_span__empty(struct pp_span sp);
bool pp_span__starts(struct pp_span sp, const char *prefix);
bool pp_span__contains(struct pp_span sp, const char *needle);
bool pp_span__equals(struct pp_span sp, const char *s);
/* pprof's isSpaceOrComment: blank after trimming, or starting with '#'. */
bool pp_span__blank_or_comment(struct pp_span sp);
/* pprof's memory-map sentinels: "--- Memory map: ---", "MAPPED_LIBRARIES:". */
bool pp_span__is_map_sentinel(struct pp_span sp);

/* strconv.ParseInt(s, base, 64) for base 10 or 0; false on any error. */
bool pp_text__parse_int(struct pp_span sp, int base, int64_t *out);
/* strconv.ParseUint(s, base, 64) for base 16 or 0. */
bool pp_text__parse_uint(struct pp_span sp, int base, uint64_t *out);

/*
 * Every `0x[0-9a-f]+` in sp, in order, appended to (*addrs)[*n...] (grown
 * with pp_grow). Returns 0, 1 if one overflows 64 bits (pprof's
 * "malformed sample"), or PP_ENOMEM.
 */
struct pp_ctx;
int pp_text__hex_addrs(struct pp_ctx *ctx, struct pp_span sp, uint64_t **addrs,
                       size_t *n, size_t *cap);

#endif
