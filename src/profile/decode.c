/*
 * The profile.proto reader.
 *
 * A big profile is mostly Sample messages, so the whole message tree is never
 * unpacked: the top-level fields are walked by hand, each small sub-message
 * (ValueType, Mapping, Function, Location) is unpacked with protobuf-c into a
 * scratch arena that is reset per message, and Sample -- millions of them,
 * the hot path -- is parsed directly into the flat model.
 *
 * Walks over the top level, in order, because references point forward and
 * backward freely in the file:
 *   1. count fields, find the largest ids, collect the string table;
 *   2. sample types, scalars, mappings, functions;
 *   3. locations (they refer to mappings and functions);
 *   4. samples (they refer to locations).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pprof/decode.h"
#include "profile.pb-c.h"
#include "profile/folded.h"
#include "profile/godump.h"
#include "profile/idmap.h"
#include "profile/internal.h"
#include "profile/legacy.h"
#include "profile/perfscript.h"
#include "profile/textscan.h"
#include "profile/wire.h"
#include "util/helper.h"
#include "util/pages.h"
#include "util/scratch.h"

enum {
	F_SAMPLE_TYPE = 1,
	F_SAMPLE = 2,
	F_MAPPING = 3,
	F_LOCATION = 4,
	F_FUNCTION = 5,
	F_STRING_TABLE = 6,
	F_DROP_FRAMES = 7,
	F_KEEP_FRAMES = 8,
	F_TIME_NANOS = 9,
	F_DURATION_NANOS = 10,
	F_PERIOD_TYPE = 11,
	F_PERIOD = 12,
	F_COMMENT = 13,
	F_DEFAULT_SAMPLE_TYPE = 14,
	F_DOC_URL = 15,
};

struct decoder {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_wire top;
	struct pp_profile *p;
	struct pp_scratch scratch;

	pp_str *strmap; /* file string index -> interned */
	uint64_t nstrings;
	uint64_t count[16];
	uint64_t max_id[16];
	struct pp_idmap mappings, functions, locations;

	/* Where the samples are. Producers write them as one run of fields;
	 * when they do, the other walks jump over the run, and a big run is
	 * decoded by two threads, split at a recorded sample boundary. */
	const uint8_t *samples_begin, *samples_end;
	bool samples_contiguous;
	const uint8_t **marks; /* start of every MARK_EVERY-th sample */
	size_t nmarks, cap_marks;
	/* The input is ours to discard as the samples are read. */
	bool release_input;
	/* "decoding NAME", for progress reports, and the bytes of all the
	 * samples per byte of this thread's run (2 when split in halves). */
	char what[320];
	double progress_scale;
};

/* How far the sample walk reads before returning consumed input pages. */
#define RELEASE_EVERY (4u << 20)

#define MARK_EVERY 16384

/* Where decoded samples go: the profile's own arrays, or, for the second
 * half of a split run, arrays of their own appended afterwards. */
struct sample_sink {
	struct pp_sample *samples;
	size_t nsamples, cap_samples;
	uint32_t *locs;
	size_t nlocs, cap_locs;
	int64_t *values;
	size_t cap_values;
	struct pp_label *labels;
	size_t nlabels, cap_labels;
	/* Per sample, its labels; NULL until a sample has some
	 * (pp_profile__note_labels). */
	struct pp_label_range *label_ranges;
	size_t cap_label_ranges;
	int64_t *vals; /* the values of the sample being read */
	size_t cap_vals;
};

static int bad(struct decoder *d, const char *what)
{
	return pp_error(d->ctx, PP_EFORMAT, "%s: malformed profile: %s",
	                d->name, what);
}

static int badf(struct decoder *d, const char *what, unsigned long long v)
{
	char buf[256];

	snprintf(buf, sizeof(buf), what, v);
	return bad(d, buf);
}

static int str_of(struct decoder *d, int64_t index, pp_str *out)
{
	if (index < 0 || (uint64_t)index >= d->nstrings) {
		char buf[96];

		snprintf(buf, sizeof(buf), "string index %lld out of range",
		         (long long)index);
		return bad(d, buf);
	}
	*out = d->strmap[index];
	return 0;
}

static int id_of_sub(const uint8_t *data, size_t len, uint64_t *id)
{
	/* The id is field 1 of Mapping, Function and Location. */
	struct pp_wire w = {data, data + len};
	struct pp_field f = {0};
	int r;

	*id = 0;
	while ((r = pp_wire_next(&w, &f)) > 0)
		if (f.number == 1 && f.type == PP_WT_VARINT)
			*id = f.varint;
	return r;
}

/*
 * The stretches of the message that hold everything but the samples: with
 * a contiguous run of samples, the parts before and after it (part 0 and
 * 1); otherwise the whole message once (part 0), samples and all. Returns
 * false for a part that does not exist.
 */
static bool other_fields(const struct decoder *d, int part, struct pp_wire *w)
{
	if (!d->samples_begin || !d->samples_contiguous) {
		*w = d->top;
		return part == 0;
	}
	w->p = part == 0 ? d->top.p : d->samples_end;
	w->end = part == 0 ? d->samples_begin : d->top.end;
	return true;
}

/* Walk 1: counts, largest ids, sample run, and the string table. */
static int walk_strings(struct decoder *d)
{
	struct pp_wire w = d->top;
	struct pp_field f = {0};
	uint64_t si = 0;
	int r;

	const uint8_t *start = w.p, *last_other = NULL;

	d->samples_contiguous = true;
	while ((r = pp_wire_next(&w, &f)) > 0) {
		uint64_t id;

		if (f.number == F_SAMPLE) {
			if (!d->samples_begin)
				d->samples_begin = start;
			else if (last_other && last_other > d->samples_begin)
				d->samples_contiguous = false;
			d->samples_end = w.p;
			if (d->count[F_SAMPLE] % MARK_EVERY == 0) {
				if (pp_grow(d->ctx, (void **)&d->marks,
				            &d->cap_marks, d->nmarks + 1,
				            sizeof(*d->marks)) < 0)
					return PP_ENOMEM;
				d->marks[d->nmarks++] = start;
			}
		} else {
			last_other = start;
		}
		start = w.p;
		if (f.number < 16)
			d->count[f.number]++;
		if (f.number == F_MAPPING || f.number == F_LOCATION ||
		    f.number == F_FUNCTION) {
			if (f.type != PP_WT_LEN ||
			    id_of_sub(f.data, f.len, &id) < 0)
				return bad(d, "bad sub-message");
			if (id > d->max_id[f.number])
				d->max_id[f.number] = id;
		}
	}
	if (r < 0)
		return pp_error(d->ctx, PP_EFORMAT,
		                "%s: unrecognized profile format", d->name);
	d->nstrings = d->count[F_STRING_TABLE];
	if (d->nstrings == 0)
		return bad(d, "empty string table");
	if (d->nstrings >= UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many strings",
		                d->name);
	d->strmap = pp_malloc(d->ctx, d->nstrings * sizeof(*d->strmap));
	if (!d->strmap)
		return pp_error(d->ctx, PP_ENOMEM, "out of memory");
	for (int part = 0; part < 2; part++) {
		if (!other_fields(d, part, &w))
			continue;
		while (pp_wire_next(&w, &f) > 0) {
			pp_str s;

			if (f.number != F_STRING_TABLE)
				continue;
			if (f.type != PP_WT_LEN)
				return bad(
				        d,
				        "string table entry is not a string");
			if (si == 0 && f.len != 0)
				return bad(d, "string table[0] must be \"\"");
			s = pp_strtab_intern(d->p->strings,
			                     (const char *)f.data, f.len);
			if (s == PP_NONE)
				return pp_error(d->ctx, PP_ENOMEM,
				                "out of memory interning "
				                "strings");
			d->strmap[si++] = s;
		}
	}
	return 0;
}

static int value_type(struct decoder *d, const struct pp_field *f,
                      struct pp_value_type *out)
{
	Perftools__Profiles__ValueType *vt;
	int err = 0;

	if (f->type != PP_WT_LEN)
		return bad(d, "bad value type");
	pp_scratch_reset(&d->scratch);
	vt = perftools__profiles__value_type__unpack(&d->scratch.pbc, f->len,
	                                             f->data);
	if (!vt)
		return bad(d, "bad value type");
	if ((err = str_of(d, vt->type, &out->type)) < 0 ||
	    (err = str_of(d, vt->unit, &out->unit)) < 0)
		return err;
	return 0;
}

