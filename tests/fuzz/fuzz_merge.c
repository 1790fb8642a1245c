/*
 * Fuzz target: merging two profiles (pprof's Merge, with its sample-type
 * reconciliation when the two differ), one at a time as the command line
 * merges files, and combining them with a base (-base, -diff_base,
 * -normalize). The input is two profiles separated by the 8 bytes
 * "PPMERGE!" (tests/fuzz/merge.dict names them); without the separator it
 * is one profile, merged with itself. Any input must give a profile or a
 * clean error: no crash, no leak, no read outside a buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pprof/session.h"
#include "pprof/transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char sep[] = "PPMERGE!";

/* Where the separator starts, or size. */
static size_t split_at(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + 8 <= size; i++)
		if (memcmp(data + i, sep, 8) == 0)
			return i;
	return size;
}

static void merge_all(struct pp_ctx *ctx, struct pp_profile *a,
                      struct pp_profile *b)
{
	struct pp_profile *both[2] = {a, b}, *out = NULL;
	const char *names[2] = {"a", "b"};
	struct pp_merger *m = NULL;

	if (pp_profile_merge(ctx, both, names, 2, &out) == 0)
		pp_profile_free(out);
	out = NULL;
	if (pp_merger_new(ctx, a, &m) == 0) {
		if (pp_merger_add(m, a, "a") == 0 &&
		    pp_merger_add(m, b, "b") == 0 &&
		    pp_merger_finish(m, &out) == 0)
			pp_profile_free(out);
		pp_merger_free(m);
	}
	for (int k = 0; k < 3; k++) {
		out = NULL;
		if (pp_profile_apply_base(ctx, a, b, k == 1, k == 2, names,
		                          &out) == 0)
			pp_profile_free(out);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *a = NULL, *b = NULL;
	size_t cut = split_at(data, size);
	size_t rest = cut < size ? cut + 8 : 0;

	/* A small cap keeps zip bombs from dominating the fuzzer's time. */
	ctx.max_size = 16 << 20;
	if (pp_session_decode(&ctx, "a", data, cut, &a) != 0)
		return -1;
	if (pp_session_decode(&ctx, "b", data + rest, size - rest, &b) != 0) {
		pp_profile_free(a);
		return -1;
	}
	merge_all(&ctx, a, b);
	pp_profile_free(a);
	pp_profile_free(b);
	return 0;
}
