/* The profile model: lifetime, builders and sample-type lookup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/profile.h"
#include "profile/internal.h"
#include "util/pages.h"

/* Grow p's array arr (capacity cap of struct pp_profile__full) to hold
 * need items. */
#define GROW(p, arr, cap, need)                                                \
	pp_grow((p)->ctx, (void **)&(p)->arr, &pp_profile__in(p)->cap, (need), \
	        sizeof(*(p)->arr))

/* Room in p's sample_locs for need indices of its width. */
static int grow_locs(struct pp_profile *p, size_t need)
{
	return pp_grow(p->ctx, &p->sample_locs,
	               &pp_profile__in(p)->cap_sample_locs, need, p->loc_bytes);
}

int pp_profile__widen_locs(struct pp_profile *p)
{
	size_t cap = pp_profile__in(p)->cap_sample_locs;
	unsigned char *at;

	if (p->loc_bytes == 4)
		return 0;
	at = pp_realloc(p->ctx, p->sample_locs, (cap ? cap : 1) * 4);
	if (!at)
		return pp_error(p->ctx, PP_ENOMEM, "out of memory");
	/* In place, last first: each wide index lands at or past its narrow
	 * one. Byte copies, since the same bytes are read as one type and
	 * written as the other. */
	for (size_t i = p->nsample_locs; i-- > 0;) {
		uint16_t narrow;
		uint32_t wide;

		memcpy(&narrow, at + 2 * i, 2);
		wide = narrow;
		memcpy(at + 4 * i, &wide, 4);
	}
	p->sample_locs = at;
	p->loc_bytes = 4;
	return 0;
}

void pp_profile_narrow_locs(struct pp_profile *p)
{
	size_t *cap = &pp_profile__in(p)->cap_sample_locs;
	unsigned char *at = p->sample_locs;

	if (p->loc_bytes == 2 || p->nlocations > 65536)
		return;
	/* In place, first first: each narrow index lands at or before its
	 * wide one. */
	for (size_t i = 0; i < p->nsample_locs; i++) {
		uint32_t wide;
		uint16_t narrow;

		memcpy(&wide, at + 4 * i, 4);
		narrow = (uint16_t)wide;
		memcpy(at + 2 * i, &narrow, 2);
	}
	p->loc_bytes = 2;
	/* The same bytes hold twice as many; the half no longer used goes
	 * back to the system (a hint that cannot fail, where a realloc
	 * could). */
	pp_pages_release(at + 2 * p->nsample_locs,
	                 *cap * 4 - 2 * p->nsample_locs);
	*cap *= 2;
}

void pp_sample_stack(const struct pp_profile *p, const struct pp_sample *s,
                     uint32_t *out)
{
	if (p->loc_bytes == 4) {
		if (s->loc_count)
			memcpy(out,
			       (const uint32_t *)p->sample_locs + s->loc_first,
			       (size_t)s->loc_count * sizeof(*out));
		return;
	}
	for (uint32_t k = 0; k < s->loc_count; k++)
		out[k] = ((const uint16_t *)p->sample_locs)[s->loc_first + k];
}

bool pp_sample_stack_is(const struct pp_profile *p, const struct pp_sample *s,
                        const uint32_t *locs, size_t n)
{
	if (s->loc_count != n)
		return false;
	for (uint32_t k = 0; k < s->loc_count; k++)
		if (pp_sample_loc(p, s, k) != locs[k])
			return false;
	return true;
}

struct pp_profile *pp_profile_new(struct pp_ctx *ctx)
{
	struct pp_profile__full *full = pp_calloc(ctx, 1, sizeof(*full));
	struct pp_profile *p;

	if (!full)
		return NULL;
	p = &full->pub;
	p->ctx = ctx;
	p->loc_bytes = 2;
	p->strings = pp_strtab_new(ctx);
	/* Every array starts allocated, so `array + index` is defined even
	 * for an empty profile (pointer arithmetic on NULL is not). */
	if (!p->strings || GROW(p, sample_types, cap_sample_types, 1) < 0 ||
	    GROW(p, samples, cap_samples, 1) < 0 || grow_locs(p, 1) < 0 ||
	    GROW(p, values, cap_values, 1) < 0 ||
	    GROW(p, labels, cap_labels, 1) < 0 ||
	    GROW(p, locations, cap_locations, 1) < 0 ||
	    GROW(p, lines, cap_lines, 1) < 0 ||
	    GROW(p, functions, cap_functions, 1) < 0 ||
	    GROW(p, mappings, cap_mappings, 1) < 0 ||
	    GROW(p, comments, cap_comments, 1) < 0) {
		pp_profile_free(p);
		return NULL;
	}
	return p;
}

