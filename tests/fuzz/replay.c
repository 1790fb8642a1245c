/*
 * Replays fuzz inputs through a fuzz target without libFuzzer, so every
 * normal build runs the committed corpus and past findings as regression
 * tests. Usage: replay FILE_OR_DIR... ; prints "N passed, N failed".
 *
 * An input fails when it cannot be read or when the target returns
 * anything but 0 or -1: libFuzzer keeps 0 and treats -1 as "do not add
 * to the corpus", and a target returns another value to flag an input as
 * a finding without crashing. (A crash or a sanitizer report ends the
 * replay itself, which fails the test too.)
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;
	int rc;

	if (!f) {
		fprintf(stderr, "replay: %s: cannot open\n", path);
		return -1;
	}
	do {
		if (len == cap) {
			uint8_t *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	rc = LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	if (rc != 0 && rc != -1) {
		fprintf(stderr,
		        "replay: %s: the target flagged it (returned %d)\n",
		        path, rc);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long ran = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: %s: not found\n", argv[i]);
			failed++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed += run_file(argv[i]) < 0;
			ran++;
			continue;
		}
		d = opendir(argv[i]);
		while (d && (e = readdir(d))) {
			char path[4096];

			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i],
			         e->d_name);
			failed += run_file(path) < 0;
			ran++;
		}
		if (d)
			closedir(d);
	}
	printf("replay: %lu passed, %lu failed\n", ran - failed, failed);
	return failed != 0;
}
