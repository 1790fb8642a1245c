/* The symbolizer on the committed native binaries (testdata/native/):
 * address translation, inline chains, the symbol-table fallback, binary
 * search paths (build-id layouts, PPROF_BINARY_PATH), demangling, and each
 * problem a binary can have. Expected answers are binutils' (see
 * tests/golden/native/addr2line.tsv). Run from the source root. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pprof/symbolize.h"
#include "symbolize/internal.h"

#define N "testdata/native/"

static struct pp_symbolizer *new_sym(struct pp_ctx *ctx, const char *bp,
                                     enum pp_demangle dm)
{
	struct pp_symbolize_opts o = {0};
	struct pp_symbolizer *s = NULL;

	o.binary_path = bp;
	o.demangle = dm;
	assert_int_equal(pp_symbolizer_new(ctx, &o, &s), 0);
	return s;
}

static uint64_t translate(const char *path, uint64_t start, uint64_t limit,
                          uint64_t offset, uint64_t addr)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolizer *s = new_sym(&ctx, NULL, PP_DEMANGLE_DEFAULT);
	uint64_t out = 0;

	assert_int_equal(pp_symbolizer_translate(s, path, start, limit, offset,
	                                         addr, &out),
	                 0);
	pp_symbolizer_free(s);
	return out;
}

static void test_symbolize__translate_pie(void **state)
{
	(void)state;
	/* cprog-pie.cpu.prof: text mapped at 0x560f14030000, offset 0x1000 */
	assert_int_equal(translate(N "cprog-pie", 0x560f14030000,
	                           0x560f14031000, 0x1000, 0x560f140303cb),
	                 0x13cb);
}

/* A range over several executable sections (.init, .plt, .plt.got, the
 * start of .text) is decoded section by section: the padding between
 * sections is no instruction, and each section starts a new one. The
 * addresses are objdump -d's over the same range. */
static void test_symbolize__disasm_across_sections(void **state)
{
	static const uint64_t want[] = {
	        0x1000, 0x1004, 0x100b, 0x100e, 0x1010, 0x1012, 0x1016, 0x1020,
	        0x1026, 0x102c, 0x1030, 0x1036, 0x103b, 0x1040, 0x1046, 0x104b,
	        0x1050, 0x1056, 0x105b, 0x1060, 0x1066, 0x106b, 0x1070, 0x1076,
	        0x107b, 0x1080, 0x1086, 0x108b, 0x1090, 0x1096, 0x109b, 0x10a0,
	        0x10a6, 0x10ab, 0x10b0, 0x10b6, 0x10bb, 0x10c0, 0x10c6, 0x10d0,
	        0x10d2, 0x10d4, 0x10da, 0x10dc, 0x10de, 0x10df};
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolizer *s = new_sym(&ctx, NULL, PP_DEMANGLE_DEFAULT);
	const struct pp_func_sym *syms;
	struct pp_insn *in = NULL;
	size_t n = 0, nsyms = 0;
	bool found = false;

	(void)state;
	assert_int_equal(pp_symbolizer_disasm(s, N "cprog-pie", 0x1000, 0x10e0,
	                                      false, &in, &n),
	                 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++)
		assert_int_equal(in[i].addr, want[i]);
	assert_string_equal(in[0].text, "subq $8, %rsp");
	pp_free(&ctx, in);
	/* Intel's syntax on request; a symbol's range from the symbol table. */
	assert_int_equal(
	        pp_symbolizer_functions(s, N "cprog-pie", &syms, &nsyms), 0);
	for (size_t i = 0; i < nsyms; i++) {
		if (strcmp(syms[i].name, "hash_loop") != 0)
			continue;
		found = true;
		assert_int_equal(syms[i].start, 0x13a0);
		assert_int_equal(syms[i].end, 0x140c);
		assert_int_equal(
		        pp_symbolizer_disasm(s, N "cprog-pie", syms[i].start,
		                             syms[i].end, true, &in, &n),
		        0);
		assert_string_equal(in[0].text, "mov rax, rdi");
		assert_int_equal(in[n - 1].addr, 0x140b);
		assert_string_equal(in[n - 1].text, "ret");
		pp_free(&ctx, in);
	}
	assert_true(found);
	pp_symbolizer_free(s);
}

