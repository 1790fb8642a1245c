/*
 * Label filters as pprof's driver builds them (driver_focus.go
 * compileTagFilter, parseTagFilterRange) and applies them (profile
 * FilterSamplesByTag, FilterTagsByName).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "transform/internal.h"
#include "util/bytes.h"

enum range_kind { R_EQ, R_GE, R_LE, R_BETWEEN };

struct tag_filter {
	const char *name; /* "tagfocus", for messages */
	bool set;
	pp_str key; /* KEY= given: its string id (PP_NONE if absent) */
	bool has_key;
	/* A numeric range, in unit (a static or borrowed string). */
	bool numeric;
	enum range_kind kind;
	double lo, hi;
	char unit[32];
	/* Else regexes, one per comma-separated part. */
	struct pp_regex **rx;
	size_t nrx;
};

/* The units of numeric label keys, as pprof's Profile.NumLabelUnits:
 * the first unit given for the key, else "bytes" for alignment and
 * request, else the key's own name. */
struct num_units {
	pp_str *unit; /* per string id (as key); 0 = none seen */
};

/* The unit, *len bytes: whole, as a NUL in it keeps it unknown (and
 * "request\0x" is its own unit, not bytes). */
static const char *key_unit(const struct pp_profile *p,
                            const struct num_units *u, pp_str key, size_t *len)
{
	const char *k;

	if (u->unit[key])
		return pp_profile_strn(p, u->unit[key], len);
	k = pp_profile_strn(p, key, len);
	if (pp_bytes_eq(k, *len, "alignment", 9) ||
	    pp_bytes_eq(k, *len, "request", 7)) {
		*len = 5;
		return "bytes";
	}
	return k;
}

/* One match of ([+-]?[[:digit:]]+)([[:alpha:]]+)? at or after s[*pos]. */
static bool next_number(const char *s, size_t *pos, size_t *start,
                        size_t *num_end, size_t *end)
{
	for (size_t i = *pos; s[i]; i++) {
		size_t j = i;

		if ((s[j] == '+' || s[j] == '-') && s[j + 1] >= '0' &&
		    s[j + 1] <= '9')
			j++;
		if (s[j] < '0' || s[j] > '9')
			continue;
		while (s[j] >= '0' && s[j] <= '9')
			j++;
		*start = i;
		*num_end = j;
		while ((s[j] >= 'a' && s[j] <= 'z') ||
		       (s[j] >= 'A' && s[j] <= 'Z'))
			j++;
		*end = *pos = j;
		return true;
	}
	return false;
}

/* Parse one "N[UNIT]" match into value v scaled to to_unit (NULL: its
 * own unit); returns false on overflow, as pprof would panic there. */
static bool scale_number(const char *s, size_t start, size_t num_end,
                         size_t end, const char *to_unit, double *v, char *unit,
                         size_t unit_size)
{
	char num[32], u[32];
	const char *out_unit;
	char *e;
	long long n;

	if (num_end - start >= sizeof(num) || end - num_end >= sizeof(u))
		return false;
	memcpy(num, s + start, num_end - start);
	num[num_end - start] = '\0';
	memcpy(u, s + num_end, end - num_end);
	u[end - num_end] = '\0';
	n = strtoll(num, &e, 10);
	if (*e || n == LLONG_MAX || n == LLONG_MIN)
		return false;
	*v = pp_scale((int64_t)n, u, to_unit ? to_unit : u, &out_unit);
	snprintf(unit, unit_size, "%s", out_unit);
	return true;
}

/* parseTagFilterRange: true (and f filled) if value is a range. */
static bool parse_range(const char *value, struct tag_filter *f)
{
	size_t pos = 0, s0, n0, e0, s1, n1, e1;
	char unit2[32];
	size_t len = strlen(value);

	if (!next_number(value, &pos, &s0, &n0, &e0))
		return false;
	if (!scale_number(value, s0, n0, e0, NULL, &f->lo, f->unit,
	                  sizeof(f->unit)))
		return false;
	if (!next_number(value, &pos, &s1, &n1, &e1)) {
		if (s0 == 0 && e0 == len)
			f->kind = R_EQ;
		else if (s0 == 0 && e0 + 1 == len && value[e0] == ':')
			f->kind = R_GE;
		else if (s0 == 1 && value[0] == ':' && e0 == len)
			f->kind = R_LE;
		else
			return false;
		f->hi = f->lo;
		return true;
	}
	if (s0 != 0 || s1 != e0 + 1 || value[e0] != ':' || e1 != len)
		return false;
	if (!scale_number(value, s1, n1, e1, f->unit, &f->hi, unit2,
	                  sizeof(unit2)) ||
	    strcmp(unit2, f->unit) != 0)
		return false;
	f->kind = R_BETWEEN;
	return true;
}

static int compile_filter(struct pp_ctx *ctx, const struct pp_profile *p,
                          const char *name, const char *value,
                          struct tag_filter *f)
{
	const char *eq;
	char what[64], *copy = NULL, *part, *next;
	int err = 0;

