/*
 * Protocol-buffer wire format reading, shared by the profile decoder.
 * Everything is bounds-checked: a reader never looks past its end.
 */
#ifndef PP_PROFILE_WIRE_H
#define PP_PROFILE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pp_wire {
	const uint8_t *p, *end;
};

enum { PP_WT_VARINT = 0, PP_WT_I64 = 1, PP_WT_LEN = 2, PP_WT_I32 = 5 };

struct pp_field {
	uint32_t number;
	uint32_t type;
	uint64_t varint;     /* PP_WT_VARINT, PP_WT_I64, PP_WT_I32 */
	const uint8_t *data; /* PP_WT_LEN */
	size_t len;          /* PP_WT_LEN */
};

static inline bool pp_wire_varint(struct pp_wire *w, uint64_t *out)
{
	uint64_t v = 0;

	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b;

		if (w->p >= w->end)
			return false;
		b = *w->p++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return true;
		}
	}
	return false;
}

/* Read the next field. Returns 1 for a field, 0 at the end, -1 on a
 * malformed field. */
static inline int pp_wire_next(struct pp_wire *w, struct pp_field *f)
{
	uint64_t key, len;

	if (w->p >= w->end)
		return 0;
	if (!pp_wire_varint(w, &key) || (key >> 3) == 0 ||
	    (key >> 3) > UINT32_MAX)
		return -1;
	f->number = (uint32_t)(key >> 3);
	f->type = (uint32_t)(key & 7);
	/* Never leave a previous field's data behind for a reader that
	 * forgets to check the type. */
	f->data = NULL;
	f->len = 0;
	switch (f->type) {
	case PP_WT_VARINT:
		return pp_wire_varint(w, &f->varint) ? 1 : -1;
	case PP_WT_I64:
		if (w->end - w->p < 8)
			return -1;
		f->varint = 0;
		for (int i = 7; i >= 0; i--)
			f->varint = (f->varint << 8) | w->p[i];
		w->p += 8;
		return 1;
	case PP_WT_I32:
		if (w->end - w->p < 4)
			return -1;
		f->varint = (uint64_t)w->p[0] | (uint64_t)w->p[1] << 8 |
		            (uint64_t)w->p[2] << 16 | (uint64_t)w->p[3] << 24;
		w->p += 4;
		return 1;
	case PP_WT_LEN:
		if (!pp_wire_varint(w, &len) || len > (uint64_t)(w->end - w->p))
			return -1;
		f->data = w->p;
		f->len = (size_t)len;
		w->p += len;
		return 1;
	default:
		return -1;
	}
}

#endif
