/*
 * Symbolization: fill in functions, files, lines and inlined frames for the
 * locations of mappings that have addresses but no function information
 * (gperftools profiles, perf_to_profile output, Go's -symbolize=none), in
 * process, from the binaries' ELF and DWARF through elfutils' libdw. No
 * subprocess is run and binutils need not be installed.
 *
 * For each mapping with unsymbolized locations the binary is found (see
 * pp_symbolize_opts), its build-id checked against the profile's, each
 * distinct runtime address translated to the ELF address (executables, PIE
 * executables and shared libraries alike, from the mapping's start and
 * offset and the file's program headers), and resolved to the whole inline
 * chain, innermost first, as profile.proto orders Location.line. Where DWARF
 * is missing the ELF symbol table (.symtab, then .dynsym) names the
 * function. Pseudo mappings ([vdso], [kernel.kallsyms], ...) are left as
 * they are.
 *
 * Problems with one binary (missing, not ELF, stripped, another
 * architecture, build-id mismatch) are warnings through pp_warn, once per
 * binary, naming it and the mapping; the rest of the profile is still
 * symbolized. Only allocation failure is an error.
 */
#ifndef PPROF_SYMBOLIZE_H
#define PPROF_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

/* How C++ and Rust names are shown; pprof's -symbolize=demangle=MODE. */
enum pp_demangle {
	PP_DEMANGLE_DEFAULT,   /* demangled, no parameters, no templates */
	PP_DEMANGLE_TEMPLATES, /* demangled, no parameters */
	PP_DEMANGLE_FULL,      /* demangled, everything */
	PP_DEMANGLE_NONE,      /* the names as the binary has them */
};

struct pp_symbolize_opts {
	/* Do nothing (-symbolize=none). Default false. */
	bool none;
	/* Re-symbolize mappings that already have functions. Default false. */
	bool force;
	/* Function names from the ELF symbol table only, no DWARF: no
	 * files, lines or inlined frames (pprof's -symbolize=fastlocal,
	 * which runs nm). Default false. */
	bool fast;
	/* Which of pprof's symbolizers run: local (the binaries) and remote
	 * (symbolz, pp_symbolz_symbolize, for mappings still without
	 * functions whose profile was fetched). -symbolize=local or
	 * fastlocal: local only; remote: remote only; default both, as
	 * pprof. pp_symbolize itself only does the local part and skips it
	 * when no_local. */
	bool no_local, no_remote;
	/* Default PP_DEMANGLE_DEFAULT. */
	enum pp_demangle demangle;
	/* The executable named on the command line: used for the main
	 * mapping (the profile's first), as pprof does. NULL: none. */
	const char *executable;
	/* PPROF_BINARY_PATH: directories separated by ':', each searched for
	 * BASENAME, FULL/PATH, BUILDID/BASENAME, .build-id/ab/cdef....debug
	 * and debug links. NULL: none. */
	const char *binary_path;
	/* Where distributions install separate debug files, ':'-separated
	 * (build-id and .gnu_debuglink layouts). NULL: "/usr/lib/debug". */
	const char *debug_dirs;
};

/*
 * pprof's renaming of mappings at load time, in every symbolization mode:
 * each mapping with a file name and no build-id whose binary is found in
 * binary_path (PPROF_BINARY_PATH's ':'-separated directories, each tried
 * for BASE, FILE, FILE.debug, FILEDIR/.debug/BASE.debug and
 * usr/lib/debug/FILEDIR/BASE.debug, the first ELF file winning) is named
 * after the file found. NULL or "": nothing is searched. PP_ENOMEM on
 * failure.
 */
int pp_symbolize_locate(struct pp_profile *p, const char *binary_path);

/*
 * Parse pprof's -symbolize value into o (leaving the path fields alone):
 * ':'-separated words none|no, local, fastlocal, remote, force,
 * demangle=none|full|templates|default (the first three set force too, as
 * in pprof). "" and NULL mean the defaults.
 * PP_EUSAGE with a message for anything else.
 */
int pp_symbolize_opts_parse(struct pp_ctx *ctx, const char *spec,
                            struct pp_symbolize_opts *o);

/* Symbolize p in place: functions are added (interned as usual), and each
 * resolved location gets its lines. PP_ENOMEM is the only error. */
int pp_symbolize(struct pp_ctx *ctx, struct pp_profile *p,
                 const struct pp_symbolize_opts *opts);

/*
 * Can path, a binary named explicitly, give symbols at all? 0 when libelf
 * reads it as an ELF file with sections or segments; else PP_EFORMAT with
 * a message naming it ("bin: ELF file holds only a header", "bin:
 * truncated ELF file"), which the caller reports as a warning.
 */
int pp_symbolize_check_binary(struct pp_ctx *ctx, const char *path);

/* ---- lower level: one binary at a time (benchmarks, tools, tests) ------- */

