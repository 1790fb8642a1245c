/*
 * A fuzz target for testing replay.c itself: it flags (returns 1 for) any
 * input that starts with "flag", rejects (-1) one that starts with
 * "reject", and accepts the rest. The replay must fail on a flagged input
 * and pass on the others (tests/fuzz/meson.build).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && memcmp(data, "flag", 4) == 0)
		return 1;
	if (size >= 6 && memcmp(data, "reject", 6) == 0)
		return -1;
	return 0;
}
