/* Symbolizer internals shared by the files of src/symbolize/. */
#ifndef PP_SYMBOLIZE_INTERNAL_H
#define PP_SYMBOLIZE_INTERNAL_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <libdeflate.h>
#include <stdbool.h>
#include <stdint.h>

#include "pprof/symbolize.h"

/* The function-like DIEs of one compile unit with code ranges, indexed
 * once: libdw's own scope lookup walks the whole unit for every address,
 * which is most of the time in big C++ units. */
struct pp_fn_die {
	Dwarf_Die die;
	uint32_t parent; /* enclosing function-like DIE, or UINT32_MAX */
	uint32_t depth;
	uint64_t entry; /* start of its first range */
	/* What a frame needs of the DIE, read on first use: following
	 * abstract origins for the name was a third of the lookup time. */
	bool described;
	bool inlined;          /* DW_TAG_inlined_subroutine */
	bool has_linkage;      /* has DW_AT_linkage_name, possibly by origin */
	const char *name;      /* linkage name, else plain name; may be NULL */
	const char *call_file; /* inlined: where the call is */
	int64_t call_line;
};

struct pp_fn_range {
	uint64_t lo, hi;
	uint32_t die;
};

struct pp_cu_index {
	Dwarf_Off cu;
	struct pp_fn_die *dies;
	size_t ndies;
	struct pp_fn_range *ranges; /* by lo */
	uint64_t *max_hi;           /* max of hi over ranges[0..i] */
	size_t nranges;
};

/* ELF function symbols by address, for names where DWARF has none:
 * libdwfl's own address-to-symbol lookup scans the whole table. */
struct pp_sym {
	uint64_t lo, hi; /* hi == lo: size unknown */
	const char *name;
	int rank; /* GLOBAL 0, WEAK 1, LOCAL 2: lower wins at one address */
};

/* Compile units by address (units.c). */
struct pp_unit_range {
	uint64_t lo, hi;
	uint32_t unit;
};

struct pp_unit_table {
	bool loaded;
	Dwarf_Die *units;
	size_t nunits;
	struct pp_unit_range *ranges; /* by lo */
	size_t nranges;
};

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
	struct pp_sym *syms; /* by lo; NULL until first needed */
	size_t nsyms;
	bool syms_loaded;
	/* Indexed compile units, by unit offset. */
	struct pp_cu_index **cus;
	size_t ncus, cap_cus;
	/* Units by address, when libdw finds none (no .debug_aranges). */
	struct pp_unit_table units;
	/* Function symbols for disassembly (disasm.c): names demangled,
	 * by start; fsym_names holds the demangled copies to free. */
	struct pp_func_sym *fsyms;
	size_t nfsyms;
	bool fsyms_loaded;
	char **fsym_names;
	size_t nfsym_names;
	/* Debug sections inflated by inflate.c; freed after dwfl_end. */
	void **inflated;
	size_t ninflated, cap_inflated;
};

