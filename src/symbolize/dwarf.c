/*
 * Address to inline chain, through libdw: the compile unit that holds the
 * address (from .debug_aranges or the CU ranges), the nest of scopes at the
 * address (subprogram, then each inlined_subroutine inside it), the line
 * table row for the innermost frame, and each inlined call's DW_AT_call_file
 * and DW_AT_call_line for the frame around it. Where DWARF knows nothing,
 * the ELF symbol table names the function.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/internal.h"

static int own(struct pp_symbolizer *s, char *str)
{
	if (pp_grow(s->ctx, (void **)&s->owned, &s->cap_owned, s->nowned + 1,
	            sizeof(*s->owned)) < 0) {
		pp_free(s->ctx, str);
		return PP_ENOMEM;
	}
	s->owned[s->nowned++] = str;
	return 0;
}

static int push(struct pp_symbolizer *s, const char *system_name,
                const char *file, int64_t line)
{
	struct pp_frame *fr;
	char *dm;
	int err;

	if ((err = pp_grow(s->ctx, (void **)&s->frames, &s->cap_frames,
	                   s->nframes + 1, sizeof(*s->frames))) < 0)
		return err;
	fr = &s->frames[s->nframes++];
	fr->system_name = system_name;
	fr->name = system_name;
	fr->file = file;
	fr->line = line;
	if (system_name &&
	    (dm = pp_demangle(s->ctx, system_name, s->opts.demangle))) {
		if ((err = own(s, dm)) < 0)
			return err;
		fr->name = dm;
	}
	return 0;
}

/* The name the function is known by in the binary: its linkage name when it
 * has one (C++, Rust), else its plain name, following abstract origins and
 * specifications to the DIE that carries it. */
static const char *die_function_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *n;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a)) &&
	    (n = dwarf_formstring(&a)))
		return n;
	if (dwarf_attr_integrate(die, DW_AT_name, &a) &&
	    (n = dwarf_formstring(&a)))
		return n;
	return NULL;
}

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* A file of the CU's line table, by DW_AT_call_file's index. */
static const char *call_file(Dwarf_Die *cu, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word idx;
	size_t nfiles;

	if (!dwarf_attr(die, DW_AT_call_file, &a) ||
	    dwarf_formudata(&a, &idx) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

static int64_t call_line(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	Dwarf_Word v;

	if (!dwarf_attr(die, DW_AT_call_line, &a) ||
	    dwarf_formudata(&a, &v) != 0)
		return 0;
	return (int64_t)v;
}

int pp_symbolize__frames(struct pp_symbolizer *s, struct pp_symfile *f,
                         uint64_t addr)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu, *scopes = NULL;
	Dwfl_Line *row;
	const char *file = NULL;
	int line = 0, nscopes, err = 0;

	for (size_t i = 0; i < s->nowned; i++)
		pp_free(s->ctx, s->owned[i]);
	s->nowned = 0;
	s->nframes = 0;
	if (f->failure || !f->mod)
		return 0;
	if ((row = dwfl_module_getsrc(f->mod, addr)) != NULL)
		file = dwfl_lineinfo(row, NULL, &line, NULL, NULL, NULL);
	cu = dwfl_module_addrdie(f->mod, addr, &bias);
	if (cu && (nscopes = dwarf_getscopes(cu, addr - bias, &scopes)) > 0) {
		int i = 0;

		while (i < nscopes && !is_function(&scopes[i]))
			i++;
		/* Past an inlined instance, dwarf_getscopes follows its
		 * abstract origin; the concrete callers come from the
		 * instance's own nest of scopes. */
		if (i < nscopes &&
		    dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			Dwarf_Die inl = scopes[i];

			free(scopes);
			scopes = NULL;
			nscopes = dwarf_getscopes_die(&inl, &scopes);
			i = 0;
		}
		for (; i < nscopes; i++) {
			Dwarf_Die *d = &scopes[i];

			if (!is_function(d))
				continue;
			if ((err = push(s, die_function_name(d), file, line)) <
			    0)
				break;
			if (dwarf_tag(d) != DW_TAG_inlined_subroutine)
				break; /* the out-of-line function ends it */
			file = call_file(cu, d);
			line = (int)call_line(d);
		}
	}
	free(scopes); /* libdw allocates it with malloc */
	if (err < 0)
		return err;
	if (s->nframes == 0) {
		GElf_Off off;
		GElf_Sym sym;
		const char *name = dwfl_module_addrinfo(f->mod, addr, &off,
		                                        &sym, NULL, NULL, NULL);

		if (name || file)
			err = push(s, name, file, file ? line : 0);
	}
	return err;
}
