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

static int dm_grow(struct pp_symbolizer *s)
{
	size_t size = s->dm_mask ? (s->dm_mask + 1) * 2 : 1024;
	const char **keys = pp_calloc(s->ctx, size, sizeof(*keys));
	char **vals = pp_calloc(s->ctx, size, sizeof(*vals));

	if (!keys || !vals) {
		pp_free(s->ctx, keys);
		pp_free(s->ctx, vals);
		return pp_error(s->ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; s->dm_mask && i <= s->dm_mask; i++) {
		size_t j;

		if (!s->dm_keys[i])
			continue;
		j = (size_t)(((uintptr_t)s->dm_keys[i] >> 3) *
		                     0x9e3779b97f4a7c15ull >>
		             20) &
		    (size - 1);
		while (keys[j])
			j = (j + 1) & (size - 1);
		keys[j] = s->dm_keys[i];
		vals[j] = s->dm_vals[i];
	}
	pp_free(s->ctx, s->dm_keys);
	pp_free(s->ctx, s->dm_vals);
	s->dm_keys = keys;
	s->dm_vals = vals;
	s->dm_mask = size - 1;
	return 0;
}

char *pp_symbolize__go_runtime_name(struct pp_ctx *ctx, const char *name)
{
	static const char middot[] = "\xc2\xb7";
	const char *open = strchr(name, '['), *close = strrchr(name, ']');
	size_t len = strlen(name), head = len, o = 0;
	char *out;

	if (!open || !close || close <= open)
		open = close = NULL;
	else
		head = (size_t)(open - name);
	if (!open && !strstr(name, middot))
		return NULL;
	if (!(out = pp_malloc(ctx, len + sizeof("[...]"))))
		return NULL;
	for (size_t i = 0; i < head; i++) {
		if (name[i] == middot[0] && name[i + 1] == middot[1]) {
			out[o++] = '.';
			i++;
		} else {
			out[o++] = name[i];
		}
	}
	if (open) {
		memcpy(out + o, "[...]", 5);
		o += 5;
		memcpy(out + o, close + 1, strlen(close + 1));
		o += strlen(close + 1);
	}
	out[o] = '\0';
	return out;
}

/* The display name of name (of a Go unit if go): demangled, or Go's
 * printed form, once per distinct string. */
static int display_name(struct pp_symbolizer *s, const char *name, bool go,
                        const char **out)
{
	bool mangled;
	size_t j;
	char *dm;
	int err;

	*out = name;
	if (!name)
		return 0;
	mangled = s->opts.demangle != PP_DEMANGLE_NONE && name[0] == '_' &&
	          (name[1] == 'Z' || name[1] == 'R');
	if (!mangled &&
	    !(go && (strchr(name, '[') || strstr(name, "\xc2\xb7"))))
		return 0;
	if ((s->dm_n + 1) * 2 > s->dm_mask + 1 && (err = dm_grow(s)) < 0)
		return err;
	j = (size_t)(((uintptr_t)name >> 3) * 0x9e3779b97f4a7c15ull >> 20) &
	    s->dm_mask;
	while (s->dm_keys[j] && s->dm_keys[j] != name)
		j = (j + 1) & s->dm_mask;
	if (!s->dm_keys[j]) {
		dm = mangled ? pp_demangle(s->ctx, name, s->opts.demangle)
		             : pp_symbolize__go_runtime_name(s->ctx, name);
		if (!dm && !(dm = pp_strdup(s->ctx, "")))
			return pp_error(s->ctx, PP_ENOMEM, "out of memory");
		s->dm_keys[j] = name;
		s->dm_vals[j] = dm;
		s->dm_n++;
	}
	if (s->dm_vals[j][0])
		*out = s->dm_vals[j];
	return 0;
}

static int push(struct pp_symbolizer *s, const char *system_name, bool go,
                const char *file, int64_t line)
{
	struct pp_frame *fr;
	int err;

	if ((err = pp_grow(s->ctx, (void **)&s->frames, &s->cap_frames,
	                   s->nframes + 1, sizeof(*s->frames))) < 0)
		return err;
	fr = &s->frames[s->nframes++];
	fr->system_name = system_name;
	fr->file = file;
	fr->line = line;
	return display_name(s, system_name, go, &fr->name);
}

/* The name the function is known by in the binary: its linkage name when it
 * has one (C++, Rust), else its plain name, following abstract origins and
 * specifications to the DIE that carries it. */
static const char *die_function_name(Dwarf_Die *die, bool *has_linkage)
{
	Dwarf_Attribute a;
	const char *n;

	*has_linkage = false;
	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a))) {
		*has_linkage = true;
		if ((n = dwarf_formstring(&a)))
			return n;
	}
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

