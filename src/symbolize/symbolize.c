/* pp_symbolize: the profile-level driver of the symbolizer, and its
 * options. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/internal.h"
#include "util/path.h"

int pp_symbolize_opts_parse(struct pp_ctx *ctx, const char *spec,
                            struct pp_symbolize_opts *o)
{
	const char *p = spec;

	if (!spec)
		return 0;
	while (*p) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char w[64];

		if (n >= sizeof(w))
			goto bad;
		for (size_t i = 0; i < n; i++)
			w[i] = (char)(p[i] >= 'A' && p[i] <= 'Z'
			                      ? p[i] - 'A' + 'a'
			                      : p[i]);
		w[n] = '\0';
		if (n == 0)
			;
		else if (strcmp(w, "local") == 0)
			o->no_local = false, o->no_remote = true;
		else if (strcmp(w, "fastlocal") == 0)
			o->no_local = false, o->no_remote = true,
			o->fast = true;
		else if (strcmp(w, "remote") == 0)
			o->no_local = true, o->no_remote = false;
		else if (strcmp(w, "none") == 0 || strcmp(w, "no") == 0)
			o->none = true;
		else if (strcmp(w, "force") == 0)
			o->force = true;
		/* As in pprof, a demangling mode other than the default
		 * also forces: already symbolized mappings are symbolized
		 * again, so that every name is made in that mode. */
		else if (strcmp(w, "demangle=none") == 0)
			o->demangle = PP_DEMANGLE_NONE, o->force = true;
		else if (strcmp(w, "demangle=full") == 0)
			o->demangle = PP_DEMANGLE_FULL, o->force = true;
		else if (strcmp(w, "demangle=templates") == 0)
			o->demangle = PP_DEMANGLE_TEMPLATES, o->force = true;
		else if (strcmp(w, "demangle=default") == 0)
			o->demangle = PP_DEMANGLE_DEFAULT;
		else
			goto bad;
		p = colon ? colon + 1 : p + n;
	}
	return 0;
bad:
	return pp_error(ctx, PP_EUSAGE,
	                "invalid -symbolize value \"%s\": want "
	                "[local|fastlocal|remote|none][:force][:demangle="
	                "none|full|templates|default]",
	                spec);
}

int pp_symbolizer_new(struct pp_ctx *ctx, const struct pp_symbolize_opts *opts,
                      struct pp_symbolizer **out)
{
	struct pp_symbolizer *s = pp_calloc(ctx, 1, sizeof(*s));
	const char *bp, *dd;
	size_t n;

