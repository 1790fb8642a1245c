/* The hash index (util/hashmap.h): growth and insertion; lookups are the
 * header's inline functions, as they sit in the callers' hot loops. */
#include <string.h>

#include "util/hashmap.h"

#define MIN_SLOTS 16u

void pp_hashmap_init(struct pp_hashmap *m, struct pp_ctx *ctx)
{
	memset(m, 0, sizeof(*m));
	m->ctx = ctx;
}

void pp_hashmap_release(struct pp_hashmap *m)
{
	pp_free(m->ctx, m->slots);
	m->slots = NULL;
	m->mask = 0;
	m->count = 0;
}

void pp_hashmap_clear(struct pp_hashmap *m)
{
	if (m->slots)
		memset(m->slots, 0, ((size_t)m->mask + 1) * sizeof(*m->slots));
	m->count = 0;
}

/* Move every entry into a table of nslots slots. The hashes are in the
 * slots, so the records are not read. */
static int rehash(struct pp_hashmap *m, size_t nslots)
{
	struct pp_hashmap_slot *slots;
	uint32_t mask = (uint32_t)(nslots - 1);

	slots = pp_calloc(m->ctx, nslots, sizeof(*slots));
	if (!slots)
		return pp_error(m->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		uint32_t j;

		if (!m->slots[i].idx1)
			continue;
		for (j = m->slots[i].hash & mask; slots[j].idx1;
		     j = (j + 1) & mask)
			;
		slots[j] = m->slots[i];
	}
	pp_free(m->ctx, m->slots);
	m->slots = slots;
	m->mask = mask;
	return 0;
}

int pp_hashmap_reserve(struct pp_hashmap *m, uint32_t n)
{
	size_t nslots = m->slots ? (size_t)m->mask + 1 : MIN_SLOTS;

	/* At most half full: short probes even for poor hashes. Indexes are
	 * 32 bits, so 2^32 slots is the most a table can need. */
	while (nslots < (size_t)n * 2) {
		if (nslots >= (size_t)1 << 31)
			return pp_error(m->ctx, PP_ENOMEM,
			                "hash table size overflow");
		nslots *= 2;
	}
	if (m->slots && nslots == (size_t)m->mask + 1)
		return 0;
	return rehash(m, nslots);
}

int pp_hashmap_add(struct pp_hashmap *m, uint32_t hash, uint32_t *pos,
                   uint32_t idx)
{
	uint32_t j;

	if (idx == PP_NONE)
		return pp_error(m->ctx, PP_ENOMEM, "hash table size overflow");
	if (!m->slots || ((size_t)m->count + 1) * 2 > (size_t)m->mask + 1) {
		size_t old = m->slots ? (size_t)m->mask + 1 : 0;
		int err = pp_hashmap_reserve(m, m->count + 1);

		if (err < 0)
			return err;
		if ((size_t)m->mask + 1 != old) {
			/* Grown: the probe's place is gone; find a new one. */
			for (j = hash & m->mask; m->slots[j].idx1;
			     j = (j + 1) & m->mask)
				;
			*pos = j;
		}
	}
	j = *pos;
	m->slots[j].hash = hash;
	m->slots[j].idx1 = idx + 1;
	m->count++;
	return 0;
}
