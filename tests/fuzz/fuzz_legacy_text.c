/*
 * Fuzz target: the legacy text readers (Go's debug=1 count profiles,
 * contention, threadz, Java heapz/contentionz) and, through pp_decode, the
 * dispatch that sends any other text to "unrecognized profile format".
 */
#include <stddef.h>
#include <stdint.h>

#include "pprof/decode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	ctx.max_size = 16 << 20;
	if (pp_decode(&ctx, "fuzz", data, size, &p) == 0)
		pp_profile_free(p);
	return 0;
}
