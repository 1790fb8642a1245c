/*
 * The annotated instructions of the sampled functions matching a regex:
 * what disasm prints, weblist expands under each source line and the web
 * UI's disassembly view shows. Built once per report run (asm.c).
 */
#ifndef PP_REPORT_ASM_H
#define PP_REPORT_ASM_H

#include <stdint.h>

#include "report/internal.h"

/* A source frame of an instruction (strings in pp_asm.strings). */
struct pp_asm_frame {
	pp_str name, file; /* file: the full path as DWARF gives it */
	int64_t line;
};

struct pp_asm_insn {
	uint64_t addr; /* ELF address */
	uint32_t size; /* bytes */
	pp_str text;
	/* pprof's values: samples from this address up to the next
	 * instruction's (divided by the event count with -mean). */
	int64_t flat, cum;
	/* Frames at addr, innermost first: frames[first .. first + n). */
	uint32_t frame_first, nframes;
	/* Not disassembled: a profile location whose binary was not read,
	 * with the location's own lines as frames (weblist.c); text "". */
	bool synthetic;
};

struct pp_asm_routine {
	pp_str name;   /* the symbol's name, demangled */
	pp_str aka;    /* its aliases (same range), '\n'-separated; "" none */
	pp_str binary; /* the file it was read from */
	uint64_t start, end;
	int64_t flat, cum; /* sums over its nodes, undivided (as pprof) */
	uint32_t insn_first, ninsns;
};

struct pp_asm {
	struct pp_ctx *ctx;
	struct pp_strtab *strings;
	struct pp_asm_routine *routines; /* by name, then start */
	size_t nroutines, cap_routines;
	struct pp_asm_insn *insns;
	size_t ninsns, cap_insns;
	struct pp_asm_frame *frames;
	size_t nframes, cap_frames;
	/* Per mapping of the profile: its binary was found and read. */
	bool *found;
};

/*
 * The routines for symbol (a regex, or an address) on r's profile at
 * address granularity without inlines, at most max_funcs of them (the
 * heaviest by flat; negative: all, by name). With inlined, also the
 * symbols holding a sampled address one of whose frames (an inlined
 * function's too) matches by function or file name, as weblist finds
 * them; then no routine is no error (weblist also lists locations whose
 * binary is not there: found says which mappings were read). Errors as
 * pp_report_disasm.
 */
int pp_report__asm(struct pp_report *r, const char *symbol, int max_funcs,
                   bool inlined, struct pp_asm **out);
void pp_report__asm_free(struct pp_asm *a);

static inline const char *pp_asm_str(const struct pp_asm *a, pp_str s)
{
	return pp_strtab_get(a->strings, s);
}

#endif
