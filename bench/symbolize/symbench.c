/*
 * symbench BIN ADDRS [--print]: resolve every ELF address in the file ADDRS
 * (hex, one a line) in BIN with libpprof's symbolizer, as pprof-c does for a
 * profile: one symbolizer, each address looked up once and in address order
 * (as pp_symbolize orders a profile's locations), full inline chains, C++
 * names demangled in full. Prints the time taken to stderr; with
 * --print, also the answers on stdout in `addr2line -a -f -i -C`'s layout,
 * so the two can be compared line by line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pprof/symbolize.h"

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolize_opts o = {0};
	struct pp_symbolizer *s = NULL;
	uint64_t *addrs = NULL;
	size_t n = 0, cap = 0, frames = 0;
	char line[128];
	bool print = argc > 3 && strcmp(argv[3], "--print") == 0;
	double t0, t1;
	FILE *fp;

	if (argc < 3) {
		fprintf(stderr, "usage: symbench BIN ADDRS [--print]\n");
		return 2;
	}
	if (!(fp = fopen(argv[2], "r"))) {
		perror(argv[2]);
		return 1;
	}
	while (fgets(line, sizeof(line), fp)) {
		if (n == cap) {
			cap = cap ? cap * 2 : 1024;
			addrs = realloc(addrs, cap * sizeof(*addrs));
			if (!addrs)
				return 1;
		}
		addrs[n++] = strtoull(line, NULL, 16);
	}
	fclose(fp);
	o.demangle = PP_DEMANGLE_FULL;
	t0 = now();
	/* --print keeps the file's order, to compare with addr2line's. */
	if (!print)
		qsort(addrs, n, sizeof(*addrs), by_value);
	if (pp_symbolizer_new(&ctx, &o, &s) < 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const struct pp_frame *f;
		size_t nf;

		if (pp_symbolizer_lookup(s, argv[1], addrs[i], &f, &nf) < 0) {
			fprintf(stderr, "symbench: %s\n", ctx.message);
			return 1;
		}
		frames += nf;
		if (!print)
			continue;
		printf("0x%016" PRIx64 "\n", addrs[i]);
		if (nf == 0)
			printf("??\n??:0\n");
		for (size_t k = 0; k < nf; k++) {
			printf("%s\n", f[k].name ? f[k].name : "??");
			if (f[k].file && f[k].line)
				printf("%s:%" PRId64 "\n", f[k].file,
				       f[k].line);
			else if (f[k].file)
				printf("%s:?\n", f[k].file);
			else
				printf("??:0\n");
		}
	}
	t1 = now();
	fprintf(stderr, "symbench: %zu addresses, %zu frames in %.3f s\n", n,
	        frames, t1 - t0);
	pp_symbolizer_free(s);
	free(addrs);
	return 0;
}
