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
#include <stdio.h>
#include <string.h>

#include "pprof/decode.h"
#include "profile.pb-c.h"
#include "profile/idmap.h"
#include "profile/wire.h"
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

	/* The values of the sample being read. */
	int64_t *vals;
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
	struct pp_field f;
	int r;

	*id = 0;
	while ((r = pp_wire_next(&w, &f)) > 0)
		if (f.number == 1 && f.type == PP_WT_VARINT)
			*id = f.varint;
	return r;
}

/* Walk 1: counts, largest ids, and the string table. */
static int walk_strings(struct decoder *d)
{
	struct pp_wire w = d->top;
	struct pp_field f;
	uint64_t si = 0;
	int r;

	while ((r = pp_wire_next(&w, &f)) > 0) {
		uint64_t id;

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
	w = d->top;
	while (pp_wire_next(&w, &f) > 0) {
		pp_str s;

		if (f.number != F_STRING_TABLE)
			continue;
		if (f.type != PP_WT_LEN)
			return bad(d, "string table entry is not a string");
		if (si == 0 && f.len != 0)
			return bad(d, "string table[0] must be \"\"");
		s = pp_strtab_intern(d->p->strings, (const char *)f.data,
		                     f.len);
		if (s == PP_NONE)
			return pp_error(d->ctx, PP_ENOMEM,
			                "out of memory interning strings");
		d->strmap[si++] = s;
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

/* Walk 2: everything but locations and samples. */
static int walk_header(struct decoder *d)
{
	struct pp_wire w = d->top;
	struct pp_field f;
	struct pp_profile *p = d->p;
	int err = 0;

	while (pp_wire_next(&w, &f) > 0) {
		struct pp_value_type vt;
		pp_str s;

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
	struct pp_wire w = d->top;
	struct pp_field f;
	struct pp_line *lines = NULL;
	size_t cap_lines = 0;
	int err = 0;

	while (pp_wire_next(&w, &f) > 0) {
		if (f.number != F_LOCATION)
			continue;
		if ((err = add_location(d, &f, &lines, &cap_lines)) < 0)
			break;
	}
	pp_free(d->ctx, lines);
	return err;
}

static int parse_label(struct decoder *d, const uint8_t *data, size_t len,
                       struct pp_label *out)
{
	struct pp_wire w = {data, data + len};
	struct pp_field f;
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
	return 0;
}

/* One varint of a packed field; NULL when malformed. The one- and
 * two-byte cases are almost all location ids and values. */
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
	w.p = q;
	w.end = end;
	return pp_wire_varint(&w, out) ? w.p : NULL;
}

/*
 * Location ids of one sample field, packed or not, mapped to indices and
 * appended straight to the profile's location array. A packed field of len
 * bytes holds at most len ids, so room is made once per field.
 */
static int push_locations(struct decoder *d, const struct pp_field *f)
{
	struct pp_profile *p = d->p;
	const uint8_t *q, *end;
	uint32_t *out;
	size_t n = p->nsample_locs, most = f->type == PP_WT_LEN ? f->len : 1;
	uint64_t v;
	int err;

	if (f->type != PP_WT_LEN && f->type != PP_WT_VARINT)
		return bad(d, "bad location_id");
	if (n + most > UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many stack frames",
		                d->name);
	if ((err = pp_grow(d->ctx, (void **)&p->sample_locs,
	                   &p->cap_sample_locs, n + most,
	                   sizeof(*p->sample_locs))) < 0)
		return err;
	out = p->sample_locs;
	if (f->type == PP_WT_VARINT) {
		out[n] = pp_idmap_get(&d->locations, f->varint);
		if (out[n] == PP_NONE)
			return badf(d, "sample refers to unknown location %llu",
			            (unsigned long long)f->varint);
		p->nsample_locs = n + 1;
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
	p->nsample_locs = n;
	return 0;
}

/* Sample values, packed or not, into the decoder's per-sample buffer. */
static int push_values(struct decoder *d, const struct pp_field *f, size_t *n)
{
	const uint8_t *q, *end;
	size_t most = f->type == PP_WT_LEN ? f->len : 1;
	uint64_t v;
	int err;

	if (f->type != PP_WT_LEN && f->type != PP_WT_VARINT)
		return bad(d, "bad sample value");
	if ((err = pp_grow(d->ctx, (void **)&d->vals, &d->cap_vals, *n + most,
	                   sizeof(*d->vals))) < 0)
		return err;
	if (f->type == PP_WT_VARINT) {
		d->vals[(*n)++] = (int64_t)f->varint;
		return 0;
	}
	for (q = f->data, end = f->data + f->len; q < end;) {
		if (!(q = packed_varint(q, end, &v)))
			return bad(d, "bad sample value");
		d->vals[(*n)++] = (int64_t)v;
	}
	return 0;
}

static int add_sample(struct decoder *d, const struct pp_field *sf)
{
	struct pp_profile *p = d->p;
	struct pp_wire w = {sf->data, sf->data + sf->len};
	struct pp_field f;
	size_t loc_first = p->nsample_locs, label_first = p->nlabels;
	size_t nvals = 0, nt = p->nsample_types;
	struct pp_sample *smp;
	int r, err;

	if (sf->type != PP_WT_LEN)
		return bad(d, "bad sample");
	if (p->nsamples >= UINT32_MAX - 1)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many samples",
		                d->name);
	while ((r = pp_wire_next(&w, &f)) > 0) {
		switch (f.number) {
		case 1:
			if ((err = push_locations(d, &f)) < 0)
				return err;
			break;
		case 2:
			if ((err = push_values(d, &f, &nvals)) < 0)
				return err;
			break;
		case 3:
			if (f.type != PP_WT_LEN)
				return bad(d, "bad label");
			if (p->nlabels >= UINT32_MAX - 1)
				return pp_error(d->ctx, PP_ELIMIT,
				                "%s: too many labels", d->name);
			if ((err = pp_grow(d->ctx, (void **)&p->labels,
			                   &p->cap_labels, p->nlabels + 1,
			                   sizeof(*p->labels))) < 0 ||
			    (err = parse_label(d, f.data, f.len,
			                       &p->labels[p->nlabels])) < 0)
				return err;
			p->nlabels++;
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
	if ((err = pp_grow(d->ctx, (void **)&p->samples, &p->cap_samples,
	                   (size_t)p->nsamples + 1, sizeof(*p->samples))) < 0 ||
	    (err = pp_grow(d->ctx, (void **)&p->values, &p->cap_values,
	                   ((size_t)p->nsamples + 1) * nt,
	                   sizeof(*p->values))) < 0)
		return err;
	memcpy(p->values + (size_t)p->nsamples * nt, d->vals,
	       nt * sizeof(*d->vals));
	smp = &p->samples[p->nsamples++];
	smp->loc_first = (uint32_t)loc_first;
	smp->loc_count = (uint32_t)(p->nsample_locs - loc_first);
	smp->label_first = (uint32_t)label_first;
	smp->label_count = (uint32_t)(p->nlabels - label_first);
	return 0;
}

static int walk_samples(struct decoder *d)
{
	struct pp_wire w = d->top;
	struct pp_field f;
	int err;

	while (pp_wire_next(&w, &f) > 0) {
		if (f.number != F_SAMPLE)
			continue;
		if ((err = add_sample(d, &f)) < 0)
			return err;
	}
	return 0;
}

/* Reserve the big arrays once, from the counts of walk 1. */
static int reserve(struct decoder *d)
{
	struct pp_profile *p = d->p;
	size_t nsamples = d->count[F_SAMPLE];
	int err;

	if (nsamples >= UINT32_MAX)
		return pp_error(d->ctx, PP_ELIMIT, "%s: too many samples",
		                d->name);
	if ((err = pp_grow(d->ctx, (void **)&p->samples, &p->cap_samples,
	                   nsamples, sizeof(*p->samples))) < 0)
		return err;
	if ((err = pp_grow(d->ctx, (void **)&p->locations, &p->cap_locations,
	                   d->count[F_LOCATION], sizeof(*p->locations))) < 0)
		return err;
	return 0;
}

int pp_decode_proto(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                    size_t len, struct pp_profile **out)
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
	if (len == 0)
		return pp_error(ctx, PP_EFORMAT, "%s: empty input file", name);
	d.p = pp_profile_new(ctx);
	if (!d.p)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = pp_scratch_init(&d.scratch, ctx, 64 * 1024)) < 0 ||
	    (err = pp_grow(ctx, (void **)&d.vals, &d.cap_vals, 16,
	                   sizeof(*d.vals))) < 0)
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
	    (err = walk_locations(&d)) < 0 || (err = walk_samples(&d)) < 0)
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
	pp_free(ctx, d.vals);
	if (err < 0) {
		pp_profile_free(d.p);
		return err;
	}
	*out = d.p;
	return 0;
}

int pp_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
              size_t len, struct pp_profile **out)
{
	return pp_decode_proto(ctx, name, data, len, out);
}