	*out = NULL;
	if (!s)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	s->ctx = ctx;
	s->opts = *opts;
	/* libdwfl looks for separate debug files beside the binary, in its
	 * .debug/ and in each absolute directory here: by build-id
	 * (DIR/.build-id/ab/cdef.debug) and by .gnu_debuglink name. */
	bp = opts->binary_path ? opts->binary_path : "";
	dd = opts->debug_dirs ? opts->debug_dirs : "/usr/lib/debug";
	n = strlen(bp) + strlen(dd) + 16;
	s->debuginfo_path = pp_malloc(ctx, n);
	if (!s->debuginfo_path) {
		pp_free(ctx, s);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	snprintf(s->debuginfo_path, n, ":.debug%s%s:%s", bp[0] ? ":" : "", bp,
	         dd);
	s->callbacks.find_elf = dwfl_build_id_find_elf;
	s->callbacks.find_debuginfo = pp_symbolize__find_debuginfo;
	s->callbacks.section_address = dwfl_offline_section_address;
	s->callbacks.debuginfo_path = &s->debuginfo_path;
	*out = s;
	return 0;
}

void pp_symbolizer_free(struct pp_symbolizer *s)
{
	struct pp_ctx *ctx;

	if (!s)
		return;
	ctx = s->ctx;
	pp_symbolize__disasm_release(s);
	for (size_t i = 0; i < s->nfiles; i++)
		pp_symbolize__close(ctx, s->files[i]);
	for (size_t i = 0; s->dm_mask && i <= s->dm_mask; i++)
		pp_free(ctx, s->dm_vals[i]);
	pp_free(ctx, s->dm_keys);
	pp_free(ctx, s->dm_vals);
	for (size_t i = 0; s->unv_vals && i <= s->unv_mask; i++)
		pp_free(ctx, s->unv_vals[i]);
	pp_free(ctx, s->unv_keys);
	pp_free(ctx, s->unv_vals);
	pp_free(ctx, s->files);
	pp_free(ctx, s->frames);
	pp_free(ctx, s->debuginfo_path);
	pp_free(ctx, s);
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
	return 0;
}

int pp_symbolizer_lookup(struct pp_symbolizer *s, const char *path,
                         uint64_t addr, const struct pp_frame **frames,
                         size_t *nframes)
{
	struct pp_symfile *f;
	int err;

	*frames = NULL;
	*nframes = 0;
	if ((err = usable(s, path, &f)) < 0 ||
	    (err = pp_symbolize__frames(s, f, addr)) < 0)
		return err;
	*frames = s->frames;
	*nframes = s->nframes;
	return 0;
}

int pp_symbolizer_translate(struct pp_symbolizer *s, const char *path,
                            uint64_t start, uint64_t limit, uint64_t offset,
                            uint64_t addr, uint64_t *elf_addr)
{
	struct pp_symfile *f;
	int err;

	if ((err = usable(s, path, &f)) < 0)
		return err;
	*elf_addr = pp_symbolize__elf_addr(f, start, limit, offset, addr);
	return 0;
}

/* ---- the profile ----------------------------------------------------------
 */

/* Mappings that name no file we could read (pprof's Unsymbolizable). */
static bool pseudo_file(const char *f)
{
	return f[0] == '\0' || f[0] == '[' ||
	       strncmp(f, "linux-vdso", 10) == 0 ||
	       strncmp(f, "/dev/dri/", 9) == 0 || strncmp(f, "//anon", 6) == 0;
}

struct fn_table {
	uint64_t *keys; /* (name, system_name) packed; filename in fkeys */
	uint32_t *fkeys;
	uint32_t *vals; /* function index + 1 */
	size_t mask, n;
};

static int fn_table_grow(struct pp_ctx *ctx, struct fn_table *t);

static int fn_intern(struct pp_profile *p, struct fn_table *t, pp_str name,
                     pp_str sys, pp_str file, uint32_t *out)
{
	uint64_t key = (uint64_t)name << 32 | sys;
	size_t j;
	int err;

	if ((t->n + 1) * 2 > t->mask + 1 &&
	    (err = fn_table_grow(p->ctx, t)) < 0)
		return err;
	j = (size_t)((key * 0x9e3779b97f4a7c15ull ^ file) >> 17) & t->mask;
	while (t->vals[j]) {
		if (t->keys[j] == key && t->fkeys[j] == file) {
			*out = t->vals[j] - 1;
			return 0;
		}
		j = (j + 1) & t->mask;
	}
	{
		struct pp_function f;

		memset(&f, 0, sizeof(f));
		f.id = (uint64_t)p->nfunctions + 1;
		f.name = name;
		f.system_name = sys;
		f.filename = file;
		if ((err = pp_profile_add_function(p, &f, out)) < 0)
			return err;
	}
	t->keys[j] = key;
	t->fkeys[j] = file;
	t->vals[j] = *out + 1;
	t->n++;
	return 0;
}

static int fn_table_grow(struct pp_ctx *ctx, struct fn_table *t)
{
	size_t size = t->mask ? (t->mask + 1) * 2 : 256;
	struct fn_table nt = {NULL, NULL, NULL, size - 1, t->n};

	nt.keys = pp_calloc(ctx, size, sizeof(*nt.keys));
	nt.fkeys = pp_calloc(ctx, size, sizeof(*nt.fkeys));
	nt.vals = pp_calloc(ctx, size, sizeof(*nt.vals));
	if (!nt.keys || !nt.fkeys || !nt.vals) {
		pp_free(ctx, nt.keys);
		pp_free(ctx, nt.fkeys);
		pp_free(ctx, nt.vals);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; t->mask && i <= t->mask; i++) {
		size_t j;

		if (!t->vals[i])
			continue;
		j = (size_t)((t->keys[i] * 0x9e3779b97f4a7c15ull ^
		              t->fkeys[i]) >>
		             17) &
		    nt.mask;
		while (nt.vals[j])
			j = (j + 1) & nt.mask;
		nt.keys[j] = t->keys[i];
		nt.fkeys[j] = t->fkeys[i];
		nt.vals[j] = t->vals[i];
	}
	pp_free(ctx, t->keys);
	pp_free(ctx, t->fkeys);
	pp_free(ctx, t->vals);
	*t = nt;
	return 0;
}

static pp_str intern(struct pp_profile *p, const char *s)
{
	return s ? pp_strtab_intern(p->strings, s, strlen(s)) : 0;
}

/* Give location l the frames of the last lookup. */
static int set_lines(struct pp_symbolizer *s, struct pp_profile *p,
                     struct fn_table *fns, uint32_t l)
{
	struct pp_location *loc = &p->locations[l];
	struct pp_mapping *m = &p->mappings[loc->mapping];
	size_t first = p->nlines;
	int err;

