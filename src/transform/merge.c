/*
 * Merging profiles, as pprof's profile.Merge. Records are copied into a
 * fresh profile with their strings re-interned; mappings, functions and
 * locations that are equal under pprof's keys are shared, so reports see one
 * node for one function whatever file it came from. Records are copied when
 * a sample first reaches them, so the result holds only what samples use, in
 * pprof's order (which raw and proto output show). Samples with the same
 * stack and labels become one with the values summed; samples whose values
 * are all zero are dropped. As pprof's driver first makes the profiles'
 * sample types compatible, the result keeps the types all inputs have,
 * each in the smallest of their units (compatibilize, scale_units).
 */
#include <string.h>

#include "pprof/format.h"
#include "pprof/transform.h"
#include "transform/internal.h"
#include "util/goint.h"

/* Open addressing. A slot holds the record's index + 1 (0: empty) and the
 * top 32 bits of its hash, which also pick its home slot: one cache line
 * per probe, and a table can be rehashed from its slots alone. */
struct slot {
	uint32_t tag;
	uint32_t val;
};

struct key_table {
	struct slot *slots;
	uint32_t nslots;
};

#define TAG(h) ((uint32_t)((h) >> 32))

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static int table_init(struct pp_ctx *ctx, struct key_table *t, size_t n)
{
	t->nslots = 64;
	while (t->nslots < n * 2)
		t->nslots *= 2;
	t->slots = pp_calloc(ctx, t->nslots, sizeof(*t->slots));
	return t->slots ? 0 : pp_error(ctx, PP_ENOMEM, "out of memory");
}

static void table_release(struct pp_ctx *ctx, struct key_table *t)
{
	pp_free(ctx, t->slots);
}

/* A profile merged: its default sample type and its sample types (dst's
 * strings), which decide the merged default once the types every profile
 * has are known (pp_merger_finish). */
struct source_types {
	pp_str dflt;
	size_t first; /* in merger.types */
	uint32_t n;
};

struct merger {
	struct pp_ctx *ctx;
	struct pp_profile *dst;
	const struct pp_profile *src;
	/* src's values in dst's sample types, nsample_types of dst's per
	 * sample: src->values, or projected when src has others too. */
	const int64_t *src_values;
	int64_t *projected;
	int64_t src_period; /* src's period in dst's period unit */
	struct source_types *sources;
	size_t nsources, cap_sources;
	pp_str *types;
	size_t ntypes, cap_types;
	pp_str *strmap;
	uint32_t *mapmap, *funcmap, *locmap; /* PP_NONE until mapped */
	struct key_table maps, funcs, locs, samples;
	struct pp_line *lines;
	size_t cap_lines;
};

static pp_str S(struct merger *m, pp_str s)
{
	return m->strmap[s];
}

static bool mapping_eq(const struct pp_mapping *a, const struct pp_mapping *b)
{
	uint64_t sa = ((a->limit - a->start) + 0xfff) & ~(uint64_t)0xfff;
	uint64_t sb = ((b->limit - b->start) + 0xfff) & ~(uint64_t)0xfff;
	pp_str ka = a->build_id ? a->build_id : a->file;
	pp_str kb = b->build_id ? b->build_id : b->file;

	return sa == sb && a->offset == b->offset && ka == kb;
}

static uint64_t mapping_hash(const struct pp_mapping *m)
{
	uint64_t size = ((m->limit - m->start) + 0xfff) & ~(uint64_t)0xfff;

	return mix(mix(mix(1, size), m->offset),
	           m->build_id ? m->build_id : m->file);
}

static bool function_eq(const struct pp_function *a,
                        const struct pp_function *b)
{
	return a->start_line == b->start_line && a->name == b->name &&
	       a->system_name == b->system_name && a->filename == b->filename;
}

static uint64_t function_hash(const struct pp_function *f)
{
	return mix(mix(mix(mix(2, (uint64_t)f->start_line), f->name),
	               f->system_name),
	           f->filename);
}

/* Find a record equal to the candidate through t: found is its index, or
 * PP_NONE and slot the empty slot where it goes. EQ compares record i_ of
 * dst with the candidate. */
#define LOOKUP(t, h, EQ, found)                                     \
	do {                                                        \
		uint32_t j_ = TAG(h) & ((t)->nslots - 1);           \
		found = PP_NONE;                                    \
		while ((t)->slots[j_].val) {                        \
			uint32_t i_ = (t)->slots[j_].val - 1;       \
			if ((t)->slots[j_].tag == TAG(h) && (EQ)) { \
				found = i_;                         \
				break;                              \
			}                                           \
			j_ = (j_ + 1) & ((t)->nslots - 1);          \
		}                                                   \
		slot = j_;                                          \
	} while (0)

static void table_set(struct key_table *t, uint32_t slot, uint64_t h,
                      uint32_t index)
{
	t->slots[slot].tag = TAG(h);
	t->slots[slot].val = index + 1;
}

static int grow_table(struct merger *m, struct key_table *t, uint32_t count)
{
	struct key_table nt;
	int err;

	if ((uint64_t)(count + 1) * 2 <= t->nslots)
		return 0;
	if ((err = table_init(m->ctx, &nt, (size_t)t->nslots)) < 0) {
		table_release(m->ctx, &nt);
		return err;
	}
	for (uint32_t j = 0; j < t->nslots; j++) {
		uint32_t k;

		if (!t->slots[j].val)
			continue;
		k = t->slots[j].tag & (nt.nslots - 1);
		while (nt.slots[k].val)
			k = (k + 1) & (nt.nslots - 1);
		nt.slots[k] = t->slots[j];
	}
	table_release(m->ctx, t);
	*t = nt;
	return 0;
}

