/*
 * Separate debug files (Debian's -dbgsym and -dbg packages, found by
 * build-id or .gnu_debuglink) hold zlib-compressed DWARF. libdwfl opens
 * such a file itself, inside dwfl_module_getdwarf, and libelf inflates
 * every compressed section with zlib on the spot: most of the time it took
 * to open libc's (libc6-dbg). There is no point between the two at which
 * inflate.c could step in as it does for a binary's own sections, so this
 * callback finds a debug file by build-id itself and hands libdwfl a copy:
 * an anonymous memory file with the debug sections inflated by libdeflate
 * straight into it and those symbolization never reads left empty (a
 * quarter off the start-up on libc and on a C++ -dbgsym-style file).
 * Any trouble and libdwfl gets the file itself; other lookups (by
 * .gnu_debuglink, dwz files) are libdwfl's standard search, as before.
 */
#define _GNU_SOURCE 1 /* memfd_create */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "symbolize/internal.h"

/* What becomes of one compressed debug section in the copy. */
struct moved {
	size_t index;
	const void *bytes; /* compressed, in the input's image */
	size_t len;
};

static size_t align_up(size_t n, size_t a)
{
	return a > 1 ? (n + a - 1) / a * a : n;
}

/* Section headers and the ELF header in the file's own encoding, through
 * libelf's translation (only 64-bit files are copied). */
static bool put(Elf *in, void *at, const void *mem, size_t size, int type)
{
	Elf_Data src = {.d_buf = (void *)mem,
	                .d_type = type,
	                .d_size = size,
	                .d_version = EV_CURRENT};
	Elf_Data dst = {.d_buf = at, .d_size = size, .d_version = EV_CURRENT};
	GElf_Ehdr eh;

	return gelf_getehdr(in, &eh) &&
	       gelf_xlatetof(in, &dst, &src, eh.e_ident[EI_DATA]) != NULL;
}

/*
 * The copy is the input file as it is, with each compressed debug section
 * inflated straight into the copy's pages after the input's bytes, the
 * ones symbolization never reads made empty, and a new section header
 * table at the end. Nothing else moves, so nothing else needs rewriting.
 * 1 when the copy cannot be made.
 */
static int write_copy(struct pp_ctx *ctx, Elf *in, int fd)
{
	struct libdeflate_decompressor *dec = NULL;
	GElf_Shdr *shdrs = NULL;
	struct moved *moved = NULL;
	bool *changed = NULL;
	size_t nmoved = 0, in_size, shnum, shstrndx, end, shoff, total = 0;
	const char *image = elf_rawfile(in, &in_size);
	char *map = MAP_FAILED;
	GElf_Ehdr eh;
	int err = 1;

	if (!image || gelf_getclass(in) != ELFCLASS64 ||
	    !gelf_getehdr(in, &eh) || elf_getshdrnum(in, &shnum) != 0 ||
	    elf_getshdrstrndx(in, &shstrndx) != 0 || shnum == 0)
		return 1;
	if (!(shdrs = pp_calloc(ctx, shnum, sizeof(*shdrs))) ||
	    !(moved = pp_calloc(ctx, shnum, sizeof(*moved))) ||
	    !(changed = pp_calloc(ctx, shnum, sizeof(*changed)))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	end = align_up(in_size, 16);
	for (size_t i = 0; i < shnum; i++) {
		Elf_Scn *scn = elf_getscn(in, i);
		GElf_Shdr *sh = &shdrs[i];
		const char *name;
		GElf_Chdr ch;

		if (!scn || !gelf_getshdr(scn, sh))
			goto done;
		if (!(name = pp_symbolize__compressed_debug(in, shstrndx, sh)))
			continue;
		if (pp_symbolize__is_unread(name)) {
			sh->sh_size = 0;
		} else if (pp_symbolize__zlib_section(in, scn, &ch,
		                                      &moved[nmoved].bytes,
		                                      &moved[nmoved].len) &&
		           ch.ch_addralign <= 4096 &&
		           (ch.ch_addralign & (ch.ch_addralign - 1)) == 0) {
			moved[nmoved++].index = i;
			sh->sh_offset = align_up(end, ch.ch_addralign);
			sh->sh_size = ch.ch_size;
			sh->sh_addralign = ch.ch_addralign;
			end = sh->sh_offset + ch.ch_size;
		} else {
			continue; /* left for libelf to inflate (or refuse) */
		}
		sh->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
		changed[i] = true;
	}
	if (nmoved == 0)
		goto done;
	shoff = align_up(end, 8);
	total = shoff + shnum * sizeof(Elf64_Shdr);
	if (ftruncate(fd, (off_t)total) != 0 ||
	    (map = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
	                0)) == MAP_FAILED)
		goto done;
	if (!(dec = libdeflate_alloc_decompressor())) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* The input's bytes but for the sections that move or empty, whose
	 * old places stay holes of the memory file. */
	memcpy(map, image,
	       eh.e_phoff + (size_t)eh.e_phnum * eh.e_phentsize <= in_size
	               ? eh.e_phoff + (size_t)eh.e_phnum * eh.e_phentsize
	               : in_size);
	for (size_t i = 1; i < shnum; i++) {
		const GElf_Shdr *sh = &shdrs[i];

		if (sh->sh_type != SHT_NOBITS && !changed[i] &&
		    sh->sh_offset <= in_size &&
		    sh->sh_size <= in_size - sh->sh_offset)
			memcpy(map + sh->sh_offset, image + sh->sh_offset,
			       sh->sh_size);
	}
	for (size_t k = 0; k < nmoved; k++) {
		const GElf_Shdr *sh = &shdrs[moved[k].index];
		size_t got = 0;

		if (libdeflate_zlib_decompress(dec, moved[k].bytes,
		                               moved[k].len,
		                               map + sh->sh_offset, sh->sh_size,
		                               &got) != LIBDEFLATE_SUCCESS ||
		    got != sh->sh_size)
			goto done;
	}
	for (size_t i = 0; i < shnum; i++)
		if (!put(in, map + shoff + i * sizeof(Elf64_Shdr), &shdrs[i],
		         sizeof(Elf64_Shdr), ELF_T_SHDR))
			goto done;
	eh.e_shoff = shoff;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	if (!put(in, map, &eh, sizeof(Elf64_Ehdr), ELF_T_EHDR))
		goto done;
	err = 0;
done:
	if (map != MAP_FAILED)
		munmap(map, total);
	if (dec)
		libdeflate_free_decompressor(dec);
	pp_free(ctx, changed);
	pp_free(ctx, moved);
	pp_free(ctx, shdrs);
	return err;
}

