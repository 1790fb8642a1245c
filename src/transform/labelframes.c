/*
 * pprof's -tagroot / -tagleaf (its driver's addLabelNodes): labels become
 * pseudo frames. For each key, in every sample, a frame whose function is
 * named by the sample's values of that label (string values, then numeric
 * ones scaled to the output unit, joined by ",") and whose file is the key;
 * a sample without the label gets the frame too, with an empty name, as in
 * pprof ("<unknown>" at function granularity). Root keys go above the
 * stack, the first key outermost; leaf keys below it, the last key
 * innermost. The frames are locations without a mapping, one per distinct
 * (name, key), numbered after the profile's own ids in the order samples
 * first reach them.
 */
#include <string.h>

#include "pprof/format.h"
#include "transform/internal.h"

struct keys {
	pp_str *v; /* interned in the copy; may hold PP_NONE (never seen) */
	size_t n;
};

/* Split a comma-separated list (empty items dropped, as pprof's
 * dropEmptyStrings) into strings interned in p. */
static int split_keys(struct pp_profile *p, const char *list, struct keys *k)
{
	const char *s = list ? list : "";
	size_t cap = 0;
	int err;

	while (*s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (len) {
			pp_str id = pp_strtab_intern(p->strings, s, len);

			if (id == PP_NONE)
				return pp_error(p->ctx, PP_ENOMEM,
				                "out of memory");
			if ((err = pp_grow(p->ctx, (void **)&k->v, &cap,
			                   k->n + 1, sizeof(*k->v))) < 0)
				return err;
			k->v[k->n++] = id;
		}
		s += len + (end ? 1 : 0);
	}
	return 0;
}

/* The pseudo locations made so far, by (name, key). */
struct frames {
	uint64_t *keys; /* name << 32 | key; UINT64_MAX empty */
	uint32_t *locs;
	uint32_t n, used;
	uint64_t next_loc_id, next_fn_id;
};

static int frame_loc(struct pp_profile *p, struct frames *f, pp_str name,
                     pp_str key, uint32_t *out)
{
	uint64_t k = (uint64_t)name << 32 | key;
	uint32_t j;
	int err;

	if ((uint64_t)(f->used + 1) * 2 > f->n) {
		uint32_t n = f->n ? f->n * 2 : 64;
		uint64_t *keys = pp_malloc(p->ctx, (size_t)n * sizeof(*keys));
		uint32_t *locs = pp_malloc(p->ctx, (size_t)n * sizeof(*locs));

		if (!keys || !locs) {
			pp_free(p->ctx, keys);
			pp_free(p->ctx, locs);
			return pp_error(p->ctx, PP_ENOMEM, "out of memory");
		}
		memset(keys, 0xff, (size_t)n * sizeof(*keys));
		for (uint32_t i = 0; i < f->n; i++) {
			if (f->keys[i] == UINT64_MAX)
				continue;
			j = (uint32_t)((f->keys[i] * 0x9E3779B97F4A7C15ull) >>
			               40) &
			    (n - 1);
			while (keys[j] != UINT64_MAX)
				j = (j + 1) & (n - 1);
			keys[j] = f->keys[i];
			locs[j] = f->locs[i];
		}
		pp_free(p->ctx, f->keys);
		pp_free(p->ctx, f->locs);
		f->keys = keys;
		f->locs = locs;
		f->n = n;
	}
	j = (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 40) & (f->n - 1);
	while (f->keys[j] != UINT64_MAX) {
		if (f->keys[j] == k) {
			*out = f->locs[j];
			return 0;
		}
		j = (j + 1) & (f->n - 1);
	}
	{
		struct pp_function fn = {0};
		struct pp_location loc = {0};
		struct pp_line line = {0};

		fn.id = f->next_fn_id++;
		fn.name = name;
		fn.system_name = 0;
		fn.filename = key;
		if ((err = pp_profile_add_function(p, &fn, &line.function)) < 0)
			return err;
		loc.id = f->next_loc_id++;
		loc.mapping = PP_NONE;
		if ((err = pp_profile_add_location(p, &loc, &line, 1, out)) < 0)
			return err;
	}
	f->keys[j] = k;
	f->locs[j] = *out;
	f->used++;
	return 0;
}

/* The sample's values of label key as one name ("" when it has none);
 * *matched set when it has some. */
