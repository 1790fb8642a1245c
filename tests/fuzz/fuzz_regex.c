/*
 * Fuzz target: the regex option parser. The input is split at the first
 * NUL into a pattern and a subject; the pattern is compiled as a -focus
 * flag would be and, if it compiles, matched against the subject. A
 * pattern must compile or fail with a message -- never crash, hang in the
 * compiler, or read past the subject.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/regex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_regex *re = NULL;
	const uint8_t *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - data) : size;
	char *pattern = malloc(plen + 1);

	if (!pattern)
		return 0;
	memcpy(pattern, data, plen);
	pattern[plen] = '\0';
	if (pp_regex_compile(&ctx, "focus", pattern, &re) == 0) {
		const char *subject = nul ? (const char *)nul + 1 : "";
		size_t slen = nul ? size - plen - 1 : 0;

		pp_regex_match(re, subject, slen);
		pp_regex_matchz(re, pattern);
		pp_regex_free(re);
	}
	free(pattern);
	return 0;
}