int pp_symbolize__inflated_copy(struct pp_ctx *ctx, Elf *in)
{
	int copy = memfd_create("pprof-c-debuginfo", MFD_CLOEXEC);

	if (copy >= 0 && write_copy(ctx, in, copy) != 0) {
		close(copy);
		copy = -1;
	}
	return copy;
}

/* The debug file of build-id bits in dir's .build-id tree, as a copy when
 * one can be made; -1 when dir has none that matches. */
static int open_in_dir(struct pp_symbolizer *s, const char *dir, size_t len,
                       const unsigned char *bits, int n, char **name)
{
	char path[4096], hex[2 * 64 + 1];
	const void *id;
	Elf *elf;
	int fd, copy = -1;

	if (n > 64)
		return -1;
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", bits[i]);
	if (len > INT_MAX ||
	    (size_t)snprintf(path, sizeof(path), "%.*s/.build-id/%.2s/%s.debug",
	                     (int)len, dir, hex, hex + 2) >= sizeof(path))
		return -1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (!(elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) ||
	    elf_kind(elf) != ELF_K_ELF ||
	    dwelf_elf_gnu_build_id(elf, &id) != n || memcmp(id, bits, n) != 0) {
		if (elf)
			elf_end(elf);
		close(fd);
		return -1;
	}
	/* A failed copy (even for want of memory) is not an error: the
	 * file itself still serves. libdwfl frees the name with free(). */
	copy = pp_symbolize__inflated_copy(s->ctx, elf);
	elf_end(elf);
	if (!(*name = strdup(path))) {
		if (copy >= 0)
			close(copy);
		close(fd);
		return -1;
	}
	if (copy < 0)
		return fd;
	close(fd);
	return copy;
}

/* The module's debug file by build-id in each absolute directory of the
 * debug path (where libdwfl's standard search looks first), or -1. */
static int open_by_build_id(struct pp_symbolizer *s, Dwfl_Module *mod,
                            char **name)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(mod, &bits, &vaddr), fd;

	if (n < 2)
		return -1;
	for (const char *p = s->debuginfo_path; *p;) {
		size_t len = strcspn(p, ":");

		if (p[0] == '/' &&
		    (fd = open_in_dir(s, p, len, bits, n, name)) >= 0)
			return fd;
		p += len;
		if (*p == ':')
			p++;
	}
	return -1;
}

int pp_symbolize__find_debuginfo(Dwfl_Module *mod, void **userdata,
                                 const char *modname, Dwarf_Addr base,
                                 const char *file_name,
                                 const char *debuglink_file,
                                 GElf_Word debuglink_crc,
                                 char **debuginfo_file_name)
{
	struct pp_symbolizer *s = *userdata;
	int fd;

	/* libdwfl asks again for a dwz supplementary file, naming it with
	 * no CRC (a .gnu_debuglink always has one); that one, and debug
	 * files found only by .gnu_debuglink, are libdwfl's to open. */
	if (s && !(debuglink_file && debuglink_crc == 0) &&
	    (fd = open_by_build_id(s, mod, debuginfo_file_name)) >= 0)
		return fd;
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base,
	                                    file_name, debuglink_file,
	                                    debuglink_crc, debuginfo_file_name);
}
