/* A write buffer for the reports that print one line per frame (traces,
 * raw): millions of short lines, where fprintf's format parsing costs more
 * than everything else together. */
#include <string.h>

#include "report/internal.h"
#include "util/utf8.h"

void pp_report__out_flush(struct pp_report__out *o)
{
	if (o->n && fwrite(o->buf, 1, o->n, o->f) != o->n)
		o->failed = true;
	o->n = 0;
}

void pp_report__out_slow(struct pp_report__out *o, const char *s, size_t n)
{
	while (n > 0) {
		size_t room = sizeof(o->buf) - o->n, k = n < room ? n : room;

		memcpy(o->buf + o->n, s, k);
		o->n += k;
		s += k;
		n -= k;
		if (o->n == sizeof(o->buf))
			pp_report__out_flush(o);
	}
}

void pp_report__out_str(struct pp_report__out *o, const char *s)
{
	pp_report__out_bytes(o, s, strlen(s));
}

/* s right-aligned in width columns, as printf's "%*s". */
void pp_report__out_right(struct pp_report__out *o, const char *s, size_t len,
                          size_t width)
{
	static const char spaces[] = "                                ";

	while (len < width) {
		size_t k = width - len < sizeof(spaces) - 1
		                   ? width - len
		                   : sizeof(spaces) - 1;

		pp_report__out_bytes(o, spaces, k);
		width -= k;
	}
	pp_report__out_bytes(o, s, len);
}

void pp_report__out_val_right(struct pp_report__out *o,
                              const struct pp_report__val *v, size_t width)
{
	size_t runes =
	        v->num_len +
	        pp_utf8_runes((const unsigned char *)v->unit, v->unit_len);

	for (; runes < width; runes++)
		pp_report__out_bytes(o, " ", 1);
	pp_report__out_bytes(o, v->num, v->num_len);
	pp_report__out_bytes(o, v->unit, v->unit_len);
}

/* v in decimal, right-aligned in width columns ("%*lld"). */
void pp_report__out_int(struct pp_report__out *o, int64_t v, size_t width)
{
	char tmp[24];
	size_t i = sizeof(tmp);
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--i] = '-';
	pp_report__out_right(o, tmp + i, sizeof(tmp) - i, width);
}

void pp_report__out_uint(struct pp_report__out *o, uint64_t u)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	pp_report__out_bytes(o, tmp + i, sizeof(tmp) - i);
}