void pp_profile_free(struct pp_profile *p)
{
	struct pp_ctx *ctx;

	if (!p)
		return;
	ctx = p->ctx;
	pp_strtab_free(p->strings);
	pp_free(ctx, p->sample_types);
	pp_free(ctx, p->samples);
	pp_free(ctx, p->sample_locs);
	pp_free(ctx, p->values);
	pp_free(ctx, p->labels);
	pp_free(ctx, p->sample_labels);
	pp_free(ctx, p->locations);
	pp_free(ctx, p->lines);
	pp_free(ctx, p->functions);
	pp_free(ctx, p->mappings);
	pp_free(ctx, p->comments);
	pp_free(ctx, pp_profile__in(p));
}

int pp_profile__note_labels(struct pp_ctx *ctx, struct pp_label_range **ranges,
                            size_t *cap, size_t i, size_t first, size_t count)
{
	bool first_labelled = !*ranges;
	int err;

	if (first_labelled && count == 0)
		return 0;
	if ((err = pp_grow(ctx, (void **)ranges, cap, i + 1,
	                   sizeof(**ranges))) < 0)
		return err;
	if (first_labelled)
		memset(*ranges, 0, i * sizeof(**ranges));
	(*ranges)[i].first = (uint32_t)first;
	(*ranges)[i].count = (uint32_t)count;
	return 0;
}

static int too_many(struct pp_profile *p, const char *what)
{
	return pp_error(p->ctx, PP_ELIMIT, "too many %s", what);
}

int pp_profile_add_sample_type(struct pp_profile *p, pp_str type, pp_str unit)
{
	int err;

	if (p->nsamples > 0)
		return pp_error(p->ctx, PP_EUSAGE,
		                "sample types must precede samples");
	if (p->nsample_types >= 1024)
		return too_many(p, "sample types");
	if ((err = GROW(p, sample_types, cap_sample_types,
	                (size_t)p->nsample_types + 1)) < 0)
		return err;
	p->sample_types[p->nsample_types].type = type;
	p->sample_types[p->nsample_types].unit = unit;
	p->nsample_types++;
	return 0;
}

int pp_profile_add_mapping(struct pp_profile *p, const struct pp_mapping *m,
                           uint32_t *out)
{
	int err;

	if (p->nmappings >= PP_NONE - 1)
		return too_many(p, "mappings");
	if ((err = GROW(p, mappings, cap_mappings, (size_t)p->nmappings + 1)) <
	    0)
		return err;
	p->mappings[p->nmappings] = *m;
	if (out)
		*out = p->nmappings;
	p->nmappings++;
	return 0;
}

int pp_profile_add_function(struct pp_profile *p, const struct pp_function *f,
                            uint32_t *out)
{
	int err;

	if (p->nfunctions >= PP_NONE - 1)
		return too_many(p, "functions");
	if ((err = GROW(p, functions, cap_functions,
	                (size_t)p->nfunctions + 1)) < 0)
		return err;
	p->functions[p->nfunctions] = *f;
	if (out)
		*out = p->nfunctions;
	p->nfunctions++;
	return 0;
}

int pp_profile_add_location(struct pp_profile *p, const struct pp_location *l,
                            const struct pp_line *lines, size_t nlines,
                            uint32_t *out)
{
	struct pp_location *dst;
	int err;

	if (p->nlocations >= PP_NONE - 1)
		return too_many(p, "locations");
	if (nlines > UINT32_MAX || p->nlines > UINT32_MAX - nlines)
		return too_many(p, "lines");
	if ((err = GROW(p, locations, cap_locations,
	                (size_t)p->nlocations + 1)) < 0 ||
	    (err = GROW(p, lines, cap_lines, p->nlines + nlines)) < 0)
		return err;
	if (nlines)
		memcpy(p->lines + p->nlines, lines, nlines * sizeof(*lines));
	dst = &p->locations[p->nlocations];
	*dst = *l;
	dst->line_first = (uint32_t)p->nlines;
	dst->line_count = (uint32_t)nlines;
	p->nlines += nlines;
	if (out)
		*out = p->nlocations;
	p->nlocations++;
	return 0;
}