	memset(f, 0, sizeof(*f));
	f->name = name;
	if (!value || !*value)
		return 0;
	f->set = true;
	if ((eq = strchr(value, '='))) {
		/* An empty key ("=t1") is none at all, as in pprof: the
		 * regexes then match "key:value". */
		f->has_key = eq != value;
		if (f->has_key)
			f->key = pp_strtab_find(p->strings, value,
			                        (size_t)(eq - value));
		value = eq + 1;
	}
	if (parse_range(value, f)) {
		f->numeric = true;
		pp_warn(ctx, "%s:Interpreted '%s' as range, not regexp", name,
		        value);
		return 0;
	}
	copy = pp_strdup(ctx, value);
	if (!copy)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	snprintf(what, sizeof(what), "parsing %s regexp", name);
	for (part = copy; part; part = next) {
		struct pp_regex **grown;

		if ((next = strchr(part, ',')))
			*next++ = '\0';
		grown = pp_realloc(ctx, f->rx, (f->nrx + 1) * sizeof(*f->rx));
		if (!grown) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			break;
		}
		f->rx = grown;
		if ((err = pp_regex_compile(ctx, what, part, &f->rx[f->nrx])) <
		    0)
			break;
		f->nrx++;
	}
	pp_free(ctx, copy);
	return err;
}

static void release_filter(struct pp_ctx *ctx, struct tag_filter *f)
{
	for (size_t i = 0; i < f->nrx; i++)
		pp_regex_free(f->rx[i]);
	pp_free(ctx, f->rx);
}

static bool in_range(const struct tag_filter *f, int64_t v, const char *unit,
                     size_t unit_len)
{
	const char *su;
	size_t sl;
	double sv = pp_scale_n(v, unit, unit_len, f->unit, strlen(f->unit), &su,
	                       &sl);

	if (!pp_bytes_eq(su, sl, f->unit, strlen(f->unit)))
		return false;
	switch (f->kind) {
	case R_EQ:
		return sv == f->lo;
	case R_GE:
		return sv >= f->lo;
	case R_LE:
		return sv <= f->lo;
	case R_BETWEEN:
		return sv >= f->lo && sv <= f->hi;
	}
	return false;
}

static bool is_numeric(const struct pp_label *l)
{
	return l->str == 0;
}

/* The sample's "key:value" for string label l, in buf (allocated through
 * ctx, the filter's, as the caller frees it), *len bytes (NUL bytes of
 * the key or value included). */
static const char *key_value(struct pp_ctx *ctx, const struct pp_profile *p,
                             const struct pp_label *l, char **buf, size_t *cap,
                             size_t *len)
{
	size_t kl = pp_strtab_len(p->strings, l->key);
	size_t vl = pp_strtab_len(p->strings, l->str);

	/* 64 zeroed bytes after it: PCRE2's JIT reads whole vectors past
	 * a subject's end. */
	if (kl + vl + 2 + 64 > *cap) {
		char *grown = pp_realloc(ctx, *buf, kl + vl + 2 + 64);

		if (!grown)
			return NULL;
		memset(grown, 0, kl + vl + 2 + 64);
		*buf = grown;
		*cap = kl + vl + 2 + 64;
	}
	memcpy(*buf, pp_profile_str(p, l->key), kl);
	(*buf)[kl] = ':';
	memcpy(*buf + kl + 1, pp_profile_str(p, l->str), vl + 1);
	*len = kl + 1 + vl;
	return *buf;
}

/* Does re match string s of p, whole (NUL bytes and all)? */
static bool match_str(const struct pp_regex *re, const struct pp_profile *p,
                      pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	return pp_regex_match(re, t, n);
}

static int matches(const struct pp_work *w, const struct num_units *units,
                   const struct tag_filter *f, uint32_t s, char **buf,
                   size_t *cap, bool *out)
{
	const struct pp_profile *p = w->src;
	uint32_t n;
	const struct pp_label *labels = pp_sample_labels(p, s, &n);

	*out = false;
	if (f->has_key && f->key == PP_NONE)
		return 0;
	if (f->numeric) {
		for (uint32_t i = 0; i < n; i++) {
			const struct pp_label *l = &labels[i];

			const char *u;
			size_t ul;

			if (!is_numeric(l) || (f->has_key && l->key != f->key))
				continue;
			u = key_unit(p, units, l->key, &ul);
			if (in_range(f, l->num, u, ul)) {
				*out = true;
				return 0;
			}
		}
		return 0;
	}
	if (f->has_key) {
		for (size_t r = 0; r < f->nrx; r++)
			for (uint32_t i = 0; i < n; i++)
				if (!is_numeric(&labels[i]) &&
				    labels[i].key == f->key &&
				    match_str(f->rx[r], p, labels[i].str)) {
					*out = true;
					return 0;
				}
		return 0;
	}
	/* Without a key every regex must match some "key:value". */
	for (size_t r = 0; r < f->nrx; r++) {
		bool found = false;

		for (uint32_t i = 0; i < n && !found; i++) {
			const char *kv;
			size_t kvl;

			if (is_numeric(&labels[i]))
				continue;
			if (!(kv = key_value(w->ctx, p, &labels[i], buf, cap,
			                     &kvl)))
				return pp_error(w->ctx, PP_ENOMEM,
				                "out of memory");
			found = pp_regex_match(f->rx[r], kv, kvl);
		}
		if (!found)
			return 0;
	}
	*out = true;
	return 0;
}

