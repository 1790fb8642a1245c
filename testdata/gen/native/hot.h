/* libhot: a small shared library of ours, called from cprog.
 * Built -O2 -g -fPIC into testdata/native/libhot.so. */
#ifndef HOT_H
#define HOT_H
#include <stddef.h>

/* Checksums buf n times; the inner loop is all inlined helpers. */
unsigned long hot_checksum(const unsigned char *buf, size_t len, int rounds);

/* Calls back into the caller's code for each element: main -> libhot -> main. */
typedef unsigned long (*hot_visit_fn)(unsigned long v);
unsigned long hot_each(const unsigned long *v, size_t n, hot_visit_fn fn);

/* Allocates in the library, so heap stacks pass through libhot. */
void *hot_alloc_table(size_t entries);
#endif
