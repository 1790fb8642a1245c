/*
 * Fuzz target: the perf script text reader on its own, past the format
 * sniffing, so every input reaches the sample header, frame, symbol and DSO
 * parsers and the timestamps (a duration from two of them).
 */
#include <stddef.h>
#include <stdint.h>

#include "profile/perfscript.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	ctx.max_size = 16 << 20;
	if (pp_perfscript__decode(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
