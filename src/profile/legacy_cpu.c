/*
 * gperftools' CPU profile (the legacy binary format), read as pprof reads
 * it: five header words of the writer's word size and byte order (neither
 * is stored, so all four readings are tried), records of count, depth and
 * program counters, an end record (0, 1, 0), then the process's memory map
 * as text. See tests/golden/native/README.md for the details.
 */
#include <string.h>

#include "profile/legacy.h"

struct words {
	unsigned size; /* 4 or 8 */
	bool big;
};

static const struct words readings[] = {
        {4, false}, {4, true}, {8, false}, {8, true}};

static uint64_t word_at(const uint8_t *p, struct words w)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < w.size; i++) {
		unsigned k = w.big ? i : w.size - 1 - i;

		v = v << 8 | p[k];
	}
	return v;
}

/* The first reading whose header is 0, 3, 0 (C++) or 1 (Java), period > 0,
 * 0; -1 if none. */
static int header_reading(const uint8_t *data, size_t len, uint64_t *period,
                          bool *java)
{
	for (int r = 0; r < 4; r++) {
		struct words w = readings[r];
		uint64_t h[5];

		if (len < 5 * (size_t)w.size)
			continue;
		for (int i = 0; i < 5; i++)
			h[i] = word_at(data + (size_t)i * w.size, w);
		if (h[0] == 0 && h[1] == 3 && (h[2] == 0 || h[2] == 1) &&
		    h[3] > 0 && h[4] == 0) {
			*period = h[3];
			*java = h[2] == 1;
			return r;
		}
	}
	return -1;
}

bool pp_legacy__is_cpu(const uint8_t *data, size_t len)
{
	uint64_t period;
	bool java;

	return header_reading(data, len, &period, &java) >= 0;
}

/*
 * pprof's clean-ups of the raw stacks: a second frame shared by nearly all
 * samples is the signal handler's (removed, up to twice), and a leaf
 * duplicated as frame 1 (its address, adjusted by -1) is removed.
 */
static int clean_stacks(struct pp_legacy *lg)
{
	size_t margin = lg->nsamples / 32;

	for (int iter = 0; iter < 2; iter++) {
		/* Boyer-Moore majority vote, then a count to confirm: a frame
		 * in all but `margin` samples is the majority. */
		uint64_t cand = 0;
		size_t votes = 0, count = 0;

		for (size_t i = 0; i < lg->nsamples; i++) {
			const struct pp_legacy_sample *s = &lg->samples[i];

			if (pp_legacy__depth(s) < 2)
				continue;
			if (votes == 0) {
				cand = pp_legacy__frame(lg, s, 1);
				votes = 1;
			} else if (pp_legacy__frame(lg, s, 1) == cand) {
				votes++;
			} else {
				votes--;
			}
		}
		for (size_t i = 0; i < lg->nsamples; i++) {
			const struct pp_legacy_sample *s = &lg->samples[i];

			if (pp_legacy__depth(s) >= 2 &&
			    pp_legacy__frame(lg, s, 1) == cand)
				count++;
		}
		if (votes == 0 || count < lg->nsamples - margin)
			break;
		for (size_t i = 0; i < lg->nsamples; i++) {
			struct pp_legacy_sample *s = &lg->samples[i];

			if (pp_legacy__depth(s) >= 2 &&
			    pp_legacy__frame(lg, s, 1) == cand)
				pp_legacy__drop_frame1(s);
		}
	}
	return 0;
}

int pp_legacy__decode_cpu(struct pp_ctx *ctx, const char *name,
                          const uint8_t *data, size_t len,
                          struct pp_profile **out)
{
	struct pp_legacy lg;
	struct pp_profile *p = NULL;
	uint64_t period = 0, *stack = NULL;
	size_t cap = 0, at;
	struct words w;
	bool java = false;
	int r, err;