static void test_symbolize__translate_exec(void **state)
{
	(void)state;
	/* pprof's legacy reader rewrites a non-PIE main mapping to start
	 * 0x400000, offset 0: the text segment (offset 0x1000, vaddr
	 * 0x401000) still gives the link-time address. */
	assert_int_equal(
	        translate(N "cprog-nopie", 0x400000, 0x402000, 0, 0x4013b4),
	        0x4013b4);
	assert_int_equal(translate(N "cprog-nopie", 0x401000, 0x402000, 0x1000,
	                           0x4013b4),
	                 0x4013b4);
}

static void test_symbolize__translate_offset_segment(void **state)
{
	(void)state;
	/* libhot.so's data segment: file offset 0x2df8 at vaddr 0x3df8. */
	assert_int_equal(translate(N "libhot.so", 0x7f0000003000,
	                           0x7f0000004000, 0x2000, 0x7f0000003e00),
	                 0x3e00);
	/* A shared library's text: offset 0x1000 at vaddr 0x1000. */
	assert_int_equal(translate(N "libhot.so", 0x7f95bd460000,
	                           0x7f95bd461000, 0x1000, 0x7f95bd46015e),
	                 0x115e);
}

static void test_symbolize__translate_fake_mapping(void **state)
{
	(void)state;
	/* A mapping over the whole address space: addresses are already
	 * the file's. */
	assert_int_equal(translate(N "cprog-pie", 0, UINT64_MAX, 0, 0x13cb),
	                 0x13cb);
}

struct want {
	const char *name, *file;
	int64_t line;
};

static void expect_chain(struct pp_symbolizer *s, const char *path,
                         uint64_t addr, const struct want *w, size_t n)
{
	const struct pp_frame *f;
	size_t got;

	assert_int_equal(pp_symbolizer_lookup(s, path, addr, &f, &got), 0);
	if (got != n)
		fail_msg("%s 0x%llx: %zu frames, want %zu", path,
		         (unsigned long long)addr, got, n);
	for (size_t i = 0; i < n; i++) {
		assert_non_null(f[i].name);
		if (strcmp(f[i].name, w[i].name) != 0)
			fail_msg("%s 0x%llx frame %zu: %s, want %s", path,
			         (unsigned long long)addr, i, f[i].name,
			         w[i].name);
		if (w[i].file) {
			assert_non_null(f[i].file);
			assert_string_equal(f[i].file, w[i].file);
		} else {
			assert_null(f[i].file);
		}
		assert_int_equal(f[i].line, w[i].line);
	}
}

static void test_symbolize__inline_chains(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolizer *s = new_sym(&ctx, NULL, PP_DEMANGLE_FULL);
	static const struct want mix[] = {
	        {"mix", "testdata/gen/native/cprog.c", 23},
	        {"step", "testdata/gen/native/cprog.c", 31},
	        {"hash_loop", "testdata/gen/native/cprog.c", 38}};
	static const struct want rotl[] = {
	        {"rotl", "testdata/gen/native/hot.c", 9},
	        {"fold_byte", "testdata/gen/native/hot.c", 16},
	        {"hot_checksum", "testdata/gen/native/hot.c", 24}};
	static const struct want main_[] = {
	        {"main", "testdata/gen/native/cprog.c", 98}};
	static const struct want lambda[] = {
	        {"main::{lambda(unsigned long)#1}::operator()(unsigned long) "
	         "const",
	         "testdata/gen/native/cxxprog.cc", 95}};
	static const struct want feed[] = {
	        {"pprofc::work::Accumulator<unsigned long>::feed(std::vector<"
	         "unsigned long, std::allocator<unsigned long> > const&, int)",
	         "testdata/gen/native/cxxprog.cc", 36}};

	(void)state;
	expect_chain(s, N "cprog-pie", 0x13cb, mix, 3);
	expect_chain(s, N "cprog-nopie", 0x4013b4, mix, 3);
	expect_chain(s, N "libhot.so", 0x115e, rotl, 3);
	expect_chain(s, N "cprog-pie", 0x116a, main_, 1);
	expect_chain(s, N "cxxprog", 0x1537, lambda, 1);
	expect_chain(s, N "cxxprog", 0x22ee, feed, 1);
	pp_symbolizer_free(s);
}