static int label_name(struct pp_profile *p, uint32_t s, pp_str key,
                      const char *unit, char **buf, size_t *cap, bool *matched,
                      pp_str *out)
{
	uint32_t n;
	const struct pp_label *labels = pp_sample_labels(p, s, &n);
	bool units = false;
	size_t len = 0;
	int err;

	for (uint32_t i = 0; i < n; i++)
		if (labels[i].key == key && labels[i].str == 0 &&
		    labels[i].num_unit != 0)
			units = true;
	/* Strings first, then numbers, as pprof's formatLabelValues. */
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < n; i++) {
			const struct pp_label *l = &labels[i];
			char num[PP_LABEL_NUM_MAX];
			const char *v, *u = "";
			size_t vl, ul = 0;

			if (l->key != key || (pass == 0) != (l->str != 0))
				continue;
			/* Values and units whole: they may hold NUL bytes,
			 * and an unknown unit is printed at any length. */
			if (pass == 0) {
				v = pp_profile_strn(p, l->str, &vl);
			} else {
				const char *from = "";
				size_t fl = 0;

				if (units)
					from = pp_profile_strn(p, l->num_unit,
					                       &fl);
				vl = pp_scaled_label_parts(
				        l->num, from, fl, units ? unit : "",
				        units ? strlen(unit) : 0, num,
				        sizeof(num), &u, &ul);
				v = num;
			}
			if ((err = pp_grow(p->ctx, (void **)buf, cap,
			                   len + vl + ul + 2, 1)) < 0)
				return err;
			if (len)
				(*buf)[len++] = ',';
			memcpy(*buf + len, v, vl);
			len += vl;
			memcpy(*buf + len, u, ul);
			len += ul;
			*matched = true;
		}
	}
	*out = len ? pp_strtab_intern(p->strings, *buf, len) : 0;
	if (*out == PP_NONE)
		return pp_error(p->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

int pp_profile_label_frames(struct pp_ctx *ctx, const struct pp_profile *in,
                            const struct pp_label_frames_opts *o,
                            struct pp_profile **out)
{
	struct pp_work w = {0};
	struct pp_profile *p = NULL;
	struct keys root = {0}, leaf = {0};
	struct frames f = {0};
	uint32_t *stacks = NULL, *extra = NULL;
	char *buf = NULL;
	size_t cap = 0, nstack = 0, nalloc;
	bool rootm = false, leafm = false;
	const char *unit = o->unit ? o->unit : "minimum";
	int err;

	*out = NULL;
	/* A copy first: the filters' identity view, built. */
	if ((err = pp_work_init(ctx, in, &w)) < 0 ||
	    (err = pp_work_build(&w, &p)) < 0)
		goto done;
	if ((err = split_keys(p, o->root, &root)) < 0 ||
	    (err = split_keys(p, o->leaf, &leaf)) < 0)
		goto done;
	for (uint32_t i = 0; i < p->nlocations; i++)
		if (p->locations[i].id >= f.next_loc_id)
			f.next_loc_id = p->locations[i].id;
	for (uint32_t i = 0; i < p->nfunctions; i++)
		if (p->functions[i].id >= f.next_fn_id)
			f.next_fn_id = p->functions[i].id;
	f.next_loc_id++;
	f.next_fn_id++;
	if (root.n + leaf.n == 0) {
		*out = p;
		p = NULL;
		goto done;
	}
	if (p->nsamples &&
	    (size_t)p->nsamples >
	            (SIZE_MAX - p->nsample_locs) / (root.n + leaf.n + 1)) {
		err = pp_error(ctx, PP_ELIMIT, "too many stack frames");
		goto done;
	}
	nalloc = p->nsample_locs + (size_t)p->nsamples * (root.n + leaf.n) + 1;
	stacks = pp_malloc(ctx, nalloc * sizeof(*stacks));
	extra = pp_malloc(ctx, (root.n + leaf.n + 1) * sizeof(*extra));
	if (!stacks || !extra) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		struct pp_sample *smp = &p->samples[s];
		size_t first = nstack;
		pp_str name;

		if ((err = pp_interrupt_poll(ctx, s)) < 0)
			goto done;
		/* pprof makes the root frames first, keys last to first,
		 * then the leaf frames likewise: that order numbers them. */
		for (size_t i = root.n; i-- > 0;) {
			if ((err = label_name(p, s, root.v[i], unit, &buf, &cap,
			                      &rootm, &name)) < 0 ||
			    (err = frame_loc(
			             p, &f, name, root.v[i],
			             &extra[leaf.n + (root.n - 1 - i)])) < 0)
				goto done;
		}
		for (size_t i = leaf.n; i-- > 0;) {
			if ((err = label_name(p, s, leaf.v[i], unit, &buf, &cap,
			                      &leafm, &name)) < 0 ||
			    (err = frame_loc(p, &f, name, leaf.v[i],
			                     &extra[leaf.n - 1 - i])) < 0)
				goto done;
		}
		/* Leaf first: the last leaf key innermost (extra's first
		 * entry), the first root key outermost. */
		for (size_t i = 0; i < leaf.n; i++)
			stacks[nstack++] = extra[i];
		pp_sample_stack(p, smp, stacks + nstack);
		nstack += smp->loc_count;
		for (size_t i = 0; i < root.n; i++)
			stacks[nstack++] = extra[leaf.n + i];
		smp->loc_first = (uint32_t)first;
		smp->loc_count = (uint32_t)(nstack - first);
	}
	if (nstack > UINT32_MAX) {
		err = pp_error(ctx, PP_ELIMIT, "too many stack frames");
		goto done;
	}
	pp_profile_set_sample_locs(p, stacks, nstack);
	stacks = NULL;
	if (o->root && *o->root && !rootm)
		pp_warn(ctx, "TagRoot expression matched no samples");
	if (o->leaf && *o->leaf && !leafm)
		pp_warn(ctx, "TagLeaf expression matched no samples");
	*out = p;
	p = NULL;
done:
	pp_work_release(&w);
	pp_profile_free(p);
	pp_free(ctx, root.v);
	pp_free(ctx, leaf.v);
	pp_free(ctx, f.keys);
	pp_free(ctx, f.locs);
	pp_free(ctx, stacks);
	pp_free(ctx, extra);
	pp_free(ctx, buf);
	return err;
}
