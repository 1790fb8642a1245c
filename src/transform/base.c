/*
 * -base and -diff_base, as pprof's driver combines a profile with its base
 * (fetch.go): mark the base's samples (diff_base), scale the profile to the
 * base (normalize), negate the base, merge the two.
 */
#include <stdio.h>
#include <string.h>

#include "transform/internal.h"

#define BASE_KEY "pprof::base"

/* The n bytes at s into buf (cut to fit); the new length. */
static size_t put(char *buf, size_t used, size_t size, const char *s, size_t n)
{
	if (used >= size)
		return used;
	if (n > size - used)
		n = size - used;
	memcpy(buf + used, s, n);
	return used + n;
}

static size_t put_text(char *buf, size_t used, size_t size, const char *s)
{
	return put(buf, used, size, s, strlen(s));
}

/* p's sample types as "type/unit ...", names whole (NUL bytes too). */
static size_t describe_types(const struct pp_profile *p, char *buf, size_t used,
                             size_t size)
{
	for (uint32_t i = 0; i < p->nsample_types; i++) {
		size_t tn, un;
		const char *t =
		        pp_profile_strn(p, p->sample_types[i].type, &tn);
		const char *u =
		        pp_profile_strn(p, p->sample_types[i].unit, &un);

		if (i)
			used = put_text(buf, used, size, " ");
		used = put(buf, used, size, t, tn);
		used = put_text(buf, used, size, "/");
		used = put(buf, used, size, u, un);
	}
	return used;
}

/* Do a and b have a sample type of the same name? */
static bool shares_a_type(const struct pp_profile *a,
                          const struct pp_profile *b)
{
	for (uint32_t i = 0; i < a->nsample_types; i++)
		if (pp_transform__find_type(a, i, b) >= 0)
			return true;
	return false;
}

int pp_profile_check_base(struct pp_ctx *ctx, const struct pp_profile *a,
                          const struct pp_profile *b,
                          const char *const names[2])
{
	char msg[sizeof(ctx->message)];
	const char *bn = names && names[1] ? names[1] : "base";
	const char *an = names && names[0] ? names[0] : "the profile";
	size_t used = 0;
	bool same = a->nsample_types == b->nsample_types;

	for (uint32_t i = 0; same && i < a->nsample_types; i++)
		same = pp_transform__same_str(a, a->sample_types[i].type, b,
		                              b->sample_types[i].type) &&
		       pp_transform__same_str(a, a->sample_types[i].unit, b,
		                              b->sample_types[i].unit);
	if (same)
		return 0;
	used = put_text(msg, used, sizeof(msg), bn);
	used = put_text(msg, used, sizeof(msg),
	                ": base profile has sample types [");
	used = describe_types(b, msg, used, sizeof(msg));
	used = put_text(msg, used, sizeof(msg), "], ");
	used = put_text(msg, used, sizeof(msg), an);
	used = put_text(msg, used, sizeof(msg), " has [");
	used = describe_types(a, msg, used, sizeof(msg));
	used = put_text(msg, used, sizeof(msg), "]");
	return pp_error_bytes(ctx, PP_EUSAGE, msg, used);
}

/* pprof's ScaleN: multiply value i by ratios[i] (rounding), keeping only
 * the samples with a non-zero scaled value. The result is a copy. */
static int scaled_copy(struct pp_ctx *ctx, const struct pp_profile *p,
                       const double *ratios, const char *set_key,
                       struct pp_profile **out)
{
	struct pp_work w = {0};
	int64_t *vals = NULL;
	uint32_t nt = p->nsample_types;
	bool all_ones = true;
	int err;

	*out = NULL;
	for (uint32_t i = 0; i < nt; i++)
		all_ones = all_ones && ratios[i] == 1;
	if ((err = pp_work_init(ctx, p, &w)) < 0)
		return err;
	if (!all_ones) {
		vals = pp_malloc(ctx, ((size_t)p->nsamples * nt + 1) *
		                              sizeof(*vals));
		if (!vals) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		for (uint32_t s = 0; s < p->nsamples; s++)
			w.keep[s] = pp_transform__scale_values(
			        vals + (size_t)s * nt,
			        pp_profile_sample_values(p, s), ratios, nt);
		w.values = vals;
	}
	if (set_key) {
		w.set_key = set_key;
		w.set_value = "true";
	}
	err = pp_work_build(&w, out);
done:
	pp_work_release(&w);
	pp_free(ctx, vals);
	return err;
}

int pp_profile_apply_base(struct pp_ctx *ctx, const struct pp_profile *prof,
                          const struct pp_profile *base, bool diff,
                          bool normalize, const char *const names[2],
                          struct pp_profile **out)
{
	struct pp_profile *p2 = NULL, *b2 = NULL;
	struct pp_profile *both[2];
	const char *both_names[2] = {names ? names[0] : NULL,
	                             names ? names[1] : NULL};
	double *ratios = NULL;
	uint32_t nt = prof->nsample_types;
	int err;

	*out = NULL;
	/* As pprof: -normalize needs the same sample types (its Normalize),
	 * and otherwise the merge keeps the types both have, in the smaller
	 * unit of each; one with none in common is refused here, the two
	 * lists named. */
	if ((normalize || !shares_a_type(prof, base)) &&
	    (err = pp_profile_check_base(ctx, prof, base, names)) < 0)
		return err;
	ratios = pp_calloc(
	        ctx, (nt > base->nsample_types ? nt : base->nsample_types) + 1,
	        sizeof(*ratios));
	if (!ratios)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (normalize) {
		for (uint32_t i = 0; i < nt; i++) {
			int64_t bsum = 0, psum = 0;

			for (uint32_t s = 0; s < base->nsamples; s++)
				bsum += pp_profile_sample_values(base, s)[i];
			for (uint32_t s = 0; s < prof->nsamples; s++)
				psum += pp_profile_sample_values(prof, s)[i];
			ratios[i] = psum == 0 ? 0 : (double)bsum / (double)psum;
		}
		if ((err = scaled_copy(ctx, prof, ratios, NULL, &p2)) < 0)
			goto done;
	}
	for (uint32_t i = 0; i < base->nsample_types; i++)
		ratios[i] = -1;
	if ((err = scaled_copy(ctx, base, ratios, diff ? BASE_KEY : NULL,
	                       &b2)) < 0)
		goto done;
	both[0] = p2 ? p2 : (struct pp_profile *)prof;
	both[1] = b2;
	err = pp_profile_merge(ctx, both, both_names, 2, out);
done:
	pp_profile_free(p2);
	pp_profile_free(b2);
	pp_free(ctx, ratios);
	return err;
}
