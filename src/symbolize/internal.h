/* Symbolizer internals shared by the files of src/symbolize/. */
#ifndef PP_SYMBOLIZE_INTERNAL_H
#define PP_SYMBOLIZE_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>

#include "pprof/symbolize.h"

struct pp_segment {
	uint64_t offset, vaddr, filesz, memsz;
	bool exec;
};

/* One binary, opened once: its ELF (and, found by libdwfl, its separate
 * debug file) as a one-module Dwfl reported at its link-time addresses, so
 * that lookups take ELF addresses. */
struct pp_symfile {
	char *path;
	char *failure; /* why it cannot be used; NULL when it can */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	int elf_type; /* ET_EXEC, ET_DYN, ... */
	int machine;
	char build_id[129]; /* hex; "" when the file has none */
	bool has_dwarf;
	bool warned;
	struct pp_segment *segs;
	size_t nsegs;
};

struct pp_symbolizer {
	struct pp_ctx *ctx;
	struct pp_symbolize_opts opts;
	/* libdwfl keeps a pointer to these for each Dwfl's lifetime. */
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	struct pp_symfile **files;
	size_t nfiles, cap_files;
	/* The last lookup's answer and the strings it made. */
	struct pp_frame *frames;
	size_t nframes, cap_frames;
	char **owned;
	size_t nowned, cap_owned;
	/* Why the last pp_symbolize__find found nothing usable. */
	char why[1024];
};

/* elf.c: open (or find in the cache) the binary at path. Never NULL
 * unless memory ran out; a file that cannot be used has failure set. */
struct pp_symfile *pp_symbolize__open(struct pp_symbolizer *s,
                                      const char *path);
void pp_symbolize__close(struct pp_ctx *ctx, struct pp_symfile *f);
/* The ELF address of a runtime address in mapping (start, limit, offset). */
uint64_t pp_symbolize__elf_addr(const struct pp_symfile *f, uint64_t start,
                                uint64_t limit, uint64_t offset, uint64_t addr);
/* The ELF machine name ("x86-64", "aarch64", ...) for messages. */
const char *pp_symbolize__machine_name(int machine);

/* dwarf.c: fill s->frames for ELF address addr of f. */
int pp_symbolize__frames(struct pp_symbolizer *s, struct pp_symfile *f,
                         uint64_t addr);

/* binpath.c: the binary for a mapping (its file name and build-id as the
 * profile gives them; is_main for the profile's first mapping). NULL when
 * nothing usable was found, with the reason in s->why; also NULL with
 * s->why "" when memory ran out. */
struct pp_symfile *pp_symbolize__find(struct pp_symbolizer *s, const char *file,
                                      const char *build_id, bool is_main);

#endif
