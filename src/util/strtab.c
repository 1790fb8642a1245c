/*
 * Interned strings. Text lives in large chunks that never move, so pointers
 * returned by pp_strtab_get stay valid as the table grows; an open-addressing
 * hash of indices finds existing strings.
 */
#include <string.h>

#include "pprof/strtab.h"

#define CHUNK_MIN (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, size;
	char data[];
};

struct entry {
	const char *text;
	uint32_t len;
	uint32_t hash;
};

struct pp_strtab {
	struct pp_ctx *ctx;
	struct chunk *chunks;
	struct entry *entries;
	uint32_t count, cap;
	uint32_t *slots; /* index+1, 0 = empty */
	uint32_t nslots; /* power of two */
};

static uint32_t hash_bytes(const char *s, size_t len)
{
	/* FNV-1a: short names dominate, and it is cheap on them. */
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

static const char *store_text(struct pp_strtab *t, const char *s, size_t len)
{
	struct chunk *c = t->chunks;
	char *dst;

	if (!c || c->size - c->used < len + 1) {
		size_t size = len + 1 > CHUNK_MIN ? len + 1 : CHUNK_MIN;

		/* Zeroed, with 64 bytes to spare: names are regex subjects,
		 * and PCRE2's JIT reads whole vectors past a subject's end
		 * (memcheck would see undefined bytes there). */
		c = pp_calloc(t->ctx, 1, sizeof(*c) + size + 64);
		if (!c)
			return NULL;
		c->size = size;
		c->used = 0;
		c->next = t->chunks;
		t->chunks = c;
	}
	dst = c->data + c->used;
	if (len)
		memcpy(dst, s, len);
	dst[len] = '\0';
	c->used += len + 1;
	return dst;
}

static int rehash(struct pp_strtab *t, uint32_t nslots)
{
	uint32_t *slots = pp_calloc(t->ctx, nslots, sizeof(*slots));

	if (!slots)
		return -1;
	for (uint32_t i = 0; i < t->count; i++) {
		uint32_t j = t->entries[i].hash & (nslots - 1);

		while (slots[j])
			j = (j + 1) & (nslots - 1);
		slots[j] = i + 1;
	}
	pp_free(t->ctx, t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

struct pp_strtab *pp_strtab_new(struct pp_ctx *ctx)
{
	struct pp_strtab *t = pp_calloc(ctx, 1, sizeof(*t));

	if (!t)
		return NULL;
	t->ctx = ctx;
	if (rehash(t, 256) < 0 || pp_strtab_intern(t, "", 0) != 0) {
		pp_strtab_free(t);
		return NULL;
	}
	return t;
}

void pp_strtab_free(struct pp_strtab *t)
{
	struct chunk *c, *next;

	if (!t)
		return;
	for (c = t->chunks; c; c = next) {
		next = c->next;
		pp_free(t->ctx, c);
	}
	pp_free(t->ctx, t->entries);
	pp_free(t->ctx, t->slots);
	pp_free(t->ctx, t);
}

static uint32_t *find_slot(const struct pp_strtab *t, const char *s, size_t len,
                           uint32_t h)
{
	uint32_t j = h & (t->nslots - 1);

	for (;;) {
		uint32_t *slot = &t->slots[j];
		const struct entry *e;

		if (!*slot)
			return slot;
		e = &t->entries[*slot - 1];
		if (e->hash == h && e->len == len &&
		    memcmp(e->text, s, len) == 0)
			return slot;
		j = (j + 1) & (t->nslots - 1);
	}
}

pp_str pp_strtab_find(const struct pp_strtab *t, const char *s, size_t len)
{
	uint32_t *slot;

	if (len > UINT32_MAX)
		return PP_NONE;
	slot = find_slot(t, s, len, hash_bytes(s, len));
	return *slot ? *slot - 1 : PP_NONE;
}

pp_str pp_strtab_intern(struct pp_strtab *t, const char *s, size_t len)
{
	uint32_t h, *slot;
	struct entry *e;

	if (len >= UINT32_MAX || t->count >= UINT32_MAX - 1)
		return PP_NONE;
	h = hash_bytes(s, len);
	slot = find_slot(t, s, len, h);
	if (*slot)
		return *slot - 1;
	/* Keep the load factor at most one half, so probing always ends. */
	if ((uint64_t)(t->count + 1) * 2 > t->nslots) {
		if (t->nslots > UINT32_MAX / 2 || rehash(t, t->nslots * 2) < 0)
			return PP_NONE;
		slot = find_slot(t, s, len, h);
	}
	if (t->count == t->cap) {
		size_t cap = t->cap;

		if (pp_grow(t->ctx, (void **)&t->entries, &cap, t->count + 1,
		            sizeof(*t->entries)) < 0)
			return PP_NONE;
		t->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
	}
	e = &t->entries[t->count];
	e->text = store_text(t, s, len);
	if (!e->text)
		return PP_NONE;
	e->len = (uint32_t)len;
	e->hash = h;
	*slot = ++t->count;
	return t->count - 1;
}

const char *pp_strtab_get(const struct pp_strtab *t, pp_str id)
{
	return id < t->count ? t->entries[id].text : "";
}

size_t pp_strtab_len(const struct pp_strtab *t, pp_str id)
{
	return id < t->count ? t->entries[id].len : 0;
}

uint32_t pp_strtab_count(const struct pp_strtab *t)
{
	return t->count;
}