static int add_mapping(struct decoder *d, const struct pp_field *f)
{
	Perftools__Profiles__Mapping *m;
	struct pp_mapping pm = {0};
	uint32_t index;
	int err;

	pp_scratch_reset(&d->scratch);
	m = perftools__profiles__mapping__unpack(&d->scratch.pbc, f->len,
	                                         f->data);
	if (!m)
		return bad(d, "bad mapping");
	if (m->id == 0)
		return bad(d, "mapping with id 0");
	pm.id = m->id;
	pm.start = m->memory_start;
	pm.limit = m->memory_limit;
	pm.offset = m->file_offset;
	pm.has_functions = m->has_functions;
	pm.has_filenames = m->has_filenames;
	pm.has_line_numbers = m->has_line_numbers;
	pm.has_inline_frames = m->has_inline_frames;
	if ((err = str_of(d, m->filename, &pm.file)) < 0 ||
	    (err = str_of(d, m->build_id, &pm.build_id)) < 0 ||
	    (err = pp_profile_add_mapping(d->p, &pm, &index)) < 0)
		return err;
	if ((err = pp_idmap_put(&d->mappings, m->id, index)) != 0)
		return err < 0 ? err
		               : badf(d, "duplicate mapping id %llu",
		                      (unsigned long long)m->id);
	return 0;
}

static int add_function(struct decoder *d, const struct pp_field *f)
{
	Perftools__Profiles__Function *fn;
	struct pp_function pf = {0};
	uint32_t index;
	int err;

	pp_scratch_reset(&d->scratch);
	fn = perftools__profiles__function__unpack(&d->scratch.pbc, f->len,
	                                           f->data);
	if (!fn)
		return bad(d, "bad function");
	if (fn->id == 0)
		return bad(d, "function with id 0");
	pf.id = fn->id;
	pf.start_line = fn->start_line;
	if ((err = str_of(d, fn->name, &pf.name)) < 0 ||
	    (err = str_of(d, fn->system_name, &pf.system_name)) < 0 ||
	    (err = str_of(d, fn->filename, &pf.filename)) < 0 ||
	    (err = pp_profile_add_function(d->p, &pf, &index)) < 0)
		return err;
	if ((err = pp_idmap_put(&d->functions, fn->id, index)) != 0)
		return err < 0 ? err
		               : badf(d, "duplicate function id %llu",
		                      (unsigned long long)fn->id);
	return 0;
}

static int header_fields(struct decoder *d, struct pp_wire w);

/* Walk 2: everything but locations and samples. */
static int walk_header(struct decoder *d)
{
	for (int part = 0; part < 2; part++) {
		struct pp_wire w;
		int err;

		if (other_fields(d, part, &w) &&
		    (err = header_fields(d, w)) < 0)
			return err;
	}
	return 0;
}

static int header_fields(struct decoder *d, struct pp_wire w)
{
	struct pp_field f = {0};
	struct pp_profile *p = d->p;
	int err = 0;

	while (pp_wire_next(&w, &f) > 0) {
		struct pp_value_type vt;
		pp_str s = 0;

		switch (f.number) {
		case F_SAMPLE_TYPE:
			if ((err = value_type(d, &f, &vt)) < 0 ||
			    (err = pp_profile_add_sample_type(p, vt.type,
			                                      vt.unit)) < 0)
				return err;
			break;
		case F_MAPPING:
			if ((err = add_mapping(d, &f)) < 0)
				return err;
			break;
		case F_FUNCTION:
			if ((err = add_function(d, &f)) < 0)
				return err;
			break;
		case F_PERIOD_TYPE:
			if ((err = value_type(d, &f, &p->period_type)) < 0)
				return err;
			break;
		case F_COMMENT:
			if (f.type == PP_WT_LEN) {
				/* packed */
				struct pp_wire pw = {f.data, f.data + f.len};
				uint64_t v;

				while (pw.p < pw.end) {
					if (!pp_wire_varint(&pw, &v))
						return bad(d, "bad comment");
					if ((err = str_of(d, (int64_t)v, &s)) <
					            0 ||
					    (err = pp_profile_add_comment(
					             p, s)) < 0)
						return err;
				}
				break;
			}
			if ((err = str_of(d, (int64_t)f.varint, &s)) < 0 ||
			    (err = pp_profile_add_comment(p, s)) < 0)
				return err;
			break;
		case F_DROP_FRAMES:
		case F_KEEP_FRAMES:
		case F_DEFAULT_SAMPLE_TYPE:
		case F_DOC_URL:
			if (f.type != PP_WT_VARINT)
				return bad(d, "bad string reference");
			if ((err = str_of(d, (int64_t)f.varint, &s)) < 0)
				return err;
			if (f.number == F_DROP_FRAMES)
				p->drop_frames = s;
			else if (f.number == F_KEEP_FRAMES)
				p->keep_frames = s;
			else if (f.number == F_DEFAULT_SAMPLE_TYPE)
				p->default_sample_type = s;
			else
				p->doc_url = s;
			break;
		case F_TIME_NANOS:
			p->time_nanos = (int64_t)f.varint;
			break;
		case F_DURATION_NANOS:
			p->duration_nanos = (int64_t)f.varint;
			break;
		case F_PERIOD:
			p->period = (int64_t)f.varint;
			break;
		}
	}
	return 0;
}

static int add_location(struct decoder *d, const struct pp_field *f,
                        struct pp_line **lines, size_t *cap_lines)
{
	Perftools__Profiles__Location *l;
	struct pp_location pl = {0};
	uint32_t index;
	int err;

	pp_scratch_reset(&d->scratch);
	l = perftools__profiles__location__unpack(&d->scratch.pbc, f->len,
	                                          f->data);
	if (!l)
		return bad(d, "bad location");
	if (l->id == 0)
		return bad(d, "location with id 0");
	pl.id = l->id;
	pl.address = l->address;
	pl.is_folded = l->is_folded;
	pl.mapping = PP_NONE;
	if (l->mapping_id != 0) {
		pl.mapping = pp_idmap_get(&d->mappings, l->mapping_id);
		if (pl.mapping == PP_NONE)
			return badf(d,
			            "location refers to unknown mapping %llu",
			            (unsigned long long)l->mapping_id);
	}
	if ((err = pp_grow(d->ctx, (void **)lines, cap_lines, l->n_line,
	                   sizeof(**lines))) < 0)
		return err;
	for (size_t i = 0; i < l->n_line; i++) {
		struct pp_line *pl_line = &(*lines)[i];

		pl_line->function = PP_NONE;
		if (l->line[i]->function_id != 0) {
			pl_line->function = pp_idmap_get(
			        &d->functions, l->line[i]->function_id);
			if (pl_line->function == PP_NONE)
				return badf(d,
				            "location refers to unknown "
				            "function %llu",
				            (unsigned long long)l->line[i]
				                    ->function_id);
		}
		pl_line->line = l->line[i]->line;
		pl_line->column = l->line[i]->column;
	}
	if ((err = pp_profile_add_location(d->p, &pl, *lines, l->n_line,
	                                   &index)) < 0)
		return err;
	if ((err = pp_idmap_put(&d->locations, l->id, index)) != 0)
		return err < 0 ? err
		               : badf(d, "duplicate location id %llu",
		                      (unsigned long long)l->id);
	return 0;
}

static int walk_locations(struct decoder *d)
{
	struct pp_wire w;
	struct pp_field f = {0};
	struct pp_line *lines = NULL;
	size_t cap_lines = 0;
	int err = 0;

	for (int part = 0; part < 2 && err >= 0; part++) {
		if (!other_fields(d, part, &w))
			continue;
		while (pp_wire_next(&w, &f) > 0) {
			if (f.number != F_LOCATION)
				continue;
			if ((err = add_location(d, &f, &lines, &cap_lines)) < 0)
				break;
		}
	}
	pp_free(d->ctx, lines);
	return err;
}

/* pprof keeps a label with a string, or a number or unit: one with none
 * of the three (all zero on the wire) is no label at all. */
static inline bool label_kept(int64_t str, int64_t num, int64_t unit)
{
	return str != 0 || num != 0 || unit != 0;
}

/* One label of a sample into out: 1 when it is kept (label_kept), 0 when
 * dropped, or an error. */
static int parse_label(struct decoder *d, const uint8_t *data, size_t len,
                       struct pp_label *out)
{
	struct pp_wire w = {data, data + len};
	struct pp_field f = {0};
	int64_t key = 0, str = 0, unit = 0;
	int r, err;

	out->num = 0;
	while ((r = pp_wire_next(&w, &f)) > 0) {
		if (f.type != PP_WT_VARINT)
			continue;
		switch (f.number) {
		case 1:
			key = (int64_t)f.varint;
			break;
		case 2:
			str = (int64_t)f.varint;
			break;
		case 3:
			out->num = (int64_t)f.varint;
			break;
		case 4:
			unit = (int64_t)f.varint;
			break;
		}
	}
	if (r < 0)
		return bad(d, "bad label");
	if ((err = str_of(d, key, &out->key)) < 0 ||
	    (err = str_of(d, str, &out->str)) < 0 ||
	    (err = str_of(d, unit, &out->num_unit)) < 0)
		return err;
	return label_kept(str, out->num, unit);
}

/* One varint of a packed field; NULL when malformed. The one- to
 * four-byte cases are almost all location ids and values (a CPU sample's
 * nanoseconds, 10 ms and its multiples, take four). */
