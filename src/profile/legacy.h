/*
 * Shared machinery of the legacy (pre-profile.proto) readers: gperftools'
 * binary CPU profile and the tcmalloc heap text. Both collect raw stacks of
 * addresses, then read the process's memory map that ends the file and
 * build the profile as pprof does: one location per distinct address, in
 * the order the stacks were read (frames pprof's clean-ups then dropped
 * included), each attached to the mapping that holds it.
 */
#ifndef PP_PROFILE_LEGACY_H
#define PP_PROFILE_LEGACY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

#define PP_LEGACY_MAXVALUES 4

struct pp_legacy_sample {
	size_t first; /* range in pp_legacy.addrs, leaf first */
	uint32_t n;
	/* Frames after the leaf that pprof's clean-ups removed (frames 1 to
	 * dropped of the range). They stay in addrs because pprof made their
	 * locations while parsing, before removing them: each still gets its
	 * location, in parse order, even when no sample uses it. */
	uint32_t dropped;
	int64_t values[PP_LEGACY_MAXVALUES];
	int64_t bytes; /* the "bytes" label (heap); used when has_bytes */
	bool has_bytes;
};

struct pp_legacy {
	struct pp_ctx *ctx;
	const char *name;
	uint64_t *addrs;
	size_t naddrs, cap_addrs;
	struct pp_legacy_sample *samples;
	size_t nsamples, cap_samples;
};

void pp_legacy__init(struct pp_legacy *lg, struct pp_ctx *ctx,
                     const char *name);
void pp_legacy__release(struct pp_legacy *lg);

/* Append one sample; addrs are copied as given (callers adjust them). */
int pp_legacy__add(struct pp_legacy *lg, const uint64_t *addrs, uint32_t n,
                   const int64_t *values, const int64_t *bytes);

/* The number of frames of sample s, and its frame k (0 the leaf), with the
 * frames dropped left out. */
static inline uint32_t pp_legacy__depth(const struct pp_legacy_sample *s)
{
	return s->n - s->dropped;
}

static inline uint64_t pp_legacy__frame(const struct pp_legacy *lg,
                                        const struct pp_legacy_sample *s,
                                        uint32_t k)
{
	return lg->addrs[s->first + (k ? k + s->dropped : 0)];
}

/* Drop frame 1 of sample s (it has at least two). */
void pp_legacy__drop_frame1(struct pp_legacy_sample *s);
/* pprof's cleanupDuplicateLocations: a leaf repeated as frame 1, adjusted
 * by -1 (the profiler saw it both in the signal context and on the
 * stack), loses the copy. */
void pp_legacy__drop_duplicate_leaves(struct pp_legacy *lg);

/*
 * A new profile with the given sample types (nt pairs of type and unit
 * names), period type and period, and drop_frames (NULL for none).
 */
int pp_legacy__new_profile(struct pp_ctx *ctx, const char *const *types,
                           size_t nt, const char *period_type,
                           const char *period_unit, int64_t period,
                           const char *drop_frames, struct pp_profile **out);

/* pprof's drop_frames for legacy profiles (addLegacyFrameInfo). */
extern const char pp_legacy__cpu_drop[];
extern const char pp_legacy__lock_drop[];
extern const char pp_legacy__alloc_drop[];
extern const char pp_legacy__alloc_keep[];

/* pprof's estimate of the unsampled count and size of a stack of a
 * Poisson-sampled heap profile with the given mean sampling rate. */
void pp_legacy__unsample(int64_t *count, int64_t *size, int64_t rate);

/*
 * Parse the memory map in text[0..len) (/proc/self/maps lines or pprof's
 * brief "start-end path (@offset) buildid" form; other lines are ignored)
 * and fill p, whose sample types are already set: mappings (main binary
 * first, pprof's merging and relocation heuristics), locations and samples.
 */
int pp_legacy__finish(struct pp_legacy *lg, const char *text, size_t len,
                      struct pp_profile *p);

/* Format sniffers and readers (legacy_cpu.c, legacy_heap.c). */
bool pp_legacy__is_cpu(const uint8_t *data, size_t len);
int pp_legacy__decode_cpu(struct pp_ctx *ctx, const char *name,
                          const uint8_t *data, size_t len,
                          struct pp_profile **out);
bool pp_legacy__is_heap(const uint8_t *data, size_t len);
int pp_legacy__decode_heap(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out);

/*
 * The text formats of legacy_text.c: Go's debug=1 count profiles
 * ("goroutine profile: total N"), contention profiles (gperftools, Go's
 * mutex and block) and threadz. Returns 1, having done nothing, when the
 * input is none of them; else 0 or a negative error.
 */
int pp_legacy__decode_java(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out);
/*
 * Java's heapz and contentionz (legacy_java.c); 1 when not one of them.
 * pp_legacy__java_finish builds p (its sample types set) from lg's
 * stacks of ids and the id lines in text[0..len), as for Java's CPU
 * profile too.
 */
int pp_legacy__java_finish(struct pp_legacy *lg, const char *text, size_t len,
                           struct pp_profile *p);

int pp_legacy__decode_text(struct pp_ctx *ctx, const char *name,
                           const uint8_t *data, size_t len,
                           struct pp_profile **out);

#endif
