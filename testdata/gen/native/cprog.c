/* cprog: a C program for native symbolization tests.
 *
 * Hot spots, on purpose:
 *  - hash_loop: noinline, with mix() inlined into step() inlined into it, so
 *    one address maps to the inline chain mix <- step <- hash_loop;
 *  - tree_sum: self-recursion (stacks with the same frame many times);
 *  - qsort with our comparator: cprog -> libc -> cprog;
 *  - libhot.so: hot_checksum (its own inlined helpers) and hot_each, which
 *    calls back into visit() here: cprog -> libhot -> cprog;
 *  - heap: allocations here and in libhot (for HEAPPROFILE).
 *
 * Usage: cprog [seconds-scale]   (default 1; the work is fixed, not timed)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hot.h"

static volatile unsigned long sink;

static inline unsigned long mix(unsigned long x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdUL;
	x ^= x >> 33;
	return x;
}

static inline unsigned long step(unsigned long x, unsigned long i)
{
	return mix(x + i) ^ mix(x * 31 + i);
}

__attribute__((noinline)) unsigned long hash_loop(unsigned long seed, long n)
{
	unsigned long acc = seed;
	for (long i = 0; i < n; i++)
		acc = step(acc, (unsigned long)i);
	return acc;
}

/* Not tail-recursive: both calls feed mix(). */
__attribute__((noinline)) unsigned long tree_sum(int depth, unsigned long x)
{
	if (depth == 0)
		return mix(x);
	return mix(tree_sum(depth - 1, x * 3) + tree_sum(depth - 1, x * 5 + 1));
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = mix(*(const unsigned long *)a);
	unsigned long y = mix(*(const unsigned long *)b);
	return (x > y) - (x < y);
}

__attribute__((noinline)) void sort_work(unsigned long *v, size_t n, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		for (size_t i = 0; i < n; i++)
			v[i] = mix(v[i] + (unsigned long)r);
		qsort(v, n, sizeof *v, cmp_ulong);
	}
}

__attribute__((noinline)) unsigned long visit(unsigned long v)
{
	return hash_loop(v, 64) ^ v; /* not a tail call: keep this frame */
}

__attribute__((noinline)) char *make_buffer(size_t len)
{
	char *buf = malloc(len);
	if (!buf)
		exit(1);
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)(i * 7);
	return buf;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;
	if (scale < 1)
		scale = 1;

	/* Heap: kept live to the end, so an at-exit heap profile shows them. */
	char *buf = make_buffer(1 << 20);              /* 1 MiB in cprog */
	void *table = hot_alloc_table(64 * 1024);       /* 512 KiB in libhot */
	size_t n = 20000;
	unsigned long *v = malloc(n * sizeof *v);       /* 160 KB in main */
	if (!v || !table)
		return 1;
	for (size_t i = 0; i < n; i++)
		v[i] = i;

	for (int s = 0; s < scale; s++) {
		sink += hash_loop(42, 120000000L);
		sink += tree_sum(26, 7);
		sort_work(v, n, 80);
		sink += hot_checksum((const unsigned char *)buf, 1 << 20, 120);
		for (int k = 0; k < 100; k++)
			sink += hot_each(v, n, visit);
	}
	printf("%lu\n", (unsigned long)sink);
	free(v);
	/* buf and table leak on purpose: they are the in-use heap at exit. */
	return 0;
}