static inline const uint8_t *packed_varint(const uint8_t *q, const uint8_t *end,
                                           uint64_t *out)
{
	struct pp_wire w;

	if (q < end && q[0] < 0x80) {
		*out = q[0];
		return q + 1;
	}
	if (end - q >= 2 && q[1] < 0x80) {
		*out = (uint64_t)(q[0] & 0x7f) | (uint64_t)q[1] << 7;
		return q + 2;
	}
	if (end - q >= 3 && q[2] < 0x80) {
		*out = (uint64_t)(q[0] & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 |
		       (uint64_t)q[2] << 14;
		return q + 3;
	}
	if (end - q >= 4 && q[3] < 0x80) {
		*out = (uint64_t)(q[0] & 0x7f) | (uint64_t)(q[1] & 0x7f) << 7 |
		       (uint64_t)(q[2] & 0x7f) << 14 | (uint64_t)q[3] << 21;
		return q + 4;
	}
	w.p = q;
	w.end = end;
	return pp_wire_varint(&w, out) ? w.p : NULL;
}

/*
 * Location ids of one sample field, packed or not, mapped to indices and
 * appended straight to the sink. A packed field of len bytes holds at most
 * len ids, so room is made once per field.
 */
static int push_locations(struct decoder *d, struct sample_sink *k,
                          const struct pp_field *f)
{
	const uint8_t *q, *end;
	uint32_t *out;
	size_t n = k->nlocs, most = f->type == PP_WT_LEN ? f->len : 1;
	uint64_t v;
	int err;

	if (f->type != PP_WT_LEN && f->type != PP_WT_VARINT)
		return bad(d, "bad location_id");
	if (n + most > UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many stack frames",
		                d->name);
	if ((err = pp_grow(d->ctx, (void **)&k->locs, &k->cap_locs, n + most,
	                   sizeof(*k->locs))) < 0)
		return err;
	out = k->locs;
	if (f->type == PP_WT_VARINT) {
		out[n] = pp_idmap_get(&d->locations, f->varint);
		if (out[n] == PP_NONE)
			return badf(d, "sample refers to unknown location %llu",
			            (unsigned long long)f->varint);
		k->nlocs = n + 1;
		return 0;
	}
	for (q = f->data, end = f->data + f->len; q < end;) {
		if (!(q = packed_varint(q, end, &v)))
			return bad(d, "bad location_id");
		out[n] = pp_idmap_get(&d->locations, v);
		if (out[n] == PP_NONE)
			return badf(d, "sample refers to unknown location %llu",
			            (unsigned long long)v);
		n++;
	}
	k->nlocs = n;
	return 0;
}

/* Sample values, packed or not, into the sink's per-sample buffer. */
static int push_values(struct decoder *d, struct sample_sink *k,
                       const struct pp_field *f, size_t *n)
{
	const uint8_t *q, *end;
	size_t most = f->type == PP_WT_LEN ? f->len : 1;
	uint64_t v;
	int err;

	if (f->type != PP_WT_LEN && f->type != PP_WT_VARINT)
		return bad(d, "bad sample value");
	if ((err = pp_grow(d->ctx, (void **)&k->vals, &k->cap_vals, *n + most,
	                   sizeof(*k->vals))) < 0)
		return err;
	if (f->type == PP_WT_VARINT) {
		k->vals[(*n)++] = (int64_t)f->varint;
		return 0;
	}
	for (q = f->data, end = f->data + f->len; q < end;) {
		if (!(q = packed_varint(q, end, &v)))
			return bad(d, "bad sample value");
		k->vals[(*n)++] = (int64_t)v;
	}
	return 0;
}

static int add_sample(struct decoder *d, struct sample_sink *k,
                      const struct pp_field *sf)
{
	struct pp_wire w;
	struct pp_field f = {0};
	size_t loc_first = k->nlocs, label_first = k->nlabels;
	size_t nvals = 0, nt = d->p->nsample_types;
	struct pp_sample *smp;
	int r, err;

	/* Only a length-delimited field has data to read. */
	if (sf->type != PP_WT_LEN)
		return bad(d, "bad sample");
	w.p = sf->data;
	w.end = sf->data + sf->len;
	if (k->nsamples >= UINT32_MAX - 1)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many samples",
		                d->name);
	while ((r = pp_wire_next(&w, &f)) > 0) {
		switch (f.number) {
		case 1:
			if ((err = push_locations(d, k, &f)) < 0)
				return err;
			break;
		case 2:
			if ((err = push_values(d, k, &f, &nvals)) < 0)
				return err;
			break;
		case 3:
			if (f.type != PP_WT_LEN)
				return bad(d, "bad label");
			if (k->nlabels >= UINT32_MAX - 1)
				return pp_error(d->ctx, PP_ELIMIT,
				                "%s: too many labels", d->name);
			if ((err = pp_grow(d->ctx, (void **)&k->labels,
			                   &k->cap_labels, k->nlabels + 1,
			                   sizeof(*k->labels))) < 0 ||
			    (err = parse_label(d, f.data, f.len,
			                       &k->labels[k->nlabels])) < 0)
				return err;
			if (err > 0)
				k->nlabels++;
			break;
		}
	}
	if (r < 0)
		return bad(d, "bad sample");
	if (nvals != nt) {
		char buf[128];

		snprintf(
		        buf, sizeof(buf),
		        "sample has %zu values, but there are %zu sample types",
		        nvals, nt);
		return bad(d, buf);
	}
	if ((err = pp_grow(d->ctx, (void **)&k->samples, &k->cap_samples,
	                   k->nsamples + 1, sizeof(*k->samples))) < 0 ||
	    (err = pp_grow(d->ctx, (void **)&k->values, &k->cap_values,
	                   (k->nsamples + 1) * nt + 1, sizeof(*k->values))) < 0)
		return err;
	if (nt)
		memcpy(k->values + k->nsamples * nt, k->vals,
		       nt * sizeof(*k->vals));
	if ((err = pp_profile__note_labels(
	             d->ctx, &k->label_ranges, &k->cap_label_ranges,
	             k->nsamples, label_first, k->nlabels - label_first)) < 0)
		return err;
	smp = &k->samples[k->nsamples++];
	smp->loc_first = (uint32_t)loc_first;
	smp->loc_count = (uint32_t)(k->nlocs - loc_first);
	return 0;
}

/* How often the sample walk reports its progress, in bytes. */
#define PROGRESS_EVERY (1u << 20)

/* Decode the sample fields in w into k. With two threads, the first
 * reports how far it is through its half, scaled to the whole: both
 * halves go at the same pace. */
static int sample_fields(struct decoder *d, struct sample_sink *k,
                         struct pp_wire w)
{
	const uint8_t *unreleased = w.p, *begin = w.p, *reported = w.p;
	const bool progress = d->ctx->progress != NULL;
	struct pp_field f = {0};
	int r, err;

	while ((r = pp_wire_next(&w, &f)) > 0) {
		if (f.number != F_SAMPLE)
			continue;
		if ((err = add_sample(d, k, &f)) < 0)
			return err;
		if (progress && (size_t)(w.p - reported) >= PROGRESS_EVERY) {
			pp_progress(d->ctx, d->what, "bytes",
			            (uint64_t)((double)(w.p - begin) *
			                       d->progress_scale),
			            (uint64_t)((double)(w.end - begin) *
			                       d->progress_scale));
			reported = w.p;
		}
		if (d->release_input &&
		    (size_t)(w.p - unreleased) >= RELEASE_EVERY) {
			pp_pages_release((void *)(uintptr_t)unreleased,
			                 (size_t)(w.p - unreleased));
			unreleased = w.p;
		}
	}
	return r < 0 ? bad(d, "bad sample") : 0;
}

/* Move the profile's sample arrays into a sink, and back. */
static void sink_from_profile(struct sample_sink *k, struct pp_profile *p)
{
	const struct pp_profile__full *pf = pp_profile__in(p);

	k->samples = p->samples;
	k->nsamples = p->nsamples;
	k->cap_samples = pf->cap_samples;
	k->locs = p->sample_locs;
	k->nlocs = p->nsample_locs;
	k->cap_locs = pf->cap_sample_locs;
	k->values = p->values;
	k->cap_values = pf->cap_values;
	k->labels = p->labels;
	k->nlabels = p->nlabels;
	k->cap_labels = pf->cap_labels;
	k->label_ranges = p->sample_labels;
	k->cap_label_ranges = pf->cap_sample_labels;
}

static void sink_to_profile(struct sample_sink *k, struct pp_profile *p)
{
	struct pp_profile__full *pf = pp_profile__in(p);

	p->samples = k->samples;
	p->nsamples = (uint32_t)k->nsamples;
	pf->cap_samples = k->cap_samples;
	p->sample_locs = k->locs;
	p->nsample_locs = k->nlocs;
	pf->cap_sample_locs = k->cap_locs;
	p->values = k->values;
	pf->cap_values = k->cap_values;
	p->labels = k->labels;
	p->nlabels = k->nlabels;
	pf->cap_labels = k->cap_labels;
	p->sample_labels = k->label_ranges;
	pf->cap_sample_labels = k->cap_label_ranges;
}

