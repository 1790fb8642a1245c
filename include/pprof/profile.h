/*
 * The in-memory profile model.
 *
 * A decoded profile is a set of flat arrays that refer to each other by dense
 * uint32_t indices; there are no pointers between records. The decoder maps
 * the file's arbitrary uint64 ids onto these indices and validates every
 * reference, so no code downstream sees a file id or an unchecked index.
 *
 * Strings are interned: every name is a pp_str, an index into the profile's
 * string table (pprof/strtab.h), and two names are equal exactly when their
 * indices are. Index 0 is the empty string.
 *
 * Ownership: the profile owns everything reachable from it; pp_profile_free
 * releases it all. Arrays are exactly as long as their counts say.
 */
#ifndef PPROF_PROFILE_H
#define PPROF_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pprof/error.h"
#include "pprof/strtab.h"

/* ---- records ------------------------------------------------------------- */

struct pp_value_type {
	pp_str type; /* "cpu", "alloc_space", ... */
	pp_str unit; /* "nanoseconds", "bytes", "count", ... */
};

struct pp_label {
	pp_str key;
	pp_str str;      /* string label; 0 for a numeric one */
	int64_t num;     /* numeric label value */
	pp_str num_unit; /* unit of num; 0 when unset */
};

struct pp_sample {
	uint32_t loc_first; /* range in pp_profile.sample_locs, leaf first */
	uint32_t loc_count;
};

/* Where a sample's labels are in pp_profile.labels. */
struct pp_label_range {
	uint32_t first, count;
};

struct pp_line {
	uint32_t function; /* index into functions, or PP_NONE */
	int64_t line;
	int64_t column;
};

struct pp_location {
	uint64_t id; /* the file's id, kept for raw output and re-encoding */
	uint64_t address;
	uint32_t mapping;    /* index into mappings, or PP_NONE */
	uint32_t line_first; /* range in pp_profile.lines: innermost first */
	uint32_t line_count;
	bool is_folded;
};

struct pp_function {
	uint64_t id;
	pp_str name;
	pp_str system_name;
	pp_str filename;
	int64_t start_line;
};

struct pp_mapping {
	uint64_t id;
	uint64_t start;
	uint64_t limit;
	uint64_t offset;
	pp_str file;
	pp_str build_id;
	bool has_functions;
	bool has_filenames;
	bool has_line_numbers;
	bool has_inline_frames;
	/* Not in profile.proto: the producer named each frame's function
	 * but gave no files or lines, and its addresses are the binary's own
	 * (`perf script`). The symbolizer adds files, lines and inlined
	 * frames from the binary's DWARF where the binary names the same
	 * function there, and leaves the frame as it is otherwise. */
	bool lines_from_binary;
};

struct pp_profile {
	struct pp_ctx *ctx; /* borrowed: allocation and errors */
	struct pp_strtab *strings;

	struct pp_value_type *sample_types;
	uint32_t nsample_types;
	pp_str default_sample_type; /* 0 when the file names none */

	struct pp_sample *samples;
	uint32_t nsamples;
	/* Location indices of all samples, loc_bytes each: 2 while every
	 * index fits in 16 bits (a profile of at most 65,536 locations, as
	 * most are: this is the model's biggest array, halved), else 4. Read
	 * through pp_profile_loc and the helpers below, never as an array
	 * of one type. */
	void *sample_locs;
	size_t nsample_locs;
	uint8_t loc_bytes;
	int64_t *values; /* nsamples * nsample_types, sample-major */
	struct pp_label *labels;
	size_t nlabels;
	/* Per sample, its range in labels; NULL while no sample has a
	 * label, as in most profiles (Go's CPU and heap profiles have
	 * none): 8 bytes a sample that would hold only zeros. Read through
	 * pp_sample_label_range and pp_sample_labels. */
	struct pp_label_range *sample_labels;

	struct pp_location *locations;
	uint32_t nlocations;
	struct pp_line *lines;
	size_t nlines;
	struct pp_function *functions;
	uint32_t nfunctions;
	struct pp_mapping *mappings;
	uint32_t nmappings;

	pp_str *comments;
	uint32_t ncomments;
	pp_str drop_frames; /* regex or 0 */
	pp_str keep_frames;
	int64_t time_nanos;
	int64_t duration_nanos;
	struct pp_value_type period_type;
	/* The file has a period type, even an empty one: pprof's raw then
	 * prints "PeriodType:  " (Java's legacy profiles have one). */
	bool has_period_type;
	int64_t period;
	pp_str doc_url;
};

