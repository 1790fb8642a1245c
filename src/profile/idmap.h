/*
 * File ids (uint64, arbitrary) to dense indices. Producers almost always
 * number ids 1..N, so a direct table is used when the ids are dense enough;
 * otherwise an open-addressing hash.
 */
#ifndef PP_PROFILE_IDMAP_H
#define PP_PROFILE_IDMAP_H

#include <stdint.h>

#include "pprof/profile.h"

struct pp_idmap {
	struct pp_ctx *ctx;
	uint32_t *direct; /* direct[id] = index, or PP_NONE */
	uint64_t ndirect;
	uint64_t *keys; /* hash mode: key 0 = empty (ids are non-zero) */
	uint32_t *vals;
	uint64_t nslots;
};

/* Prepare for count ids whose largest value is max_id. */
int pp_idmap_init(struct pp_idmap *m, struct pp_ctx *ctx, uint64_t count,
                  uint64_t max_id);
void pp_idmap_release(struct pp_idmap *m);
/* 0 on success, 1 if id is already present, negative on error. */
int pp_idmap_put(struct pp_idmap *m, uint64_t id, uint32_t index);

static inline uint32_t pp_idmap_get(const struct pp_idmap *m, uint64_t id)
{
	if (m->direct)
		return id < m->ndirect ? m->direct[id] : PP_NONE;
	if (id == 0 || m->nslots == 0)
		return PP_NONE;
	for (uint64_t j = (id * 0x9E3779B97F4A7C15ull) & (m->nslots - 1);;
	     j = (j + 1) & (m->nslots - 1)) {
		if (m->keys[j] == id)
			return m->vals[j];
		if (m->keys[j] == 0)
			return PP_NONE;
	}
}

#endif
