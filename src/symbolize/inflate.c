/*
 * Inflating an ELF's compressed debug sections with libdeflate before libdw
 * reads them. Go and many distributions compress .debug_* (SHF_COMPRESSED,
 * zlib); libelf inflates them with zlib when libdw opens the file, which
 * was half of the time it took to symbolize against such a binary.
 * libdeflate is about 3x faster at it. The inflated bytes replace the
 * section's data in the in-memory ELF (the file is never written), and the
 * section stops being marked compressed, as libelf itself does once it has
 * inflated one, so libdw reads the bytes as they are. A section this
 * cannot handle is left for libelf to inflate as before.
 */
#include <gelf.h>
#include <libdeflate.h>
#include <string.h>

#include "symbolize/internal.h"

/* zlib cannot expand more than 1032 times; a header that claims more is
 * not to be believed. */
#define MAX_RATIO 1032

/* Variable locations, call-frame information and macros: symbolization
 * reads none of them, and libdw would inflate them all when it opens the
 * file. They are made empty instead. */
static const char *const unread[] = {".debug_loc",     ".debug_loclists",
                                     ".debug_frame",   ".debug_macro",
                                     ".debug_macinfo", NULL};

bool pp_symbolize__is_unread(const char *name)
{
	for (size_t i = 0; unread[i]; i++)
		if (strcmp(name, unread[i]) == 0)
			return true;
	return false;
}

bool pp_symbolize__zlib_section(Elf *elf, Elf_Scn *scn, GElf_Chdr *ch,
                                const void **bytes, size_t *len)
{
	size_t chsize = gelf_getclass(elf) == ELFCLASS32 ? sizeof(Elf32_Chdr)
	                                                 : sizeof(Elf64_Chdr);
	Elf_Data *raw = elf_rawdata(scn, NULL);

	if (!raw || !raw->d_buf || raw->d_size <= chsize ||
	    !gelf_getchdr(scn, ch) || ch->ch_type != ELFCOMPRESS_ZLIB ||
	    ch->ch_size == 0 || ch->ch_size / MAX_RATIO > raw->d_size)
		return false;
	*bytes = (const char *)raw->d_buf + chsize;
	*len = raw->d_size - chsize;
	return true;
}

const char *pp_symbolize__compressed_debug(Elf *elf, size_t shstrndx,
                                           const GElf_Shdr *sh)
{
	const char *name;

	if (!(sh->sh_flags & SHF_COMPRESSED) || sh->sh_type == SHT_NOBITS ||
	    !(name = elf_strptr(elf, shstrndx, sh->sh_name)) ||
	    strncmp(name, ".debug_", 7) != 0)
		return NULL;
	return name;
}

/* The inflated bytes of scn (*out: pp_free; ch: its compression header),
 * or *out NULL when it is not a section that can be inflated. */
static int inflate_section(struct pp_ctx *ctx, Elf *elf,
                           struct libdeflate_decompressor *dec, Elf_Scn *scn,
                           void **out, GElf_Chdr *ch)
{
	const void *bytes;
	size_t len, got = 0;
	void *buf;

	*out = NULL;
	if (!pp_symbolize__zlib_section(elf, scn, ch, &bytes, &len))
		return 0;
	if (!(buf = pp_malloc(ctx, ch->ch_size)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (libdeflate_zlib_decompress(dec, bytes, len, buf, ch->ch_size,
	                               &got) != LIBDEFLATE_SUCCESS ||
	    got != ch->ch_size) {
		pp_free(ctx, buf);
		return 0;
	}
	*out = buf;
	return 0;
}

/* Inflate one section in place; 0 with no change when it is not as
 * expected. */
static int inflate_one(struct pp_ctx *ctx, struct pp_symfile *f, Elf *elf,
                       struct libdeflate_decompressor *dec, Elf_Scn *scn,
                       GElf_Shdr *sh)
{
	GElf_Chdr ch;
	Elf_Data *d;
	void *buf;
	int err;

	if (pp_grow(ctx, (void **)&f->inflated, &f->cap_inflated,
	            f->ninflated + 1, sizeof(*f->inflated)) < 0)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = inflate_section(ctx, elf, dec, scn, &buf, &ch)) < 0 || !buf)
		return err;
	if (!(d = elf_getdata(scn, NULL))) {
		pp_free(ctx, buf);
		return 0;
	}
	f->inflated[f->ninflated++] = buf;
	d->d_buf = buf;
	d->d_size = ch.ch_size;
	d->d_type = ELF_T_BYTE;
	d->d_align = ch.ch_addralign;
	sh->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh->sh_size = ch.ch_size;
	sh->sh_addralign = ch.ch_addralign;
	gelf_update_shdr(scn, sh);
	return 0;
}

static void make_empty(Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	if (!d)
		return;
	d->d_size = 0;
	d->d_type = ELF_T_BYTE;
	sh->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh->sh_size = 0;
	gelf_update_shdr(scn, sh);
}

int pp_symbolize__inflate_debug(struct pp_ctx *ctx, struct pp_symfile *f,
                                Elf *elf)
{
	struct libdeflate_decompressor *dec = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int err = 0;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 0;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = pp_symbolize__compressed_debug(elf, shstrndx,
		                                            &sh)))
			continue;
		if (pp_symbolize__is_unread(name)) {
			make_empty(scn, &sh);
			continue;
		}
		if (!dec && !(dec = libdeflate_alloc_decompressor()))
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		if ((err = inflate_one(ctx, f, elf, dec, scn, &sh)) < 0)
			break;
	}
	if (dec)
		libdeflate_free_decompressor(dec);
	return err;
}

void pp_symbolize__free_inflated(struct pp_ctx *ctx, struct pp_symfile *f)
{
	for (size_t i = 0; i < f->ninflated; i++)
		pp_free(ctx, f->inflated[i]);
	pp_free(ctx, f->inflated);
	f->inflated = NULL;
	f->ninflated = f->cap_inflated = 0;
}