/* An empty profile (string table holding ""). NULL on allocation failure.
 * Only this makes a profile: the builders keep what they need (the arrays'
 * capacities) beside the struct, so a struct pp_profile is never declared,
 * copied or allocated by hand. */
struct pp_profile *pp_profile_new(struct pp_ctx *ctx);
void pp_profile_free(struct pp_profile *p);

static inline const char *pp_profile_str(const struct pp_profile *p, pp_str s)
{
	return pp_strtab_get(p->strings, s);
}

/* The bytes of s, *len of them: a profile's strings may hold NUL bytes,
 * so what prints, compares or copies a name whole takes its length.
 * pp_profile_str's text stops at the first NUL. */
static inline const char *pp_profile_strn(const struct pp_profile *p, pp_str s,
                                          size_t *len)
{
	*len = pp_strtab_len(p->strings, s);
	return pp_strtab_get(p->strings, s);
}

/* String s of src interned in dst, whole (a profile's strings may hold
 * NUL bytes); PP_NONE when out of memory. */
static inline pp_str pp_profile_copy_str(struct pp_profile *dst,
                                         const struct pp_profile *src, pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(src, s, &n);

	return pp_strtab_intern(dst->strings, t, n);
}

static inline const int64_t *
pp_profile_sample_values(const struct pp_profile *p, uint32_t sample)
{
	return p->values + (size_t)sample * p->nsample_types;
}

/* Location index i of sample_locs. */
static inline uint32_t pp_profile_loc(const struct pp_profile *p, size_t i)
{
	if (p->loc_bytes == 2)
		return ((const uint16_t *)p->sample_locs)[i];
	return ((const uint32_t *)p->sample_locs)[i];
}

/* Location k of sample s's stack, 0 the leaf. */
static inline uint32_t pp_sample_loc(const struct pp_profile *p,
                                     const struct pp_sample *s, uint32_t k)
{
	return pp_profile_loc(p, (size_t)s->loc_first + k);
}

/* A sample's stack as it is stored: index i with pp_locs_at. */
struct pp_locs {
	const void *at;
	uint8_t bytes;
};

static inline struct pp_locs pp_sample_locs(const struct pp_profile *p,
                                            const struct pp_sample *s)
{
	struct pp_locs l = {(const char *)p->sample_locs +
	                            (size_t)s->loc_first * p->loc_bytes,
	                    p->loc_bytes};

	return l;
}

static inline uint32_t pp_locs_at(struct pp_locs l, size_t i)
{
	if (l.bytes == 2)
		return ((const uint16_t *)l.at)[i];
	return ((const uint32_t *)l.at)[i];
}

/* Where the labels of sample i are in p->labels. */
static inline struct pp_label_range
pp_sample_label_range(const struct pp_profile *p, uint32_t i)
{
	struct pp_label_range none = {0, 0};

	return p->sample_labels ? p->sample_labels[i] : none;
}

/* The labels of sample i, *count of them. */
static inline const struct pp_label *
pp_sample_labels(const struct pp_profile *p, uint32_t i, uint32_t *count)
{
	struct pp_label_range r = pp_sample_label_range(p, i);

	*count = r.count;
	return p->labels + r.first;
}

/* Sample s's stack into out (room for s->loc_count), leaf first. */
void pp_sample_stack(const struct pp_profile *p, const struct pp_sample *s,
                     uint32_t *out);

/* Whether the count locations from sample_locs index a and from index b
 * are the same. */
static inline bool pp_profile_locs_equal(const struct pp_profile *p, size_t a,
                                         size_t b, uint32_t count)
{
	const char *base = (const char *)p->sample_locs;

	return memcmp(base + a * p->loc_bytes, base + b * p->loc_bytes,
	              (size_t)count * p->loc_bytes) == 0;
}

/* Whether sample s's stack is the n locations at locs, leaf first. */
bool pp_sample_stack_is(const struct pp_profile *p, const struct pp_sample *s,
                        const uint32_t *locs, size_t n);

/*
 * Builders, used by every reader (profile.proto, legacy formats) and by
 * transforms. Each returns the new record's index through *out (when out is
 * not NULL), or a negative error code. Indices inside the records must
 * already be valid.
 */
int pp_profile_add_sample_type(struct pp_profile *p, pp_str type, pp_str unit);
int pp_profile_add_mapping(struct pp_profile *p, const struct pp_mapping *m,
                           uint32_t *out);
int pp_profile_add_function(struct pp_profile *p, const struct pp_function *f,
                            uint32_t *out);
