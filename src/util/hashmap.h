/*
 * A hash index: finds an entry of the caller's own array by its hash.
 *
 * The tables of the library all hold their records in a plain array (nodes,
 * edges, tags, tree children…) and only need a way back from a key to the
 * record's index. This is that part, written once: open addressing with
 * linear probing over slots of (32-bit hash, index + 1), at most half full.
 * The hash kept in each slot lets a lookup skip most unequal records without
 * reading them, and lets the table grow without the records.
 *
 * The caller hashes and compares; the index only hands out candidates:
 *
 *     uint32_t h = pp_hash_u64(key), pos, i;
 *
 *     for (i = pp_hashmap_first(m, h, &pos); i != PP_NONE;
 *          i = pp_hashmap_next(m, h, &pos))
 *             if (equal(&recs[i], key))
 *                     return i;                  // found
 *     ...append the record at index n...
 *     if ((err = pp_hashmap_add(m, h, &pos, n)) < 0)
 *             ...                                // PP_ENOMEM, nothing added
 *
 * pos is where the probe stopped: pp_hashmap_add puts the index there (or,
 * when the table must grow first, wherever it goes in the grown one).
 * Entries are never removed one by one; pp_hashmap_clear forgets them all.
 */
#ifndef PP_UTIL_HASHMAP_H
#define PP_UTIL_HASHMAP_H

#include <stdint.h>

#include "pprof/error.h"
#include "pprof/strtab.h" /* PP_NONE */

struct pp_hashmap_slot {
	uint32_t hash;
	uint32_t idx1; /* the index + 1; 0: an empty slot */
};

struct pp_hashmap {
	struct pp_ctx *ctx;
	struct pp_hashmap_slot *slots; /* NULL until the first add */
	uint32_t mask;                 /* slots - 1 (a power of two) */
	uint32_t count;                /* entries added */
};

/* An empty index that allocates on its first add. */
void pp_hashmap_init(struct pp_hashmap *m, struct pp_ctx *ctx);
void pp_hashmap_release(struct pp_hashmap *m);
/* Forget every entry, keeping the slots. */
void pp_hashmap_clear(struct pp_hashmap *m);
/* Make room for n entries in all without growing again; PP_ENOMEM. */
int pp_hashmap_reserve(struct pp_hashmap *m, uint32_t n);
/* Add index idx under hash at *pos, the place the last
 * pp_hashmap_first/_next for this hash stopped (they returned PP_NONE);
 * 0 or PP_ENOMEM (nothing added, the index unchanged). */
int pp_hashmap_add(struct pp_hashmap *m, uint32_t hash, uint32_t *pos,
                   uint32_t idx);

/* The next candidate from slot *pos on: the index of an entry with this
 * hash, or PP_NONE at the first empty slot (left in *pos). */
static inline uint32_t pp_hashmap_scan(const struct pp_hashmap *m,
                                       uint32_t hash, uint32_t *pos)
{
	const struct pp_hashmap_slot *s = m->slots;
	uint32_t j = *pos;

	for (; s[j].idx1; j = (j + 1) & m->mask) {
		if (s[j].hash == hash) {
			*pos = j;
			return s[j].idx1 - 1;
		}
	}
	*pos = j;
	return PP_NONE;
}

/* The first candidate for hash (see the top of this file). */
static inline uint32_t pp_hashmap_first(const struct pp_hashmap *m,
                                        uint32_t hash, uint32_t *pos)
{
	if (!m->slots) {
		*pos = 0;
		return PP_NONE;
	}
	*pos = hash & m->mask;
	return pp_hashmap_scan(m, hash, pos);
}

/* The candidate after the one at *pos. */
static inline uint32_t pp_hashmap_next(const struct pp_hashmap *m,
                                       uint32_t hash, uint32_t *pos)
{
	*pos = (*pos + 1) & m->mask;
	return pp_hashmap_scan(m, hash, pos);
}

/* Hashes whose low bits are well mixed, as the index needs. */
static inline uint32_t pp_hash_u64(uint64_t x)
{
	return (uint32_t)((x * 0x9E3779B97F4A7C15ull) >> 32);
}

static inline uint32_t pp_hash_pair(uint32_t a, uint32_t b)
{
	return pp_hash_u64((uint64_t)a << 32 | b);
}

#endif