/* Append the second half's labels to the first's, whose samples are
 * followed by the second half's. */
static int append_labels(struct decoder *d, struct sample_sink *a,
                         const struct sample_sink *b)
{
	size_t base = a->nlabels, at = a->nsamples;
	bool fresh;
	int err;

	if (a->nlabels + b->nlabels >= UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many labels",
		                d->name);
	if ((err = pp_grow(d->ctx, (void **)&a->labels, &a->cap_labels,
	                   a->nlabels + b->nlabels + 1, sizeof(*a->labels))) <
	    0)
		return err;
	if (b->nlabels)
		memcpy(a->labels + a->nlabels, b->labels,
		       b->nlabels * sizeof(*b->labels));
	a->nlabels += b->nlabels;
	if (!a->label_ranges && !b->label_ranges)
		return 0;
	fresh = !a->label_ranges;
	if ((err = pp_grow(d->ctx, (void **)&a->label_ranges,
	                   &a->cap_label_ranges, at + b->nsamples + 1,
	                   sizeof(*a->label_ranges))) < 0)
		return err;
	if (fresh) /* the first half had no labels */
		memset(a->label_ranges, 0, at * sizeof(*a->label_ranges));
	for (size_t i = 0; i < b->nsamples; i++) {
		struct pp_label_range r = {0, 0};

		if (b->label_ranges) {
			r = b->label_ranges[i];
			r.first += (uint32_t)base;
		}
		a->label_ranges[at + i] = r;
	}
	return 0;
}

struct sample_job {
	struct decoder d; /* a copy: shares read-only tables, not the ctx */
	struct pp_ctx ctx;
	struct sample_sink sink;
	struct pp_wire range;
	int err;
};

static void *sample_job_run(void *arg)
{
	struct sample_job *job = arg;

	job->err = sample_fields(&job->d, &job->sink, job->range);
	return NULL;
}

/*
 * Move n ids from src down to dst (dst < src; the ranges may overlap) in
 * chunks, returning each chunk's source pages once nothing will be written
 * there, so the move never holds two copies of the ids in memory.
 */
static void move_down(uint32_t *dst, uint32_t *src, size_t n)
{
	const size_t chunk = (size_t)1 << 18;
	uint32_t *dst_end = dst + n;

	for (size_t i = 0; i < n; i += chunk) {
		size_t m = n - i < chunk ? n - i : chunk;
		uint32_t *from = src + i;

		memmove(dst + i, from, m * sizeof(*dst));
		if (from >= dst_end)
			pp_pages_release(from, m * sizeof(*from));
	}
}

/* Below this many samples a second thread costs more than it saves. */
#define PARALLEL_MIN_SAMPLES 200000

/*
 * A big run of samples is decoded by two threads into the same arrays, so
 * that memory holds no second copy. The split is at a recorded sample
 * boundary, so the first half's sample count is exact and the second half
 * writes its samples and values straight after it. Location ids cannot
 * outnumber the bytes that encode them, so the second half's ids start at
 * that bound and are moved down afterwards; the array's untouched reserve
 * costs address space, not memory, and is given back at the end.
 */
static int walk_samples_split(struct decoder *d, struct sample_sink *k,
                              struct sample_job *job)
{
	struct pp_profile *p = d->p;
	size_t nt = p->nsample_types, n = d->count[F_SAMPLE];
	size_t mid_index = (d->nmarks / 2) * (size_t)MARK_EVERY;
	const uint8_t *mid = d->marks[d->nmarks / 2];
	size_t bound_a = (size_t)(mid - d->samples_begin);
	size_t bound = (size_t)(d->samples_end - d->samples_begin);
	struct pp_wire first = {d->samples_begin, mid};
	struct pp_helper helper;
	int err;

	if ((err = pp_grow(d->ctx, (void **)&k->samples, &k->cap_samples, n,
	                   sizeof(*k->samples))) < 0 ||
	    (err = pp_grow(d->ctx, (void **)&k->values, &k->cap_values,
	                   n * nt + 1, sizeof(*k->values))) < 0 ||
	    (err = pp_grow(d->ctx, (void **)&k->locs, &k->cap_locs, bound + 1,
	                   sizeof(*k->locs))) < 0)
		return err;
	job->d = *d;
	job->ctx = *d->ctx;
	job->ctx.message[0] = '\0';
	job->ctx.progress = NULL; /* progress comes from this thread only */
	job->d.ctx = &job->ctx;
	job->range.p = mid;
	job->range.end = d->samples_end;
	/* The second half's views into the shared arrays; their capacities
	 * are exact or upper bounds, so they never reallocate. */
	job->sink.samples = k->samples + mid_index;
	job->sink.cap_samples = n - mid_index;
	job->sink.values = k->values + mid_index * nt;
	job->sink.cap_values = (n - mid_index) * nt + 1;
	job->sink.locs = k->locs + bound_a;
	job->sink.cap_locs = bound - bound_a + 1;
	k->cap_samples = mid_index;
	k->cap_values = mid_index * nt + 1;
	k->cap_locs = bound_a + 1;

	pp_helper_start(&helper, sample_job_run, job);
	d->progress_scale = bound_a ? (double)bound / (double)bound_a : 1;
	err = sample_fields(d, k, first);
	d->progress_scale = 1;
	pp_helper_finish(&helper);
	k->cap_samples = n;
	k->cap_values = n * nt + 1;
	k->cap_locs = bound + 1;
	if (err >= 0 && job->err < 0) {
		err = job->err;
		memcpy(d->ctx->message, job->ctx.message,
		       sizeof(d->ctx->message));
		d->ctx->message_len = job->ctx.message_len;
	}
	if (err >= 0 && k->nsamples != mid_index)
		err = bad(d, "sample count changed between walks");
	if (err >= 0)
		err = append_labels(d, k, &job->sink);
	if (err >= 0) {
		for (size_t i = 0; i < job->sink.nsamples; i++) {
			struct pp_sample *smp = &k->samples[mid_index + i];

			smp->loc_first += (uint32_t)k->nlocs;
		}
		move_down(k->locs + k->nlocs, job->sink.locs, job->sink.nlocs);
		k->nsamples += job->sink.nsamples;
		k->nlocs += job->sink.nlocs;
		/* Give back the reserve beyond the last id. */
		{
			uint32_t *shrunk =
			        pp_realloc(d->ctx, k->locs,
			                   (k->nlocs + 1) * sizeof(*k->locs));

			if (shrunk) {
				k->locs = shrunk;
				k->cap_locs = k->nlocs + 1;
			}
		}
	}
	pp_free(d->ctx, job->sink.labels);
	pp_free(d->ctx, job->sink.label_ranges);
	pp_free(d->ctx, job->sink.vals);
	return err;
}

/*
 * Walk 4: the samples, on two threads for a big contiguous run. A caller's
 * allocation hook may not be thread-safe, so it keeps everything on one.
 */
static int walk_samples(struct decoder *d)
{
	struct sample_sink k = {0};
	struct sample_job *job = NULL;
	int err;

	sink_from_profile(&k, d->p);
	if (d->samples_begin && d->samples_contiguous && d->nmarks >= 2 &&
	    d->count[F_SAMPLE] >= PARALLEL_MIN_SAMPLES &&
	    !d->ctx->alloc.malloc_fn && !d->ctx->alloc.realloc_fn &&
	    (job = pp_calloc(d->ctx, 1, sizeof(*job)))) {
		err = walk_samples_split(d, &k, job);
		pp_free(d->ctx, job);
	} else {
		err = sample_fields(d, &k, d->top);
	}
	pp_free(d->ctx, k.vals);
	k.vals = NULL;
	sink_to_profile(&k, d->p);
	return err;
}

/* Reserve the big arrays once, from the counts of walk 1. */
static int reserve(struct decoder *d)
{
	struct pp_profile *p = d->p;
	struct pp_profile__full *pf = pp_profile__in(p);
	size_t nsamples = d->count[F_SAMPLE];
	int err;

	if (nsamples >= UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many samples",
		                d->name);
	if ((err = pp_grow(d->ctx, (void **)&p->samples, &pf->cap_samples,
	                   nsamples, sizeof(*p->samples))) < 0)
		return err;
	if ((err = pp_grow(d->ctx, (void **)&p->locations, &pf->cap_locations,
	                   d->count[F_LOCATION], sizeof(*p->locations))) < 0)
		return err;
	return 0;
}

/* Every error names the file: the model's own ("too many sample types")
 * do not know it. */
static int named(struct pp_ctx *ctx, const char *name, int err)
{
	size_t n = strlen(name);
	char detail[sizeof(ctx->message)];

	if (err >= 0 || !ctx->message[0] ||
	    (strncmp(ctx->message, name, n) == 0 && ctx->message[n] == ':'))
		return err;
	memcpy(detail, ctx->message, sizeof(detail));
	return pp_error(ctx, err, "%s: %s", name, detail);
}

static int adopt_samples(struct decoder *d, struct pp_decode_stream *s);