/* Read once what frames need of an indexed DIE. */
static void describe(Dwarf_Die *cu, struct pp_fn_die *fn)
{
	if (fn->described)
		return;
	fn->described = true;
	fn->inlined = dwarf_tag(&fn->die) == DW_TAG_inlined_subroutine;
	fn->name = die_function_name(&fn->die, &fn->has_linkage);
	if (fn->inlined) {
		fn->call_file = call_file(cu, &fn->die);
		fn->call_line = call_line(&fn->die);
	}
}

/* ---- the per-unit index ------------------------------------------------ */

/* Tags whose children can hold code: walked into. */
static bool holds_code(int tag)
{
	switch (tag) {
	case DW_TAG_compile_unit:
	case DW_TAG_partial_unit:
	case DW_TAG_namespace:
	case DW_TAG_lexical_block:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

struct walk_item {
	Dwarf_Die die;
	uint32_t parent;
};

static int add_die(struct pp_ctx *ctx, struct pp_cu_index *x, size_t *cap_d,
                   size_t *cap_r, Dwarf_Die *die, uint32_t parent,
                   uint32_t *out)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	bool any = false;
	int err;

	*out = UINT32_MAX;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		if (!any) {
			if ((err = pp_grow(ctx, (void **)&x->dies, cap_d,
			                   x->ndies + 1, sizeof(*x->dies))) < 0)
				return err;
			x->dies[x->ndies] = (struct pp_fn_die){
			        .die = *die,
			        .parent = parent,
			        .depth = parent == UINT32_MAX
			                         ? 0
			                         : x->dies[parent].depth + 1,
			        .entry = lo,
			};
			*out = (uint32_t)x->ndies++;
			any = true;
		}
		if ((err = pp_grow(ctx, (void **)&x->ranges, cap_r,
		                   x->nranges + 1, sizeof(*x->ranges))) < 0)
			return err;
		x->ranges[x->nranges].lo = lo;
		x->ranges[x->nranges].hi = hi;
		x->ranges[x->nranges].die = *out;
		x->nranges++;
	}
	return 0;
}

