/* UTF-8 validation for the output formats that need valid UTF-8 (XML,
 * JSON, DOT for graphviz): profile strings are arbitrary bytes. */
#ifndef PP_UTIL_UTF8_H
#define PP_UTIL_UTF8_H

#include <stddef.h>

/*
 * The length (1-4) of the valid UTF-8 sequence at s, which has n bytes
 * left, or 0 when the bytes there are no valid sequence (a stray
 * continuation byte, an overlong form, a surrogate, a value past
 * U+10FFFF, a sequence cut short). A NUL ends a sequence early, so for a
 * NUL-terminated string any n >= 4 is safe.
 */
size_t pp_utf8_len(const unsigned char *s, size_t n);

/* How many runes Go counts in the n bytes at s (utf8.RuneCount: an
 * invalid byte is one), as fmt's widths ("%10s") count them. */
size_t pp_utf8_runes(const unsigned char *s, size_t n);

/* U+FFFD, the replacement character written for each invalid byte. */
#define PP_UTF8_REPLACEMENT "\xef\xbf\xbd"

#endif