/* The samples are walk 4's, or with pre, those a stream decoded already
 * (data is then every other field). */
static int decode_proto(struct pp_ctx *ctx, const char *name,
                        const uint8_t *data, size_t len, bool release_input,
                        struct pp_decode_stream *pre, struct pp_profile **out)
{
	struct decoder d;
	int err;

	*out = NULL;
	ctx->message[0] = '\0';
	memset(&d, 0, sizeof(d));
	d.ctx = ctx;
	d.name = name;
	d.top.p = data;
	d.top.end = data + len;
	d.release_input = release_input;
	snprintf(d.what, sizeof(d.what), "decoding %s", name);
	d.progress_scale = 1;
	if (len == 0)
		return pp_error(ctx, PP_EFORMAT, "%s: empty input file", name);
	d.p = pp_profile_new(ctx);
	if (!d.p)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	/* The walks write 32-bit location indices; narrowed at the end. */
	if ((err = pp_profile__widen_locs(d.p)) < 0) {
		pp_profile_free(d.p);
		return err;
	}
	/* pprof's decoder gives every profile.proto a period type, an empty
	 * one when the file has none (raw prints "PeriodType:  "). */
	d.p->has_period_type = true;
	if ((err = pp_scratch_init(&d.scratch, ctx, 64 * 1024)) < 0)
		goto done;
	if ((err = walk_strings(&d)) < 0)
		goto done;
	if ((err = pp_idmap_init(&d.mappings, ctx, d.count[F_MAPPING],
	                         d.max_id[F_MAPPING])) < 0 ||
	    (err = pp_idmap_init(&d.functions, ctx, d.count[F_FUNCTION],
	                         d.max_id[F_FUNCTION])) < 0 ||
	    (err = pp_idmap_init(&d.locations, ctx, d.count[F_LOCATION],
	                         d.max_id[F_LOCATION])) < 0)
		goto done;
	if ((err = reserve(&d)) < 0 || (err = walk_header(&d)) < 0 ||
	    (err = walk_locations(&d)) < 0 ||
	    (err = pre ? adopt_samples(&d, pre) : walk_samples(&d)) < 0)
		goto done;
	if (d.p->nsample_types == 0 && d.p->nsamples == 0 &&
	    d.p->nlocations == 0)
		err = pp_error(ctx, PP_EFORMAT,
		               "%s: unrecognized profile format", name);
done:
	if (err == PP_ENOMEM && !ctx->message[0])
		pp_error(ctx, err, "%s: out of memory", name);
	pp_idmap_release(&d.mappings);
	pp_idmap_release(&d.functions);
	pp_idmap_release(&d.locations);
	pp_scratch_release(&d.scratch);
	pp_free(ctx, d.strmap);
	pp_free(ctx, d.marks);
	if (err < 0) {
		pp_profile_free(d.p);
		return err;
	}
	pp_profile_narrow_locs(d.p);
	*out = d.p;
	return 0;
}

/* The legacy formats announce themselves in their first bytes; anything
 * else is taken for profile.proto, whose reader rejects garbage. */
static int decode_legacy(struct pp_ctx *ctx, const char *name,
                         const uint8_t *data, size_t len,
                         struct pp_profile **out)
{
	ctx->message[0] = '\0';
	if (pp_legacy__is_cpu(data, len))
		return pp_legacy__decode_cpu(ctx, name, data, len, out);
	if (pp_legacy__is_heap(data, len))
		return pp_legacy__decode_heap(ctx, name, data, len, out);
	return pp_legacy__decode_text(ctx, name, data, len, out);
}

/*
 * Text that no legacy reader took: profile.proto has control bytes in its
 * first tags and lengths, so text never decodes as one, and pprof then
 * calls it an unrecognized format rather than naming a wire error.
 */
static bool looks_like_text(const uint8_t *data, size_t len)
{
	size_t n = len < 4096 ? len : 4096;

	for (size_t i = 0; i < n; i++)
		if ((data[i] < 0x20 && data[i] != '\t' && data[i] != '\n' &&
		     data[i] != '\r') ||
		    data[i] == 0x7f)
			return false;
	return n > 0;
}

static int text_unrecognized(struct pp_ctx *ctx, const char *name, int err)
{
	if (err != PP_EFORMAT)
		return err;
	return pp_error(ctx, PP_EFORMAT, "%s: unrecognized profile format",
	                name);
}

/* Read a varint at *p (< end): false if truncated or over 10 bytes. */
static bool sniff_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; *p < end && shift < 70; shift += 7) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 0);
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/* Well-formed protobuf fields as far as the prefix goes. */
static bool sniff_proto(const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		uint64_t tag, v;

		if (!sniff_varint(&p, end, &tag))
			return p >= end; /* cut by the prefix's end */
		if ((tag >> 3) == 0)
			return false;
		switch (tag & 7) {
		case 0:
			if (!sniff_varint(&p, end, &v))
				return p >= end;
			break;
		case 1:
			p += (size_t)(end - p) < 8 ? (size_t)(end - p) : 8;
			break;
		case 5:
			p += (size_t)(end - p) < 4 ? (size_t)(end - p) : 4;
			break;
		case 2:
			if (!sniff_varint(&p, end, &v))
				return p >= end;
			if (v >= (uint64_t)(end - p))
				return true;
			p += v;
			break;
		default:
			return false;
		}
	}
	return true;
}

bool pp_decode_could_be_profile(const uint8_t *data, size_t len)
{
	if (len == 0 || !memchr(data, 0, len))
		return true; /* text: the legacy and text formats */
	return pp_legacy__is_cpu(data, len) || pp_legacy__is_heap(data, len) ||
	       sniff_proto(data, data + len);
}

/*
 * The text formats pprof-c reads and no pprof does (goroutine dumps, perf
 * script, folded stacks), each taken by its content. 1: none of them.
 */
static int decode_our_text(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out)
{
	if (pp_godump__is_dump(data, len))
		return pp_godump__decode(ctx, name, data, len, out);
	if (pp_perfscript__is_perf_script(data, len))
		return pp_perfscript__decode(ctx, name, data, len, out);
	if (pp_folded__is_folded(data, len))
		return pp_folded__decode(ctx, name, data, len, out);
	return 1;
}

int pp_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
              size_t len, struct pp_profile **out)
{
	int err = decode_legacy(ctx, name, data, len, out);
	bool text;

	if (err <= 0)
		return named(ctx, name, err);
	text = looks_like_text(data, len);
	if (text && (err = decode_our_text(ctx, name, data, len, out)) <= 0)
		return err;
	err = decode_proto(ctx, name, data, len, false, NULL, out);
	return named(ctx, name, text ? text_unrecognized(ctx, name, err) : err);
}

int pp_decode_owned(struct pp_ctx *ctx, const char *name, uint8_t *data,
                    size_t len, struct pp_profile **out)
{
	int err = decode_legacy(ctx, name, data, len, out);

	bool text;

	if (err <= 0) {
		pp_free(ctx, data);
		return named(ctx, name, err);
	}
	text = looks_like_text(data, len);
	if (text && (err = decode_our_text(ctx, name, data, len, out)) <= 0) {
		pp_free(ctx, data);
		return err;
	}
	err = decode_proto(ctx, name, data, len, true, NULL, out);

	pp_free(ctx, data);
	return named(ctx, name, text ? text_unrecognized(ctx, name, err) : err);
}

/*
 * Decoding as the bytes arrive (pp_decode_stream_*). Go writes the samples
 * first and the locations and strings they refer to after them, so a
 * sample is kept as the file wrote it -- location id - 1, label string
 * indices -- and mapped once the rest has arrived; when the file numbers
 * its locations 1..N in order, as Go does, the ids minus one already are
 * the indices and nothing is rewritten. Every other top-level field is
 * kept verbatim, in order, and decoded at the end by the walks above, so
 * the profile is the one pp_decode makes of the same bytes. Anything this
 * path does not expect (a sample type after a sample, an id past 32 bits,
 * any malformed field, legacy or text input) makes it give up, and the
 * caller decodes the whole bytes with pp_decode, which says what is wrong.
 */
struct pp_decode_stream {
	struct pp_ctx *ctx;
	const char *name;
	bool started, failed, seen_sample;
	uint8_t *rest; /* every field but the samples, verbatim */
	size_t nrest, cap_rest;
	uint8_t *carry; /* a field split between two pushes */
	size_t ncarry, cap_carry;
	struct sample_sink k; /* ids - 1 and string indices, as in the file */
	size_t nt;            /* sample types before the first sample */
	uint64_t nloc_ids;    /* 1 + the largest location id - 1 */
	uint64_t max_str;     /* the largest label string index */
	/* The ids - 1 are kept 16 bits wide while they fit (most profiles
	 * have fewer than 65,536 locations, numbered from 1): k.locs is then
	 * unused and narrow holds k.nlocs of them. The first id past 16 bits,
	 * or a sample read the general way, widens them all (stream_widen). */
	uint16_t *narrow;
	size_t cap_narrow;
	bool wide;
	/* The bytes the whole input will have (a hint, 0: unknown) and the
	 * bytes pushed so far: see stream_grow. */
	uint64_t expect, pushed;
};

