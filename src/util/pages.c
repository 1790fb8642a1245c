/* MADV_DONTNEED is a Linux/BSD extension; POSIX's posix_madvise variant is
 * a no-op in glibc, because the real one discards data. */
#define _DEFAULT_SOURCE 1

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/pages.h"

void pp_pages_release(void *p, size_t len)
{
#ifdef MADV_DONTNEED
	long pagesize = sysconf(_SC_PAGESIZE);
	uintptr_t start, end;

	if (pagesize <= 0 || len == 0)
		return;
	start = ((uintptr_t)p + (uintptr_t)pagesize - 1) &
	        ~((uintptr_t)pagesize - 1);
	end = ((uintptr_t)p + len) & ~((uintptr_t)pagesize - 1);
	if (end > start)
		madvise((void *)start, end - start, MADV_DONTNEED);
#else
	(void)p;
	(void)len;
#endif
}

void pp_pages_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	long pagesize = sysconf(_SC_PAGESIZE);
	uintptr_t start, end;

	if (pagesize <= 0 || len == 0)
		return;
	/* Every page the block touches, not only its 2 MB-aligned middle:
	 * advice on part of a mapping splits it in two, and the C library's
	 * realloc of a big block (mremap) fails on a split one and falls
	 * back to copying the block into a new mapping. */
	start = (uintptr_t)p & ~((uintptr_t)pagesize - 1);
	end = ((uintptr_t)p + len + (uintptr_t)pagesize - 1) &
	      ~((uintptr_t)pagesize - 1);
	madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)p;
	(void)len;
#endif
}