static int by_lo(const void *a, const void *b)
{
	const struct pp_fn_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

/* Walk the unit once, depth first, keeping each DIE's enclosing function. */
static int build_index(struct pp_ctx *ctx, Dwarf_Die *cu, struct pp_cu_index *x)
{
	struct walk_item *stack = NULL;
	size_t n = 0, cap = 0, cap_d = 0, cap_r = 0;
	Dwarf_Die child;
	int err = 0;

	if (dwarf_child(cu, &child) == 0) {
		if ((err = pp_grow(ctx, (void **)&stack, &cap, 1,
		                   sizeof(*stack))) < 0)
			goto done;
		stack[n].die = child;
		stack[n].parent = UINT32_MAX;
		n++;
	}
	while (n > 0) {
		/* The top of the stack is the next sibling to visit. */
		struct walk_item it = stack[n - 1];
		int tag = dwarf_tag(&it.die);
		uint32_t self = UINT32_MAX;
		bool down = false;

		if (dwarf_siblingof(&it.die, &stack[n - 1].die) != 0)
			n--;
		if (is_function(&it.die)) {
			if ((err = add_die(ctx, x, &cap_d, &cap_r, &it.die,
			                   it.parent, &self)) < 0)
				goto done;
			down = self != UINT32_MAX;
		} else {
			down = holds_code(tag);
			self = it.parent;
		}
		if (down && dwarf_child(&it.die, &child) == 0) {
			if ((err = pp_grow(ctx, (void **)&stack, &cap, n + 1,
			                   sizeof(*stack))) < 0)
				goto done;
			stack[n].die = child;
			stack[n].parent = self;
			n++;
		}
	}
	if (x->nranges) {
		qsort(x->ranges, x->nranges, sizeof(*x->ranges), by_lo);
		x->max_hi = pp_malloc(ctx, x->nranges * sizeof(*x->max_hi));
		if (!x->max_hi) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		for (size_t i = 0; i < x->nranges; i++)
			x->max_hi[i] = i && x->max_hi[i - 1] > x->ranges[i].hi
			                       ? x->max_hi[i - 1]
			                       : x->ranges[i].hi;
	}
done:
	pp_free(ctx, stack);
	return err;
}

static void free_one(struct pp_ctx *ctx, struct pp_cu_index *x)
{
	if (!x)
		return;
	pp_free(ctx, x->dies);
	pp_free(ctx, x->ranges);
	pp_free(ctx, x->max_hi);
	pp_free(ctx, x);
}

void pp_symbolize__free_index(struct pp_ctx *ctx, struct pp_symfile *f)
{
	for (size_t i = 0; i < f->ncus; i++)
		free_one(ctx, f->cus[i]);
	pp_free(ctx, f->cus);
	f->cus = NULL;
	f->ncus = f->cap_cus = 0;
}

/* The index of unit cu, built on first use. */
static int cu_index(struct pp_symbolizer *s, struct pp_symfile *f,
                    Dwarf_Die *cu, struct pp_cu_index **out)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	size_t lo = 0, hi = f->ncus;
	struct pp_cu_index *x;
	int err;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->cus[mid]->cu < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->ncus && f->cus[lo]->cu == off) {
		*out = f->cus[lo];
		return 0;
	}
	if ((err = pp_grow(s->ctx, (void **)&f->cus, &f->cap_cus, f->ncus + 1,
	                   sizeof(*f->cus))) < 0)
		return err;
	if (!(x = pp_calloc(s->ctx, 1, sizeof(*x))))
		return pp_error(s->ctx, PP_ENOMEM, "out of memory");
	x->cu = off;
	if ((err = build_index(s->ctx, cu, x)) < 0) {
		free_one(s->ctx, x);
		return err;
	}
	memmove(f->cus + lo + 1, f->cus + lo, (f->ncus - lo) * sizeof(*f->cus));
	f->cus[lo] = x;
	f->ncus++;
	*out = x;
	return 0;
}

/* The innermost function-like DIE whose ranges hold a; UINT32_MAX if none. */
static uint32_t innermost(const struct pp_cu_index *x, uint64_t a)
{
	size_t lo = 0, hi = x->nranges;
	uint32_t best = UINT32_MAX;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->ranges[mid].lo <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges[0..lo) start at or below a; walk back while any of them
	 * can still reach a. */
	for (size_t i = lo; i-- > 0 && x->max_hi[i] > a;) {
		const struct pp_fn_range *r = &x->ranges[i];

		if (a < r->hi && (best == UINT32_MAX ||
		                  x->dies[r->die].depth > x->dies[best].depth))
			best = r->die;
	}
	return best;
}

static int sym_order(const void *a, const void *b)
{
	const struct pp_sym *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->hi > y->hi ? -1 : x->hi < y->hi;
}

