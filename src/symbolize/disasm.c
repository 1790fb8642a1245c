/*
 * Disassembly for disasm and weblist: a binary's function symbols and the
 * instructions of an address range, decoded in process by capstone (no
 * objdump), from the same opened files the symbolizer uses.
 */
#include <capstone/capstone.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/internal.h"
#include "util/path.h"

void pp_symbolize__disasm_release(struct pp_symbolizer *s)
{
	if (s->cs_open) {
		csh h = (csh)s->cs_handle;

		cs_close(&h);
		s->cs_open = false;
	}
}

void pp_symbolize__fsyms_release(struct pp_ctx *ctx, struct pp_symfile *f)
{
	for (size_t i = 0; i < f->nfsym_names; i++)
		pp_free(ctx, f->fsym_names[i]);
	pp_free(ctx, f->fsym_names);
	pp_free(ctx, f->fsyms);
	f->fsym_names = NULL;
	f->fsyms = NULL;
	f->nfsyms = f->nfsym_names = 0;
	f->fsyms_loaded = false;
}

static int usable(struct pp_symbolizer *s, const char *path,
                  struct pp_symfile **out)
{
	struct pp_symfile *f = pp_symbolize__open(s, path);

	*out = f;
	if (!f)
		return pp_error(s->ctx, PP_ENOMEM, "out of memory");
	if (f->failure)
		return pp_error(s->ctx, PP_ENOTFOUND, "%s: %s", path,
		                f->failure);
	if (!f->mod)
		return pp_error(s->ctx, PP_ENOTFOUND, "%s: not usable", path);
	return 0;
}

int pp_symbolizer_find(struct pp_symbolizer *s, const char *file,
                       const char *build_id, bool is_main, const char **path)
{
	struct pp_symfile *f = pp_symbolize__find(s, file, build_id, is_main);

	*path = NULL;
	if (!f) {
		if (!s->why[0])
			return pp_error(s->ctx, PP_ENOMEM, "out of memory");
		return pp_error(s->ctx, PP_ENOTFOUND, "mapping %s: %s",
		                file && file[0] ? file : "(main)", s->why);
	}
	*path = f->path;
	return 0;
}

static int load_fsyms(struct pp_symbolizer *s, struct pp_symfile *f)
{
	struct pp_ctx *ctx = s->ctx;
	size_t cap = 0, cap_names = 0;
	int err;

	if (f->fsyms_loaded)
		return 0;
	if ((err = pp_symbolize__load_symbols(ctx, f)) < 0)
		return err;
	f->fsyms_loaded = true;
	for (size_t i = 0; i < f->nsyms; i++) {
		const struct pp_sym *y = &f->syms[i];
		struct pp_func_sym *prev =
		        f->nfsyms ? &f->fsyms[f->nfsyms - 1] : NULL;
		char *dm;

		/* A sizeless symbol (a label in assembly) has no range to
		 * disassemble, as pprof's symbol readers skip it. */
		if (y->hi <= y->lo)
			continue;
		/* The same symbol from two tables. */
		if (prev && prev->start == y->lo && prev->end == y->hi &&
		    strcmp(f->syms[i - 1].name, y->name) == 0)
			continue;
		if ((err = pp_grow(ctx, (void **)&f->fsyms, &cap, f->nfsyms + 1,
		                   sizeof(*f->fsyms))) < 0)
			return err;
		dm = pp_demangle(ctx, y->name, s->opts.demangle);
		if (dm) {
			if ((err = pp_grow(ctx, (void **)&f->fsym_names,
			                   &cap_names, f->nfsym_names + 1,
			                   sizeof(*f->fsym_names))) < 0) {
				pp_free(ctx, dm);
				return err;
			}
			f->fsym_names[f->nfsym_names++] = dm;
		}
		f->fsyms[f->nfsyms].name = dm ? dm : y->name;
		f->fsyms[f->nfsyms].start = y->lo;
		f->fsyms[f->nfsyms].end = y->hi;
		f->nfsyms++;
	}
	return 0;
}

int pp_symbolizer_functions(struct pp_symbolizer *s, const char *path,
                            const struct pp_func_sym **syms, size_t *n)
{
	struct pp_symfile *f;
	int err;

	*syms = NULL;
	*n = 0;
	if ((err = usable(s, path, &f)) < 0 || (err = load_fsyms(s, f)) < 0)
		return err;
	*syms = f->fsyms;
	*n = f->nfsyms;
	return 0;
}

