/*
 * Fuzz target: the gperftools legacy heap reader on its own, past the
 * format sniffing, so every input reaches the record parser and the
 * /proc/self/maps text after it.
 */
#include <stddef.h>
#include <stdint.h>

#include "profile/legacy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	ctx.max_size = 16 << 20;
	if (pp_legacy__decode_heap(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