	if (s->nframes == 0)
		return 0;
	if (p->nlines > UINT32_MAX - s->nframes)
		return pp_error(p->ctx, PP_ELIMIT, "too many lines");
	if ((err = pp_profile_reserve_lines(p, s->nframes)) < 0)
		return err;
	for (size_t i = 0; i < s->nframes; i++) {
		const struct pp_frame *fr = &s->frames[i];
		pp_str name = intern(p, fr->name),
		       sys = intern(p, fr->system_name),
		       file = intern(p, fr->file);
		struct pp_line *ln = &p->lines[p->nlines];

		if (name == PP_NONE || sys == PP_NONE || file == PP_NONE)
			return pp_error(p->ctx, PP_ENOMEM, "out of memory");
		memset(ln, 0, sizeof(*ln));
		if ((err = fn_intern(p, fns, name, sys, file, &ln->function)) <
		    0)
			return err;
		ln->line = fr->line;
		m->has_functions |= name != 0;
		m->has_filenames |= file != 0;
		m->has_line_numbers |= fr->line != 0;
		p->nlines++;
	}
	m->has_inline_frames = true;
	loc->line_first = (uint32_t)first;
	loc->line_count = (uint32_t)s->nframes;
	loc->is_folded = false;
	return 0;
}

static void warn_file(struct pp_symbolizer *s, struct pp_symfile *f,
                      const char *mapping)
{
	if (f->warned)
		return;
	f->warned = true;
	if (!f->has_dwarf && !s->opts.fast)
		pp_warn(s->ctx,
		        "%s: no DWARF debug info (stripped?) for mapping %s: "
		        "function names from its symbol table only, no files "
		        "or lines",
		        f->path, mapping);
#if defined(__x86_64__)
	if (f->machine != EM_X86_64)
#elif defined(__aarch64__)
	if (f->machine != EM_AARCH64)
#else
	if (0)
#endif
		pp_warn(s->ctx,
		        "%s: binary for %s, not this machine, used for "
		        "mapping %s",
		        f->path, pp_symbolize__machine_name(f->machine),
		        mapping);
}

static bool wants_symbols(const struct pp_profile *p, uint32_t m, bool force)
{
	return force || !p->mappings[m].has_functions;
}

/* A mapping whose frames are named but have no lines (perf script) gets
 * them from its binary's DWARF, unless every frame is symbolized anew
 * (-symbolize=force) or DWARF is not to be read (fastlocal). */
static bool wants_lines(const struct pp_profile *p, uint32_t m,
                        const struct pp_symbolize_opts *o)
{
	return p->mappings[m].lines_from_binary && !o->force && !o->fast;
}

/* The next byte of a function name that is not in a template's arguments
 * ("<...>"), an ABI tag ("[abi:cxx11]") or a symbol version ("@GLIBC_2.2.5",
 * to the end): the part by which perf's names (full templates, versions)
 * and the symbolizer's (pprof's simplified demangling) are compared. *s
 * moves past it; '\0' at the end. A '<' or '>' that does not pair
 * (operator<) sets *unpaired: such names are not compared. */
static char name_core_next(const char **s, bool *unpaired)
{
	int depth = 0;

	for (;;) {
		char c = **s;

		if (c == '\0' || (c == '@' && depth == 0)) {
			*unpaired = *unpaired || depth != 0;
			return '\0';
		}
		(*s)++;
		if (c == '<') {
			depth++;
		} else if (c == '>') {
			if (depth-- == 0) {
				*unpaired = true;
				return '\0';
			}
		} else if (c == '[' && depth == 0 &&
		           strncmp(*s, "abi:", 4) == 0) {
			const char *end = strchr(*s, ']');

			if (!end) {
				*unpaired = true;
				return '\0';
			}
			*s = end + 1;
		} else if (depth == 0) {
			return c;
		}
	}
}

/* a and b name the same function, templates, ABI tags and versions
 * aside. */
static bool same_function_name(const char *a, const char *b)
{
	bool unpaired = false;

	for (;;) {
		char x = name_core_next(&a, &unpaired),
		     y = name_core_next(&b, &unpaired);

		if (x != y)
			return false;
		if (x == '\0')
			return !unpaired;
	}
}

/* The last lookup's outermost frame is the function location l names
 * already: the binary agrees with the producer on the address. */
static bool lookup_agrees(const struct pp_symbolizer *s,
                          const struct pp_profile *p, uint32_t l)
{
	const struct pp_location *loc = &p->locations[l];
	const struct pp_frame *outer;
	const char *named;

	if (s->nframes == 0 || loc->line_count == 0)
		return false;
	outer = &s->frames[s->nframes - 1];
	named = pp_profile_str(
	        p, p->functions[p->lines[loc->line_first + loc->line_count - 1]
	                                .function]
	                   .name);
	return (outer->name && same_function_name(outer->name, named)) ||
	       (outer->system_name &&
	        same_function_name(outer->system_name, named));
}

struct located {
	uint32_t mapping, loc;
	uint64_t address;
};

static int location_order(const void *a, const void *b)
{
	const struct located *x = a, *y = b;

	if (x->mapping != y->mapping)
		return x->mapping < y->mapping ? -1 : 1;
	return x->address < y->address ? -1 : x->address > y->address;
}

/* The indices of p's locations by mapping and address. */
static uint32_t *by_address(struct pp_ctx *ctx, const struct pp_profile *p)
{
	struct located *v = pp_calloc(ctx, p->nlocations + 1, sizeof(*v));
	uint32_t *order = pp_calloc(ctx, p->nlocations + 1, sizeof(*order));

	if (!v || !order) {
		pp_free(ctx, v);
		pp_free(ctx, order);
		return NULL;
	}
	for (uint32_t l = 0; l < p->nlocations; l++)
		v[l] = (struct located){p->locations[l].mapping, l,
		                        p->locations[l].address};
	qsort(v, p->nlocations, sizeof(*v), location_order);
	for (uint32_t l = 0; l < p->nlocations; l++)
		order[l] = v[l].loc;
	pp_free(ctx, v);
	return order;
}

int pp_symbolize(struct pp_ctx *ctx, struct pp_profile *p,
                 const struct pp_symbolize_opts *opts)
{
	struct pp_symbolizer *s = NULL;
	struct pp_symfile **files = NULL;
	struct fn_table fns = {NULL, NULL, NULL, 0, 0};
	bool *todo = NULL;
	uint32_t *order = NULL;
	int err;

	if (opts->none || opts->no_local || p->nmappings == 0)
		return 0;
	if ((err = pp_symbolizer_new(ctx, opts, &s)) < 0)
		return err;
	todo = pp_calloc(ctx, p->nmappings, sizeof(*todo));
	files = pp_calloc(ctx, p->nmappings, sizeof(*files));
	if (!todo || !files) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];