/* How much of the start is looked at to rule out the other formats. */
#define STREAM_HEAD 4096

int pp_decode_stream_new(struct pp_ctx *ctx, const char *name,
                         struct pp_decode_stream **out)
{
	struct pp_decode_stream *s = pp_calloc(ctx, 1, sizeof(*s));

	*out = s;
	if (!s)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	s->ctx = ctx;
	s->name = name;
	return 0;
}

void pp_decode_stream_free(struct pp_decode_stream *s)
{
	if (!s)
		return;
	pp_free(s->ctx, s->rest);
	pp_free(s->ctx, s->carry);
	pp_free(s->ctx, s->k.samples);
	pp_free(s->ctx, s->k.locs);
	pp_free(s->ctx, s->narrow);
	pp_free(s->ctx, s->k.values);
	pp_free(s->ctx, s->k.labels);
	pp_free(s->ctx, s->k.label_ranges);
	pp_free(s->ctx, s->k.vals);
	pp_free(s->ctx, s);
}

/* 1 when a legacy reader takes data; 0 otherwise. */
static int legacy_takes(struct pp_ctx *ctx, const char *name,
                        const uint8_t *data, size_t len)
{
	struct pp_profile *p = NULL;
	int err = decode_legacy(ctx, name, data, len, &p);

	if (err <= 0) {
		pp_profile_free(p);
		ctx->message[0] = '\0';
		return 1;
	}
	return 0;
}

/*
 * Whether the start rules out every format but profile.proto: not text
 * (decided from the first 4096 bytes, as pp_decode does), and no legacy
 * reader takes it. Those readers decide from the first lines that are not
 * blank, so the start is cut after its last whole line, which must hold one.
 */
static bool head_is_proto(struct pp_ctx *ctx, const char *name,
                          const uint8_t *data, size_t len)
{
	const uint8_t *cut = data + len;
	struct pp_lines ls;
	struct pp_span line;
	bool found = false;

	if (len < STREAM_HEAD || looks_like_text(data, STREAM_HEAD) ||
	    !sniff_proto(data, data + STREAM_HEAD))
		return false;
	while (cut > data && cut[-1] != '\n')
		cut--;
	pp_lines__init(&ls, data, (size_t)(cut - data));
	while (!found && pp_lines__next(&ls, &line))
		found = !pp_span__blank_or_comment(line);
	return found &&
	       legacy_takes(ctx, name, data, (size_t)(cut - data)) == 0;
}

static bool stream_append(struct pp_decode_stream *s, uint8_t **buf, size_t *n,
                          size_t *cap, const uint8_t *data, size_t len)
{
	if (pp_grow(s->ctx, (void **)buf, cap, *n + len, 1) < 0)
		return false;
	memcpy(*buf + *n, data, len);
	*n += len;
	return true;
}

/*
 * The location ids of a packed field, [q, end), appended to locs (*n of
 * them so far, room made for end - q more) as id - 1, 16 bits each when
 * narrow, else 32. 1 when taken; 0 when an id is malformed, 0 or past 32
 * bits; -1 (narrow only) when one is past 16 bits: what was written past
 * *n is then cut, and the caller widens and reads the sample again. *max
 * is raised to the largest id.
 *
 * This loop reads most of a profile's bytes, so it does little per id.
 * Nearly every id takes one to three bytes (it is under 2^21): while three
 * bytes remain they are read with no bound check per byte. The largest
 * id - 1 is kept as a uint32_t, where an id 0 wraps to UINT32_MAX, which
 * no id of three bytes can be: one test after the loop instead of one per
 * id. Longer ids, and the last two bytes, go through packed_varint. The
 * width is a constant at each call, so each inlined copy stores one way.
 */
static inline int stream_loc_ids(const uint8_t *q, const uint8_t *end,
                                 void *locs, bool narrow, size_t *n,
                                 uint64_t *max)
{
	const uint8_t *stop = end - q >= 3 ? end - 2 : q;
	uint16_t *out16 = NULL;
	uint32_t *out32 = NULL;
	uint64_t m = *max, v;
	uint32_t top = 0; /* the largest id - 1 of the fast loop */
	size_t k = 0;     /* ids written */

	if (q == end)
		return 1; /* locs may still be NULL */
	if (narrow)
		out16 = (uint16_t *)locs + *n;
	else
		out32 = (uint32_t *)locs + *n;
	while (q < stop) {
		uint32_t b0 = q[0], b1, b2, id0;

		if (b0 < 0x80) {
			v = b0;
			q += 1;
		} else if ((b1 = q[1]) < 0x80) {
			v = (b0 & 0x7f) | b1 << 7;
			q += 2;
		} else if ((b2 = q[2]) < 0x80) {
			v = (b0 & 0x7f) | (b1 & 0x7f) << 7 | b2 << 14;
			q += 3;
		} else {
			break; /* four bytes or more */
		}
		id0 = (uint32_t)(v - 1);
		if (narrow)
			out16[k++] = (uint16_t)id0;
		else
			out32[k++] = id0;
		top = id0 > top ? id0 : top;
	}
	if (k > 0) {
		if (top == UINT32_MAX)
			return 0; /* an id 0 */
		if (narrow && top > UINT16_MAX)
			return -1;
		if ((uint64_t)top + 1 > m)
			m = (uint64_t)top + 1;
	}
	while (q < end) {
		if (!(q = packed_varint(q, end, &v)) || v == 0 ||
		    v >= UINT32_MAX)
			return 0;
		if (narrow && v - 1 > UINT16_MAX)
			return -1;
		if (narrow)
			out16[k++] = (uint16_t)(v - 1);
		else
			out32[k++] = (uint32_t)(v - 1);
		m = v > m ? v : m;
	}
	*n += k;
	*max = m;
	return 1;
}

/* Arrays of fewer bytes than this grow by doubling (stream_grow). */
#define PROJECT_MIN ((size_t)1 << 20)

/*
 * Room for need elements of elem bytes in the stream's array *ptr, which
 * has *cap. Past PROJECT_MIN bytes, when the input's size is known, the
 * array is sized for as many elements as the whole input would hold if
 * the rest were like what was pushed so far, and half as many again: the
 * first megabytes are not always like the rest (the lab bench profile's
 * first 1.8 MB held 11% fewer locations a byte than the whole, and an
 * eighth more was too little), while the samples come first in a
 * profile, so this is rather too much than too little, and pages never
 * written cost address space, not memory. Growing by doubling instead
 * moves the array at each step (glibc's mremap), and on the paravirtual
 * machines we measure on every moved page then costs microseconds at its
 * next touch, with no page fault the guest sees: the first read of a
 * 100 MB array doubled into place took 0.1 s, of one sized once 0.004 s.
 * When the projection is wrong or cannot be had, doubling goes on from
 * there.
 */
static bool stream_grow_cold(struct pp_decode_stream *s, void **ptr,
                             size_t *cap, size_t need, size_t elem)
{
	size_t bytes;

	if (s->expect > s->pushed && s->pushed > 0 &&
	    pp_mul_size(need, elem, &bytes) == 0 && bytes >= PROJECT_MIN) {
		double want = (double)need *
		              ((double)s->expect / (double)s->pushed) * 1.5;
		void *np;

		/* No more than doubling would give: then doubling does. */
		if (want > 2.0 * (double)*cap && want * (double)elem < 0x1p40 &&
		    (np = pp_realloc(s->ctx, *ptr, (size_t)want * elem))) {
			*ptr = np;
			*cap = (size_t)want;
			return true;
		}
	}
	return pp_grow(s->ctx, ptr, cap, need, elem) >= 0;
}

static inline bool stream_grow(struct pp_decode_stream *s, void **ptr,
                               size_t *cap, size_t need, size_t elem)
{
	return need <= *cap || stream_grow_cold(s, ptr, cap, need, elem);
}

/* Room for one more sample's label range, once a sample had labels
 * (before that the ranges are not kept: pp_profile__note_labels). */
static bool stream_grow_ranges(struct pp_decode_stream *s)
{
	struct sample_sink *k = &s->k;

	return !k->label_ranges ||
	       stream_grow(s, (void **)&k->label_ranges, &k->cap_label_ranges,
	                   k->nsamples + 1, sizeof(*k->label_ranges));
}

/* The ids - 1 read so far 32 bits wide, and from now on. */
static bool stream_widen(struct pp_decode_stream *s)
{
	struct sample_sink *k = &s->k;

	if (s->wide)
		return true;
	if (pp_grow(s->ctx, (void **)&k->locs, &k->cap_locs, k->nlocs + 1,
	            sizeof(*k->locs)) < 0)
		return false;
	for (size_t i = 0; i < k->nlocs; i++)
		k->locs[i] = s->narrow[i];
	pp_free(s->ctx, s->narrow);
	s->narrow = NULL;
	s->cap_narrow = 0;
	s->wide = true;
	return true;
}