/* The dst mapping for src mapping i, added on first use. */
static int map_mapping(struct merger *m, uint32_t i, uint32_t *out)
{
	struct pp_profile *dst = m->dst;
	struct pp_mapping pm;
	uint32_t found, slot;
	uint64_t h;
	int err;

	if (i == PP_NONE || m->mapmap[i] != PP_NONE) {
		*out = i == PP_NONE ? PP_NONE : m->mapmap[i];
		return 0;
	}
	pm = m->src->mappings[i];
	pm.file = S(m, pm.file);
	pm.build_id = S(m, pm.build_id);
	h = mapping_hash(&pm);
	if ((err = grow_table(m, &m->maps, dst->nmappings)) < 0)
		return err;
	LOOKUP(&m->maps, h, mapping_eq(&dst->mappings[i_], &pm), found);
	if (found == PP_NONE) {
		pm.id = (uint64_t)dst->nmappings + 1;
		if ((err = pp_profile_add_mapping(dst, &pm, &found)) < 0)
			return err;
		table_set(&m->maps, slot, h, found);
	}
	*out = m->mapmap[i] = found;
	return 0;
}

/* The dst function for src function i, added on first use. */
static int map_function(struct merger *m, uint32_t i, uint32_t *out)
{
	struct pp_profile *dst = m->dst;
	struct pp_function f;
	uint32_t found, slot;
	uint64_t h;
	int err;

	if (i == PP_NONE || m->funcmap[i] != PP_NONE) {
		*out = i == PP_NONE ? PP_NONE : m->funcmap[i];
		return 0;
	}
	f = m->src->functions[i];
	f.name = S(m, f.name);
	f.system_name = S(m, f.system_name);
	f.filename = S(m, f.filename);
	h = function_hash(&f);
	if ((err = grow_table(m, &m->funcs, dst->nfunctions)) < 0)
		return err;
	LOOKUP(&m->funcs, h, function_eq(&dst->functions[i_], &f), found);
	if (found == PP_NONE) {
		f.id = (uint64_t)dst->nfunctions + 1;
		if ((err = pp_profile_add_function(dst, &f, &found)) < 0)
			return err;
		table_set(&m->funcs, slot, h, found);
	}
	*out = m->funcmap[i] = found;
	return 0;
}

static bool location_eq(const struct pp_profile *dst, uint32_t i,
                        const struct pp_location *l, uint64_t rel,
                        const struct pp_line *lines)
{
	const struct pp_location *d = &dst->locations[i];
	uint64_t drel = d->address;

	if (d->mapping != PP_NONE)
		drel -= dst->mappings[d->mapping].start;
	if (d->mapping != l->mapping || drel != rel ||
	    d->is_folded != l->is_folded || d->line_count != l->line_count)
		return false;
	for (uint32_t k = 0; k < l->line_count; k++) {
		const struct pp_line *a = &dst->lines[d->line_first + k];

		if (a->function != lines[k].function ||
		    a->line != lines[k].line || a->column != lines[k].column)
			return false;
	}
	return true;
}

/* The dst location for src location i, added on first use. */
static int map_location(struct merger *m, uint32_t i, uint32_t *out)
{
	const struct pp_profile *src = m->src;
	struct pp_profile *dst = m->dst;
	struct pp_location l;
	uint32_t found, slot;
	uint64_t h, rel;
	int err;

	if (m->locmap[i] != PP_NONE) {
		*out = m->locmap[i];
		return 0;
	}
	l = src->locations[i];
	if ((err = map_mapping(m, l.mapping, &l.mapping)) < 0)
		return err;
	if ((err = pp_grow(m->ctx, (void **)&m->lines, &m->cap_lines,
	                   l.line_count, sizeof(*m->lines))) < 0)
		return err;
	for (uint32_t k = 0; k < l.line_count; k++) {
		m->lines[k] = src->lines[l.line_first + k];
		if ((err = map_function(m, m->lines[k].function,
		                        &m->lines[k].function)) < 0)
			return err;
	}
	/* Addresses relative to the mapping, as pprof keys them, so
	 * address-space randomisation does not split locations. Our
	 * mapping may be shared with an earlier profile's. */
	rel = l.address;
	if (l.mapping != PP_NONE) {
		rel -= src->mappings[src->locations[i].mapping].start;
		l.address = dst->mappings[l.mapping].start + rel;
	}
	h = mix(mix(mix(3, rel), l.mapping), l.is_folded);
	for (uint32_t k = 0; k < l.line_count; k++)
		h = mix(mix(h, m->lines[k].function),
		        (uint64_t)m->lines[k].line);
	if ((err = grow_table(m, &m->locs, dst->nlocations)) < 0)
		return err;
	LOOKUP(&m->locs, h, location_eq(dst, i_, &l, rel, m->lines), found);
	if (found == PP_NONE) {
		l.id = (uint64_t)dst->nlocations + 1;
		if ((err = pp_profile_add_location(dst, &l, m->lines,
		                                   l.line_count, &found)) < 0)
			return err;
		table_set(&m->locs, slot, h, found);
	}
	*out = m->locmap[i] = found;
	return 0;
}

static bool is_zero(const int64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

/* Labels in one order whatever order the file gave them: by kind (string
 * first), then key; values of one key keep their order, as in pprof's map
 * of lists. Insertion sort: samples carry a handful of labels. */
static void sort_labels(struct pp_label *l, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct pp_label x = l[i];
		uint32_t j;

		for (j = i; j > 0; j--) {
			bool xs = x.str != 0, ys = l[j - 1].str != 0;

			if (xs == ys ? l[j - 1].key <= x.key : xs < ys)
				break;
			l[j] = l[j - 1];
		}
		l[j] = x;
	}
}

