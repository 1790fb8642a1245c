/*
 * The `tags` report: for each label key, the total value of the samples
 * carrying it and each value's share, as pprof's printTags. Numeric values
 * are grouped by their printed form, so 1023B and 1024B stay apart but two
 * values that print alike share a row. The layout is Go's tabwriter with
 * right-aligned columns, reproduced here for the two columns it uses.
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"

struct tag_value {
	char *name;
	int64_t value;
};

struct tag_key {
	char *name;
	struct tag_value *vals;
	size_t nvals, cap;
	int64_t total;
};

static int cmp_value(const void *a, const void *b)
{
	const struct tag_value *x = a, *y = b;
	int c = pp_go_abs_cmp_desc(x->value, y->value);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_key(const void *a, const void *b)
{
	return strcmp(((const struct tag_key *)a)->name,
	              ((const struct tag_key *)b)->name);
}

struct tag_table {
	struct pp_ctx *ctx;
	struct tag_key *keys;
	size_t nkeys, cap;
};

static int add(struct tag_table *t, const char *key, const char *val, int64_t v)
{
	struct tag_key *k = NULL;
	size_t i;
	int err;

	for (i = 0; i < t->nkeys; i++)
		if (strcmp(t->keys[i].name, key) == 0) {
			k = &t->keys[i];
			break;
		}
	if (!k) {
		if ((err = pp_grow(t->ctx, (void **)&t->keys, &t->cap,
		                   t->nkeys + 1, sizeof(*t->keys))) < 0)
			return err;
		k = &t->keys[t->nkeys];
		memset(k, 0, sizeof(*k));
		if (!(k->name = pp_strdup(t->ctx, key)))
			return pp_error(t->ctx, PP_ENOMEM, "out of memory");
		t->nkeys++;
	}
	for (i = 0; i < k->nvals; i++)
		if (strcmp(k->vals[i].name, val) == 0) {
			k->vals[i].value += v;
			return 0;
		}
	if ((err = pp_grow(t->ctx, (void **)&k->vals, &k->cap, k->nvals + 1,
	                   sizeof(*k->vals))) < 0)
		return err;
	if (!(k->vals[k->nvals].name = pp_strdup(t->ctx, val)))
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
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

/* "%.1f%s" of v scaled to the output unit, as pprof's measurement.Scale. */
static void scaled(const struct pp_report *r, int64_t v, char *buf, size_t size)
{
	const char *unit;
	double f = pp_scale(v, r->sample_unit, r->opts.unit, &unit);

	snprintf(buf, size, "%.1f%s", f, unit);
}

static void print_key(const struct pp_report *r, const struct tag_key *k,
                      FILE *out)
{
	size_t w0 = strlen(k->name) + 1, w1 = 0;
	char buf[128], pct[32];

	for (size_t j = 0; j < k->nvals; j++) {
		scaled(r, k->vals[j].value, buf, sizeof(buf));
		if (k->total > 0) {
			pp_percentage(k->vals[j].value, k->total, pct,
			              sizeof(pct));
			size_t n = strlen(buf) + strlen(pct) + 4;

			w1 = n > w1 ? n : w1;
		} else {
			size_t n = strlen(buf) + 1;

			w1 = n > w1 ? n : w1;
		}
	}
	/* Columns are as wide as their widest cell plus one space of
	 * padding, text aligned right; the last cell is not aligned. */
	scaled(r, k->total, buf, sizeof(buf));
	fprintf(out, "%*s: Total %s\n", (int)w0, k->name, buf);
	for (size_t j = 0; j < k->nvals; j++) {
		char cell[192];

		scaled(r, k->vals[j].value, buf, sizeof(buf));
		if (k->total > 0) {
			pp_percentage(k->vals[j].value, k->total, pct,
			              sizeof(pct));
			snprintf(cell, sizeof(cell), "%s (%s):", buf, pct);
		} else {
			snprintf(cell, sizeof(cell), "%s:", buf);
		}
		fprintf(out, "%*s%*s %s\n", (int)w0 + 1, " ", (int)w1 + 1, cell,
		        k->vals[j].name);
	}
	fprintf(out, "\n");
}

/* One key of the tags report as JSON (docs/web-api.md). */
static void put_json_key(const struct pp_report *r, const struct tag_key *k,
                         bool first, FILE *out)
{
	char buf[128], pct[32];
	const char *p;

	fprintf(out, "%s\n{\"key\":", first ? "" : ",");
	pp_report_put_json_string(out, k->name);
	scaled(r, k->total, buf, sizeof(buf));
	fprintf(out, ",\"total\":%lld,\"total_str\":", (long long)k->total);
	pp_report_put_json_string(out, buf);
	fputs(",\"values\":[", out);
	for (size_t j = 0; j < k->nvals; j++) {
		scaled(r, k->vals[j].value, buf, sizeof(buf));
		pct[0] = '\0';
		if (k->total > 0)
			pp_percentage(k->vals[j].value, k->total, pct,
			              sizeof(pct));
		for (p = pct; *p == ' '; p++)
			;
		fprintf(out, "%s{\"name\":", j ? "," : "");
		pp_report_put_json_string(out, k->vals[j].name);
		fprintf(out, ",\"value\":%lld,\"value_str\":",
		        (long long)k->vals[j].value);
		pp_report_put_json_string(out, buf);
		fputs(",\"pct\":", out);
		pp_report_put_json_string(out, p);
		fputc('}', out);
	}
	fputs("]}", out);
}

static int tags_report(struct pp_report *r, bool json, FILE *out);

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
	uint32_t nt = p->nsample_types;
	char val[128];
	int err = 0;

	if ((err = pp_report__num_units(r)) < 0)
		return err;
	for (uint32_t s = 0; s < p->nsamples && err >= 0; s++) {
		const struct pp_sample *smp = &p->samples[s];
		int64_t v = p->values[(size_t)s * nt + r->sample_index];

		for (uint32_t i = 0; i < smp->label_count && err >= 0; i++) {
			const struct pp_label *l =
			        &p->labels[smp->label_first + i];
			const char *key = pp_profile_str(p, l->key);

			if (l->str) {
				err = add(&t, key, pp_profile_str(p, l->str),
				          v);
			} else if (l->num != 0) {
				pp_scaled_label(l->num,
				                pp_report__num_unit(r, l->key),
				                r->opts.unit, val, sizeof(val));
				err = add(&t, key, val, v);
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
	for (size_t i = 0; i < t.nkeys; i++) {
		struct tag_key *k = &t.keys[i];

		for (size_t j = 0; j < k->nvals; j++)
			k->total += k->vals[j].value;
		if (k->nvals > 1)
			qsort(k->vals, k->nvals, sizeof(*k->vals), cmp_value);
		if (json)
			put_json_key(r, k, i == 0, out);
		else
			print_key(r, k, out);
	}
	if (json)
		fputs("]}\n", out);
done:
	table_release(&t);
	return err;
}