/* One label of a sample, [data, data + len), appended as the file wrote
 * it: string indices, mapped once the string table has arrived. */
static bool stream_label(struct pp_decode_stream *s, const uint8_t *data,
                         size_t len)
{
	struct sample_sink *k = &s->k;
	struct pp_wire lw = {data, data + len};
	struct pp_field lf = {0};
	int64_t idx[4] = {0, 0, 0, 0}; /* key, str, num, unit */
	struct pp_label *l;
	int lr;

	if (k->nlabels >= UINT32_MAX - 1 ||
	    !stream_grow(s, (void **)&k->labels, &k->cap_labels, k->nlabels + 1,
	                 sizeof(*k->labels)))
		return false;
	while ((lr = pp_wire_next(&lw, &lf)) > 0)
		if (lf.type == PP_WT_VARINT && lf.number >= 1 && lf.number <= 4)
			idx[lf.number - 1] = (int64_t)lf.varint;
	if (lr < 0)
		return false;
	for (int i = 0; i < 4; i++) {
		if (i == 2)
			continue;
		if (idx[i] < 0 || idx[i] >= UINT32_MAX)
			return false;
		if ((uint64_t)idx[i] > s->max_str)
			s->max_str = (uint64_t)idx[i];
	}
	if (!label_kept(idx[1], idx[2], idx[3]))
		return true;
	l = &k->labels[k->nlabels++];
	l->key = (pp_str)idx[0];
	l->str = (pp_str)idx[1];
	l->num = idx[2];
	l->num_unit = (pp_str)idx[3];
	return true;
}

/*
 * The sample as Go writes it, [p, end): location ids packed in field 1,
 * values packed in field 2, labels in field 3, each key one byte and each
 * length one or two. That is nearly every sample of every profile, read
 * here with less work per sample than the general reader (stream_sample)
 * does: no pp_field filled per field, no switch on wire types, the values
 * stored in place rather than copied from k->vals.
 *
 * true when it took the sample. false when the sample has another shape
 * or is malformed: then nothing it wrote counts (the arrays' counts are
 * as they were), and stream_sample reads the sample again its own way.
 */
static bool stream_sample_packed(struct pp_decode_stream *s, const uint8_t *p,
                                 const uint8_t *end)
{
	struct sample_sink *k = &s->k;
	size_t nt = s->nt, nlocs = k->nlocs, nvals = 0;
	size_t label_first = k->nlabels;
	uint64_t nloc_ids = s->nloc_ids;
	struct pp_sample *smp;
	int64_t *vals;

	if (k->nsamples >= UINT32_MAX - 1 ||
	    !stream_grow(s, (void **)&k->samples, &k->cap_samples,
	                 k->nsamples + 1, sizeof(*k->samples)) ||
	    !stream_grow(s, (void **)&k->values, &k->cap_values,
	                 (k->nsamples + 1) * nt + 1, sizeof(*k->values)))
		return false;
	vals = k->values + k->nsamples * nt;
	while (p < end) {
		uint32_t key = p[0];
		const uint8_t *data, *q;
		size_t len;
		uint64_t v;

		if (end - p >= 2 && p[1] < 0x80) {
			len = p[1];
			data = p + 2;
		} else if (end - p >= 3 && p[2] < 0x80) {
			len = (size_t)(p[1] & 0x7f) | (size_t)p[2] << 7;
			data = p + 3;
		} else {
			goto other;
		}
		if (len > (size_t)(end - data))
			goto other;
		p = data + len;
		switch (key) {
		case 1 << 3 | PP_WT_LEN:
			if (nlocs + len > UINT32_MAX)
				goto other;
			if (!s->wide) {
				int r;

				if (!stream_grow(s, (void **)&s->narrow,
				                 &s->cap_narrow, nlocs + len,
				                 sizeof(*s->narrow)) ||
				    (r = stream_loc_ids(data, p, s->narrow,
				                        true, &nlocs,
				                        &nloc_ids)) == 0)
					goto other;
				/* Too wide: read again, 32 bits wide. */
				if (r < 0)
					goto other;
				break;
			}
			if (!stream_grow(s, (void **)&k->locs, &k->cap_locs,
			                 nlocs + len, sizeof(*k->locs)) ||
			    stream_loc_ids(data, p, k->locs, false, &nlocs,
			                   &nloc_ids) <= 0)
				goto other;
			break;
		case 2 << 3 | PP_WT_LEN:
			for (q = data; q < p;) {
				if (nvals == nt ||
				    !(q = packed_varint(q, p, &v)))
					goto other;
				vals[nvals++] = (int64_t)v;
			}
			break;
		case 3 << 3 | PP_WT_LEN:
			if (!stream_label(s, data, len))
				goto other;
			break;
		default:
			goto other;
		}
	}
	if (nvals != nt)
		goto other;
	/* The call only for samples it has something to do for: most
	 * profiles have no labels. */
	if ((k->label_ranges || k->nlabels > label_first) &&
	    (!stream_grow_ranges(s) ||
	     pp_profile__note_labels(
	             s->ctx, &k->label_ranges, &k->cap_label_ranges,
	             k->nsamples, label_first, k->nlabels - label_first) < 0))
		goto other;
	smp = &k->samples[k->nsamples++];
	smp->loc_first = (uint32_t)k->nlocs;
	smp->loc_count = (uint32_t)(nlocs - k->nlocs);
	k->nlocs = nlocs;
	s->nloc_ids = nloc_ids;
	return true;
other:
	k->nlabels = label_first;
	return false;
}

/* One sample as the file wrote it: add_sample without the tables.
 * tried: stream_sample_packed already gave up on it. */
static bool stream_sample(struct pp_decode_stream *s, const struct pp_field *sf,
                          bool tried)
{
	struct sample_sink *k = &s->k;
	struct pp_wire w = {sf->data, sf->data + sf->len};
	struct pp_field f = {0};
	size_t loc_first = k->nlocs, label_first = k->nlabels, nvals = 0;
	struct pp_sample *smp;
	int r;

	if (sf->type != PP_WT_LEN || k->nsamples >= UINT32_MAX - 1)
		return false;
	if (!tried && stream_sample_packed(s, sf->data, sf->data + sf->len))
		return true;
	/* The general way writes 32-bit ids. */
	if (!stream_widen(s))
		return false;
	loc_first = k->nlocs;
	while ((r = pp_wire_next(&w, &f)) > 0) {
		const uint8_t *q, *end;
		size_t n = k->nlocs, most;
		uint64_t v;

		if (f.number != 1 && f.number != 2 && f.number != 3)
			continue;
		if (f.number != 3 && f.type == PP_WT_VARINT) {
			q = end = NULL;
			most = 1;
		} else if (f.type == PP_WT_LEN) {
			q = f.data;
			end = f.data + f.len;
			most = f.len;
		} else {
			return false;
		}
		switch (f.number) {
		case 1:
			if (n + most > UINT32_MAX ||
			    !stream_grow(s, (void **)&k->locs, &k->cap_locs,
			                 n + most, sizeof(*k->locs)))
				return false;
			if (!q) {
				if (f.varint == 0 || f.varint >= UINT32_MAX)
					return false;
				k->locs[n++] = (uint32_t)(f.varint - 1);
				if (f.varint > s->nloc_ids)
					s->nloc_ids = f.varint;
			} else if (stream_loc_ids(q, end, k->locs, false, &n,
			                          &s->nloc_ids) <= 0) {
				return false;
			}
			k->nlocs = n;
			break;
		case 2:
			if (pp_grow(s->ctx, (void **)&k->vals, &k->cap_vals,
			            nvals + most, sizeof(*k->vals)) < 0)
				return false;
			if (!q)
				k->vals[nvals++] = (int64_t)f.varint;
			while (q && q < end) {
				if (!(q = packed_varint(q, end, &v)))
					return false;
				k->vals[nvals++] = (int64_t)v;
			}
			break;
		case 3:
			if (!stream_label(s, f.data, f.len))
				return false;
			break;
		}
	}
	if (r < 0 || nvals != s->nt ||
	    !stream_grow(s, (void **)&k->samples, &k->cap_samples,
	                 k->nsamples + 1, sizeof(*k->samples)) ||
	    !stream_grow(s, (void **)&k->values, &k->cap_values,
	                 (k->nsamples + 1) * s->nt + 1, sizeof(*k->values)))
		return false;
	if (s->nt)
		memcpy(k->values + k->nsamples * s->nt, k->vals,
		       s->nt * sizeof(*k->vals));
	if (!stream_grow_ranges(s) ||
	    pp_profile__note_labels(s->ctx, &k->label_ranges,
	                            &k->cap_label_ranges, k->nsamples,
	                            label_first, k->nlabels - label_first) < 0)
		return false;
	smp = &k->samples[k->nsamples++];
	smp->loc_first = (uint32_t)loc_first;
	smp->loc_count = (uint32_t)(k->nlocs - loc_first);
	return true;
}