static uint64_t sample_hash(struct pp_locs locs, uint32_t nlocs,
                            const struct pp_label *labels, uint32_t nlabels)
{
	uint64_t h = mix(4, nlocs);

	for (uint32_t k = 0; k < nlocs; k++)
		h = mix(h, pp_locs_at(locs, k));
	for (uint32_t k = 0; k < nlabels; k++)
		h = mix(mix(mix(mix(h, labels[k].key), labels[k].str),
		            (uint64_t)labels[k].num),
		        labels[k].num_unit);
	return h;
}

static bool sample_eq(const struct pp_profile *dst, uint32_t i,
                      const uint32_t *locs, uint32_t nlocs,
                      const struct pp_label *labels, uint32_t nlabels)
{
	const struct pp_sample *s = &dst->samples[i];
	uint32_t has;
	const struct pp_label *own = pp_sample_labels(dst, i, &has);

	if (has != nlabels || !pp_sample_stack_is(dst, s, locs, nlocs))
		return false;
	for (uint32_t k = 0; k < nlabels; k++) {
		const struct pp_label *a = &own[k];

		if (a->key != labels[k].key || a->str != labels[k].str ||
		    a->num != labels[k].num ||
		    a->num_unit != labels[k].num_unit)
			return false;
	}
	return true;
}

/* Add one sample (hash h) to dst, or its values to an equal one there. */
static int add_sample(struct merger *m, uint64_t h, const uint32_t *locs,
                      uint32_t nlocs, const int64_t *values,
                      const struct pp_label *labels, uint32_t nlabels)
{
	struct pp_profile *dst = m->dst;
	uint32_t nt = dst->nsample_types, found, slot;
	int err;

	if ((err = grow_table(m, &m->samples, dst->nsamples)) < 0)
		return err;
	LOOKUP(&m->samples, h, sample_eq(dst, i_, locs, nlocs, labels, nlabels),
	       found);
	if (found != PP_NONE) {
		int64_t *v = dst->values + (size_t)found * nt;

		for (uint32_t k = 0; k < nt; k++)
			v[k] += values[k];
		return 0;
	}
	if ((err = pp_profile_add_sample(dst, locs, nlocs, values, labels,
	                                 nlabels)) < 0)
		return err;
	table_set(&m->samples, slot, h, dst->nsamples - 1);
	return 0;
}

/* Sample s of src as dst sees it, into the merger's buffers: its
 * locations (mapped on first use, so map in sample order) and its labels
 * with dst's strings, in one order. */
static int sample_view(struct merger *m, uint32_t s, uint32_t **locs,
                       size_t *cap_locs, struct pp_label **labels,
                       size_t *cap_labels)
{
	const struct pp_profile *src = m->src;
	const struct pp_sample *smp = &src->samples[s];
	uint32_t nlabels;
	const struct pp_label *own = pp_sample_labels(src, s, &nlabels);
	int err;

	if ((err = pp_grow(m->ctx, (void **)locs, cap_locs, smp->loc_count,
	                   sizeof(**locs))) < 0 ||
	    (err = pp_grow(m->ctx, (void **)labels, cap_labels, nlabels,
	                   sizeof(**labels))) < 0)
		return err;
	for (uint32_t k = 0; k < smp->loc_count; k++)
		if ((err = map_location(m, pp_sample_loc(src, smp, k),
		                        &(*locs)[k])) < 0)
			return err;
	for (uint32_t k = 0; k < nlabels; k++) {
		struct pp_label *l = &(*labels)[k];

		*l = own[k];
		l->key = S(m, l->key);
		l->str = S(m, l->str);
		l->num_unit = S(m, l->num_unit);
	}
	sort_labels(*labels, nlabels);
	return 0;
}

/* How many samples ahead pass 2 prefetches the table slot. */
#define AHEAD 8

/*
 * Two passes over src's samples. The first maps every location in sample
 * order (dst numbers its records in the order samples reach them) and
 * hashes each sample. The second adds them through the table, prefetching
 * the slot of the sample AHEAD places on: the table of a big profile is
 * far larger than the caches, and waiting for each slot in turn was most
 * of the merge's time.
 */
static int map_samples(struct merger *m)
{
	const struct pp_profile *src = m->src;
	uint32_t *locs = NULL, n = src->nsamples, nt = m->dst->nsample_types;
	struct pp_label *labels = NULL;
	uint64_t *hashes = NULL;
	size_t cap_locs = 0, cap_labels = 0;
	int err = 0;

	hashes = pp_malloc(m->ctx, ((size_t)n + 1) * sizeof(*hashes));
	if (!hashes)
		return pp_error(m->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t s = 0; s < n; s++) {
		const struct pp_sample *smp = &src->samples[s];

		hashes[s] = 0;
		if ((err = pp_interrupt_poll(m->ctx, s)) < 0)
			goto done;
		if (is_zero(m->src_values + (size_t)s * nt, nt))
			continue;
		if ((err = sample_view(m, s, &locs, &cap_locs, &labels,
		                       &cap_labels)) < 0)
			goto done;
		hashes[s] = sample_hash((struct pp_locs){locs, 4},
		                        smp->loc_count, labels,
		                        pp_sample_label_range(src, s).count);
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct pp_sample *smp = &src->samples[s];
		const int64_t *v = m->src_values + (size_t)s * nt;

		if (s + AHEAD < n)
			PREFETCH(&m->samples.slots[TAG(hashes[s + AHEAD]) &
			                           (m->samples.nslots - 1)]);
		if ((err = pp_interrupt_poll(m->ctx, s)) < 0)
			goto done;
		if (is_zero(v, nt))
			continue;
		if ((err = sample_view(m, s, &locs, &cap_locs, &labels,
		                       &cap_labels)) < 0 ||
		    (err = add_sample(m, hashes[s], locs, smp->loc_count, v,
		                      labels,
		                      pp_sample_label_range(src, s).count)) < 0)
			goto done;
	}
done:
	pp_free(m->ctx, hashes);
	pp_free(m->ctx, locs);
	pp_free(m->ctx, labels);
	return err;
}