/* Adds a location with nlines lines copied from lines. */
int pp_profile_add_location(struct pp_profile *p, const struct pp_location *l,
                            const struct pp_line *lines, size_t nlines,
                            uint32_t *out);
/* Adds a sample: locs leaf first, exactly nsample_types values. */
int pp_profile_add_sample(struct pp_profile *p, const uint32_t *locs,
                          size_t nlocs, const int64_t *values,
                          const struct pp_label *labels, size_t nlabels);
int pp_profile_add_comment(struct pp_profile *p, pp_str comment);

/*
 * Make room for nsamples more samples with nframes stack frames and
 * nlabels labels in all, so that adding them copies nothing: for builders
 * that know the sizes (a merge). Memory that is never used stays
 * untouched. PP_ENOMEM, or PP_ELIMIT past the model's 32-bit counts.
 */
int pp_profile_reserve(struct pp_profile *p, size_t nsamples, size_t nframes,
                       size_t nlabels);

/*
 * Make room for nlines more lines past p->nlines, which the caller then
 * writes and counts in p->nlines: for code that gives existing locations
 * their frames (symbolization). PP_ENOMEM, or PP_ELIMIT past 2^32 - 1
 * lines.
 */
int pp_profile_reserve_lines(struct pp_profile *p, size_t nlines);

/*
 * Replace p's stack frames (sample_locs) by the n 32-bit indices at locs,
 * which p takes over: allocated through p's ctx, room for at least n, and
 * at least one (every array of a profile is allocated). The old ones are
 * freed; the samples' loc_first and loc_count are the caller's to keep
 * right. For transforms that rewrite every stack in one pass (label
 * frames). They are narrowed as pp_profile_narrow_locs does.
 */
void pp_profile_set_sample_locs(struct pp_profile *p, uint32_t *locs, size_t n);

/*
 * Store the location indices in 16 bits each when every one fits (p has
 * at most 65,536 locations): for code that filled them 32 bits wide. The
 * half of the array this frees goes back to the system.
 */
void pp_profile_narrow_locs(struct pp_profile *p);

/*
 * What pprof's driver does to each profile it reads, before merging and
 * symbolizing (its locateBinaries): a profile without mappings (Go's
 * debug=1 text profiles, some converters' output) gets one placeholder
 * mapping, id 1 and all zero, holding every location, so that a binary
 * named on the command line symbolizes them; and exec_name, when not
 * NULL, becomes the first mapping's file name (pprof's "File:" line).
 * PP_ENOMEM on failure.
 */
int pp_profile_locate(struct pp_profile *p, const char *exec_name);

/* Intern a NUL-terminated string into p's table. PP_NONE on failure. */
pp_str pp_profile_intern(struct pp_profile *p, const char *s);

/*
 * The index of the sample type that reports use when none is asked for: the
 * profile's default_sample_type when it names one, else the last type.
 */
uint32_t pp_profile_default_index(const struct pp_profile *p);

/*
 * Resolve a -sample_index value: a type name ("alloc_space"; "inuse_" may be
 * left off), or a decimal index. NULL or "" gives the default. On error
 * records a message listing the valid names and returns PP_EUSAGE.
 */
int pp_profile_sample_index(const struct pp_profile *p, const char *spec,
                            uint32_t *out);

/* ---- -diff_base's mark -------------------------------------------------- */

/* -diff_base marks the base's samples with the string label
 * pprof::base=true (pprof's Sample.DiffBaseSample); reports take their
 * totals from them and flame graphs show them apart. The mark's two
 * strings in p, looked up once for the loops over samples: both PP_NONE
 * when p has no such label. */
struct pp_base_mark {
	pp_str key, value;
};

struct pp_base_mark pp_profile_base_mark(const struct pp_profile *p);

/* True if sample i of p carries the mark m of p (inline: it runs once a
 * sample in the tree's and the totals' loops). */
static inline bool pp_sample_is_base(const struct pp_profile *p, uint32_t i,
                                     struct pp_base_mark m)
{
	const struct pp_label *labels;
	uint32_t n;

	if (m.key == PP_NONE || m.value == PP_NONE)
		return false;
	labels = pp_sample_labels(p, i, &n);
	for (uint32_t j = 0; j < n; j++)
		if (labels[j].key == m.key && labels[j].str == m.value)
			return true;
	return false;
}

/* The same for one sample, the mark looked up. */
bool pp_profile_is_base_sample(const struct pp_profile *p, uint32_t i);

#endif