	*out = NULL;
	pp_legacy__init(&lg, ctx, name);
	if ((r = header_reading(data, len, &period, &java)) < 0)
		return pp_error(ctx, PP_EFORMAT,
		                "%s: unrecognized profile format", name);
	w = readings[r];
	if (period > INT64_MAX / 1000) {
		err = pp_error(ctx, PP_EFORMAT, "%s: sampling period too large",
		               name);
		goto done;
	}
	at = 5 * (size_t)w.size;
	while (at < len) {
		uint64_t count, depth;
		int64_t values[PP_LEGACY_MAXVALUES] = {0};
		size_t left;

		if (len - at < 2 * (size_t)w.size) {
			err = pp_error(ctx, PP_EFORMAT,
			               "%s: truncated CPU profile record at "
			               "offset %zu",
			               name, at);
			goto done;
		}
		count = word_at(data + at, w);
		depth = word_at(data + at + w.size, w);
		at += 2 * (size_t)w.size;
		left = len - at;
		/* pprof's bound is remaining bytes / 4; exact words here. */
		if (depth > left / w.size) {
			err = pp_error(
			        ctx, PP_EFORMAT,
			        "%s: CPU profile record at offset %zu "
			        "has %llu frames, more than the file holds",
			        name, at - 2 * (size_t)w.size,
			        (unsigned long long)depth);
			goto done;
		}
		if (depth == 1 && count == 0 && word_at(data + at, w) == 0) {
			at += w.size;
			break; /* the end record */
		}
		if ((err = pp_grow(ctx, (void **)&stack, &cap,
		                   (size_t)depth + 1, sizeof(*stack))) < 0)
			goto done;
		for (uint64_t i = 0; i < depth; i++) {
			uint64_t a = word_at(data + at, w);

			/* Return addresses point after the call (Java's
			 * frames are ids). */
			stack[i] = i > 0 && !java ? a - 1 : a;
			at += w.size;
		}
		if (count > (uint64_t)INT64_MAX / period / 1000) {
			err = pp_error(ctx, PP_EFORMAT,
			               "%s: sample count %llu too large", name,
			               (unsigned long long)count);
			goto done;
		}
		values[0] = (int64_t)count;
		values[1] = (int64_t)count * (int64_t)period * 1000;
		if ((err = pp_legacy__add(&lg, stack, (uint32_t)depth, values,
		                          NULL)) < 0)
			goto done;
	}
	if (java) {
		static const char *const types[] = {"samples", "count", "cpu",
		                                    "nanoseconds"};

		if ((err = pp_legacy__new_profile(
		             ctx, types, 2, "cpu", "nanoseconds",
		             (int64_t)period * 1000, pp_legacy__cpu_drop, &p)) <
		            0 ||
		    (err = pp_legacy__java_finish(&lg, (const char *)data + at,
		                                  len - at, p)) < 0)
			goto done;
		*out = p;
		p = NULL;
		goto done;
	}
	if ((err = clean_stacks(&lg)) < 0)
		goto done;
	if (!(p = pp_profile_new(ctx))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	{
		pp_str samples = pp_profile_intern(p, "samples"),
		       count_u = pp_profile_intern(p, "count"),
		       cpu = pp_profile_intern(p, "cpu"),
		       ns = pp_profile_intern(p, "nanoseconds"),
		       drop = pp_profile_intern(
		               p, "ProfileData::Add|ProfileData::prof_handler|"
		                  "CpuProfiler::prof_handler|__pthread_"
		                  "sighandler|__restore");

		if (samples == PP_NONE || count_u == PP_NONE ||
		    cpu == PP_NONE || ns == PP_NONE || drop == PP_NONE) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		if ((err = pp_profile_add_sample_type(p, samples, count_u)) <
		            0 ||
		    (err = pp_profile_add_sample_type(p, cpu, ns)) < 0)
			goto done;
		p->period_type.type = cpu;
		p->period_type.unit = ns;
		p->period = (int64_t)period * 1000;
		p->drop_frames = drop;
	}
	/* pprof parses the memory map before removing duplicated leaves;
	 * neither step depends on the other. */
	pp_legacy__drop_duplicate_leaves(&lg);
	if ((err = pp_legacy__finish(&lg, (const char *)data + at, len - at,
	                             p)) < 0)
		goto done;
	*out = p;
	p = NULL;
done:
	pp_free(ctx, stack);
	pp_legacy__release(&lg);
	pp_profile_free(p);
	return err;
}
