/*
 * Replays fuzz inputs through a fuzz target without libFuzzer, so every
 * normal build runs the committed corpus and past findings as regression
 * tests. Usage: replay FILE_OR_DIR... ; prints "N passed, 0 failed".
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
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
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