int pp_profile_reserve(struct pp_profile *p, size_t nsamples, size_t nframes,
                       size_t nlabels)
{
	size_t ns = (size_t)p->nsamples + nsamples;
	int err;

	if (nsamples >= UINT32_MAX - p->nsamples)
		return too_many(p, "samples");
	if (nframes > UINT32_MAX || p->nsample_locs > UINT32_MAX - nframes)
		return too_many(p, "stack frames");
	if (nlabels > UINT32_MAX || p->nlabels > UINT32_MAX - nlabels)
		return too_many(p, "labels");
	if ((err = GROW(p, samples, cap_samples, ns)) < 0 ||
	    (err = grow_locs(p, p->nsample_locs + nframes)) < 0 ||
	    (err = GROW(p, values, cap_values, ns * p->nsample_types)) < 0 ||
	    (err = GROW(p, labels, cap_labels, p->nlabels + nlabels)) < 0)
		return err;
	return 0;
}

int pp_profile_reserve_lines(struct pp_profile *p, size_t nlines)
{
	if (nlines > UINT32_MAX || p->nlines > UINT32_MAX - nlines)
		return too_many(p, "lines");
	return GROW(p, lines, cap_lines, p->nlines + nlines);
}

void pp_profile_set_sample_locs(struct pp_profile *p, uint32_t *locs, size_t n)
{
	pp_free(p->ctx, p->sample_locs);
	p->sample_locs = locs;
	p->nsample_locs = n;
	p->loc_bytes = 4;
	/* At least n: growing past it reallocates, which is all a
	 * capacity is for. */
	pp_profile__in(p)->cap_sample_locs = n;
	pp_profile_narrow_locs(p);
}

int pp_profile_add_sample(struct pp_profile *p, const uint32_t *locs,
                          size_t nlocs, const int64_t *values,
                          const struct pp_label *labels, size_t nlabels)
{
	struct pp_sample *s;
	size_t nvals = p->nsample_types;
	int err;

	if (p->nsamples >= UINT32_MAX - 1)
		return too_many(p, "samples");
	if (nlocs > UINT32_MAX || p->nsample_locs > UINT32_MAX - nlocs)
		return too_many(p, "stack frames");
	if (nlabels > UINT32_MAX || p->nlabels > UINT32_MAX - nlabels)
		return too_many(p, "labels");
	if (p->loc_bytes == 2) {
		for (size_t k = 0; k < nlocs; k++)
			if (locs[k] > UINT16_MAX) {
				if ((err = pp_profile__widen_locs(p)) < 0)
					return err;
				break;
			}
	}
	if ((err = GROW(p, samples, cap_samples, (size_t)p->nsamples + 1)) <
	            0 ||
	    (err = grow_locs(p, p->nsample_locs + nlocs)) < 0 ||
	    (err = GROW(p, values, cap_values,
	                ((size_t)p->nsamples + 1) * nvals)) < 0 ||
	    (err = GROW(p, labels, cap_labels, p->nlabels + nlabels)) < 0)
		return err;
	s = &p->samples[p->nsamples];
	s->loc_first = (uint32_t)p->nsample_locs;
	s->loc_count = (uint32_t)nlocs;
	if ((err = pp_profile__note_labels(
	             p->ctx, &p->sample_labels,
	             &pp_profile__in(p)->cap_sample_labels, p->nsamples,
	             p->nlabels, nlabels)) < 0)
		return err;
	if (nlocs && p->loc_bytes == 4)
		memcpy((uint32_t *)p->sample_locs + p->nsample_locs, locs,
		       nlocs * sizeof(*locs));
	for (size_t k = 0; p->loc_bytes == 2 && k < nlocs; k++)
		((uint16_t *)p->sample_locs)[p->nsample_locs + k] =
		        (uint16_t)locs[k];
	if (nvals)
		memcpy(p->values + (size_t)p->nsamples * nvals, values,
		       nvals * sizeof(*values));
	if (nlabels)
		memcpy(p->labels + p->nlabels, labels,
		       nlabels * sizeof(*labels));
	p->nsample_locs += nlocs;
	p->nlabels += nlabels;
	p->nsamples++;
	return 0;
}

