/*
 * The annotated instructions behind disasm, weblist and the web UI's
 * disassembly, as pprof's PrintAssembly gathers them: nodes at address
 * granularity without inlines; for each binary that has a sampled node
 * whose name matches, its function symbols that match and hold samples;
 * each symbol's instructions with the samples from its address up to the
 * next instruction's.
 *
 * Where pprof differs, on purpose: a symbol's range is [start, start +
 * size) (Go's pprof stops one byte short and drops a one-byte last
 * instruction, such as ret); a node counts for the symbols of its own
 * mapping only; the regex is matched against function names, not pprof's
 * "address name file:line" strings, so anchored patterns work.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/symbolize.h"
#include "report/asm.h"
#include "util/regex.h"

struct addr_node {
	uint64_t addr; /* ELF address */
	uint32_t node;
};

/* Does re match string s of p, whole (NUL bytes and all)? */
static bool match_str(const struct pp_regex *re, const struct pp_profile *p,
                      pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	return pp_regex_match(re, t, n);
}

static int by_addr(const void *a, const void *b)
{
	const struct addr_node *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

struct builder {
	struct pp_report *r;
	struct pp_asm *a;
	struct pp_symbolizer *s;
	const struct pp_regex *re;
	bool has_addr;
	uint64_t addr;
	bool addr_in_binary; /* some symbol holds addr */
	struct addr_node *nodes;
	size_t nnodes, cap_nodes;
	/* weblist: per graph node, some location at its address has a
	 * frame whose function or file matches. NULL: not asked. */
	bool *node_marked;
};

void pp_report__asm_free(struct pp_asm *a)
{
	if (!a)
		return;
	pp_strtab_free(a->strings);
	pp_free(a->ctx, a->routines);
	pp_free(a->ctx, a->insns);
	pp_free(a->ctx, a->frames);
	pp_free(a->ctx, a->found);
	pp_free(a->ctx, a);
}

static int intern(struct pp_asm *a, const char *s, pp_str *out)
{
	*out = pp_strtab_intern(a->strings, s ? s : "", s ? strlen(s) : 0);
	if (*out == PP_NONE)
		return pp_error(a->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

static int add_frame(struct pp_asm *a, const char *name, const char *file,
                     int64_t line)
{
	struct pp_asm_frame *f;
	int err;

	if ((err = pp_grow(a->ctx, (void **)&a->frames, &a->cap_frames,
	                   a->nframes + 1, sizeof(*a->frames))) < 0)
		return err;
	f = &a->frames[a->nframes];
	if ((err = intern(a, name, &f->name)) < 0 ||
	    (err = intern(a, file, &f->file)) < 0)
		return err;
	f->line = line;
	a->nframes++;
	return 0;
}

/* pprof's flatValue / cumValue: divided when -mean gave a divisor. */
static int64_t divided(int64_t v, int64_t div)
{
	return div != 0 ? v / div : v;
}

/* One routine: sym of binary path, with nodes b->nodes[lo, hi). */
static int add_routine(struct builder *b, const char *path,
                       const struct pp_func_sym *sym, size_t nalias, size_t lo,
                       size_t hi)
{
	struct pp_asm *a = b->a;
	const struct pp_graph *g = b->r->agg->graph;
	const struct pp_profile *p = b->r->prof;
	struct pp_asm_routine *rt;
	struct pp_insn *insns = NULL;
	size_t ninsns = 0, k = lo;
	int err;

	if ((err = pp_symbolizer_disasm(b->s, path, sym->start, sym->end,
	                                b->r->opts.intel_syntax, &insns,
	                                &ninsns)) < 0)
		return err;
	if ((err = pp_grow(a->ctx, (void **)&a->routines, &a->cap_routines,
	                   a->nroutines + 1, sizeof(*a->routines))) < 0 ||
	    (err = pp_grow(a->ctx, (void **)&a->insns, &a->cap_insns,
	                   a->ninsns + ninsns, sizeof(*a->insns))) < 0)
		goto done;
	rt = &a->routines[a->nroutines];
	memset(rt, 0, sizeof(*rt));
	if ((err = intern(a, sym->name, &rt->name)) < 0 ||
	    (err = intern(a, path, &rt->binary)) < 0)
		goto done;
	{
		/* pprof's AKA lines: the other names of the same range. */
		size_t len = 0;
		char *aka;

		for (size_t i = 1; i < nalias; i++)
			len += strlen(sym[i].name) + 1;
		if (!(aka = pp_malloc(a->ctx, len + 1))) {
			err = pp_error(a->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		len = 0;
		for (size_t i = 1; i < nalias; i++) {
			size_t n = strlen(sym[i].name);

			memcpy(aka + len, sym[i].name, n);
			len += n;
			aka[len++] = '\n';
		}
		aka[len ? len - 1 : 0] = '\0';
		err = intern(a, aka, &rt->aka);
		pp_free(a->ctx, aka);
		if (err < 0)
			goto done;
	}
	rt->start = sym->start;
	rt->end = sym->end;
	rt->insn_first = (uint32_t)a->ninsns;
	rt->ninsns = (uint32_t)ninsns;
	for (size_t i = lo; i < hi; i++) {
		rt->flat += g->nodes[b->nodes[i].node].flat;
		rt->cum += g->nodes[b->nodes[i].node].cum;
	}
	a->nroutines++;
	for (size_t i = 0; i < ninsns; i++) {
		struct pp_asm_insn *in = &a->insns[a->ninsns];
		uint64_t next = i + 1 < ninsns ? insns[i + 1].addr : UINT64_MAX;
		int64_t flat = 0, fdiv = 0, cum = 0, cdiv = 0;
		const struct pp_node *first = NULL;
		const struct pp_frame *fr;
		size_t nfr;

		memset(in, 0, sizeof(*in));
		in->addr = insns[i].addr;
		in->size = insns[i].size;
		if ((err = intern(a, insns[i].text, &in->text)) < 0)
			goto done;
		/* Samples up to the next instruction: an address inside an
		 * instruction counts for it. */
		for (; k < hi && b->nodes[k].addr < next; k++) {
			const struct pp_node *n = &g->nodes[b->nodes[k].node];

			flat += n->flat;
			fdiv += n->flat_div;
			cum += n->cum;
			cdiv += n->cum_div;
			if (!first)
				first = n;
		}
		in->flat = divided(flat, fdiv);
		in->cum = divided(cum, cdiv);
		in->frame_first = (uint32_t)a->nframes;
		if ((err = pp_symbolizer_lookup(b->s, path, in->addr, &fr,
		                                &nfr)) < 0)
			goto done;
		for (size_t f = 0; f < nfr; f++)
			if ((err = add_frame(a, fr[f].name, fr[f].file,
			                     fr[f].line)) < 0)
				goto done;
		/* No debug info here: the sample's own frame, as pprof. */
		if (nfr == 0 && first &&
		    (err = add_frame(a, pp_profile_str(p, first->info.name),
		                     pp_profile_str(p, first->info.file),
		                     first->info.lineno)) < 0)
			goto done;
		in->nframes = (uint32_t)(a->nframes - in->frame_first);
		a->ninsns++;
	}
	err = 0;
done:
	pp_free(a->ctx, insns);
	return err;
}

/* The mapping node n belongs to: its file, and its range if several
 * mappings name the file. PP_NONE: none. */
static uint32_t node_mapping(const struct pp_profile *p,
                             const struct pp_node *n)
{
	uint32_t first = PP_NONE;

	for (uint32_t m = 0; m < p->nmappings; m++) {
		const struct pp_mapping *mp = &p->mappings[m];

		if (mp->file != n->info.objfile)
			continue;
		if (n->info.address >= mp->start && n->info.address < mp->limit)
			return m;
		if (first == PP_NONE)
			first = m;
	}
	return first;
}

/* The routines of mapping m. */
static int scan_mapping(struct builder *b, uint32_t m, const uint32_t *nmap)
{
	struct pp_report *r = b->r;
	const struct pp_profile *p = r->prof;
	const struct pp_mapping *mp = &p->mappings[m];
	const struct pp_symbolize_opts *so = r->opts.binaries;
	const struct pp_func_sym *syms;
	const char *path;
	size_t nsyms;
	int err;

	err = pp_symbolizer_find(b->s, pp_profile_str(p, mp->file),
	                         pp_profile_str(p, mp->build_id),
	                         m == 0 && so && so->executable, &path);
	if (err == PP_ENOTFOUND) {
		/* As pprof: this binary is left out, the others go on. */
		pp_warn(r->ctx, "%s", r->ctx->message);
		r->ctx->message[0] = '\0';
		return 0;
	}
	if (err < 0)
		return err;
	b->a->found[m] = true;
	b->nnodes = 0;
	for (uint32_t n = 0; n < r->agg->graph->nnodes; n++) {
		uint64_t ea;

		if (nmap[n] != m)
			continue;
		if ((err = pp_symbolizer_translate(
		             b->s, path, mp->start, mp->limit, mp->offset,
		             r->agg->graph->nodes[n].info.address, &ea)) < 0)
			return err;
		if ((err = pp_grow(r->ctx, (void **)&b->nodes, &b->cap_nodes,
		                   b->nnodes + 1, sizeof(*b->nodes))) < 0)
			return err;
		b->nodes[b->nnodes].addr = ea;
		b->nodes[b->nnodes++].node = n;
	}
	if (b->nnodes > 1)
		qsort(b->nodes, b->nnodes, sizeof(*b->nodes), by_addr);
	if ((err = pp_symbolizer_functions(b->s, path, &syms, &nsyms)) < 0)
		return err;
	for (size_t i = 0, nalias, turn = 0; i < nsyms; i += nalias) {
		const struct pp_func_sym *y = &syms[i];
		bool holds = false, named = false;
		size_t lo = 0, hi = b->nnodes, end;

		if ((err = pp_interrupt_poll(r->ctx, turn++)) < 0)
			return err;
		/* Aliases (the same range under several names) are one
		 * routine, matched by any of its names. */
		for (nalias = 0;
		     i + nalias < nsyms && syms[i + nalias].start == y->start &&
		     syms[i + nalias].end == y->end;
		     nalias++)
			named = named ||
			        pp_regex_matchz(b->re, syms[i + nalias].name);

		if (b->has_addr) {
			uint64_t ea = b->addr;

			if (b->addr >= mp->start && b->addr < mp->limit &&
			    pp_symbolizer_translate(b->s, path, mp->start,
			                            mp->limit, mp->offset,
			                            b->addr, &ea) < 0)
				ea = b->addr;
			holds = (b->addr >= y->start && b->addr < y->end) ||
			        (ea >= y->start && ea < y->end);
			b->addr_in_binary = b->addr_in_binary || holds;
		}
		if (!holds && !named && !b->node_marked)
			continue;
		/* The first node at or after the symbol's start. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (b->nodes[mid].addr < y->start)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (end = lo; end < b->nnodes && b->nodes[end].addr < y->end;
		     end++)
			;
		if (end == lo)
			continue;
		if (!holds && b->node_marked && !named) {
			size_t k = lo;

			while (k < end && !b->node_marked[b->nodes[k].node])
				k++;
			if (k == end)
				continue;
		}
		/* Each routine is disassembled: look every time. */
		if (pp_interrupted(r->ctx))
			return pp_error_interrupted(r->ctx);
		if ((err = add_routine(b, path, y, nalias, lo, end)) < 0)
			return err;
	}
	return 0;
}

struct sort_key {
	const char *name;
	int64_t flat;
	uint64_t start;
	size_t idx;
};

static int cmp_name(const void *pa, const void *pb)
{
	const struct sort_key *x = pa, *y = pb;
	int c = strcmp(x->name, y->name);

	if (c != 0)
		return c;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* The web UI's order: the heaviest first. */
static int cmp_flat(const void *pa, const void *pb)
{
	const struct sort_key *x = pa, *y = pb;

	if (x->flat != y->flat)
		return x->flat > y->flat ? -1 : 1;
	return cmp_name(pa, pb);
}

static int sort_routines(struct pp_asm *a, bool by_flat)
{
	struct sort_key *k = pp_calloc(a->ctx, a->nroutines, sizeof(*k));
	struct pp_asm_routine *v = pp_calloc(a->ctx, a->nroutines, sizeof(*v));

	if (!k || !v) {
		pp_free(a->ctx, k);
		pp_free(a->ctx, v);
		return pp_error(a->ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < a->nroutines; i++)
		k[i] = (struct sort_key){pp_asm_str(a, a->routines[i].name),
		                         a->routines[i].flat,
		                         a->routines[i].start, i};
	qsort(k, a->nroutines, sizeof(*k), by_flat ? cmp_flat : cmp_name);
	for (size_t i = 0; i < a->nroutines; i++)
		v[i] = a->routines[k[i].idx];
	memcpy(a->routines, v, a->nroutines * sizeof(*v));
	pp_free(a->ctx, k);
	pp_free(a->ctx, v);
	return 0;
}

/* b->node_marked: the nodes at addresses of locations with a frame that
 * matches by function or file name. */
static int mark_inlined(struct builder *b, const struct pp_regex *re)
{
	struct pp_report *r = b->r;
	const struct pp_profile *p = r->prof;
	const struct pp_graph *g = r->agg->graph;

	b->node_marked = pp_calloc(r->ctx, (size_t)g->nnodes + 1, 1);
	if (!b->node_marked)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];
		bool match = false;

		for (uint32_t i = 0; i < loc->line_count && !match; i++) {
			const struct pp_line *ln =
			        &p->lines[loc->line_first + i];
			const struct pp_function *fn;

			if (ln->function == PP_NONE)
				continue;
			fn = &p->functions[ln->function];
			match = match_str(re, p, fn->name) ||
			        match_str(re, p, fn->filename);
		}
		if (!match)
			continue;
		for (uint32_t k = g->loc_node_first[l];
		     k < g->loc_node_first[l + 1]; k++)
			b->node_marked[g->loc_nodes[k]] = true;
	}
	return 0;
}

int pp_report__asm(struct pp_report *r, const char *symbol, int max_funcs,
                   bool inlined, struct pp_asm **out)
{
	static const struct pp_symbolize_opts defaults = {0};
	const struct pp_profile *p = r->prof;
	struct pp_graph_opts go;
	struct pp_regex *re = NULL;
	struct builder b;
	uint32_t *nmap = NULL;
	bool *hit = NULL;
	char *end = NULL;
	int err;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	b.r = r;
	if ((err = pp_regex_compile(r->ctx, "parsing argument regexp", symbol,
	                            &re)) < 0)
		return err;
	b.re = re;
	/* pprof: a regex that reads as a number also finds the function
	 * that holds that address. */
	errno = 0;
	b.addr = symbol[0] ? strtoull(symbol, &end, 0) : 0;
	b.has_addr = symbol[0] && end && *end == '\0' && errno == 0 &&
	             symbol[0] != '-' && symbol[0] != '+';
	pp_report__graph_opts(r, PP_EDGES_NONE, &go);
	go.granularity = PP_GRAN_ADDRESSES;
	go.noinlines = true;
	go.obj_names = true;
	if ((err = pp_report__graph(r, &go)) < 0)
		goto done;
	b.a = pp_calloc(r->ctx, 1, sizeof(*b.a));
	nmap = pp_calloc(r->ctx, (size_t)r->agg->graph->nnodes + 1,
	                 sizeof(*nmap));
	hit = pp_calloc(r->ctx, (size_t)p->nmappings + 1, sizeof(*hit));
	if (b.a)
		b.a->found = pp_calloc(r->ctx, (size_t)p->nmappings + 1,
		                       sizeof(*b.a->found));
	if (!b.a || !nmap || !hit || !b.a->found) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	b.a->ctx = r->ctx;
	if (inlined && (err = mark_inlined(&b, re)) < 0)
		goto done;
	if (!(b.a->strings = pp_strtab_new(r->ctx))) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* The binaries of the sampled nodes whose names match. */
	for (uint32_t n = 0; n < r->agg->graph->nnodes; n++) {
		const struct pp_node *node = &r->agg->graph->nodes[n];

		nmap[n] = node_mapping(p, node);
		if (nmap[n] != PP_NONE && !hit[nmap[n]] &&
		    pp_profile_str(p, node->info.objfile)[0] &&
		    ((b.node_marked && b.node_marked[n]) ||
		     match_str(re, p, node->info.name)))
			for (uint32_t m = 0; m < p->nmappings; m++)
				if (p->mappings[m].file == node->info.objfile)
					hit[m] = true;
	}
	if ((err = pp_symbolizer_new(
	             r->ctx, r->opts.binaries ? r->opts.binaries : &defaults,
	             &b.s)) < 0)
		goto done;
	for (uint32_t m = 0; m < p->nmappings; m++) {
		bool sampled = false;

		/* An address may be a runtime one (as -addresses prints it)
		 * or the binary's own: every sampled binary is searched. */
		for (uint32_t n = 0; b.has_addr && n < r->agg->graph->nnodes;
		     n++)
			if (nmap[n] == m) {
				sampled = true;
				break;
			}
		if (!hit[m] && !sampled)
			continue;
		if ((err = scan_mapping(&b, m, nmap)) < 0)
			goto done;
	}
	if (b.a->nroutines == 0 && !inlined) {
		if (!b.has_addr)
			err = pp_error(r->ctx, PP_ENOTFOUND,
			               "no matches found for regexp %s",
			               symbol);
		else if (!b.addr_in_binary)
			err = pp_error(r->ctx, PP_ENOTFOUND,
			               "no matches found for address 0x%llx",
			               (unsigned long long)b.addr);
		else
			err = pp_error(
			        r->ctx, PP_ENOTFOUND,
			        "address 0x%llx found in binary, but the "
			        "corresponding symbols do not have "
			        "samples in the profile",
			        (unsigned long long)b.addr);
		goto done;
	}
	if (b.a->nroutines > 0 &&
	    (err = sort_routines(b.a, max_funcs >= 0)) < 0)
		goto done;
	if (max_funcs >= 0 && b.a->nroutines > (size_t)max_funcs)
		b.a->nroutines = (size_t)max_funcs;
	*out = b.a;
	b.a = NULL;
	err = 0;
done:
	pp_report__asm_free(b.a);
	pp_symbolizer_free(b.s);
	pp_free(r->ctx, b.nodes);
	pp_free(r->ctx, b.node_marked);
	pp_free(r->ctx, nmap);
	pp_free(r->ctx, hit);
	pp_regex_free(re);
	return err;
}
