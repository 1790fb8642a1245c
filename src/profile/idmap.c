#include <string.h>

#include "profile/idmap.h"

int pp_idmap_init(struct pp_idmap *m, struct pp_ctx *ctx, uint64_t count,
                  uint64_t max_id)
{
	memset(m, 0, sizeof(*m));
	m->ctx = ctx;
	if (max_id < 4 * count + 1024) {
		m->ndirect = max_id + 1;
		m->direct = pp_malloc(ctx, m->ndirect * sizeof(*m->direct));
		if (!m->direct)
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		memset(m->direct, 0xff, m->ndirect * sizeof(*m->direct));
		return 0;
	}
	m->nslots = 16;
	while (m->nslots < count * 2)
		m->nslots *= 2;
	m->keys = pp_calloc(ctx, m->nslots, sizeof(*m->keys));
	m->vals = pp_calloc(ctx, m->nslots, sizeof(*m->vals));
	if (!m->keys || !m->vals)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return 0;
}

void pp_idmap_release(struct pp_idmap *m)
{
	pp_free(m->ctx, m->direct);
	pp_free(m->ctx, m->keys);
	pp_free(m->ctx, m->vals);
	memset(m, 0, sizeof(*m));
}

int pp_idmap_put(struct pp_idmap *m, uint64_t id, uint32_t index)
{
	if (m->direct) {
		if (id >= m->ndirect)
			return pp_error(m->ctx, PP_EFORMAT,
			                "id %llu out of range",
			                (unsigned long long)id);
		if (m->direct[id] != PP_NONE)
			return 1;
		m->direct[id] = index;
		return 0;
	}
	for (uint64_t j = (id * 0x9E3779B97F4A7C15ull) & (m->nslots - 1);;
	     j = (j + 1) & (m->nslots - 1)) {
		if (m->keys[j] == id)
			return 1;
		if (m->keys[j] == 0) {
			m->keys[j] = id;
			m->vals[j] = index;
			return 0;
		}
	}
}