#define DEBUGZ \
	N "debugz/.build-id/ed/20ae57f2de60de787317da4036653335205a09.debug"

/* The bytes of section name in the ELF file open as elf. */
static Elf_Data *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		assert_non_null(gelf_getshdr(scn, sh));
		n = elf_strptr(elf, shstrndx, sh->sh_name);
		if (n && strcmp(n, name) == 0)
			return elf_rawdata(scn, NULL);
	}
	fail_msg("no section %s", name);
	return NULL;
}

static void test_symbolize__compressed_debug_copy(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	int zfd = open(DEBUGZ, O_RDONLY),
	    pfd = open(N "debug/cprog-pie.debug", O_RDONLY), copy;
	Elf *z, *plain, *c;
	static const char *const kept[] = {".debug_info",     ".debug_abbrev",
	                                   ".debug_line",     ".debug_str",
	                                   ".debug_rnglists", ".symtab"};

	(void)state;
	assert_true(zfd >= 0 && pfd >= 0);
	elf_version(EV_CURRENT);
	assert_non_null(z = elf_begin(zfd, ELF_C_READ_MMAP, NULL));
	assert_non_null(plain = elf_begin(pfd, ELF_C_READ_MMAP, NULL));
	copy = pp_symbolize__inflated_copy(&ctx, z);
	assert_true(copy >= 0);
	assert_non_null(c = elf_begin(copy, ELF_C_READ_MMAP, NULL));
	/* Each section libdw reads holds, uncompressed, what the
	 * uncompressed debug file holds. */
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		GElf_Shdr csh, psh;
		Elf_Data *cd = section_named(c, kept[i], &csh),
		         *pd = section_named(plain, kept[i], &psh);

		assert_false(csh.sh_flags & SHF_COMPRESSED);
		assert_int_equal(cd->d_size, pd->d_size);
		assert_memory_equal(cd->d_buf, pd->d_buf, pd->d_size);
	}
	/* Variable locations, never read, are left out. */
	{
		GElf_Shdr sh;

		assert_int_equal(
		        section_named(c, ".debug_loclists", &sh)->d_size, 0);
	}
	elf_end(c);
	close(copy);
	/* A file with nothing compressed is not copied. */
	assert_int_equal(pp_symbolize__inflated_copy(&ctx, plain), -1);
	elf_end(plain);
	elf_end(z);
	close(zfd);
	close(pfd);
}

static void test_symbolize__compressed_debug_by_build_id(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolize_opts o = {0};
	struct pp_symbolizer *s = NULL;
	char dir[4096];
	static const struct want mix[] = {
	        {"mix", "testdata/gen/native/cprog.c", 23},
	        {"step", "testdata/gen/native/cprog.c", 31},
	        {"hash_loop", "testdata/gen/native/cprog.c", 38}};

	(void)state;
	/* The stripped binary's DWARF from a compressed debug file found by
	 * build-id: the same inline chain as from the binary itself. */
	assert_non_null(realpath(N "debugz", dir));
	o.debug_dirs = dir;
	assert_int_equal(pp_symbolizer_new(&ctx, &o, &s), 0);
	expect_chain(s, N "cprog-stripped", 0x13cb, mix, 3);
	pp_symbolizer_free(s);
}

static void test_symbolize__symbol_table_fallback(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolizer *s = new_sym(&ctx, NULL, PP_DEMANGLE_DEFAULT);
	static const struct want start[] = {{"_start", NULL, 0}};
	const struct pp_frame *f;
	size_t n;

	(void)state;
	/* _start comes from crt1.o, which has no DWARF: .symtab names it. */
	expect_chain(s, N "cprog-pie", 0x1265, start, 1);
	/* The padding after cmp_ulong (0x1350, 0x4f bytes) is no symbol's,
	 * though frame_dummy (0x1340, sizeless) starts before it: a sizeless
	 * symbol reaches only as far as the next one. */
	assert_int_equal(pp_symbolizer_lookup(s, N "cprog-pie", 0x139f, &f, &n),
	                 0);
	assert_int_equal(n, 1);
	assert_null(f[0].name);
	assert_string_equal(f[0].file, "testdata/gen/native/cprog.c");
	assert_int_equal(f[0].line, 55);
	/* Nothing at all is known past the end of the text. */
	assert_int_equal(
	        pp_symbolizer_lookup(s, N "cprog-pie", 0x100000, &f, &n), 0);
	assert_int_equal(n, 0);
	pp_symbolizer_free(s);
}

