/*
 * A sample's labels as pprof's Go model sees them: a map from key to the
 * list of values, string and numeric labels apart. pprof prints each key
 * once with all its values, keys sorted by the printed line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/strbuf.h"
#include "util/utf8.h"

static int cmp_line(const void *a, const void *b)
{
	const struct pp_report__line *x = a, *y = b;

	return pp_bytes_cmp(x->s, x->n, y->s, y->n);
}

/* A label is string-valued when its string is set, else numeric (the
 * decoder dropped those with neither a number nor a unit, as Go's does:
 * a number 0 with a unit is a label). */
static bool is_kind(const struct pp_label *l, bool numeric)
{
	return numeric ? l->str == 0 : l->str != 0;
}

/* Is l the first label of its key and kind in the sample? */
static bool first_of_key(const struct pp_label *ls, uint32_t i, bool numeric)
{
	for (uint32_t j = 0; j < i; j++)
		if (ls[j].key == ls[i].key && is_kind(&ls[j], numeric))
			return false;
	return true;
}

static void add_str(const struct pp_profile *p, struct pp_strbuf *b, pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	pp_strbuf_add(b, t, n);
}

int pp_report__label_lines(const struct pp_report *r, uint32_t sample,
                           bool numeric, enum pp_label_style style,
                           struct pp_report__lines *out)
{
	const struct pp_profile *p = r->prof;
	uint32_t count;
	const struct pp_label *ls = pp_sample_labels(p, sample, &count);
	struct pp_strbuf b;
	char *line, tmp[128];
	size_t len;
	int err = 0;

	pp_report__lines_clear(r, out);
	pp_strbuf_init(&b, r->ctx);
	for (uint32_t i = 0; i < count; i++) {
		size_t key_len;
		const char *key = pp_profile_strn(p, ls[i].key, &key_len);
		uint32_t nvals = 0, last_unit = 0;

		if (!is_kind(&ls[i], numeric) || !first_of_key(ls, i, numeric))
			continue;
		/* Go pads a key's unit list only up to the last value that
		 * has a unit; the units print only when every value has one. */
		for (uint32_t j = i; j < count; j++) {
			if (ls[j].key != ls[i].key || !is_kind(&ls[j], numeric))
				continue;
			nvals++;
			if (ls[j].num_unit)
				last_unit = nvals;
		}
		/* Go's "%10s" pads to ten runes (an invalid byte is one). */
		if (style == PP_LABELS_TRACES)
			for (size_t w = pp_utf8_runes(
			             (const unsigned char *)key, key_len);
			     w < 10; w++)
				pp_strbuf_addch(&b, ' ');
		pp_strbuf_add(&b, key, key_len);
		pp_strbuf_addstr(&b, style == PP_LABELS_TRACES ? ":  " : ":[");
		for (uint32_t j = i, k = 0; j < count; j++) {
			const struct pp_label *l = &ls[j];

			if (l->key != ls[i].key || !is_kind(l, numeric))
				continue;
			if (k++ > 0)
				pp_strbuf_addch(&b, ' ');
			if (!numeric) {
				add_str(p, &b, l->str);
				continue;
			}
			if (style == PP_LABELS_TRACES) {
				size_t ul, n;
				const char *u =
				        pp_report__num_unit(r, l->key, &ul);

				/* "auto" never prints an unknown unit, so
				 * the label fits tmp; the unit is read whole
				 * (a NUL in it keeps it unknown). */
				n = pp_scaled_label_n(l->num, u, ul, "auto", 4,
				                      tmp, sizeof(tmp));
				pp_strbuf_add(&b, tmp, n);
				continue;
			}
			pp_strbuf_addf(&b, "%lld", (long long)l->num);
			if (last_unit == nvals) {
				pp_strbuf_addch(&b, ' ');
				add_str(p, &b, l->num_unit);
			}
		}
		if (style == PP_LABELS_RAW)
			pp_strbuf_addch(&b, ']');
		if ((err = pp_strbuf_detach(&b, &line, &len)) < 0)
			break;
		if ((err = pp_grow(r->ctx, (void **)&out->v, &out->cap,
		                   out->n + 1, sizeof(*out->v))) < 0) {
			pp_free(r->ctx, line);
			break;
		}
		out->v[out->n].s = line;
		out->v[out->n++].n = len;
	}
	pp_strbuf_release(&b);
	if (err < 0)
		return err;
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_line);
	return 0;
}

void pp_report__lines_clear(const struct pp_report *r,
                            struct pp_report__lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		pp_free(r->ctx, l->v[i].s);
	l->n = 0;
}

void pp_report__lines_release(const struct pp_report *r,
                              struct pp_report__lines *l)
{
	pp_report__lines_clear(r, l);
	pp_free(r->ctx, l->v);
	l->v = NULL;
	l->cap = 0;
}

/* The unit of each numeric label key: the first unit any sample gives
 * it, as pprof's NumLabelUnits, else one inferred from the key. Computed
 * once per report. */
static int find_num_units(struct pp_report *r)
{
	const struct pp_profile *p = r->prof;
	int err;

	r->num_units_done = true;
	for (size_t i = 0; i < p->nlabels; i++) {
		const struct pp_label *l = &p->labels[i];
		uint32_t k;

		if (!is_kind(l, true))
			continue;
		for (k = 0; k < r->nnum_units; k++)
			if (r->num_units[k].key == l->key)
				break;
		if (k == r->nnum_units) {
			if ((err = pp_grow(r->ctx, (void **)&r->num_units,
			                   &r->cap_num_units, (size_t)k + 1,
			                   sizeof(*r->num_units))) < 0)
				return err;
			r->num_units[k].key = l->key;
			r->num_units[k].unit = 0;
			r->nnum_units++;
		}
		if (!r->num_units[k].unit)
			r->num_units[k].unit = l->num_unit;
	}
	return 0;
}

int pp_report__num_units(struct pp_report *r)
{
	return r->num_units_done ? 0 : find_num_units(r);
}

const char *pp_report__num_unit(const struct pp_report *r, pp_str key,
                                size_t *len)
{
	const char *k;

	for (uint32_t i = 0; i < r->nnum_units; i++)
		if (r->num_units[i].key == key && r->num_units[i].unit)
			return pp_profile_strn(r->prof, r->num_units[i].unit,
			                       len);
	/* The whole key: "request\0x" is its own unit, not bytes. */
	k = pp_profile_strn(r->prof, key, len);
	if (pp_bytes_eq(k, *len, "alignment", 9) ||
	    pp_bytes_eq(k, *len, "request", 7)) {
		*len = 5;
		return "bytes";
	}
	return k;
}