int pp_profile_add_comment(struct pp_profile *p, pp_str comment)
{
	int err;

	if ((err = GROW(p, comments, cap_comments, (size_t)p->ncomments + 1)) <
	    0)
		return err;
	p->comments[p->ncomments++] = comment;
	return 0;
}

pp_str pp_profile_intern(struct pp_profile *p, const char *s)
{
	return pp_strtab_intern(p->strings, s, strlen(s));
}

uint32_t pp_profile_default_index(const struct pp_profile *p)
{
	if (p->nsample_types == 0)
		return 0;
	if (p->default_sample_type) {
		for (uint32_t i = 0; i < p->nsample_types; i++)
			if (p->sample_types[i].type == p->default_sample_type)
				return i;
	}
	return p->nsample_types - 1;
}

static int unknown_index(const struct pp_profile *p, const char *spec)
{
	char msg[sizeof(p->ctx->message)];
	int head = snprintf(msg, sizeof(msg),
	                    "sample_index \"%s\" must be one of: [", spec);
	size_t used = head < 0 ? 0 : (size_t)head;

	/* The names whole, NUL bytes and all, as pprof prints them (the
	 * command line escapes them on a terminal). */
	for (uint32_t i = 0; i < p->nsample_types && used < sizeof(msg); i++) {
		size_t tl;
		const char *t =
		        pp_profile_strn(p, p->sample_types[i].type, &tl);

		if (i)
			msg[used++] = ' ';
		if (tl > sizeof(msg) - used)
			tl = sizeof(msg) - used;
		memcpy(msg + used, t, tl);
		used += tl;
	}
	if (used < sizeof(msg))
		msg[used++] = ']';
	return pp_error_bytes(p->ctx, PP_EUSAGE, msg,
	                      used < sizeof(msg) ? used : sizeof(msg));
}

int pp_profile_sample_index(const struct pp_profile *p, const char *spec,
                            uint32_t *out)
{
	const char *noinuse;
	char *end;
	long v;

	if (p->nsample_types == 0)
		return pp_error(p->ctx, PP_EFORMAT, "profile has no samples");
	if (!spec || !*spec) {
		*out = pp_profile_default_index(p);
		return 0;
	}
	v = strtol(spec, &end, 10);
	if (*end == '\0' && end != spec) {
		if (v < 0 || v >= (long)p->nsample_types)
			return pp_error(
			        p->ctx, PP_EUSAGE,
			        "sample_index %s is outside the range [0..%u]",
			        spec, p->nsample_types - 1);
		*out = (uint32_t)v;
		return 0;
	}
	/* Legacy spellings: "inuse_space" matches a type named "space". */
	noinuse = strncmp(spec, "inuse_", 6) == 0 ? spec + 6 : spec;
	for (uint32_t i = 0; i < p->nsample_types; i++) {
		size_t tl;
		const char *t =
		        pp_profile_strn(p, p->sample_types[i].type, &tl);

		/* Whole names: "samp" is not "samp\0les". */
		if ((tl == strlen(spec) && memcmp(t, spec, tl) == 0) ||
		    (tl == strlen(noinuse) && memcmp(t, noinuse, tl) == 0)) {
			*out = i;
			return 0;
		}
	}
	return unknown_index(p, spec);
}

int pp_profile_locate(struct pp_profile *p, const char *exec_name)
{
	int err;

	if (p->nmappings == 0) {
		struct pp_mapping m;

		memset(&m, 0, sizeof(m));
		m.id = 1;
		if ((err = pp_profile_add_mapping(p, &m, NULL)) < 0)
			return err;
		for (uint32_t l = 0; l < p->nlocations; l++)
			p->locations[l].mapping = 0;
	}
	if (exec_name) {
		pp_str file = pp_profile_intern(p, exec_name);

		if (file == PP_NONE)
			return pp_error(p->ctx, PP_ENOMEM, "out of memory");
		p->mappings[0].file = file;
	}
	return 0;
}

struct pp_base_mark pp_profile_base_mark(const struct pp_profile *p)
{
	static const char key[] = "pprof::base", value[] = "true";
	struct pp_base_mark m = {
	        pp_strtab_find(p->strings, key, sizeof(key) - 1),
	        pp_strtab_find(p->strings, value, sizeof(value) - 1),
	};

	return m;
}

bool pp_profile_is_base_sample(const struct pp_profile *p, uint32_t i)
{
	return pp_sample_is_base(p, i, pp_profile_base_mark(p));
}
