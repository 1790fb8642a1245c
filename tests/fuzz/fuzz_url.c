/*
 * Fuzz target: which sources are URLs and how they are adjusted (Go's
 * net/url parsing and printing, pprof's adjustURL). The first byte picks
 * -seconds and -timeout, the rest up to a NUL is the source. The parser
 * must never crash or read past the string, must agree with
 * pp_fetch_is_url, and what it prints must hold no control character and
 * no "user:password@".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/fetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_fetch_url u;
	const uint8_t *nul;
	char *source;
	int seconds, timeout, rc;

	if (size == 0)
		return 0;
	seconds = (data[0] & 0x0f) - 2;
	timeout = (data[0] >> 4) - 2;
	data++;
	size--;
	nul = memchr(data, 0, size);
	if (nul)
		size = (size_t)(nul - data);
	if (!(source = malloc(size + 1)))
		return 0;
	memcpy(source, data, size);
	source[size] = '\0';
	rc = pp_fetch_adjust_url(&ctx, source, seconds, timeout, &u);
	if (rc < 0 || (rc == 1) != pp_fetch_is_url(source))
		abort();
	if (rc == 1) {
		const char *host = strstr(u.shown, "//");
		size_t hostlen;

		for (const char *p = u.shown; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				abort();
		/* No userinfo between "//" and the path. */
		if (!host)
			abort();
		host += 2;
		hostlen = strcspn(host, "/?#");
		if (memchr(host, '@', hostlen))
			abort();
		if (u.timeout_ms <= 0 || !u.url)
			abort();
		pp_fetch_url_release(&ctx, &u);
	}
	free(source);
	return 0;
}
