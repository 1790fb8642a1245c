/*
 * The `tags` report: for each label key, the total value of the samples
 * carrying it and each value's share, as pprof's printTags. Numeric values
 * are grouped by their printed form, so 1023B and 1024B stay apart but two
 * values that print alike share a row. Keys and values are kept whole,
 * NUL bytes and all. The text goes through Go's tabwriter as pprof's does
 * (tabwriter.c), whatever tabs, newlines or 0xff bytes the names hold.
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/strbuf.h"

struct tag_value {
	char *name;
	size_t len;
	int64_t value;
};

struct tag_key {
	char *name;
	size_t len;
	struct tag_value *vals;
	size_t nvals, cap;
	int64_t total;
};

static int cmp_value(const void *a, const void *b)
{
	const struct tag_value *x = a, *y = b;
	int c = pp_go_abs_cmp_desc(x->value, y->value);

	return c ? c : pp_bytes_cmp(x->name, x->len, y->name, y->len);
}

static int cmp_key(const void *a, const void *b)
{
	const struct tag_key *x = a, *y = b;

	return pp_bytes_cmp(x->name, x->len, y->name, y->len);
}

/* A copy of the n bytes at s, NUL-terminated. */
static char *dup_bytes(struct pp_ctx *ctx, const char *s, size_t n)
{
	char *d = pp_malloc(ctx, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

struct tag_table {
	struct pp_ctx *ctx;
	struct tag_key *keys;
	size_t nkeys, cap;
};

static int add(struct tag_table *t, const char *key, size_t key_len,
               const char *val, size_t val_len, int64_t v)
{
	struct tag_key *k = NULL;
	size_t i;
	int err;

	for (i = 0; i < t->nkeys; i++)
		if (pp_bytes_eq(t->keys[i].name, t->keys[i].len, key,
		                key_len)) {
			k = &t->keys[i];
			break;
		}
	if (!k) {
		if ((err = pp_grow(t->ctx, (void **)&t->keys, &t->cap,
		                   t->nkeys + 1, sizeof(*t->keys))) < 0)
			return err;
		k = &t->keys[t->nkeys];
		memset(k, 0, sizeof(*k));
		if (!(k->name = dup_bytes(t->ctx, key, key_len)))
			return pp_error(t->ctx, PP_ENOMEM, "out of memory");
		k->len = key_len;
		t->nkeys++;
	}
	for (i = 0; i < k->nvals; i++)
		if (pp_bytes_eq(k->vals[i].name, k->vals[i].len, val,
		                val_len)) {
			k->vals[i].value += v;
			return 0;
		}
	if ((err = pp_grow(t->ctx, (void **)&k->vals, &k->cap, k->nvals + 1,
	                   sizeof(*k->vals))) < 0)
		return err;
	if (!(k->vals[k->nvals].name = dup_bytes(t->ctx, val, val_len)))
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
	k->vals[k->nvals].len = val_len;
	k->vals[k->nvals++].value = v;
	return 0;
}

static void table_release(struct tag_table *t)
{
	for (size_t i = 0; i < t->nkeys; i++) {
		for (size_t j = 0; j < t->keys[i].nvals; j++)
			pp_free(t->ctx, t->keys[i].vals[j].name);
		pp_free(t->ctx, t->keys[i].vals);
		pp_free(t->ctx, t->keys[i].name);
	}
	pp_free(t->ctx, t->keys);
}

/* "%.1f%s" of v scaled to the output unit, as pprof's measurement.Scale:
 * the number into out, the unit borrowed (-unit's, whole, if unknown). */
static void scaled(const struct pp_report *r, int64_t v,
                   struct pp_report__val *out)
{
	double f =
	        pp_scale_n(v, r->sample_unit, r->sample_unit_len, r->opts.unit,
	                   strlen(r->opts.unit), &out->unit, &out->unit_len);

	out->num_len = (size_t)snprintf(out->num, sizeof(out->num), "%.1f", f);
	if (out->num_len >= sizeof(out->num))
		out->num_len = sizeof(out->num) - 1;
}

static int tw_val(struct pp_report__tw *tw, const struct pp_report__val *v)
{
	int err = pp_report__tw_write(tw, v->num, v->num_len);

	return err < 0 ? err : pp_report__tw_write(tw, v->unit, v->unit_len);
}

/* pprof's lines for one key, into its tabwriter. */
static int print_key(const struct pp_report *r, const struct tag_key *k,
                     struct pp_report__tw *tw)
{
	struct pp_report__val val;
	char pct[32], cell[64];
	int n, err;

	scaled(r, k->total, &val);
	if ((err = pp_report__tw_write(tw, k->name, k->len)) < 0 ||
	    (err = pp_report__tw_write(tw, ":\t Total ", 9)) < 0 ||
	    (err = tw_val(tw, &val)) < 0 ||
	    (err = pp_report__tw_write(tw, "\n", 1)) < 0)
		return err;
	for (size_t j = 0; j < k->nvals; j++) {
		scaled(r, k->vals[j].value, &val);
		if (k->total > 0) {
			pp_percentage(k->vals[j].value, k->total, pct,
			              sizeof(pct));
			n = snprintf(cell, sizeof(cell), " (%s):\t ", pct);
		} else {
			n = snprintf(cell, sizeof(cell), ":\t ");
		}
		if ((err = pp_report__tw_write(tw, " \t", 2)) < 0 ||
		    (err = tw_val(tw, &val)) < 0 ||
		    (err = pp_report__tw_write(tw, cell, (size_t)n)) < 0 ||
		    (err = pp_report__tw_write(tw, k->vals[j].name,
		                               k->vals[j].len)) < 0 ||
		    (err = pp_report__tw_write(tw, "\n", 1)) < 0)
			return err;
	}
	return pp_report__tw_write(tw, "\n", 1);
}

/* One key of the tags report as JSON (docs/web-api.md). */
static void put_json_key(const struct pp_report *r, const struct tag_key *k,
                         bool first, FILE *out)
{
	struct pp_report__val val;
	char pct[32];
	const char *p;

	fprintf(out, "%s\n{\"key\":", first ? "" : ",");
	pp_report_put_json_bytes(out, k->name, k->len);
	scaled(r, k->total, &val);
	fprintf(out, ",\"total\":%lld,\"total_str\":", (long long)k->total);
	pp_report__put_json_val(out, &val);
	fputs(",\"values\":[", out);
	for (size_t j = 0; j < k->nvals; j++) {
		scaled(r, k->vals[j].value, &val);
		pct[0] = '\0';
		if (k->total > 0)
			pp_percentage(k->vals[j].value, k->total, pct,
			              sizeof(pct));
		for (p = pct; *p == ' '; p++)
			;
		fprintf(out, "%s{\"name\":", j ? "," : "");
		pp_report_put_json_bytes(out, k->vals[j].name, k->vals[j].len);
		fprintf(out, ",\"value\":%lld,\"value_str\":",
		        (long long)k->vals[j].value);
		pp_report__put_json_val(out, &val);
		fputs(",\"pct\":", out);
		pp_report_put_json_string(out, p);
		fputc('}', out);
	}
	fputs("]}", out);
}

static int tags_report(struct pp_report *r, bool json, FILE *out);

/* Add numeric label l of key (kl bytes) worth v: its value as pprof's
 * ScaledLabel prints it in the report's unit, from the key's unit read
 * whole (a NUL in it keeps it unknown). An unknown -unit is printed
 * whole too, so the text is built in val, not a fixed buffer. */
static int add_num(struct pp_report *r, struct tag_table *t,
                   struct pp_strbuf *val, const char *key, size_t kl,
                   const struct pp_label *l, int64_t v)
{
	char num[PP_LABEL_NUM_MAX];
	const char *from, *unit;
	size_t from_len, unit_len, n;
	int err;

	from = pp_report__num_unit(r, l->key, &from_len);
	n = pp_scaled_label_parts(l->num, from, from_len, r->opts.unit,
	                          strlen(r->opts.unit), num, sizeof(num), &unit,
	                          &unit_len);
	pp_strbuf_reset(val);
	if ((err = pp_strbuf_add(val, num, n)) < 0 ||
	    (err = pp_strbuf_add(val, unit, unit_len)) < 0)
		return err;
	return add(t, key, kl, val->s, val->len, v);
}

int pp_report_tags(struct pp_report *r, FILE *out)
{
	return tags_report(r, false, out);
}

int pp_report_tags_json(struct pp_report *r, FILE *out)
{
	return tags_report(r, true, out);
}

static int tags_report(struct pp_report *r, bool json, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct tag_table t = {r->ctx, NULL, 0, 0};
	struct pp_report__tw tw;
	uint32_t nt = p->nsample_types;
	struct pp_strbuf val;
	int err = 0;

	pp_report__tw_init(&tw, r->ctx, out);
	pp_strbuf_init(&val, r->ctx);
	if ((err = pp_report__num_units(r)) < 0)
		goto done;
	for (uint32_t s = 0; s < p->nsamples && err >= 0; s++) {
		int64_t v = p->values[(size_t)s * nt + r->sample_index];
		uint32_t nl;
		const struct pp_label *labels = pp_sample_labels(p, s, &nl);

		for (uint32_t i = 0; i < nl && err >= 0; i++) {
			const struct pp_label *l = &labels[i];
			size_t kl, vl;
			const char *key = pp_profile_strn(p, l->key, &kl);

			if (l->str) {
				const char *sv =
				        pp_profile_strn(p, l->str, &vl);

				err = add(&t, key, kl, sv, vl, v);
			} else {
				/* Numeric, 0 with a unit too: the decoder
				 * dropped labels with neither. */
				err = add_num(r, &t, &val, key, kl, l, v);
			}
		}
	}
	if (err < 0)
		goto done;
	if (t.nkeys > 1)
		qsort(t.keys, t.nkeys, sizeof(*t.keys), cmp_key);
	if (json) {
		fputc('{', out);
		pp_report__put_json_head(r, out);
		fputs(",\"tags\":[", out);
	}
	for (size_t i = 0; i < t.nkeys && err >= 0; i++) {
		struct tag_key *k = &t.keys[i];

		for (size_t j = 0; j < k->nvals; j++)
			k->total += k->vals[j].value;
		if (k->nvals > 1)
			qsort(k->vals, k->nvals, sizeof(*k->vals), cmp_value);
		if (json)
			put_json_key(r, k, i == 0, out);
		else
			err = print_key(r, k, &tw);
	}
	if (json)
		fputs("]}\n", out);
	else if (err >= 0)
		err = pp_report__tw_flush(&tw);
done:
	pp_strbuf_release(&val);
	pp_report__tw_release(&tw);
	table_release(&t);
	return err;
}