static void test_symbolize__demangle(void **state)
{
	static const struct {
		const char *in;
		enum pp_demangle mode;
		const char *out; /* NULL: not demangled */
	} cases[] = {
	        {"_ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi",
	         PP_DEMANGLE_DEFAULT, "pprofc::work::Accumulator::feed"},
	        {"_ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi",
	         PP_DEMANGLE_TEMPLATES,
	         "pprofc::work::Accumulator<unsigned long>::feed"},
	        {"_ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi",
	         PP_DEMANGLE_FULL,
	         "pprofc::work::Accumulator<unsigned long>::feed(std::vector<"
	         "unsigned long, std::allocator<unsigned long> > const&, int)"},
	        {"_ZN6pprofc4work11AccumulatorImE4feedERKSt6vectorImSaImEEi",
	         PP_DEMANGLE_NONE, NULL},
	        {"_ZZ4mainENKUlmE_clEm", PP_DEMANGLE_DEFAULT,
	         "main::{lambda(unsigned long)#1}::operator()"},
	        /* clone suffixes go, as pprof's NoClones */
	        {"_ZN6pprofc4work11build_indexB5cxx11Ei.cold", PP_DEMANGLE_FULL,
	         "pprofc::work::build_index[abi:cxx11](int)"},
	        /* operator< is not a template argument list */
	        {"_ZStltIcSt11char_traitsIcESaIcEEbRKNSt7__cxx1112basic_"
	         "stringIT_T0_T1_EESA_",
	         PP_DEMANGLE_DEFAULT, "std::operator<"},
	        /* symbol versions of dynamic symbols */
	        {"_ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base@GLIBCXX_3.4",
	         PP_DEMANGLE_DEFAULT, "std::_Rb_tree_decrement"},
	        /* Rust, legacy (hash dropped) and v0 */
	        {"_ZN4core3fmt5write17h0123456789abcdefE", PP_DEMANGLE_DEFAULT,
	         "core::fmt::write"},
	        {"_RNvCs1234_7mycrate3foo", PP_DEMANGLE_DEFAULT,
	         "mycrate::foo"},
	        /* C names are left alone */
	        {"hash_loop", PP_DEMANGLE_DEFAULT, NULL},
	        {"_Zbogus", PP_DEMANGLE_DEFAULT, NULL},
	};
	struct pp_ctx ctx = PP_CTX_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = pp_demangle(&ctx, cases[i].in, cases[i].mode);

		if (!cases[i].out) {
			if (got)
				fail_msg("%s: got %s, want no demangling",
				         cases[i].in, got);
			continue;
		}
		if (!got || strcmp(got, cases[i].out) != 0)
			fail_msg("%s (mode %d): got %s, want %s", cases[i].in,
			         (int)cases[i].mode, got ? got : "NULL",
			         cases[i].out);
		pp_free(&ctx, got);
	}
}

