/*
 * Giving memory back early. A big buffer that is read once front to back
 * (the raw profile while its samples are decoded) or moved elsewhere need
 * not stay resident until it is freed: its consumed pages can be returned
 * to the system as the reader passes them, which is what keeps the peak
 * memory of a big decode near the size of the model alone.
 */
#ifndef PP_UTIL_PAGES_H
#define PP_UTIL_PAGES_H

#include <stddef.h>

/*
 * Return to the system the whole pages inside [p, p + len). Their contents
 * are lost (reads see zeros); the caller must not read them again. A hint:
 * where the system cannot do it, nothing happens.
 */
void pp_pages_release(void *p, size_t len);

/*
 * Ask for huge pages (Linux's transparent ones, where the system gives them
 * on request) for every page of [p, p + len): a big array written front to
 * back then takes one page fault every 2 MB instead of every 4 kB, which
 * on a virtual machine is most of the cost of writing it. pp_malloc,
 * pp_calloc and pp_realloc ask it for every big block. A hint, as above.
 */
void pp_pages_huge(void *p, size_t len);

#endif
