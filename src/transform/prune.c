/*
 * drop_frames / keep_frames, as pprof's RemoveUninteresting applies them
 * after symbolization: a location whose function (name simplified: no
 * leading '.', cut at the first '(' that is not "(anonymous namespace)" or
 * "operator()") fully matches drop_frames and not keep_frames is cut from
 * every sample together with everything leafward of it, unless no frame
 * rootward of it is kept. Legacy profiles carry these: gperftools' signal
 * handler frames, allocator frames in heap profiles.
 */
#include <string.h>

#include "pprof/transform.h"
#include "transform/internal.h"
#include "util/regex.h"

enum { KEEP = 0, PRUNE = 1, PRUNE_BENEATH = 2 };

/* "^(RX)$" compiled, RX being the profile's string s whole (a NUL in it
 * is an ordinary character, as in Go). */
static int compile_full(struct pp_ctx *ctx, const char *what,
                        const struct pp_profile *p, pp_str s,
                        struct pp_regex **out)
{
	size_t len;
	const char *rx = pp_profile_strn(p, s, &len);
	char *full = pp_malloc(ctx, len + 5);
	int err;

	if (!full)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	memcpy(full, "^(", 2);
	memcpy(full + 2, rx, len);
	memcpy(full + 2 + len, ")$", 3);
	err = pp_regex_compilen(ctx, what, full, len + 4, out);
	pp_free(ctx, full);
	return err;
}

int pp_profile_remove_uninteresting(struct pp_ctx *ctx, struct pp_profile *p)
{
	struct pp_regex *drop = NULL, *keep = NULL;
	signed char *fmatch = NULL; /* per function: -1 unknown, 0, 1 */
	unsigned char *state = NULL;
	int err = 0;

	if (!p->drop_frames)
		return 0;
	if (compile_full(ctx, "drop_frames", p, p->drop_frames, &drop) < 0 ||
	    (p->keep_frames &&
	     compile_full(ctx, "keep_frames", p, p->keep_frames, &keep) < 0)) {
		/* pprof ignores a profile's bad regex; so do we, aloud. */
		pp_warn(ctx, "ignoring the profile's drop_frames: %s",
		        pp_ctx_message(ctx));
		ctx->message[0] = '\0';
		goto done;
	}
	fmatch = pp_malloc(ctx, (size_t)p->nfunctions + 1);
	state = pp_calloc(ctx, (size_t)p->nlocations + 1, 1);
	if (!fmatch || !state) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	memset(fmatch, -1, (size_t)p->nfunctions + 1);
	for (uint32_t l = 0; l < p->nlocations; l++) {
		struct pp_location *loc = &p->locations[l];
		uint32_t i;

		/* The outermost matching line. */
		for (i = loc->line_count; i-- > 0;) {
			uint32_t f = p->lines[loc->line_first + i].function;
			const char *name;
			size_t n;

			if (f == PP_NONE || !p->functions[f].name)
				continue;
			if (fmatch[f] < 0) {
				name = pp_profile_strn(p, p->functions[f].name,
				                       &n);
				name = pp_transform__simplify(name, n, &n);
				fmatch[f] = pp_regex_match(drop, name, n) &&
				            !(keep &&
				              pp_regex_match(keep, name, n));
			}
			if (fmatch[f])
				break;
		}
		if (i == UINT32_MAX)
			continue;
		if (i == loc->line_count - 1) {
			state[l] = PRUNE;
		} else {
			state[l] = PRUNE_BENEATH;
			loc->line_first += i + 1;
			loc->line_count -= i + 1;
		}
	}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		struct pp_sample *smp = &p->samples[s];
		const struct pp_locs locs = pp_sample_locs(p, smp);
		bool user = false;

		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint8_t st = state[pp_locs_at(locs, i)];

			if (st == KEEP) {
				user = true;
				continue;
			}
			if (!user)
				continue;
			/* Cut the matching frame (PRUNE) or keep its trimmed
			 * location (PRUNE_BENEATH), and all leafward of it. */
			{
				uint32_t cut = st == PRUNE ? i + 1 : i;

				smp->loc_first += cut;
				smp->loc_count -= cut;
			}
			break;
		}
	}
done:
	pp_free(ctx, fmatch);
	pp_free(ctx, state);
	pp_regex_free(drop);
	pp_regex_free(keep);
	return err;
}
