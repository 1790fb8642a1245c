/*
 * Fuzz target: the reader (gzip detection and inflate, then profile.proto
 * decoding with every id and string index checked). Any input must give a
 * profile or a clean error: no crash, no leak, no read outside the buffer.
 */
#include <stddef.h>
#include <stdint.h>

#include "pprof/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	/* A small cap keeps zip bombs from dominating the fuzzer's time. */
	ctx.max_size = 16 << 20;
	if (pp_session_decode(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