/* One whole top-level field, [begin, end) of the stream; tried as in
 * stream_sample. */
static bool stream_field(struct pp_decode_stream *s, const struct pp_field *f,
                         const uint8_t *begin, const uint8_t *end, bool tried)
{
	if (f->number == F_SAMPLE) {
		s->seen_sample = true;
		return stream_sample(s, f, tried);
	}
	if (f->number == F_SAMPLE_TYPE) {
		if (s->seen_sample)
			return false;
		s->nt++;
	}
	return stream_append(s, &s->rest, &s->nrest, &s->cap_rest, begin,
	                     (size_t)(end - begin));
}

/*
 * The length of the field at the start of [p, end): 1 with *n set when it
 * is whole, 0 when it goes on past end, -1 when malformed.
 */
static int field_extent(const uint8_t *p, const uint8_t *end, size_t *n)
{
	struct pp_wire w = {p, end};
	uint64_t key, len;
	size_t head;

	*n = 0;
	for (const uint8_t *q = p; q < end && q - p < 10; q++)
		if (!(*q & 0x80))
			goto have_key;
	return end - p < 10 ? 0 : -1;
have_key:
	if (!pp_wire_varint(&w, &key) || (key >> 3) == 0)
		return -1;
	switch (key & 7) {
	case PP_WT_VARINT:
		for (const uint8_t *q = w.p; q < end && q - w.p < 10; q++)
			if (!(*q & 0x80)) {
				*n = (size_t)(q + 1 - p);
				return 1;
			}
		return end - w.p < 10 ? 0 : -1;
	case PP_WT_I64:
	case PP_WT_I32:
		head = (size_t)(w.p - p) + ((key & 7) == PP_WT_I64 ? 8 : 4);
		if ((size_t)(end - p) < head)
			return 0;
		*n = head;
		return 1;
	case PP_WT_LEN:
		for (const uint8_t *q = w.p; q < end && q - w.p < 10; q++)
			if (!(*q & 0x80))
				goto have_len;
		return end - w.p < 10 ? 0 : -1;
	have_len:
		if (!pp_wire_varint(&w, &len) || len > SIZE_MAX / 2)
			return -1;
		head = (size_t)(w.p - p);
		*n = head + (size_t)len;
		return (uint64_t)(end - p) >= head + len ? 1 : 0;
	default:
		return -1;
	}
}

/* Decode the whole fields of [p, end); the tail of a cut field is kept. */
static bool stream_fields(struct pp_decode_stream *s, const uint8_t *p,
                          const uint8_t *end)
{
	struct pp_wire w = {p, end};
	struct pp_field f = {0};
	int r;

	for (;;) {
		const uint8_t *begin = w.p;
		bool tried = false;
		size_t n;

		/* Most fields are samples in Go's shape: read here, without a
		 * pp_field or a call to stream_field for each. */
		if (end - begin >= 3 &&
		    begin[0] == (F_SAMPLE << 3 | PP_WT_LEN) &&
		    (begin[1] < 0x80 || begin[2] < 0x80)) {
			const uint8_t *data = begin + (begin[1] < 0x80 ? 2 : 3);
			size_t len = begin[1] < 0x80
			                     ? begin[1]
			                     : ((size_t)(begin[1] & 0x7f) |
			                        (size_t)begin[2] << 7);

			if (len <= (size_t)(end - data) &&
			    s->k.nsamples < UINT32_MAX - 1) {
				if (stream_sample_packed(s, data, data + len)) {
					s->seen_sample = true;
					w.p = data + len;
					continue;
				}
				tried = true;
			}
		}
		if ((r = pp_wire_next(&w, &f)) > 0) {
			if (!stream_field(s, &f, begin, w.p, tried))
				return false;
			continue;
		}
		if (r == 0)
			return true;
		/* Cut by the end of this push, or malformed. */
		if (field_extent(begin, end, &n) != 0)
			return false;
		return stream_append(s, &s->carry, &s->ncarry, &s->cap_carry,
		                     begin, (size_t)(end - begin));
	}
}

void pp_decode_stream_expect(struct pp_decode_stream *s, uint64_t bytes)
{
	s->expect = bytes;
}

int pp_decode_stream_push(struct pp_decode_stream *s, const uint8_t *data,
                          size_t len)
{
	const uint8_t *end = data + len;

	if (s->failed)
		return 1;
	s->pushed += len;
	if (!s->started) {
		s->started = true;
		if (!head_is_proto(s->ctx, s->name, data, len))
			goto give_up;
	}
	/* First finish the field the last push cut. */
	while (s->ncarry && data < end) {
		struct pp_wire w;
		struct pp_field f = {0};
		size_t n, take;
		int r = field_extent(s->carry, s->carry + s->ncarry, &n);

		if (r < 0)
			goto give_up;
		take = r == 0 && n > s->ncarry ? n - s->ncarry : 16;
		if (take > (size_t)(end - data))
			take = (size_t)(end - data);
		if (r > 0)
			take = 0;
		if (take && !stream_append(s, &s->carry, &s->ncarry,
		                           &s->cap_carry, data, take))
			goto give_up;
		data += take;
		if (field_extent(s->carry, s->carry + s->ncarry, &n) <= 0)
			continue;
		/* Whole: give back what belongs to the next field. */
		data -= s->ncarry - n;
		s->ncarry = n;
		w.p = s->carry;
		w.end = s->carry + n;
		if (pp_wire_next(&w, &f) <= 0 ||
		    !stream_field(s, &f, s->carry, s->carry + n, false))
			goto give_up;
		s->ncarry = 0;
	}
	if (data < end && !stream_fields(s, data, end))
		goto give_up;
	return 0;
give_up:
	s->failed = true;
	return 1;
}

int pp_decode_stream_finish(struct pp_decode_stream *s, struct pp_profile **out)
{
	*out = NULL;
	if (s->failed || !s->started || s->ncarry ||
	    decode_proto(s->ctx, s->name, s->rest, s->nrest, false, s, out) <
	            0) {
		s->failed = true;
		s->ctx->message[0] = '\0';
		return 1;
	}
	return 0;
}

/*
 * The stream's samples into the profile decoded from the other fields:
 * ids and string indices checked and mapped, as walk 4 does.
 */
static int adopt_samples(struct decoder *d, struct pp_decode_stream *s)
{
	struct sample_sink *k = &s->k;
	struct pp_profile *p = d->p;
	bool identity =
	        d->locations.direct && s->nloc_ids < d->locations.ndirect;
	int err;

	if (p->nsample_types != s->nt || s->max_str >= d->nstrings)
		return bad(d, "stream");
	for (uint64_t id = 1; identity && id <= s->nloc_ids; id++)
		identity = d->locations.direct[id] == id - 1;
	/* Ids numbered otherwise may map to indices past 16 bits. */
	if (!identity && p->nlocations > UINT16_MAX + 1 && !stream_widen(s))
		return pp_error(d->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; !identity && i < k->nlocs; i++) {
		uint64_t id = 1 + (s->wide ? k->locs[i] : s->narrow[i]);
		uint32_t index = pp_idmap_get(&d->locations, id);

		if (index == PP_NONE)
			return bad(d, "stream");
		if (s->wide)
			k->locs[i] = index;
		else
			s->narrow[i] = (uint16_t)index;
	}
	for (size_t i = 0; i < k->nlabels; i++) {
		struct pp_label *l = &k->labels[i];

		l->key = d->strmap[l->key];
		l->str = d->strmap[l->str];
		l->num_unit = d->strmap[l->num_unit];
	}
	/* Every array stays allocated, as pp_profile_new leaves them. */
	if ((err = pp_grow(d->ctx, (void **)&k->samples, &k->cap_samples, 1,
	                   sizeof(*k->samples))) < 0 ||
	    (s->wide && (err = pp_grow(d->ctx, (void **)&k->locs, &k->cap_locs,
	                               1, sizeof(*k->locs))) < 0) ||
	    (!s->wide &&
	     (err = pp_grow(d->ctx, (void **)&s->narrow, &s->cap_narrow, 1,
	                    sizeof(*s->narrow))) < 0) ||
	    (err = pp_grow(d->ctx, (void **)&k->values, &k->cap_values, 1,
	                   sizeof(*k->values))) < 0 ||
	    (err = pp_grow(d->ctx, (void **)&k->labels, &k->cap_labels, 1,
	                   sizeof(*k->labels))) < 0)
		return err;
	pp_free(d->ctx, p->samples);
	pp_free(d->ctx, p->sample_locs);
	pp_free(d->ctx, p->values);
	pp_free(d->ctx, p->labels);
	pp_free(d->ctx, p->sample_labels);
	sink_to_profile(k, p);
	if (!s->wide) {
		p->sample_locs = s->narrow;
		p->loc_bytes = 2;
		pp_profile__in(p)->cap_sample_locs = s->cap_narrow;
		s->narrow = NULL;
	}
	pp_free(d->ctx, k->vals);
	memset(k, 0, sizeof(*k));
	return 0;
}