/* One frame of an inline chain. Strings are borrowed from the symbolizer
 * and valid until the next lookup or pp_symbolizer_free. */
struct pp_frame {
	const char *name;        /* demangled per the options; NULL unknown */
	const char *system_name; /* as in the binary (mangled) */
	const char *file;        /* NULL when unknown */
	int64_t line;            /* 0 when unknown */
};

struct pp_symbolizer;

/* A symbolizer with the given options (copied; the strings must outlive
 * it). Free with pp_symbolizer_free, which accepts NULL. */
int pp_symbolizer_new(struct pp_ctx *ctx, const struct pp_symbolize_opts *opts,
                      struct pp_symbolizer **out);
void pp_symbolizer_free(struct pp_symbolizer *s);

/*
 * Resolve ELF address addr of the binary at path (opened once and cached,
 * with its separate debug file if it has one). Frames go to *frames,
 * innermost first, *nframes of them (0 when nothing is known); the array is
 * the symbolizer's. PP_ENOTFOUND with a message when the file cannot be
 * used.
 */
int pp_symbolizer_lookup(struct pp_symbolizer *s, const char *path,
                         uint64_t addr, const struct pp_frame **frames,
                         size_t *nframes);

/*
 * The ELF address of runtime address addr in a mapping [start, limit) at
 * file offset offset of the binary at path: the file offset of addr, then
 * the virtual address that the loadable segment holding it gives that
 * offset. PP_ENOTFOUND when the file cannot be used.
 */
int pp_symbolizer_translate(struct pp_symbolizer *s, const char *path,
                            uint64_t start, uint64_t limit, uint64_t offset,
                            uint64_t addr, uint64_t *elf_addr);

/*
 * Demangle a C++ (Itanium) or Rust (legacy, v0) name for mode. Returns a
 * string to free with pp_free, or NULL when name is not mangled (or mode is
 * PP_DEMANGLE_NONE, or memory ran out).
 */
char *pp_demangle(struct pp_ctx *ctx, const char *name, enum pp_demangle mode);

/* The whole demangled name, parameters and gcc's " [clone .cold]" suffixes
 * included; NULL as pp_demangle. */
char *pp_demangle_verbatim(struct pp_ctx *ctx, const char *name);

/*
 * pprof's load-time pass over the names a profile already holds, run after
 * symbolization (and not with -symbolize=none): a function whose name is
 * empty or equal to its system name gets the system name demangled for
 * opts->demangle or, when it only looks like demangled C++, simplified as
 * pprof simplifies it (parameter lists and template arguments dropped).
 * opts->force, or a demangle mode other than the default, first resets
 * every name to its system name, as pprof's does. Functions whose names
 * become equal then share a row in every report. Functions
 * [local_first, local_end) are left alone: pp_symbolize made them from the
 * binaries, named for opts->demangle already (and Go's generic functions as
 * Go prints them, F[...], which a reset would lose).
 */
int pp_symbolize_names(struct pp_ctx *ctx, struct pp_profile *p,
                       const struct pp_symbolize_opts *opts,
                       uint32_t local_first, uint32_t local_end);

/* ---- disassembly (disasm, weblist) --------------------------------------- */

/*
 * The binary for a mapping of a profile, found as pp_symbolize finds it
 * (the executable for the main mapping, PPROF_BINARY_PATH, the mapping's
 * own path, build-id layouts). *path is borrowed from s. PP_ENOTFOUND with
 * the reason when nothing usable is found.
 */
int pp_symbolizer_find(struct pp_symbolizer *s, const char *file,
                       const char *build_id, bool is_main, const char **path);

/* A function symbol of a binary: [start, end) in ELF addresses. */
struct pp_func_sym {
	const char *name; /* demangled per the options */
	uint64_t start, end;
};

/*
 * The function symbols of the binary at path (.symtab, else .dynsym), by
 * start address; aliases at one address each have their entry. The array
 * is s's, valid until pp_symbolizer_free.
 */
int pp_symbolizer_functions(struct pp_symbolizer *s, const char *path,
                            const struct pp_func_sym **syms, size_t *n);

/* One machine instruction. */
struct pp_insn {
	uint64_t addr; /* ELF address */
	uint32_t size; /* bytes */
	char text[160];
};

/*
 * Disassemble [start, end) of the binary at path (ELF addresses) in
 * process with capstone: AT&T syntax, or Intel's with intel. Only bytes of
 * executable sections are decoded: a range that crosses a section boundary
 * goes on in the next executable section, and bytes capstone cannot decode
 * are one "(bad)" each. *out (free with pp_free) holds *n instructions.
 * PP_EUNSUPPORTED for a machine capstone is not set up for here.
 */
int pp_symbolizer_disasm(struct pp_symbolizer *s, const char *path,
                         uint64_t start, uint64_t end, bool intel,
                         struct pp_insn **out, size_t *n);

#endif