static void test_symbolize__go_runtime_names(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	static const char *const cases[][2] = {
	        /* as Go's linker and runtime name them */
	        {"type..eq.runtime/pprof.newFunc\xc2\xb7"
	         "1",
	         "type..eq.runtime/pprof.newFunc.1"},
	        {"main.Map[go.shape.int_0,go.shape.string_1].Get",
	         "main.Map[...].Get"},
	        {"main.Set[go.shape.struct { X int }_0].Add.func1",
	         "main.Set[...].Add.func1"},
	        {"main.main", NULL},
	        {"main.open[", NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = pp_symbolize__go_runtime_name(&ctx, cases[i][0]);

		if (cases[i][1]) {
			assert_non_null(got);
			assert_string_equal(got, cases[i][1]);
		} else {
			assert_null(got);
		}
		pp_free(&ctx, got);
	}
}

static void test_symbolize__opts_parse(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_symbolize_opts o = {0};

	(void)state;
	assert_int_equal(
	        pp_symbolize_opts_parse(&ctx, "local:demangle=full", &o), 0);
	assert_int_equal(o.demangle, PP_DEMANGLE_FULL);
	assert_false(o.none);
	assert_int_equal(pp_symbolize_opts_parse(&ctx, "None:force", &o), 0);
	assert_true(o.none);
	assert_true(o.force);
	assert_int_equal(pp_symbolize_opts_parse(&ctx, "demangle=bad", &o),
	                 PP_EUSAGE);
	assert_non_null(strstr(ctx.message, "demangle=bad"));
}

/* ---- whole profiles: binary search paths and problems --------------- */

struct warnings {
	char text[4096];
	int count;
};

static void collect(void *data, const char *msg)
{
	struct warnings *w = data;
	size_t used = strlen(w->text);

	w->count++;
	snprintf(w->text + used, sizeof(w->text) - used, "%s\n", msg);
}

/* A one-sample profile of address addr in a mapping of file with
 * build_id, symbolized with PPROF_BINARY_PATH bp; the name of the
 * outermost frame ("" when unsymbolized). */
static void symbolize_one(const char *file, const char *build_id,
                          uint64_t start, uint64_t offset, uint64_t addr,
                          const char *bp, const char *executable, char *name,
                          size_t namesz, struct warnings *w)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = pp_profile_new(&ctx);
	struct pp_symbolize_opts o = {0};
	struct pp_mapping m;
	struct pp_location l;
	uint32_t li, mi;
	int64_t v = 1;

	memset(w, 0, sizeof(*w));
	ctx.warn = collect;
	ctx.warn_data = w;
	assert_non_null(p);
	memset(&m, 0, sizeof(m));
	m.id = 1;
	m.start = start;
	m.limit = start + 0x1000;
	m.offset = offset;
	m.file = pp_profile_intern(p, file);
	m.build_id = pp_profile_intern(p, build_id);
	assert_int_equal(pp_profile_add_mapping(p, &m, &mi), 0);
	memset(&l, 0, sizeof(l));
	l.id = 1;
	l.address = addr;
	l.mapping = mi;
	assert_int_equal(pp_profile_add_location(p, &l, NULL, 0, &li), 0);
	assert_int_equal(
	        pp_profile_add_sample_type(p, pp_profile_intern(p, "samples"),
	                                   pp_profile_intern(p, "count")),
	        0);
	assert_int_equal(pp_profile_add_sample(p, &li, 1, &v, NULL, 0), 0);
	o.binary_path = bp;
	o.executable = executable;
	o.debug_dirs = "/nonexistent";
	assert_int_equal(pp_symbolize(&ctx, p, &o), 0);
	name[0] = '\0';
	if (p->locations[0].line_count) {
		const struct pp_line *ln =
		        &p->lines[p->locations[0].line_first +
		                  p->locations[0].line_count - 1];

		snprintf(name, namesz, "%s",
		         pp_profile_str(p, p->functions[ln->function].name));
		assert_true(p->mappings[0].has_functions);
	}
	pp_profile_free(p);
}

#define BUILD_ID "ed20ae57f2de60de787317da4036653335205a09"

static void test_symbolize__build_id_layout(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	/* DIR/.build-id/ed/20ae....debug: the debug file of the stripped
	 * binary, for a mapping whose file exists nowhere. */
	symbolize_one("/nonexistent/cprog-stripped", BUILD_ID, 0x5000, 0x1000,
	              0x516a, N "debug", NULL, name, sizeof(name), &w);
	assert_string_equal(name, "main");
	assert_int_equal(w.count, 0);
}

static void test_symbolize__build_id_dir_layout(void **state)
{
	struct warnings w;
	char dir[] = "/tmp/pprof-c-test-XXXXXX", sub[256], link[512],
	     target[4096];
	char name[64];

	(void)state;
	/* DIR/BUILDID/BASENAME, pprof's own layout. */
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/%s", dir, BUILD_ID);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(link, sizeof(link), "%s/server", sub);
	assert_non_null(realpath(N "cprog-pie", target));
	assert_int_equal(symlink(target, link), 0);
	symbolize_one("/srv/server", BUILD_ID, 0x5000, 0x1000, 0x53cb, dir,
	              NULL, name, sizeof(name), &w);
	unlink(link);
	rmdir(sub);
	rmdir(dir);
	assert_string_equal(name, "hash_loop");
	assert_int_equal(w.count, 0);
}

