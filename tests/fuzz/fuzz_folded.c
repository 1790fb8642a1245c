/*
 * Fuzz target: the folded-stack reader ("a;b;c 42" lines) on its own, past the
 * format sniffing, so every input reaches the stack splitting and the counts.
 */
#include <stddef.h>
#include <stdint.h>

#include "profile/folded.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	ctx.max_size = 16 << 20;
	if (pp_folded__decode(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