/* ---- one profile alone ---------------------------------------------------
 * Merging a single profile (pprof does it before traces, raw and proto,
 * and after a base is subtracted) mostly finds equal samples. When no two
 * of its locations are equal under the keys above, its own location
 * indices already tell samples apart, so samples are hashed and compared
 * as they are, and only the first of each is mapped into dst. */

/* Is every location of src its own under the merge's keys (its functions
 * and mappings compared by their keys too)? */
static int locations_distinct(struct merger *m, bool *out)
{
	const struct pp_profile *src = m->src;
	uint32_t *fcanon = NULL, *mcanon = NULL, found, slot;
	struct key_table t = {0};
	int err = 0;

	*out = false;
	fcanon = pp_malloc(m->ctx, ((size_t)src->nfunctions + 1) * 4);
	mcanon = pp_malloc(m->ctx, ((size_t)src->nmappings + 1) * 4);
	if (!fcanon || !mcanon) {
		err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = table_init(m->ctx, &t, src->nfunctions)) < 0)
		goto done;
	for (uint32_t f = 0; f < src->nfunctions; f++) {
		uint64_t h = function_hash(&src->functions[f]);

		LOOKUP(&t, h,
		       function_eq(&src->functions[i_], &src->functions[f]),
		       found);
		if (found == PP_NONE)
			table_set(&t, slot, h, f);
		fcanon[f] = found == PP_NONE ? f : found;
	}
	table_release(m->ctx, &t);
	if ((err = table_init(m->ctx, &t, src->nmappings)) < 0)
		goto done;
	for (uint32_t i = 0; i < src->nmappings; i++) {
		uint64_t h = mapping_hash(&src->mappings[i]);

		LOOKUP(&t, h, mapping_eq(&src->mappings[i_], &src->mappings[i]),
		       found);
		if (found == PP_NONE)
			table_set(&t, slot, h, i);
		mcanon[i] = found == PP_NONE ? i : found;
	}
	table_release(m->ctx, &t);
	if ((err = table_init(m->ctx, &t, src->nlocations)) < 0)
		goto done;
	*out = true;
	for (uint32_t l = 0; l < src->nlocations && *out; l++) {
		const struct pp_location *a = &src->locations[l];
		uint32_t map =
		        a->mapping == PP_NONE ? PP_NONE : mcanon[a->mapping];
		uint64_t rel = a->address, h;

		if (a->mapping != PP_NONE)
			rel -= src->mappings[a->mapping].start;
		h = mix(mix(mix(3, rel), map), a->is_folded);
		for (uint32_t k = 0; k < a->line_count; k++) {
			uint32_t f = src->lines[a->line_first + k].function;

			h = mix(mix(h, f == PP_NONE ? PP_NONE : fcanon[f]),
			        (uint64_t)src->lines[a->line_first + k].line);
		}
		found = PP_NONE;
		{
			uint32_t j = TAG(h) & (t.nslots - 1);

			while (t.slots[j].val && found == PP_NONE) {
				const struct pp_location *b =
				        &src->locations[t.slots[j].val - 1];
				uint64_t brel = b->address;
				bool eq = t.slots[j].tag == TAG(h) &&
				          b->is_folded == a->is_folded &&
				          b->line_count == a->line_count;

				if (b->mapping != PP_NONE)
					brel -= src->mappings[b->mapping].start;
				eq = eq && brel == rel &&
				     (b->mapping == PP_NONE
				              ? PP_NONE
				              : mcanon[b->mapping]) == map;
				for (uint32_t k = 0; eq && k < a->line_count;
				     k++) {
					const struct pp_line *x =
					        &src->lines[a->line_first + k];
					const struct pp_line *y =
					        &src->lines[b->line_first + k];

					eq = x->line == y->line &&
					     (x->function == PP_NONE
					              ? PP_NONE
					              : fcanon[x->function]) ==
					             (y->function == PP_NONE
					                      ? PP_NONE
					                      : fcanon[y->function]);
				}
				if (eq)
					found = t.slots[j].val - 1;
				j = (j + 1) & (t.nslots - 1);
			}
			if (found == PP_NONE) {
				t.slots[j].tag = TAG(h);
				t.slots[j].val = l + 1;
			}
		}
		if (found != PP_NONE)
			*out = false;
	}
done:
	table_release(m->ctx, &t);
	pp_free(m->ctx, fcanon);
	pp_free(m->ctx, mcanon);
	return err;
}

/* Labels a[0..n) and b[0..n) of two src samples are the same label sets:
 * for each key (and kind), the same values in the same order. */
static bool same_labels(const struct pp_label *a, const struct pp_label *b,
                        uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		bool str = a[i].str != 0;
		uint32_t nth = 0, j;

		for (uint32_t k = 0; k < i; k++)
			nth += a[k].key == a[i].key && (a[k].str != 0) == str;
		for (j = 0; j < n; j++) {
			if (b[j].key != a[i].key || (b[j].str != 0) != str)
				continue;
			if (nth-- == 0)
				break;
		}
		if (j == n || a[i].str != b[j].str || a[i].num != b[j].num ||
		    a[i].num_unit != b[j].num_unit)
			return false;
	}
	return true;
}

