/* libhot.so: hot loops with inlined helpers, a callback into the main
 * program, and an allocation site inside a shared library. */
#include <stdlib.h>
#include <string.h>
#include "hot.h"

static inline unsigned long rotl(unsigned long x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline unsigned long fold_byte(unsigned long h, unsigned char c)
{
	h ^= c;
	h *= 0x100000001b3UL;
	return rotl(h, 13);
}

unsigned long hot_checksum(const unsigned char *buf, size_t len, int rounds)
{
	unsigned long h = 0xcbf29ce484222325UL;
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < len; i++)
			h = fold_byte(h, buf[i]);
	return h;
}

unsigned long hot_each(const unsigned long *v, size_t n, hot_visit_fn fn)
{
	unsigned long acc = 0;
	for (size_t i = 0; i < n; i++)
		acc += fn(v[i]) ^ i;
	return acc;
}

void *hot_alloc_table(size_t entries)
{
	unsigned long *t = malloc(entries * sizeof *t);
	if (t)
		memset(t, 0x5a, entries * sizeof *t);
	return t;
}