static void test_symbolize__basename_and_executable(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	/* By base name in a PPROF_BINARY_PATH directory. */
	symbolize_one("/elsewhere/libhot.so", "", 0x7000, 0x1000, 0x715e,
	              "/nonexistent:" N, NULL, name, sizeof(name), &w);
	assert_string_equal(name, "hot_checksum");
	assert_int_equal(w.count, 0);
	/* The executable named on the command line, for the main mapping. */
	symbolize_one("/elsewhere/a.out", "", 0x5000, 0x1000, 0x53cb, NULL,
	              N "cprog-pie", name, sizeof(name), &w);
	assert_string_equal(name, "hash_loop");
}

static void test_symbolize__missing_binary(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	symbolize_one("/nonexistent/server", "", 0x5000, 0x1000, 0x53cb,
	              "/nonexistent", NULL, name, sizeof(name), &w);
	assert_string_equal(name, "");
	assert_int_equal(w.count, 1);
	assert_non_null(strstr(w.text, "mapping /nonexistent/server: binary "
	                               "not found"));
}

static void test_symbolize__not_elf(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	symbolize_one(N "README.md", "", 0x5000, 0x1000, 0x53cb, NULL, NULL,
	              name, sizeof(name), &w);
	assert_string_equal(name, "");
	assert_int_equal(w.count, 1);
	assert_non_null(strstr(w.text, "README.md: not an ELF file"));
}

static void test_symbolize__build_id_mismatch(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	symbolize_one(N "cprog-pie", "0123456789abcdef", 0x5000, 0x1000, 0x53cb,
	              NULL, NULL, name, sizeof(name), &w);
	assert_string_equal(name, "");
	assert_int_equal(w.count, 1);
	assert_non_null(strstr(w.text, "build-id mismatch (profile "
	                               "0123456789abcdef, file " BUILD_ID ")"));
}

static void test_symbolize__stripped(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	/* No debug file reachable: a warning, and main stays unknown (a
	 * stripped PIE keeps only dynamic symbols). */
	symbolize_one(N "cprog-stripped", "", 0x5000, 0x1000, 0x516a, NULL,
	              NULL, name, sizeof(name), &w);
	assert_string_equal(name, "");
	assert_int_equal(w.count, 1);
	assert_non_null(strstr(w.text, "no DWARF debug info (stripped?)"));
}

static void test_symbolize__pseudo_mappings(void **state)
{
	struct warnings w;
	char name[64];

	(void)state;
	symbolize_one("[vdso]", "", 0x5000, 0, 0x5010, NULL, NULL, name,
	              sizeof(name), &w);
	assert_string_equal(name, "");
	assert_int_equal(w.count, 0);
	symbolize_one("[kernel.kallsyms]", "", 0x5000, 0, 0x5010, NULL, NULL,
	              name, sizeof(name), &w);
	assert_int_equal(w.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_symbolize__translate_pie),
	        cmocka_unit_test(test_symbolize__translate_exec),
	        cmocka_unit_test(test_symbolize__translate_offset_segment),
	        cmocka_unit_test(test_symbolize__translate_fake_mapping),
	        cmocka_unit_test(test_symbolize__inline_chains),
	        cmocka_unit_test(test_symbolize__symbol_table_fallback),
	        cmocka_unit_test(test_symbolize__compressed_debug_copy),
	        cmocka_unit_test(test_symbolize__compressed_debug_by_build_id),
	        cmocka_unit_test(test_symbolize__demangle),
	        cmocka_unit_test(test_symbolize__go_runtime_names),
	        cmocka_unit_test(test_symbolize__opts_parse),
	        cmocka_unit_test(test_symbolize__build_id_layout),
	        cmocka_unit_test(test_symbolize__build_id_dir_layout),
	        cmocka_unit_test(test_symbolize__basename_and_executable),
	        cmocka_unit_test(test_symbolize__missing_binary),
	        cmocka_unit_test(test_symbolize__not_elf),
	        cmocka_unit_test(test_symbolize__build_id_mismatch),
	        cmocka_unit_test(test_symbolize__stripped),
	        cmocka_unit_test(test_symbolize__pseudo_mappings),
	        cmocka_unit_test(test_symbolize__disasm_across_sections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