static bool same_sample(const struct pp_profile *src, uint32_t a, uint32_t b)
{
	const struct pp_sample *x = &src->samples[a], *y = &src->samples[b];
	struct pp_label_range lx = pp_sample_label_range(src, a),
	                      ly = pp_sample_label_range(src, b);

	return x->loc_count == y->loc_count && lx.count == ly.count &&
	       (x->loc_count == 0 ||
	        pp_profile_locs_equal(src, x->loc_first, y->loc_first,
	                              x->loc_count)) &&
	       same_labels(src->labels + lx.first, src->labels + ly.first,
	                   lx.count);
}

/* map_samples for a single profile whose locations are distinct. */
static int map_samples_direct(struct merger *m)
{
	const struct pp_profile *src = m->src;
	struct pp_profile *dst = m->dst;
	uint32_t *locs = NULL, *rep = NULL, n = src->nsamples;
	uint32_t nt = src->nsample_types;
	struct pp_label *labels = NULL;
	uint64_t *hashes = NULL;
	size_t cap_locs = 0, cap_labels = 0;
	int err = 0;

	hashes = pp_malloc(m->ctx, ((size_t)n + 1) * sizeof(*hashes));
	rep = pp_malloc(m->ctx, ((size_t)n + 1) * sizeof(*rep));
	if (!hashes || !rep) {
		err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct pp_sample *smp = &src->samples[s];
		uint32_t nl;
		const struct pp_label *own = pp_sample_labels(src, s, &nl);

		hashes[s] = 0;
		if ((err = pp_interrupt_poll(m->ctx, s)) < 0)
			goto done;
		if (is_zero(pp_profile_sample_values(src, s), nt))
			continue;
		if ((err = pp_grow(m->ctx, (void **)&labels, &cap_labels, nl,
		                   sizeof(*labels))) < 0)
			goto done;
		if (nl)
			memcpy(labels, own, nl * sizeof(*labels));
		sort_labels(labels, nl);
		hashes[s] = sample_hash(pp_sample_locs(src, smp),
		                        smp->loc_count, labels, nl);
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct pp_sample *smp = &src->samples[s];
		const int64_t *v = pp_profile_sample_values(src, s);
		uint32_t found, slot;

		if (s + AHEAD < n)
			PREFETCH(&m->samples.slots[TAG(hashes[s + AHEAD]) &
			                           (m->samples.nslots - 1)]);
		if ((err = pp_interrupt_poll(m->ctx, s)) < 0)
			goto done;
		if (is_zero(v, nt))
			continue;
		if ((err = grow_table(m, &m->samples, dst->nsamples)) < 0)
			goto done;
		LOOKUP(&m->samples, hashes[s], same_sample(src, rep[i_], s),
		       found);
		if (found != PP_NONE) {
			int64_t *d = dst->values + (size_t)found * nt;

			for (uint32_t k = 0; k < nt; k++)
				d[k] += v[k];
			continue;
		}
		if ((err = sample_view(m, s, &locs, &cap_locs, &labels,
		                       &cap_labels)) < 0 ||
		    (err = pp_profile_add_sample(
		             dst, locs, smp->loc_count, v, labels,
		             pp_sample_label_range(src, s).count)) < 0)
			goto done;
		rep[dst->nsamples - 1] = s;
		table_set(&m->samples, slot, hashes[s], dst->nsamples - 1);
	}
done:
	pp_free(m->ctx, hashes);
	pp_free(m->ctx, rep);
	pp_free(m->ctx, locs);
	pp_free(m->ctx, labels);
	return err;
}

/* Unit ua of a and unit ub of b brought to one: the same bytes (*ratio
 * 1) or units of one kind (*ratio what one ua is in ub); false when
 * neither. */
static bool unit_ratio_of(const struct pp_profile *a, pp_str ua,
                          const struct pp_profile *b, pp_str ub, double *ratio)
{
	size_t na, nb;
	const char *ta, *tb;

	*ratio = 1;
	if (pp_transform__same_str(a, ua, b, ub))
		return true;
	ta = pp_profile_strn(a, ua, &na);
	tb = pp_profile_strn(b, ub, &nb);
	return pp_unit_ratio(ta, na, tb, nb, ratio);
}

/* Can unit ua of a and unit ub of b be brought to one? */
static bool scalable(const struct pp_profile *a, pp_str ua,
                     const struct pp_profile *b, pp_str ub)
{
	double r;

	return unit_ratio_of(a, ua, b, ub, &r);
}

/* What one unit u of a is in unit v of b (1 when they cannot be brought
 * to one: compatibilize has refused those). */
static double unit_ratio(const struct pp_profile *a, pp_str u,
                         const struct pp_profile *b, pp_str v)
{
	double r;

	return unit_ratio_of(a, u, b, v, &r) ? r : 1;
}

/* pprof's ScaleN on a row in place; a sample whose scaled values all
 * come to 0 is dropped (all set to 0 here, so that the merge leaves it
 * out), whatever its others hold. */
static void scale_row(int64_t *v, const double *ratios, uint32_t n)
{
	if (!pp_transform__scale_values(v, v, ratios, n))
		memset(v, 0, n * sizeof(*v));
}

/*
 * pprof's ScaleProfiles, a profile at a time, on the types kept (idx: p's
 * index of each of dst's types): each unit becomes the smaller of dst's
 * and p's. Where p's is smaller, dst's values (and period) are scaled to
 * it; where dst's is, p's are: *ratios gets p's ratio per type (NULL when
 * all are 1), and m->src_period p's period in dst's unit.
 */