/* capstone set up for machine and syntax (kept open between calls). */
static int open_capstone(struct pp_symbolizer *s, const struct pp_symfile *f,
                         bool intel, csh *out)
{
	const char *why;
	cs_arch arch;
	cs_mode mode;
	csh h;

	if (s->cs_open && s->cs_machine == f->machine && s->cs_intel == intel) {
		*out = (csh)s->cs_handle;
		return 0;
	}
	pp_symbolize__disasm_release(s);
	switch (f->machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
		break;
	case EM_386:
		arch = CS_ARCH_X86;
		mode = CS_MODE_32;
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64;
		mode = CS_MODE_LITTLE_ENDIAN;
		break;
	default:
		return pp_error(s->ctx, PP_EUNSUPPORTED,
		                "%s: cannot disassemble code for %s", f->path,
		                pp_symbolize__machine_name(f->machine));
	}
	/* capstone is opened here, by the first disassembly of the run
	 * (capstone_loader.c). */
	if ((why = pp_symbolize__capstone_load()))
		return pp_error(s->ctx, PP_EUNSUPPORTED, "disassembly needs %s",
		                why);
	if (cs_open(arch, mode, &h) != CS_ERR_OK)
		return pp_error(s->ctx, PP_EUNSUPPORTED,
		                "%s: capstone cannot disassemble %s", f->path,
		                pp_symbolize__machine_name(f->machine));
	if (arch == CS_ARCH_X86)
		cs_option(h, CS_OPT_SYNTAX,
		          intel ? CS_OPT_SYNTAX_INTEL : CS_OPT_SYNTAX_ATT);
	s->cs_handle = (size_t)h;
	s->cs_open = true;
	s->cs_machine = f->machine;
	s->cs_intel = intel;
	*out = h;
	return 0;
}

static int push_insn(struct pp_ctx *ctx, struct pp_insn **v, size_t *n,
                     size_t *cap, uint64_t addr, uint32_t size,
                     const char *mnemonic, const char *ops)
{
	struct pp_insn *in;
	int err;

	if ((err = pp_grow(ctx, (void **)v, cap, *n + 1, sizeof(**v))) < 0)
		return err;
	in = &(*v)[(*n)++];
	in->addr = addr;
	in->size = size;
	/* capstone's mnemonic and operands fit (its own buffers are 32 and
	 * 160 bytes); a longer text would be cut. */
	{
		size_t m = strlen(mnemonic), o = ops ? strlen(ops) : 0;
		size_t cap_text = sizeof(in->text) - 1;

		if (m > cap_text)
			m = cap_text;
		memcpy(in->text, mnemonic, m);
		if (o && m + 1 < cap_text) {
			in->text[m++] = ' ';
			if (o > cap_text - m)
				o = cap_text - m;
			memcpy(in->text + m, ops, o);
			m += o;
		}
		in->text[m] = '\0';
	}
	return 0;
}

/* Decode [lo, hi) of one executable section's bytes (at address base). */
static int decode(struct pp_ctx *ctx, csh h, cs_insn *insn,
                  const uint8_t *bytes, uint64_t base, uint64_t lo, uint64_t hi,
                  struct pp_insn **v, size_t *n, size_t *cap)
{
	const uint8_t *code = bytes + (lo - base);
	size_t left = (size_t)(hi - lo);
	uint64_t addr = lo;
	int err;

	while (left > 0) {
		if (cs_disasm_iter(h, &code, &left, &addr, insn)) {
			if ((err = push_insn(ctx, v, n, cap, insn->address,
			                     insn->size, insn->mnemonic,
			                     insn->op_str)) < 0)
				return err;
			continue;
		}
		/* Not an instruction capstone knows (or cut off by the
		 * range's end): one byte, as objdump's "(bad)". */
		if ((err = push_insn(ctx, v, n, cap, addr, 1, "(bad)", NULL)) <
		    0)
			return err;
		code++;
		left--;
		addr++;
	}
	return 0;
}

int pp_symbolizer_disasm(struct pp_symbolizer *s, const char *path,
                         uint64_t start, uint64_t end, bool intel,
                         struct pp_insn **out, size_t *n)
{
	struct pp_ctx *ctx = s->ctx;
	struct pp_symfile *f;
	struct pp_insn *v = NULL;
	size_t nv = 0, cap = 0;
	cs_insn *insn = NULL;
	GElf_Addr bias = 0;
	Elf_Scn *scn = NULL;
	Elf *elf;
	csh h = 0;
	int err;

	*out = NULL;
	*n = 0;
	if ((err = usable(s, path, &f)) < 0 ||
	    (err = open_capstone(s, f, intel, &h)) < 0)
		return err;
	if (!(elf = dwfl_module_getelf(f->mod, &bias)))
		return pp_error(ctx, PP_ENOTFOUND, "%s: %s", path,
		                dwfl_errmsg(-1));
	if (!(insn = cs_malloc(h)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	/* Sections in file order are in address order in every linker's
	 * output we know; a symbol's range may still span several (code
	 * laid out across .init, .plt and .text), so each executable
	 * section that overlaps it gives its part. */
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *d;
		uint64_t lo, hi, base;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		base = sh.sh_addr + bias;
		lo = start > base ? start : base;
		hi = end < base + sh.sh_size ? end : base + sh.sh_size;
		if (lo >= hi)
			continue;
		if (!(d = elf_getdata(scn, NULL)) || !d->d_buf ||
		    d->d_size < sh.sh_size)
			continue;
		if ((err = decode(ctx, h, insn, d->d_buf, base, lo, hi, &v, &nv,
		                  &cap)) < 0)
			goto fail;
	}
	cs_free(insn, 1);
	*out = v;
	*n = nv;
	return 0;
fail:
	cs_free(insn, 1);
	pp_free(ctx, v);
	return err;
}