struct pp_symbolizer {
	struct pp_ctx *ctx;
	struct pp_symbolize_opts opts;
	/* libdwfl keeps a pointer to these for each Dwfl's lifetime. */
	Dwfl_Callbacks callbacks;
	char *debuginfo_path;
	struct pp_symfile **files;
	size_t nfiles, cap_files;
	/* The last lookup's answer. */
	struct pp_frame *frames;
	size_t nframes, cap_frames;
	/* Demangled names by the address of the mangled one (strings in the
	 * binaries' mapped tables, stable while their files are open). A
	 * value of "" means "not mangled". */
	const char **dm_keys;
	char **dm_vals;
	size_t dm_mask, dm_n;
	/* fastlocal: symbol names without their ELF version ("@@GLIBC_2.34"),
	 * as nm prints them, by the address of the versioned name (so the
	 * demangle cache, keyed by address, stays right). */
	const char **unv_keys;
	char **unv_vals;
	size_t unv_mask, unv_n;
	/* disasm.c: capstone's handle (a csh), open for machine and syntax
	 * cs_machine/cs_intel when cs_open. */
	size_t cs_handle;
	bool cs_open, cs_intel;
	int cs_machine;
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

/* units.c: the unit DIE whose ranges hold addr (NULL: none), for binaries
 * in which libdw finds no unit by address. */
int pp_symbolize__unit_die(struct pp_ctx *ctx, struct pp_symfile *f,
                           uint64_t addr, Dwarf_Die **out);
void pp_symbolize__free_units(struct pp_ctx *ctx, struct pp_symfile *f);

/* inflate.c: inflate elf's zlib-compressed .debug_* sections in memory
 * with libdeflate before libdw reads them; the buffers are f's. */
int pp_symbolize__inflate_debug(struct pp_ctx *ctx, struct pp_symfile *f,
                                Elf *elf);
void pp_symbolize__free_inflated(struct pp_ctx *ctx, struct pp_symfile *f);
/* Sections symbolization never reads (variable locations, call frames,
 * macros), which are better left empty than inflated. */
bool pp_symbolize__is_unread(const char *name);
/* Whether scn is a zlib-compressed section that can be inflated: its
 * compression header and compressed bytes. */
bool pp_symbolize__zlib_section(Elf *elf, Elf_Scn *scn, GElf_Chdr *ch,
                                const void **bytes, size_t *len);
/* The name of the section sh when it is a compressed .debug_* section
 * with bytes in the file; NULL otherwise. */
const char *pp_symbolize__compressed_debug(Elf *elf, size_t shstrndx,
                                           const GElf_Shdr *sh);

/* debugcopy.c: libdwfl's find_debuginfo callback. It finds a separate
 * debug file as libdwfl's standard one does, and hands libdwfl an
 * in-memory copy of it with its debug sections inflated as above (module
 * userdata: the symbolizer). */
int pp_symbolize__find_debuginfo(Dwfl_Module *mod, void **userdata,
                                 const char *modname, Dwarf_Addr base,
                                 const char *file_name,
                                 const char *debuglink_file,
                                 GElf_Word debuglink_crc,
                                 char **debuginfo_file_name);
/* A descriptor of an anonymous memory file holding in (a 64-bit ELF file)
 * with its compressed debug sections inflated, or -1 when in has none or
 * the copy cannot be made. */
int pp_symbolize__inflated_copy(struct pp_ctx *ctx, Elf *in);

/* dwarf.c: the name Go's runtime gives a function, where its DWARF name
 * differs: an instantiated generic function prints its type arguments as
 * "[...]" (the runtime's funcNameForPrint: from the first '[' to the last
 * ']'), and the linker writes the middle dot of a local type's name
 * ("newFunc\u00b71", in type..eq functions) as '.'. NULL (pp_free
 * otherwise) when name has neither, or memory ran out. */
char *pp_symbolize__go_runtime_name(struct pp_ctx *ctx, const char *name);

/* dwarf.c: f->syms, the ELF function symbols by address (loaded once). */
int pp_symbolize__load_symbols(struct pp_ctx *ctx, struct pp_symfile *f);
/* disasm.c: what the disassembly keeps in s and f. */
void pp_symbolize__disasm_release(struct pp_symbolizer *s);
void pp_symbolize__fsyms_release(struct pp_ctx *ctx, struct pp_symfile *f);
/* capstone_loader.c: open capstone (the first time): NULL when it is
 * loaded, else why not ("libcapstone.so.4: cannot open ..."). */
const char *pp_symbolize__capstone_load(void);

/* dwarf.c: fill s->frames for ELF address addr of f. */
void pp_symbolize__free_index(struct pp_ctx *ctx, struct pp_symfile *f);
int pp_symbolize__frames(struct pp_symbolizer *s, struct pp_symfile *f,
                         uint64_t addr);

/* binpath.c: the binary for a mapping (its file name and build-id as the
 * profile gives them; is_main for the profile's first mapping). NULL when
 * nothing usable was found, with the reason in s->why; also NULL with
 * s->why "" when memory ran out. */
struct pp_symfile *pp_symbolize__find(struct pp_symbolizer *s, const char *file,
                                      const char *build_id, bool is_main);

#endif