static int scale_units(struct merger *m, const struct pp_profile *p,
                       const int *idx, double **ratios)
{
	struct pp_profile *dst = m->dst;
	uint32_t nc = dst->nsample_types;
	double *rd = NULL, r;
	bool any_p = false, any_d = false;
	int err = 0;

	*ratios = NULL;
	r = unit_ratio(p, p->period_type.unit, dst, dst->period_type.unit);
	if (r < 1) {
		dst->period = pp_go_int64(unit_ratio(dst, dst->period_type.unit,
		                                     p, p->period_type.unit) *
		                          (double)dst->period);
		dst->period_type.unit =
		        pp_profile_copy_str(dst, p, p->period_type.unit);
		if (dst->period_type.unit == PP_NONE)
			return pp_error(m->ctx, PP_ENOMEM, "out of memory");
		r = 1;
	}
	m->src_period = pp_go_int64(r * (double)p->period);
	*ratios = pp_malloc(m->ctx, ((size_t)nc + 1) * sizeof(**ratios));
	rd = pp_malloc(m->ctx, ((size_t)nc + 1) * sizeof(*rd));
	if (!*ratios || !rd) {
		err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t k = 0; k < nc; k++) {
		pp_str du = dst->sample_types[k].unit;
		pp_str pu = p->sample_types[idx[k]].unit;

		(*ratios)[k] = unit_ratio(p, pu, dst, du);
		rd[k] = 1;
		if ((*ratios)[k] < 1) {
			rd[k] = unit_ratio(dst, du, p, pu);
			(*ratios)[k] = 1;
			dst->sample_types[k].unit =
			        pp_profile_copy_str(dst, p, pu);
			if (dst->sample_types[k].unit == PP_NONE) {
				err = pp_error(m->ctx, PP_ENOMEM,
				               "out of memory");
				goto done;
			}
		}
		any_p = any_p || (*ratios)[k] != 1;
		any_d = any_d || rd[k] != 1;
	}
	/* The samples merged so far, as pprof would have scaled each
	 * profile they came from. */
	for (uint32_t s = 0; any_d && s < dst->nsamples; s++)
		scale_row(dst->values + (size_t)s * nc, rd, nc);
done:
	pp_free(m->ctx, rd);
	if (err < 0 || !any_p) {
		pp_free(m->ctx, *ratios);
		*ratios = NULL;
	}
	return err;
}

/*
 * pprof's CompatibilizeSampleTypes, a profile at a time: the merged profile
 * keeps the sample types every profile has (by name, in the first one's
 * order), so m->dst drops those p lacks, and m->src_values is p's values
 * in the types kept. A type p has with another unit, and no type in
 * common, are errors.
 */