		if (loc->mapping != PP_NONE &&
		    (((loc->line_count == 0 || opts->force) &&
		      wants_symbols(p, loc->mapping, opts->force)) ||
		     (loc->line_count != 0 &&
		      wants_lines(p, loc->mapping, opts))))
			todo[loc->mapping] = true;
	}
	for (uint32_t m = 0; m < p->nmappings; m++) {
		const char *file = pp_profile_str(p, p->mappings[m].file);
		bool is_main = m == 0 && opts->executable;

		if (!todo[m])
			continue;
		/* Lines are a bonus there: a binary that is not here, or has
		 * no DWARF, leaves the frames as they are, unsaid. */
		if (wants_lines(p, m, opts)) {
			if (pseudo_file(file))
				continue;
			files[m] = pp_symbolize__find(
			        s, file,
			        pp_profile_str(p, p->mappings[m].build_id),
			        is_main);
			if (!files[m] && !s->why[0]) {
				err = pp_error(ctx, PP_ENOMEM, "out of memory");
				goto done;
			}
			if (files[m] && !files[m]->has_dwarf)
				files[m] = NULL;
			continue;
		}
		/* pprof says so too: without a binary on the command line,
		 * the main mapping's addresses stay unknown. */
		if (m == 0 && !is_main && !file[0]) {
			pp_warn(ctx, "main binary filename not available: give "
			             "the binary before the profile to "
			             "symbolize its addresses");
			continue;
		}
		if (!is_main && pseudo_file(file))
			continue;
		files[m] = pp_symbolize__find(
		        s, file, pp_profile_str(p, p->mappings[m].build_id),
		        is_main);
		if (!files[m]) {
			if (!s->why[0]) {
				err = pp_error(ctx, PP_ENOMEM, "out of memory");
				goto done;
			}
			pp_warn(ctx, "mapping %s: %s",
			        file[0] ? file : "(main)", s->why);
			continue;
		}
		warn_file(s, files[m], file[0] ? file : "(main)");
	}
	/* Each location once; legacy readers and pprof give one location per
	 * address and mapping, so this is one lookup per unique address. In
	 * address order: each lookup's binary searches and line table then
	 * start where the last one left off, in cache. */
	if (!(order = by_address(ctx, p))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = 0; i < p->nlocations; i++) {
		uint32_t l = order[i];
		struct pp_location *loc = &p->locations[l];
		const struct pp_mapping *m;
		struct pp_symfile *f;
		bool refine;

		if ((i & 4095) == 0)
			pp_progress(ctx, "symbolizing", "locations", i,
			            p->nlocations);
		if (loc->mapping == PP_NONE || !(f = files[loc->mapping]))
			continue;
		refine = wants_lines(p, loc->mapping, opts);
		if (refine ? loc->line_count == 0
		           : loc->line_count != 0 && !opts->force)
			continue;
		m = &p->mappings[loc->mapping];
		if ((err = pp_symbolize__frames(
		             s, f,
		             pp_symbolize__elf_addr(f, m->start, m->limit,
		                                    m->offset, loc->address))) <
		    0)
			goto done;
		/* A name the binary does not give at that address (another
		 * build, an address perf printed as loaded) keeps the
		 * producer's frame. */
		if (refine && !lookup_agrees(s, p, l))
			continue;
		if ((err = set_lines(s, p, &fns, l)) < 0)
			goto done;
	}
	err = 0;
done:
	pp_free(ctx, fns.keys);
	pp_free(ctx, fns.fkeys);
	pp_free(ctx, fns.vals);
	pp_free(ctx, todo);
	pp_free(ctx, files);
	pp_free(ctx, order);
	pp_symbolizer_free(s);
	return err;
}