int pp_symbolize__load_symbols(struct pp_ctx *ctx, struct pp_symfile *f)
{
	int n = dwfl_module_getsymtab(f->mod);
	size_t cap = 0;

	if (f->syms_loaded)
		return 0;
	f->syms_loaded = true;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(
		        f->mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info),
		    bind = GELF_ST_BIND(sym.st_info);

		if (!name || !name[0] || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC &&
		     type != STT_NOTYPE))
			continue;
		if (pp_grow(ctx, (void **)&f->syms, &cap, f->nsyms + 1,
		            sizeof(*f->syms)) < 0)
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		f->syms[f->nsyms].lo = addr;
		f->syms[f->nsyms].hi = addr + sym.st_size;
		f->syms[f->nsyms].name = name;
		f->syms[f->nsyms].rank = bind == STB_GLOBAL ? 0
		                         : bind == STB_WEAK ? 1
		                                            : 2;
		f->nsyms++;
	}
	if (f->nsyms)
		qsort(f->syms, f->nsyms, sizeof(*f->syms), sym_order);
	return 0;
}

/* The function symbol holding addr (the best-ranked one of those that
 * start at the same place), as libdwfl's dwfl_module_addrinfo would
 * answer, in O(log n). */
static int find_symbol(struct pp_ctx *ctx, struct pp_symfile *f, uint64_t addr,
                       const struct pp_sym **out)
{
	size_t lo = 0, hi;
	int err;

	*out = NULL;
	if ((err = pp_symbolize__load_symbols(ctx, f)) < 0)
		return err;
	hi = f->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Back over symbols that start at or below addr: the nearest one
	 * that covers it (sized symbols may nest, e.g. aliases). */
	for (size_t i = lo; i-- > 0 && lo - i <= 64;) {
		const struct pp_sym *y = &f->syms[i];
		uint64_t end = y->hi;

		/* A sizeless symbol (assembly) reaches the next one: it
		 * holds addr only when no other symbol starts between. */
		if (end == y->lo)
			end = f->syms[lo - 1].lo != y->lo ? y->lo
			      : lo < f->nsyms             ? f->syms[lo].lo
			                                  : y->lo + 1;
		if (addr < end) {
			/* the best-ranked symbol starting at this address */
			while (i > 0 && f->syms[i - 1].lo == y->lo &&
			       addr < f->syms[i - 1].hi)
				y = &f->syms[--i];
			*out = y;
			return 0;
		}
	}
	return 0;
}

/* Go's file for compiler-made code; libdw joins it to the compile
 * directory ("./<autogenerated>"). */
static bool is_go_wrapper_file(const char *file)
{
	const char *base = file ? strrchr(file, '/') : NULL;

	base = base ? base + 1 : file;
	return base && strcmp(base, "<autogenerated>") == 0;
}

/* name without its ELF symbol version ("memcpy@@GLIBC_2.14" -> "memcpy"),
 * made once per name. */
static int unversioned(struct pp_symbolizer *s, const char *name,
                       const char **out)
{
	const char *at = strchr(name, '@');
	size_t j;

	*out = name;
	if (!at || at == name)
		return 0;
	if ((s->unv_n + 1) * 2 > s->unv_mask + 1 || !s->unv_keys) {
		size_t n = s->unv_keys ? (s->unv_mask + 1) * 2 : 64;
		const char **keys = pp_calloc(s->ctx, n, sizeof(*keys));
		char **vals = pp_calloc(s->ctx, n, sizeof(*vals));

		if (!keys || !vals) {
			pp_free(s->ctx, keys);
			pp_free(s->ctx, vals);
			return pp_error(s->ctx, PP_ENOMEM, "out of memory");
		}
		for (size_t i = 0; s->unv_keys && i <= s->unv_mask; i++) {
			if (!s->unv_keys[i])
				continue;
			j = ((uintptr_t)s->unv_keys[i] >> 3) & (n - 1);
			while (keys[j])
				j = (j + 1) & (n - 1);
			keys[j] = s->unv_keys[i];
			vals[j] = s->unv_vals[i];
		}
		pp_free(s->ctx, s->unv_keys);
		pp_free(s->ctx, s->unv_vals);
		s->unv_keys = keys;
		s->unv_vals = vals;
		s->unv_mask = n - 1;
	}
	j = ((uintptr_t)name >> 3) & s->unv_mask;
	while (s->unv_keys[j] && s->unv_keys[j] != name)
		j = (j + 1) & s->unv_mask;
	if (!s->unv_keys[j]) {
		size_t len = (size_t)(at - name);
		char *v = pp_malloc(s->ctx, len + 1);

		if (!v)
			return pp_error(s->ctx, PP_ENOMEM, "out of memory");
		memcpy(v, name, len);
		v[len] = '\0';
		s->unv_keys[j] = name;
		s->unv_vals[j] = v;
		s->unv_n++;
	}
	*out = s->unv_vals[j];
	return 0;
}

