/*
 * Fuzz target: the filter stage and its option parsers. The input is ten
 * NUL-free lines -- focus, ignore, hide, show, show_from, tagfocus,
 * tagignore, tagshow, taghide, prune_from (an empty line is unset) --
 * then a NUL and a profile. The profile is decoded, filtered and reported
 * with top, so regexes, "key=value" tag filters and numeric ranges with
 * units ("1mb:", ":2kb", "100ms:1s") all meet hostile text and data.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/report.h"
#include "pprof/session.h"
#include "pprof/transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_filter_opts fo = {0};
	const char **slots[] = {&fo.focus,     &fo.ignore,    &fo.hide,
	                        &fo.show,      &fo.show_from, &fo.tagfocus,
	                        &fo.tagignore, &fo.tagshow,   &fo.taghide,
	                        &fo.prune_from};
	const uint8_t *nul = memchr(data, 0, size);
	struct pp_profile *p = NULL, *f = NULL;
	char *text, *line, *next;
	size_t tlen = nul ? (size_t)(nul - data) : size;

	if (!nul)
		return 0;
	text = malloc(tlen + 1);
	if (!text)
		return 0;
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	line = text;
	for (size_t i = 0; i < sizeof(slots) / sizeof(slots[0]) && line; i++) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (*line)
			*slots[i] = line;
		line = next;
	}
	ctx.max_size = 16 << 20;
	if (pp_session_decode(&ctx, "fuzz", nul + 1, size - tlen - 1, &p) ==
	            0 &&
	    pp_profile_filter(&ctx, p, &fo, &f) == 0) {
		struct pp_report_opts o = {0};
		struct pp_report *r = NULL;
		FILE *sink = fopen("/dev/null", "w");

		o.total_profile = p;
		if (sink && pp_report_new(&ctx, f, &o, &r) == 0)
			pp_report_top(r, sink);
		pp_report_free(r);
		if (sink)
			fclose(sink);
	}
	pp_profile_free(f);
	pp_profile_free(p);
	free(text);
	return 0;
}
