/*
 * A sample's labels as pprof's Go model sees them: a map from key to the
 * list of values, string and numeric labels apart. pprof prints each key
 * once with all its values, keys sorted by the printed line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/utf8.h"

static int cmp_line(const void *a, const void *b)
{
	const struct pp_report__line *x = a, *y = b;

	return pp_bytes_cmp(x->s, x->n, y->s, y->n);
}

/* Go's decoder keeps a numeric label only when its value is not zero, and
 * a label is string-valued when its string is set. */
static bool is_kind(const struct pp_label *l, bool numeric)
{
	return numeric ? (l->str == 0 && l->num != 0) : l->str != 0;
}

/* Is l the first label of its key and kind in the sample? */
static bool first_of_key(const struct pp_label *ls, uint32_t i, bool numeric)
{
	for (uint32_t j = 0; j < i; j++)
		if (ls[j].key == ls[i].key && is_kind(&ls[j], numeric))
			return false;
	return true;
}

/* printf onto the end of a growing string. */
static int appendf(struct pp_ctx *ctx, char **buf, size_t *len, size_t *cap,
                   const char *fmt, ...)
{
	va_list ap;
	int n, err;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return pp_error(ctx, PP_EIO, "format error");
	if ((err = pp_grow(ctx, (void **)buf, cap, *len + (size_t)n + 1, 1)) <
	    0)
		return err;
	va_start(ap, fmt);
	vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)n;
	return 0;
}

/* The n bytes at s onto the end of a growing string: a label's key or
 * value whole, NUL bytes and all. */
static int append_bytes(struct pp_ctx *ctx, char **buf, size_t *len,
                        size_t *cap, const char *s, size_t n)
{
	int err;

	if ((err = pp_grow(ctx, (void **)buf, cap, *len + n + 1, 1)) < 0)
		return err;
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 0;
}

static int append_str(const struct pp_profile *p, char **buf, size_t *len,
                      size_t *cap, pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	return append_bytes(p->ctx, buf, len, cap, t, n);
}

int pp_report__label_lines(const struct pp_report *r, uint32_t sample,
                           bool numeric, enum pp_label_style style,
                           struct pp_report__lines *out)
{
	const struct pp_profile *p = r->prof;
	const struct pp_sample *s = &p->samples[sample];
	const struct pp_label *ls = p->labels + s->label_first;
	char *buf = NULL, tmp[128];
	size_t len, cap = 0;
	int err = 0;

	pp_report__lines_clear(r, out);
	for (uint32_t i = 0; i < s->label_count; i++) {
		size_t key_len;
		const char *key = pp_profile_strn(p, ls[i].key, &key_len);
		uint32_t nvals = 0, last_unit = 0;

		if (!is_kind(&ls[i], numeric) || !first_of_key(ls, i, numeric))
			continue;
		/* Go pads a key's unit list only up to the last value that
		 * has a unit; the units print only when every value has one. */
		for (uint32_t j = i; j < s->label_count; j++) {
			if (ls[j].key != ls[i].key || !is_kind(&ls[j], numeric))
				continue;
			nvals++;
			if (ls[j].num_unit)
				last_unit = nvals;
		}
		len = 0;
		err = 0;
		/* Go's "%10s" pads to ten runes (an invalid byte is one). */
		if (style == PP_LABELS_TRACES)
			for (size_t w = pp_utf8_runes(
			             (const unsigned char *)key, key_len);
			     w < 10 && err >= 0; w++)
				err = append_bytes(r->ctx, &buf, &len, &cap,
				                   " ", 1);
		if (err >= 0)
			err = append_bytes(r->ctx, &buf, &len, &cap, key,
			                   key_len);
		if (err >= 0)
			err = append_bytes(r->ctx, &buf, &len, &cap,
			                   style == PP_LABELS_TRACES ? ":  "
			                                             : ":[",
			                   3 - (style != PP_LABELS_TRACES));
		for (uint32_t j = i, k = 0; j < s->label_count && err >= 0;
		     j++) {
			const struct pp_label *l = &ls[j];

			if (l->key != ls[i].key || !is_kind(l, numeric))
				continue;
			if (k++ > 0 &&
			    (err = appendf(r->ctx, &buf, &len, &cap, " ")) < 0)
				break;
			if (!numeric) {
				err = append_str(p, &buf, &len, &cap, l->str);
				continue;
			}
			if (style == PP_LABELS_TRACES)
				pp_scaled_label(l->num,
				                pp_report__num_unit(r, l->key),
				                "auto", tmp, sizeof(tmp));
			else if (last_unit == nvals)
				snprintf(tmp, sizeof(tmp), "%lld %s",
				         (long long)l->num,
				         pp_profile_str(p, l->num_unit));
			else
				snprintf(tmp, sizeof(tmp), "%lld",
				         (long long)l->num);
			err = appendf(r->ctx, &buf, &len, &cap, "%s", tmp);
		}
		if (err >= 0 && style == PP_LABELS_RAW)
			err = appendf(r->ctx, &buf, &len, &cap, "]");
		if (err >= 0)
			err = pp_grow(r->ctx, (void **)&out->v, &out->cap,
			              out->n + 1, sizeof(*out->v));
		if (err < 0)
			break;
		out->v[out->n].s = buf;
		out->v[out->n++].n = len;
		buf = NULL;
		cap = 0;
	}
	pp_free(r->ctx, buf);
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

const char *pp_report__num_unit(const struct pp_report *r, pp_str key)
{
	const char *k;

	for (uint32_t i = 0; i < r->nnum_units; i++)
		if (r->num_units[i].key == key && r->num_units[i].unit)
			return pp_profile_str(r->prof, r->num_units[i].unit);
	k = pp_profile_str(r->prof, key);
	if (strcmp(k, "alignment") == 0 || strcmp(k, "request") == 0)
		return "bytes";
	return k;
}
