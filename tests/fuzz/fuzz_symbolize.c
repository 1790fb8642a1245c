/*
 * Fuzz target: the symbolizer's ELF/DWARF handling of a hostile binary.
 * The input is written to a scratch file that stands for a mapping's
 * binary; addresses taken from the input's first bytes are translated and
 * resolved through libdw, and the input (as a string) is demangled. A
 * broken binary must give a warning or no frames -- never a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pprof/symbolize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t word(const uint8_t *data, size_t size, size_t at)
{
	uint64_t v = 0;

	for (size_t i = 0; i < 8 && at + i < size; i++)
		v |= (uint64_t)data[at + i] << (8 * i);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolize_opts opts = {0};
	struct pp_symbolizer *s = NULL;
	char path[64], *name;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/pprof-c-fuzz-%ld.bin",
	         (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	opts.debug_dirs = "/nonexistent";
	if (pp_symbolizer_new(&ctx, &opts, &s) == 0) {
		/* Addresses: ones a small ELF's text would have, and ones read
		 * from the input itself. */
		uint64_t addrs[] = {0x1000, 0x1139, 0x401000,
		                    word(data, size, 24),
		                    word(data, size, size / 2)};

		for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
			const struct pp_frame *frames;
			size_t nframes;
			uint64_t elf;

			pp_symbolizer_lookup(s, path, addrs[i], &frames,
			                     &nframes);
			pp_symbolizer_translate(
			        s, path, 0x555555554000, 0x555555559000, 0,
			        0x555555554000 + addrs[i] % 0x5000, &elf);
		}
		pp_symbolizer_free(s);
	}
	unlink(path);
	name = malloc(size + 1);
	if (name) {
		char *d;

		memcpy(name, data, size);
		name[size] = '\0';
		d = pp_demangle(&ctx, name, PP_DEMANGLE_FULL);
		pp_free(&ctx, d);
		d = pp_demangle(&ctx, name, PP_DEMANGLE_DEFAULT);
		pp_free(&ctx, d);
		free(name);
	}
	return 0;
}
