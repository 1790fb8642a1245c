/* A tiny protobuf writer for building test profiles byte by byte: struct pb
 * on a fixed buffer, struct gbuf on a growing one. */
#ifndef PP_TEST_PBUILD_H
#define PP_TEST_PBUILD_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pb {
	uint8_t buf[8192];
	size_t len;
};

static inline void pb_varint(struct pb *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		b->buf[b->len++] = (uint8_t)(c | (v ? 0x80 : 0));
	} while (v);
}

static inline void pb_uint(struct pb *b, uint32_t field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

static inline void pb_bytes(struct pb *b, uint32_t field, const void *data,
                            size_t len)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
}

static inline void pb_msg(struct pb *b, uint32_t field, const struct pb *m)
{
	pb_bytes(b, field, m->buf, m->len);
}

static inline void pb_str(struct pb *b, uint32_t field, const char *s)
{
	pb_bytes(b, field, s, strlen(s));
}

/* The same writer on a growing buffer, for profiles too big for struct pb
 * (the split and streaming decodes want hundreds of thousands of samples).
 * The caller frees p. */
struct gbuf {
	uint8_t *p;
	size_t len, cap;
};

static inline void gb_put(struct gbuf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static inline void gb_varint(struct gbuf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	gb_put(b, tmp, n);
}

static inline void gb_msg(struct gbuf *b, uint32_t field, const struct gbuf *m)
{
	gb_varint(b, (uint64_t)field << 3 | 2);
	gb_varint(b, m->len);
	gb_put(b, m->p, m->len);
}

static inline void gb_uint(struct gbuf *b, uint32_t field, uint64_t v)
{
	gb_varint(b, (uint64_t)field << 3);
	gb_varint(b, v);
}

static inline void gb_str(struct gbuf *b, uint32_t field, const char *s)
{
	gb_varint(b, (uint64_t)field << 3 | 2);
	gb_varint(b, strlen(s));
	gb_put(b, s, strlen(s));
}

/*
 * A small valid profile: two sample types (samples/count, cpu/nanoseconds),
 * functions main (id 1) and work (id 2), locations 1 (work, inlined into
 * main) and 2 (main), one mapping, and samples as given by the caller's
 * hooks. Strings: 0 "", 1 samples, 2 count, 3 cpu, 4 nanoseconds, 5 main,
 * 6 work, 7 main.c, 8 /bin/prog.
 */
static inline void pb_strings(struct pb *p)
{
	static const char *const s[] = {"",     "samples",     "count",
	                                "cpu",  "nanoseconds", "main",
	                                "work", "main.c",      "/bin/prog"};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		pb_str(p, 6, s[i]);
}

static inline void pb_value_type(struct pb *p, uint32_t field, uint64_t type,
                                 uint64_t unit)
{
	struct pb vt = {{0}, 0};

	pb_uint(&vt, 1, type);
	pb_uint(&vt, 2, unit);
	pb_msg(p, field, &vt);
}

static inline void pb_function(struct pb *p, uint64_t id, uint64_t name,
                               uint64_t file)
{
	struct pb f = {{0}, 0};

	pb_uint(&f, 1, id);
	pb_uint(&f, 2, name);
	pb_uint(&f, 3, name);
	pb_uint(&f, 4, file);
	pb_msg(p, 5, &f);
}

static inline void pb_location(struct pb *p, uint64_t id, uint64_t mapping,
                               const uint64_t *funcs, size_t nfuncs)
{
	struct pb l = {{0}, 0};

	pb_uint(&l, 1, id);
	pb_uint(&l, 2, mapping);
	pb_uint(&l, 3, 0x1000 + id);
	for (size_t i = 0; i < nfuncs; i++) {
		struct pb line = {{0}, 0};

		pb_uint(&line, 1, funcs[i]);
		pb_uint(&line, 2, 10 + i);
		pb_msg(&l, 4, &line);
	}
	pb_msg(p, 4, &l);
}

static inline void pb_sample(struct pb *p, const uint64_t *locs, size_t nlocs,
                             const int64_t *vals, size_t nvals)
{
	struct pb s = {{0}, 0}, packed = {{0}, 0};

	for (size_t i = 0; i < nlocs; i++)
		pb_varint(&packed, locs[i]);
	pb_msg(&s, 1, &packed);
	packed.len = 0;
	for (size_t i = 0; i < nvals; i++)
		pb_varint(&packed, (uint64_t)vals[i]);
	pb_msg(&s, 2, &packed);
	pb_msg(p, 2, &s);
}

static inline void pb_mapping(struct pb *p, uint64_t id)
{
	struct pb m = {{0}, 0};

	pb_uint(&m, 1, id);
	pb_uint(&m, 2, 0x1000);
	pb_uint(&m, 3, 0x9000);
	pb_uint(&m, 5, 8);
	pb_uint(&m, 7, 1);
	pb_msg(p, 3, &m);
}

/* The standard small profile. */
static inline void pb_small_profile(struct pb *p)
{
	static const uint64_t inl[] = {2, 1}, outer[] = {1};
	static const uint64_t stack1[] = {1, 2}, stack2[] = {2};
	static const int64_t v1[] = {3, 30000000}, v2[] = {1, 10000000};

	p->len = 0;
	pb_value_type(p, 1, 1, 2);
	pb_value_type(p, 1, 3, 4);
	pb_sample(p, stack1, 2, v1, 2);
	pb_sample(p, stack2, 1, v2, 2);
	pb_mapping(p, 1);
	pb_location(p, 1, 1, inl, 2);
	pb_location(p, 2, 1, outer, 1);
	pb_function(p, 1, 5, 7);
	pb_function(p, 2, 6, 7);
	pb_strings(p);
	pb_uint(p, 9, 1700000000000000000ull);
	pb_uint(p, 10, 1000000000);
	pb_value_type(p, 11, 3, 4);
	pb_uint(p, 12, 10000000);
}

#endif
