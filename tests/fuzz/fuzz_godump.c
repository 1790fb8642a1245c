/*
 * Fuzz target: the goroutine dump reader (debug=2, panic and SIGQUIT text)
 * on its own, past the format sniffing, so every input reaches the block,
 * frame, file-line and "created by" parsers and the labels made of them.
 */
#include <stddef.h>
#include <stdint.h>

#include "profile/godump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	ctx.max_size = 16 << 20;
	if (pp_godump__decode(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
