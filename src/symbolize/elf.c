/* Opening binaries for symbolization, and runtime-to-ELF address
 * translation from their program headers. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbolize/internal.h"
#include "util/path.h"

const char *pp_symbolize__machine_name(int machine)
{
	switch (machine) {
	case EM_X86_64:
		return "x86-64";
	case EM_386:
		return "i386";
	case EM_AARCH64:
		return "aarch64";
	case EM_ARM:
		return "arm";
	case EM_PPC64:
		return "ppc64";
	case EM_S390:
		return "s390";
	case EM_RISCV:
		return "riscv";
	case EM_MIPS:
		return "mips";
	default:
		return "an unknown machine";
	}
}

static int fail(struct pp_ctx *ctx, struct pp_symfile *f, const char *why)
{
	f->failure = pp_strdup(ctx, why);
	return f->failure ? 0 : PP_ENOMEM;
}

/* Is path an ELF file? Sets a reason when it is not. */
static int check_elf(struct pp_ctx *ctx, struct pp_symfile *f)
{
	unsigned char magic[4];
	char why[256];
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		return fail(ctx, f, why);
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n != 4 || memcmp(magic, ELFMAG, SELFMAG) != 0)
		return fail(ctx, f, "not an ELF file");
	return 1;
}

int pp_symbolize_check_binary(struct pp_ctx *ctx, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;
	size_t nsections = 0, nsegments = 0;
	struct stat st;
	GElf_Ehdr eh;
	Elf *elf;

	if (fd < 0)
		return pp_error(ctx, PP_EIO, "%s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		err = pp_error(ctx, PP_EFORMAT, "%s: truncated ELF file", path);
	else if ((elf_getshdrnum(elf, &nsections) != 0 || nsections == 0) &&
	         (elf_getphdrnum(elf, &nsegments) != 0 || nsegments == 0))
		err = pp_error(ctx, PP_EFORMAT,
		               "%s: ELF file holds only a header", path);
	else if (fstat(fd, &st) == 0 &&
	         (eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize >
	                  (uint64_t)st.st_size ||
	          eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize >
	                  (uint64_t)st.st_size))
		err = pp_error(ctx, PP_EFORMAT, "%s: truncated ELF file", path);
	elf_end(elf);
	close(fd);
	return err;
}

static int load_segments(struct pp_ctx *ctx, struct pp_symfile *f, Elf *elf)
{
	size_t n = 0;

	if (elf_getphdrnum(elf, &n) != 0 || n == 0)
		return 0;
	f->segs = pp_calloc(ctx, n, sizeof(*f->segs));
	if (!f->segs)
		return PP_ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    ph.p_filesz == 0)
			continue;
		f->segs[f->nsegs].offset = ph.p_offset;
		f->segs[f->nsegs].vaddr = ph.p_vaddr;
		f->segs[f->nsegs].filesz = ph.p_filesz;
		f->segs[f->nsegs].memsz = ph.p_memsz;
		f->segs[f->nsegs].exec = (ph.p_flags & PF_X) != 0;
		f->nsegs++;
	}
	return 0;
}

static int open_file(struct pp_symbolizer *s, struct pp_symfile *f)
{
	struct pp_ctx *ctx = s->ctx;
	const unsigned char *bits;
	void **userdata;
	GElf_Addr bias, vaddr;
	GElf_Ehdr eh;
	Elf *elf;
	int err, n;

	if ((err = check_elf(ctx, f)) <= 0)
		return err;
	f->dwfl = dwfl_begin(&s->callbacks);
	if (!f->dwfl)
		return fail(ctx, f, dwfl_errmsg(-1));
	dwfl_report_begin(f->dwfl);
	/* Base 0 with p_vaddr added: the module's addresses are the file's
	 * own virtual addresses, whatever its type. */
	f->mod = dwfl_report_elf(f->dwfl, pp_path_base(f->path), f->path, -1, 0,
	                         true);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod)
		return fail(ctx, f, dwfl_errmsg(-1));
	/* For pp_symbolize__find_debuginfo. */
	dwfl_module_info(f->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL);
	*userdata = s;
	elf = dwfl_module_getelf(f->mod, &bias);
	if (!elf || !gelf_getehdr(elf, &eh))
		return fail(ctx, f, dwfl_errmsg(-1));
	f->elf_type = eh.e_type;
	f->machine = eh.e_machine;
	if ((err = load_segments(ctx, f, elf)) < 0)
		return err;
	if ((err = pp_symbolize__inflate_debug(ctx, f, elf)) < 0)
		return err;
	n = dwfl_module_build_id(f->mod, &bits, &vaddr);
	for (int i = 0; i < n && i < 64; i++)
		snprintf(f->build_id + 2 * i, 3, "%02x", bits[i]);
	f->has_dwarf = dwfl_module_getdwarf(f->mod, &bias) != NULL;
	return 0;
}

void pp_symbolize__close(struct pp_ctx *ctx, struct pp_symfile *f)
{
	if (!f)
		return;
	pp_symbolize__free_index(ctx, f);
	pp_symbolize__free_units(ctx, f);
	pp_symbolize__fsyms_release(ctx, f);
	if (f->dwfl)
		dwfl_end(f->dwfl);
	pp_symbolize__free_inflated(ctx, f);
	pp_free(ctx, f->segs);
	pp_free(ctx, f->syms);
	pp_free(ctx, f->path);
	pp_free(ctx, f->failure);
	pp_free(ctx, f);
}

struct pp_symfile *pp_symbolize__open(struct pp_symbolizer *s, const char *path)
{
	struct pp_ctx *ctx = s->ctx;
	struct pp_symfile *f;

	for (size_t i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i]->path, path) == 0)
			return s->files[i];
	if (pp_grow(ctx, (void **)&s->files, &s->cap_files, s->nfiles + 1,
	            sizeof(*s->files)) < 0)
		return NULL;
	f = pp_calloc(ctx, 1, sizeof(*f));
	if (!f)
		return NULL;
	if (!(f->path = pp_strdup(ctx, path)) || open_file(s, f) < 0) {
		pp_symbolize__close(ctx, f);
		return NULL;
	}
	s->files[s->nfiles++] = f;
	return f;
}

uint64_t pp_symbolize__elf_addr(const struct pp_symfile *f, uint64_t start,
                                uint64_t limit, uint64_t offset, uint64_t addr)
{
	uint64_t fx;
	const struct pp_segment *hit = NULL;

	/* A fake mapping over the whole address space (Go's legacy
	 * profiles): the addresses are already the file's. */
	if (start == 0 && offset == 0 && (limit == 0 || limit == UINT64_MAX))
		return addr;
	fx = addr - start + offset;
	/* The segment that holds this file offset gives its address; an
	 * executable one first, as that is where code is. */
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct pp_segment *g = &f->segs[i];

		if (fx >= g->offset && fx - g->offset < g->memsz &&
		    (!hit || (g->exec && !hit->exec)))
			hit = g;
	}
	if (hit)
		return fx - hit->offset + hit->vaddr;
	/* Nothing matches: a fixed-address executable is already at its
	 * link-time addresses; anything else maps offsets one to one. */
	return f->elf_type == ET_EXEC ? addr : fx;
}