int pp_symbolize__frames(struct pp_symbolizer *s, struct pp_symfile *f,
                         uint64_t addr)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu;
	Dwfl_Line *row;
	struct pp_cu_index *x = NULL;
	const char *file = NULL, *symname = NULL;
	const struct pp_sym *sym = NULL;
	int line = 0, err = 0;
	bool go = false;
	uint32_t k;

	s->nframes = 0;
	if (f->failure || !f->mod)
		return 0;
	if (s->opts.fast) {
		/* nm's answer: the symbol's name, nothing more. */
		if ((err = find_symbol(s->ctx, f, addr, &sym)) < 0 || !sym ||
		    (err = unversioned(s, sym->name, &symname)) < 0)
			return err;
		return push(s, symname, false, NULL, 0);
	}
	if ((row = dwfl_module_getsrc(f->mod, addr)) != NULL)
		file = dwfl_lineinfo(row, NULL, &line, NULL, NULL, NULL);
	if ((err = find_symbol(s->ctx, f, addr, &sym)) < 0)
		return err;
	symname = sym ? sym->name : NULL;
	cu = dwfl_module_addrdie(f->mod, addr, &bias);
	if (!cu) {
		Dwarf_Line *l;

		if ((err = pp_symbolize__unit_die(s->ctx, f, addr, &cu)) < 0)
			return err;
		if (cu && dwfl_module_getdwarf(f->mod, &bias) && !file &&
		    (l = dwarf_getsrc_die(cu, addr - bias)) != NULL) {
			file = dwarf_linesrc(l, NULL, NULL);
			dwarf_lineno(l, &line);
		}
	}
	if (cu && (err = cu_index(s, f, cu, &x)) < 0)
		return err;
	go = cu && dwarf_srclang(cu) == DW_LANG_Go;
	k = x ? innermost(x, addr - bias) : UINT32_MAX;
	for (; k != UINT32_MAX; k = x->dies[k].parent) {
		struct pp_fn_die *fn = &x->dies[k];
		const char *name;

		describe(cu, fn);
		name = fn->name;
		/* As binutils and llvm-symbolizer: an out-of-line function
		 * that DWARF knows by its plain name only (a lambda's
		 * operator(), a template instantiated for a lambda) takes the
		 * mangled name of the ELF symbol that starts where it does.
		 * Plain C names stay: libc's symbol tables hold several
		 * aliases per address. */
		if (!fn->inlined && symname && symname[0] == '_' &&
		    (symname[1] == 'Z' || symname[1] == 'R') &&
		    !fn->has_linkage && sym->lo == fn->entry + bias)
			name = symname;
		/* An out-of-line function whose name DWARF cannot give (say,
		 * one in a dwz supplementary file that is not installed) is
		 * the symbol that holds the address. */
		if (!name && !fn->inlined)
			name = symname;
		/* Go's runtime leaves the compiler's wrappers (a pointer
		 * method calling its value method, at <autogenerated>:1) out
		 * of the stacks it records; so does this, but for a leaf. */
		if (!(go && s->nframes > 0 && is_go_wrapper_file(file)) &&
		    (err = push(s, name, go, file, line)) < 0)
			return err;
		if (!fn->inlined)
			break; /* the out-of-line function ends the chain */
		file = fn->call_file;
		line = (int)fn->call_line;
	}
	if (s->nframes == 0 && (symname || file))
		err = push(s, symname, go, file, file ? line : 0);
	return err;
}
