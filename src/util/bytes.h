/* Byte strings that may hold NUL bytes: a profile's names are
 * length-delimited, and pprof (Go) orders and compares them whole. */
#ifndef PP_UTIL_BYTES_H
#define PP_UTIL_BYTES_H

#include <stddef.h>
#include <string.h>

/* Go's string order: byte by byte (unsigned), a prefix first. <0, 0, >0. */
static inline int pp_bytes_cmp(const char *a, size_t an, const char *b,
                               size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

static inline int pp_bytes_eq(const char *a, size_t an, const char *b,
                              size_t bn)
{
	return an == bn && memcmp(a, b, an) == 0;
}

#endif