static int find_units(struct pp_work *w, struct num_units *u)
{
	const struct pp_profile *p = w->src;

	u->unit = pp_calloc(w->ctx, pp_strtab_count(p->strings) + 1,
	                    sizeof(*u->unit));
	if (!u->unit)
		return pp_error(w->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nlabels; i++) {
		const struct pp_label *l = &p->labels[i];

		if (is_numeric(l) && l->num_unit && !u->unit[l->key])
			u->unit[l->key] = l->num_unit;
	}
	return 0;
}

/* FilterSamplesByTag. */
static int by_tag(struct pp_work *w, const struct tag_filter *focus,
                  const struct tag_filter *ignore)
{
	struct num_units units = {0};
	char *buf = NULL;
	size_t cap = 0;
	bool fm = false, im = false;
	int err;

	if ((err = find_units(w, &units)) < 0)
		goto done;
	for (uint32_t s = 0; s < w->src->nsamples; s++) {
		bool focused = true, ignored = false;

		if ((err = pp_interrupt_poll(w->ctx, s)) < 0)
			goto done;
		if (!w->keep[s])
			continue;
		if (focus->set && (err = matches(w, &units, focus, s, &buf,
		                                 &cap, &focused)) < 0)
			goto done;
		if (ignore->set && (err = matches(w, &units, ignore, s, &buf,
		                                  &cap, &ignored)) < 0)
			goto done;
		fm = fm || focused;
		im = im || ignored;
		if (!focused || ignored)
			w->keep[s] = false;
	}
	if (focus->set && !fm)
		pp_warn(w->ctx, "TagFocus expression matched no samples");
	if (ignore->set && !im)
		pp_warn(w->ctx, "TagIgnore expression matched no samples");
done:
	pp_free(w->ctx, buf);
	pp_free(w->ctx, units.unit);
	return err;
}

/* FilterTagsByName. */
static int by_key(struct pp_work *w, const struct pp_regex *show,
                  const struct pp_regex *hide)
{
	const struct pp_profile *p = w->src;
	bool sm = false, hm = false;

	w->label_keep = pp_malloc(w->ctx, (p->nlabels + 1) * sizeof(bool));
	if (!w->label_keep)
		return pp_error(w->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < p->nlabels; i++)
		w->label_keep[i] = true;
	for (uint32_t s = 0; s < p->nsamples; s++) {
		struct pp_label_range r = pp_sample_label_range(p, s);
		int err;

		if ((err = pp_interrupt_poll(w->ctx, s)) < 0)
			return err;
		if (!w->keep[s])
			continue;
		for (uint32_t i = r.first; i < r.first + r.count; i++) {
			pp_str k = p->labels[i].key;
			bool ms = !show || match_str(show, p, k);
			bool mh = hide && match_str(hide, p, k);

			sm = sm || ms;
			hm = hm || mh;
			if (!ms || mh)
				w->label_keep[i] = false;
		}
	}
	if (show && !sm)
		pp_warn(w->ctx, "TagShow expression matched no samples");
	if (hide && !hm)
		pp_warn(w->ctx, "TagHide expression matched no samples");
	return 0;
}

int pp_transform__tag_filters(struct pp_work *w, const struct pp_filter_opts *o)
{
	struct pp_ctx *ctx = w->ctx;
	struct tag_filter focus = {0}, ignore = {0};
	struct pp_regex *show = NULL, *hide = NULL;
	int err;

	if ((err = compile_filter(ctx, w->src, "tagfocus", o->tagfocus,
	                          &focus)) < 0 ||
	    (err = compile_filter(ctx, w->src, "tagignore", o->tagignore,
	                          &ignore)) < 0)
		goto done;
	if (o->tagshow && *o->tagshow &&
	    (err = pp_regex_compile(ctx, "parsing tagshow regexp", o->tagshow,
	                            &show)) < 0)
		goto done;
	if (o->taghide && *o->taghide &&
	    (err = pp_regex_compile(ctx, "parsing taghide regexp", o->taghide,
	                            &hide)) < 0)
		goto done;
	if ((focus.set || ignore.set) && (err = by_tag(w, &focus, &ignore)) < 0)
		goto done;
	if ((show || hide) && (err = by_key(w, show, hide)) < 0)
		goto done;
done:
	release_filter(ctx, &focus);
	release_filter(ctx, &ignore);
	pp_regex_free(show);
	pp_regex_free(hide);
	return err;
}