static int compatibilize(struct merger *m, const struct pp_profile *p,
                         const char *name)
{
	struct pp_profile *dst = m->dst;
	uint32_t nt = dst->nsample_types, nc = 0;
	bool same = p->nsample_types == nt;
	const char *why = NULL;
	int *idx = pp_malloc(m->ctx, ((size_t)nt + 1) * sizeof(*idx));
	double *ratios = NULL;
	int err = 0;

	if (!idx)
		return pp_error(m->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < nt; i++) {
		idx[i] = pp_transform__find_type(dst, i, p);
		if (idx[i] < 0)
			continue;
		same = same && idx[i] == (int)i;
		nc++;
	}
	/* In pprof's order: the types in common, then the period types and
	 * the units of the types kept, which its ScaleProfiles brings to
	 * the smaller unit of each (1 us is 1000 ns) where they are units
	 * of one kind. */
	if (nc == 0)
		why = "profiles have empty common sample type list";
	else if (!pp_transform__same_str(dst, dst->period_type.type, p,
	                                 p->period_type.type) ||
	         !scalable(dst, dst->period_type.unit, p, p->period_type.unit))
		why = "cannot merge profiles with different period types";
	for (uint32_t i = 0; !why && i < nt; i++)
		if (idx[i] >= 0 && !scalable(dst, dst->sample_types[i].unit, p,
		                             p->sample_types[idx[i]].unit))
			why = "cannot merge profiles with different sample "
			      "types";
	if (why) {
		err = pp_error(m->ctx, PP_EUSAGE, "%s: %s",
		               name ? name : "profile", why);
		goto done;
	}
	if (nc < nt) {
		/* In place: each value moves to a lower index or stays. */
		size_t w = 0;

		for (uint32_t s = 0; s < dst->nsamples; s++)
			for (uint32_t i = 0; i < nt; i++)
				if (idx[i] >= 0)
					dst->values[w++] =
					        dst->values[(size_t)s * nt + i];
		for (uint32_t i = 0, k = 0; i < nt; i++)
			if (idx[i] >= 0) {
				dst->sample_types[k] = dst->sample_types[i];
				idx[k++] = idx[i];
			}
		dst->nsample_types = nc;
	}
	if ((err = scale_units(m, p, idx, &ratios)) < 0)
		goto done;
	m->src_values = p->values;
	if (!same || ratios) {
		m->projected = pp_malloc(m->ctx, ((size_t)p->nsamples * nc +
		                                  1) * sizeof(*m->projected));
		if (!m->projected) {
			err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		for (uint32_t s = 0; s < p->nsamples; s++) {
			int64_t *row = m->projected + (size_t)s * nc;

			for (uint32_t k = 0; k < nc; k++)
				row[k] = pp_profile_sample_values(p, s)[idx[k]];
			if (ratios)
				scale_row(row, ratios, nc);
		}
		m->src_values = m->projected;
	}
done:
	pp_free(m->ctx, idx);
	pp_free(m->ctx, ratios);
	return err;
}

/* String s of src interned in dst, whole (it may hold NUL bytes). */
/* Merge m->src into m->dst; alone: it is the only profile merged. */
static int merge_one(struct merger *m, bool alone)
{
	const struct pp_profile *src = m->src;
	uint32_t nstr = pp_strtab_count(src->strings);
	bool direct = false;
	int err = 0;

	m->strmap = pp_malloc(m->ctx, (size_t)nstr * sizeof(*m->strmap));
	m->mapmap = pp_malloc(m->ctx, ((size_t)src->nmappings + 1) * 4);
	m->funcmap = pp_malloc(m->ctx, ((size_t)src->nfunctions + 1) * 4);
	m->locmap = pp_malloc(m->ctx, ((size_t)src->nlocations + 1) * 4);
	if (!m->strmap || !m->mapmap || !m->funcmap || !m->locmap) {
		err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = 0; i < nstr; i++) {
		m->strmap[i] = pp_strtab_intern(m->dst->strings,
		                                pp_strtab_get(src->strings, i),
		                                pp_strtab_len(src->strings, i));
		if (m->strmap[i] == PP_NONE) {
			err = pp_error(m->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
	}
	memset(m->mapmap, 0xff, ((size_t)src->nmappings + 1) * 4);
	memset(m->funcmap, 0xff, ((size_t)src->nfunctions + 1) * 4);
	memset(m->locmap, 0xff, ((size_t)src->nlocations + 1) * 4);
	/* The first mapping is the main binary's: keep it first. */
	if (m->dst->nmappings == 0 && src->nmappings > 0) {
		uint32_t ignored;

		if ((err = map_mapping(m, 0, &ignored)) < 0)
			goto done;
	}
	if (alone && (err = locations_distinct(m, &direct)) < 0)
		goto done;
	err = direct ? map_samples_direct(m) : map_samples(m);
done:
	pp_free(m->ctx, m->strmap);
	pp_free(m->ctx, m->mapmap);
	pp_free(m->ctx, m->funcmap);
	pp_free(m->ctx, m->locmap);
	m->strmap = NULL;
	m->mapmap = m->funcmap = m->locmap = NULL;
	return err;
}

struct pp_merger {
	struct merger m;
	bool alone; /* the one profile merged (pp_profile_merge of one) */
};

#define STR(p, s) pp_profile_copy_str(dst, (p), (s))

int pp_merger_new(struct pp_ctx *ctx, const struct pp_profile *first,
                  struct pp_merger **out)
{
	struct pp_merger *mg = pp_calloc(ctx, 1, sizeof(*mg));
	struct merger *m;
	struct pp_profile *dst;
	int err = 0;

	*out = NULL;
	if (!mg)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	m = &mg->m;
	m->ctx = ctx;
	dst = m->dst = pp_profile_new(ctx);
	if (!dst) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = table_init(ctx, &m->maps, 64)) < 0 ||
	    (err = table_init(ctx, &m->funcs, first->nfunctions)) < 0 ||
	    (err = table_init(ctx, &m->locs, first->nlocations)) < 0 ||
	    (err = table_init(ctx, &m->samples, first->nsamples)) < 0)
		goto done;
	for (uint32_t i = 0; i < first->nsample_types; i++)
		if ((err = pp_profile_add_sample_type(
		             dst, STR(first, first->sample_types[i].type),
		             STR(first, first->sample_types[i].unit))) < 0)
			goto done;
	dst->period_type.type = STR(first, first->period_type.type);
	dst->period_type.unit = STR(first, first->period_type.unit);
	dst->has_period_type = first->has_period_type;
	dst->drop_frames = STR(first, first->drop_frames);
	dst->keep_frames = STR(first, first->keep_frames);
	dst->doc_url = STR(first, first->doc_url);
done:
	if (err < 0) {
		pp_merger_free(mg);
		return err;
	}
	*out = mg;
	return 0;
}

/* Remember p's default and sample types for merged_default. */
static int note_source(struct merger *m, const struct pp_profile *p)
{
	struct source_types *st;
	int err;

	if ((err = pp_grow(m->ctx, (void **)&m->sources, &m->cap_sources,
	                   m->nsources + 1, sizeof(*m->sources))) < 0 ||
	    (err = pp_grow(m->ctx, (void **)&m->types, &m->cap_types,
	                   m->ntypes + p->nsample_types, sizeof(*m->types))) <
	            0)
		return err;
	st = &m->sources[m->nsources++];
	st->dflt = pp_profile_copy_str(m->dst, p, p->default_sample_type);
	st->first = m->ntypes;
	st->n = p->nsample_types;
	for (uint32_t j = 0; j < p->nsample_types; j++)
		m->types[m->ntypes++] =
		        pp_profile_copy_str(m->dst, p, p->sample_types[j].type);
	if (st->dflt == PP_NONE)
		return pp_error(m->ctx, PP_ENOMEM, "out of memory");
	for (size_t j = st->first; j < m->ntypes; j++)
		if (m->types[j] == PP_NONE)
			return pp_error(m->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

int pp_merger_add(struct pp_merger *mg, const struct pp_profile *p,
                  const char *name)
{
	struct merger *m = &mg->m;
	struct pp_profile *dst = m->dst;
	int err;

	if ((err = compatibilize(m, p, name)) < 0 ||
	    (err = note_source(m, p)) < 0)
		goto done;
	if (dst->time_nanos == 0 || p->time_nanos < dst->time_nanos)
		dst->time_nanos = p->time_nanos;
	dst->duration_nanos += p->duration_nanos;
	if (dst->period == 0 || dst->period < m->src_period)
		dst->period = m->src_period;
	for (uint32_t c = 0; c < p->ncomments; c++) {
		pp_str s = STR(p, p->comments[c]);
		bool seen = false;

		for (uint32_t k = 0; k < dst->ncomments; k++)
			seen = seen || dst->comments[k] == s;
		if (!seen && (err = pp_profile_add_comment(dst, s)) < 0)
			goto done;
	}
#undef STR
	m->src = p;
	err = merge_one(m, mg->alone);
	m->src = NULL;
done:
	pp_free(m->ctx, m->projected);
	m->projected = NULL;
	return err;
}

/*
 * The merged default sample type, as pprof's: each profile whose sample
 * types were not exactly the ones kept (compatibilizeSampleTypes changed
 * it) gets its default if kept, else the first type kept; the first
 * profile's non-empty default is the merged profile's.
 */
static void merged_default(struct merger *m)
{
	struct pp_profile *dst = m->dst;

	dst->default_sample_type = 0;
	for (size_t i = 0; i < m->nsources && !dst->default_sample_type; i++) {
		const struct source_types *st = &m->sources[i];
		pp_str d = st->dflt;
		bool exact = st->n == dst->nsample_types, kept = false;

		for (uint32_t k = 0; k < dst->nsample_types; k++) {
			exact = exact && m->types[st->first + k] ==
			                         dst->sample_types[k].type;
			kept = kept || dst->sample_types[k].type == d;
		}
		if (!exact && !kept)
			d = dst->sample_types[0].type;
		dst->default_sample_type = d;
	}
}

int pp_merger_finish(struct pp_merger *mg, struct pp_profile **out)
{
	struct pp_profile *dst = mg->m.dst;

	*out = NULL;
	merged_default(&mg->m);
	mg->m.dst = NULL;
	/* Values that cancel out (a base subtracted), or sample types
	 * dropped, leave zero samples: merge once more to drop them and what
	 * only they used. */
	for (uint32_t s = 0; s < dst->nsamples; s++) {
		int err;

		if (!is_zero(pp_profile_sample_values(dst, s),
		             dst->nsample_types))
			continue;
		err = pp_profile_merge(mg->m.ctx, &dst, NULL, 1, out);
		pp_profile_free(dst);
		return err;
	}
	*out = dst;
	return 0;
}

void pp_merger_free(struct pp_merger *mg)
{
	struct pp_ctx *ctx;

	if (!mg)
		return;
	ctx = mg->m.ctx;
	table_release(ctx, &mg->m.maps);
	table_release(ctx, &mg->m.funcs);
	table_release(ctx, &mg->m.locs);
	table_release(ctx, &mg->m.samples);
	pp_free(ctx, mg->m.lines);
	pp_free(ctx, mg->m.projected);
	pp_free(ctx, mg->m.sources);
	pp_free(ctx, mg->m.types);
	pp_profile_free(mg->m.dst);
	pp_free(ctx, mg);
}

/* A sample type that all profiles have, and the same period type (checked
 * in that order, as pprof). */
static int mergeable(struct pp_ctx *ctx, struct pp_profile *const *profiles,
                     const char *const *names, size_t n)
{
	const struct pp_profile *first = profiles[0];
	bool common = false;

	for (uint32_t t = 0; t < first->nsample_types && !common; t++) {
		common = true;
		for (size_t i = 1; i < n && common; i++)
			common = pp_transform__find_type(first, t,
			                                 profiles[i]) >= 0;
	}
	if (n > 1 && !common)
		return pp_error(
		        ctx, PP_EUSAGE,
		        "%s: profiles have empty common sample type list",
		        names && names[n - 1] ? names[n - 1] : "profile");
	for (size_t i = 1; i < n; i++)
		if (!pp_transform__same_str(first, first->period_type.type,
		                            profiles[i],
		                            profiles[i]->period_type.type) ||
		    !scalable(first, first->period_type.unit, profiles[i],
		              profiles[i]->period_type.unit))
			return pp_error(ctx, PP_EUSAGE,
			                "%s: cannot merge profiles with "
			                "different period types",
			                names && names[i] ? names[i]
			                                  : "profile");
	return 0;
}

int pp_profile_merge(struct pp_ctx *ctx, struct pp_profile *const *profiles,
                     const char *const *names, size_t n,
                     struct pp_profile **out)
{
	struct pp_merger *mg = NULL;
	int err;

	*out = NULL;
	/* Every input checked before any is merged (pp_merger_add checks
	 * the units of the types kept). */
	if ((err = mergeable(ctx, profiles, names, n)) < 0)
		return err;
	if ((err = pp_merger_new(ctx, profiles[0], &mg)) < 0)
		return err;
	mg->alone = n == 1;
	{
		/* At most every input sample: growing by doubling would copy
		 * the big arrays of a big profile several times over. */
		size_t ns = 0, nf = 0, nl = 0;

		for (size_t i = 0; i < n; i++) {
			ns += profiles[i]->nsamples;
			nf += profiles[i]->nsample_locs;
			nl += profiles[i]->nlabels;
		}
		err = pp_profile_reserve(mg->m.dst, ns, nf, nl);
	}
	for (size_t i = 0; err >= 0 && i < n; i++)
		err = pp_merger_add(mg, profiles[i], names ? names[i] : NULL);
	if (err >= 0)
		err = pp_merger_finish(mg, out);
	pp_merger_free(mg);
	return err;
}
