/*
 * weblist: pprof's annotated source with each line's instructions, as
 * pprof's MakeWebList lays it out (source.go), over the instructions of
 * asm.c. Each instruction is filed under the source line of every frame of
 * its inline chain whose function (or file) matches, with the calls
 * inlined below that frame as its context; a file's lines are cut into
 * functions (lines of one function less than 20 apart) with five lines of
 * context around. Printed as one self-contained HTML page (weblist), the
 * page pprof 1.24 writes byte for byte, or as JSON for the web UI's source
 * view (docs/web-api.md).
 *
 * The page also lists the sampled locations whose binary was not read, as
 * pprof's handleUnprocessed does: each address of interest is an
 * instruction without text whose frames are the location's own lines, its
 * values every occurrence of the address in the samples. pprof takes them
 * in Go's map order; here they go by address, so the page is the same in
 * every run.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "pprof/srcfile.h"
#include "report/asm.h"
#include "util/regex.h"
#include "util/utf8.h"

#define MERGE_LIMIT 20 /* lines of one function closer than this join */
#define EXPAND 5       /* lines of context */

/* An instruction filed under a source line. */
struct rec {
	pp_str file;
	int64_t line;
	uint32_t insn;
	uint32_t frame; /* index in the insn's chain of the line's frame */
	uint32_t seq;
};

/* A source file, read on first use. */
struct src {
	pp_str name;
	bool loaded, ok;
	struct pp_bytes text;
	size_t *starts; /* nlines + 1 */
	uint32_t nlines;
};

struct wl {
	struct pp_report *r;
	struct pp_asm *a;
	struct rec *recs;
	size_t nrecs, cap;
	struct src *srcs;
	size_t nsrcs, cap_srcs;
};

/* Sort with the strings: names are compared through a side array. */
struct keyed {
	const char *file;
	struct rec rec;
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *x = pa, *y = pb;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->rec.line != y->rec.line)
		return x->rec.line < y->rec.line ? -1 : 1;
	return x->rec.seq < y->rec.seq ? -1 : x->rec.seq > y->rec.seq;
}

static int sort_recs(struct wl *w)
{
	struct keyed *k = pp_calloc(w->r->ctx, w->nrecs + 1, sizeof(*k));

	if (!k)
		return pp_error(w->r->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < w->nrecs; i++)
		k[i] = (struct keyed){pp_asm_str(w->a, w->recs[i].file),
		                      w->recs[i]};
	qsort(k, w->nrecs, sizeof(*k), keyed_cmp);
	for (size_t i = 0; i < w->nrecs; i++)
		w->recs[i] = k[i].rec;
	pp_free(w->r->ctx, k);
	return 0;
}

static bool interesting(const struct wl *w, const struct pp_regex *re,
                        const struct pp_asm_frame *f, bool outermost,
                        bool routine_matched)
{
	return pp_regex_matchz(re, pp_asm_str(w->a, f->name)) ||
	       pp_regex_matchz(re, pp_asm_str(w->a, f->file)) ||
	       (outermost && routine_matched);
}

/* pprof's canonicalizeFileName: without "/proc/self/cwd/" or "./" in
 * front, then cleaned as Go's filepath.Clean (pp_free). */
static char *canonical_file(struct pp_ctx *ctx, const char *f)
{
	size_t n = strlen(f), *marks;
	bool rooted;
	char *b;

	if (strncmp(f, "/proc/self/cwd/", 15) == 0)
		f += 15, n -= 15;
	if (strncmp(f, "./", 2) == 0)
		f += 2, n -= 2;
	rooted = n > 0 && f[0] == '/';
	b = pp_malloc(ctx, n + 2);
	marks = pp_calloc(ctx, n + 2, sizeof(*marks));
	if (!b || !marks) {
		pp_free(ctx, b);
		pp_free(ctx, marks);
		return NULL;
	}
	/* Element by element: "." dropped, ".." takes the last one away. */
	size_t len = rooted ? 1 : 0, depth = 0, dotdots = 0;

	if (rooted)
		b[0] = '/';
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && f[j] != '/')
			j++;
		size_t el = j - i;

		if (el == 0 || (el == 1 && f[i] == '.')) {
			/* nothing */
		} else if (el == 2 && f[i] == '.' && f[i + 1] == '.') {
			if (depth > dotdots) {
				len = marks[--depth];
			} else if (!rooted) {
				marks[depth++] = len;
				dotdots = depth;
				if (len > 0)
					b[len++] = '/';
				b[len++] = '.';
				b[len++] = '.';
			}
		} else {
			marks[depth++] = len;
			if (len > (size_t)(rooted ? 1 : 0))
				b[len++] = '/';
			memcpy(b + len, f + i, el);
			len += el;
		}
		i = j + 1;
	}
	if (len == 0)
		b[len++] = '.';
	b[len] = '\0';
	pp_free(ctx, marks);
	return b;
}

/* An address of the profile, as pprof's weblist keys its samples. */
struct slot {
	uint64_t addr;
	int64_t flat, cum;
	uint32_t loc; /* the first location marked there, or PP_NONE */
	bool addr_set;
};

struct loc_addr {
	uint64_t addr;
	uint32_t loc;
};

static int by_loc_addr(const void *pa, const void *pb)
{
	const struct loc_addr *x = pa, *y = pb;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->loc < y->loc ? -1 : x->loc > y->loc;
}

static int by_slot_addr(const void *pa, const void *pb)
{
	const struct slot *x = *(const struct slot *const *)pa,
	                  *y = *(const struct slot *const *)pb;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static bool match_pstr(const struct pp_regex *re, const struct pp_profile *p,
                       pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	return pp_regex_match(re, t, n);
}

struct synth {
	struct slot *slots;
	uint32_t *slot_of; /* per location */
	bool *interest;    /* per string of the profile: a function's name */
	uint32_t nslots;
	uint64_t next; /* pprof's next synthetic address */
};

/* Mark line k of location l as pprof's markInterest does. */
static void mark(struct synth *y, const struct pp_profile *p, uint32_t l,
                 uint32_t k)
{
	const struct pp_line *ln = &p->lines[p->locations[l].line_first + k];
	struct slot *sl = &y->slots[y->slot_of[l]];

	if (ln->function == PP_NONE)
		return;
	y->interest[p->functions[ln->function].name] = true;
	y->interest[p->functions[ln->function].system_name] = true;
	if (sl->loc == PP_NONE)
		sl->loc = l;
}

/* pprof's pass over the samples: each address's values (every occurrence
 * in a stack counts) and the names of the functions of interest. */
static int scan_samples(struct wl *w, struct synth *y,
                        const struct pp_regex *re, const char *symbol)
{
	struct pp_report *r = w->r;
	const struct pp_profile *p = r->prof;
	struct loc_addr *la;
	uint32_t nla = 0;
	uint64_t want = 0;
	char *end = NULL;
	bool has_addr;

	errno = 0;
	want = symbol[0] ? strtoull(symbol, &end, 0) : 0;
	has_addr = symbol[0] && end && *end == '\0' && errno == 0 &&
	           symbol[0] != '-' && symbol[0] != '+';
	y->next = 1;
	for (uint32_t m = 0; m < p->nmappings; m++)
		if (y->next < p->mappings[m].limit)
			y->next = p->mappings[m].limit;
	la = pp_calloc(r->ctx, (size_t)p->nlocations + 1, sizeof(*la));
	y->slot_of = pp_calloc(r->ctx, (size_t)p->nlocations + 1,
	                       sizeof(*y->slot_of));
	y->slots =
	        pp_calloc(r->ctx, (size_t)p->nlocations + 1, sizeof(*y->slots));
	y->interest = pp_calloc(r->ctx, pp_strtab_count(p->strings) + 1, 1);
	if (!la || !y->slot_of || !y->slots || !y->interest) {
		pp_free(r->ctx, la);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	/* Locations at one address share it; each without one has its own. */
	for (uint32_t l = 0; l < p->nlocations; l++)
		if (p->locations[l].address != 0)
			la[nla++] =
			        (struct loc_addr){p->locations[l].address, l};
	qsort(la, nla, sizeof(*la), by_loc_addr);
	for (uint32_t i = 0; i < nla; i++) {
		if (i == 0 || la[i].addr != la[i - 1].addr)
			y->slots[y->nslots++] =
			        (struct slot){la[i].addr, 0, 0, PP_NONE, true};
		y->slot_of[la[i].loc] = y->nslots - 1;
	}
	pp_free(r->ctx, la);
	for (uint32_t l = 0; l < p->nlocations; l++)
		if (p->locations[l].address == 0) {
			y->slots[y->nslots] =
			        (struct slot){0, 0, 0, PP_NONE, false};
			y->slot_of[l] = y->nslots++;
		}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = p->values + (size_t)s * p->nsample_types;
		int64_t value = v[r->sample_index];

		if ((s & 0x3ff) == 0 && pp_interrupted(r->ctx))
			return pp_error_interrupted(r->ctx);
		if (r->opts.mean && v[0] != 0)
			value /= v[0];
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = pp_sample_loc(p, smp, i);
			const struct pp_location *loc = &p->locations[l];
			struct slot *sl = &y->slots[y->slot_of[l]];
			bool match_file;

			if (!sl->addr_set) {
				sl->addr = y->next++;
				sl->addr_set = true;
			}
			sl->cum += value;
			if (i == 0)
				sl->flat += value;
			if (has_addr && sl->addr == want) {
				if (loc->line_count > 0)
					mark(y, p, l, loc->line_count - 1);
				continue;
			}
			match_file = loc->mapping != PP_NONE &&
			             match_pstr(re, p,
			                        p->mappings[loc->mapping].file);
			for (uint32_t k = 0; k < loc->line_count; k++) {
				const struct pp_line *ln =
				        &p->lines[loc->line_first + k];
				const struct pp_function *fn;

				if (ln->function == PP_NONE)
					continue;
				fn = &p->functions[ln->function];
				if ((k == 0 && match_file) ||
				    match_pstr(re, p, fn->name) ||
				    match_pstr(re, p, fn->system_name) ||
				    match_pstr(re, p, fn->filename))
					mark(y, p, l, k);
			}
		}
	}
	return 0;
}

/* One location whose binary was not read, as an instruction of its own
 * lines (pprof's handleUnprocessed), filed under the line of each frame
 * of interest. */
static int add_synthetic(struct wl *w, const struct synth *y,
                         const struct slot *sl, uint32_t *seq)
{
	const struct pp_profile *p = w->r->prof;
	const struct pp_location *loc = &p->locations[sl->loc];
	struct pp_asm *a = w->a;
	struct pp_asm_insn *in;
	uint32_t ii = (uint32_t)a->ninsns, f = 0;
	int err;

	if ((err = pp_grow(a->ctx, (void **)&a->insns, &a->cap_insns,
	                   a->ninsns + 1, sizeof(*a->insns))) < 0)
		return err;
	in = &a->insns[a->ninsns++];
	memset(in, 0, sizeof(*in));
	in->addr = sl->addr;
	in->size = 1;
	in->flat = sl->flat;
	in->cum = sl->cum;
	in->synthetic = true;
	in->frame_first = (uint32_t)a->nframes;
	for (uint32_t k = 0; k < loc->line_count; k++) {
		const struct pp_line *ln = &p->lines[loc->line_first + k];
		const struct pp_function *fn;
		struct pp_asm_frame *fr;

		if (ln->function == PP_NONE)
			continue;
		fn = &p->functions[ln->function];
		if ((err = pp_grow(a->ctx, (void **)&a->frames, &a->cap_frames,
		                   a->nframes + 1, sizeof(*a->frames))) < 0)
			return err;
		fr = &a->frames[a->nframes];
		{
			size_t nn, nf;
			const char *name = pp_profile_strn(p, fn->name, &nn);
			const char *file =
			        pp_profile_strn(p, fn->filename, &nf);

			fr->name = pp_strtab_intern(a->strings, name, nn);
			fr->file = pp_strtab_intern(a->strings, file, nf);
		}
		if (fr->name == PP_NONE || fr->file == PP_NONE)
			return pp_error(a->ctx, PP_ENOMEM, "out of memory");
		fr->line = ln->line;
		a->nframes++;
		in = &a->insns[ii];
		in->nframes++;
		if (!y->interest[fn->name]) {
			f++;
			continue;
		}
		{
			char *canon = canonical_file(
			        a->ctx, pp_strtab_get(a->strings, fr->file));
			pp_str cf;

			if (!canon)
				return pp_error(a->ctx, PP_ENOMEM,
				                "out of memory");
			cf = pp_strtab_intern(a->strings, canon, strlen(canon));
			pp_free(a->ctx, canon);
			if (cf == PP_NONE)
				return pp_error(a->ctx, PP_ENOMEM,
				                "out of memory");
			if ((err = pp_grow(a->ctx, (void **)&w->recs, &w->cap,
			                   w->nrecs + 1, sizeof(*w->recs))) < 0)
				return err;
			w->recs[w->nrecs++] =
			        (struct rec){cf, ln->line, ii, f, (*seq)++};
		}
		f++;
	}
	return 0;
}

/* The sampled locations of interest whose binary was not read, in
 * address order (pprof takes them in its map's order, which varies from
 * run to run). Sets *any when some function is of interest at all. */
static int collect_synthetic(struct wl *w, const struct pp_regex *re,
                             const char *symbol, uint32_t *seq, bool *any)
{
	struct pp_ctx *ctx = w->r->ctx;
	const struct pp_profile *p = w->r->prof;
	struct synth y = {0};
	struct slot **order = NULL;
	uint32_t n = 0;
	int err;

	*any = false;
	if ((err = scan_samples(w, &y, re, symbol)) < 0)
		goto done;
	for (uint32_t i = 0; i < pp_strtab_count(p->strings); i++)
		if (y.interest[i])
			*any = true;
	if (!(order = pp_calloc(ctx, (size_t)y.nslots + 1, sizeof(*order)))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = 0; i < y.nslots; i++) {
		const struct slot *sl = &y.slots[i];
		uint32_t m;

		if (sl->loc == PP_NONE)
			continue;
		m = p->locations[sl->loc].mapping;
		if (m != PP_NONE && w->a->found[m])
			continue;
		order[n++] = &y.slots[i];
	}
	qsort(order, n, sizeof(*order), by_slot_addr);
	for (uint32_t i = 0; i < n; i++)
		if ((err = add_synthetic(w, &y, order[i], seq)) < 0)
			goto done;
	err = 0;
done:
	pp_free(ctx, order);
	pp_free(ctx, y.slots);
	pp_free(ctx, y.slot_of);
	pp_free(ctx, y.interest);
	return err;
}

static int collect(struct wl *w, const struct pp_regex *re, uint32_t seq)
{
	struct pp_asm *a = w->a;
	int err;

	for (size_t ri = 0; ri < a->nroutines; ri++) {
		const struct pp_asm_routine *rt = &a->routines[ri];
		bool matched = pp_regex_matchz(re, pp_asm_str(a, rt->name));

		for (uint32_t i = 0; i < rt->ninsns; i++) {
			uint32_t ii = rt->insn_first + i;
			const struct pp_asm_insn *in = &a->insns[ii];

			for (uint32_t f = 0; f < in->nframes; f++) {
				const struct pp_asm_frame *fr =
				        &a->frames[in->frame_first + f];

				if (!interesting(w, re, fr,
				                 f + 1 == in->nframes, matched))
					continue;
				if ((err = pp_grow(a->ctx, (void **)&w->recs,
				                   &w->cap, w->nrecs + 1,
				                   sizeof(*w->recs))) < 0)
					return err;
				w->recs[w->nrecs++] = (struct rec){
				        fr->file, fr->line, ii, f, seq++};
			}
		}
	}
	return sort_recs(w);
}

static int split(struct pp_ctx *ctx, struct src *s)
{
	const uint8_t *d = s->text.data;
	size_t n = 0, cap = 0, len = s->text.len;
	int err;

	for (size_t i = 0; i < len;) {
		const uint8_t *nl = memchr(d + i, '\n', len - i);

		if ((err = pp_grow(ctx, (void **)&s->starts, &cap, n + 2,
		                   sizeof(*s->starts))) < 0)
			return err;
		s->starts[n++] = i;
		i = nl ? (size_t)(nl - d) + 1 : len;
	}
	if ((err = pp_grow(ctx, (void **)&s->starts, &cap, n + 1,
	                   sizeof(*s->starts))) < 0)
		return err;
	s->starts[n] = len;
	s->nlines = (uint32_t)n;
	return 0;
}

/* Line ln of file (without its newline) into text and len; *ok false when the
 * file or the line is not there. */
static int source_line(struct wl *w, pp_str file, int64_t ln, const char **text,
                       size_t *len, bool *ok)
{
	struct pp_report *r = w->r;
	struct src *s = NULL;
	int err;

	*ok = false;
	for (size_t i = 0; i < w->nsrcs; i++)
		if (w->srcs[i].name == file)
			s = &w->srcs[i];
	if (!s) {
		if ((err = pp_grow(r->ctx, (void **)&w->srcs, &w->cap_srcs,
		                   w->nsrcs + 1, sizeof(*w->srcs))) < 0)
			return err;
		s = &w->srcs[w->nsrcs++];
		memset(s, 0, sizeof(*s));
		s->name = file;
	}
	if (!s->loaded) {
		s->loaded = true;
		err = pp_srcfile_read_max(
		        r->ctx, pp_asm_str(w->a, file), r->opts.source_path,
		        r->opts.trim_path, r->opts.max_source_size, &s->text);
		if (err == PP_ENOMEM || err == PP_ELIMIT)
			return err;
		r->ctx->message[0] = '\0';
		if (err >= 0) {
			if ((err = split(r->ctx, s)) < 0)
				return err;
			s->ok = true;
		}
	}
	if (!s->ok || ln < 1 || ln > (int64_t)s->nlines)
		return 0;
	*text = (const char *)s->text.data + s->starts[ln - 1];
	*len = s->starts[ln] - s->starts[ln - 1];
	if (*len > 0 && (*text)[*len - 1] == '\n')
		(*len)--;
	if (*len > 0 && (*text)[*len - 1] == '\r')
		(*len)--;
	*ok = true;
	return 0;
}

/* ---- the listing, as pprof's WebListData -------------------------------- */

struct fn_range {
	pp_str name;
	int64_t begin, end; /* [begin, end) */
	int64_t flat, cum;
};

/* pprof's indentation: columns of leading blanks, tabs to 8. */
static int indentation(const char *s, size_t len)
{
	int col = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == ' ')
			col++;
		else if (s[i] == '\t')
			col = (col / 8 + 1) * 8;
		else
			break;
	}
	return col;
}

/* s padded with spaces to n columns (tabs expanded), as pprof's rightPad;
 * written through put. */
struct sink {
	struct pp_ctx *ctx;
	FILE *out;
	bool json; /* JSON string content instead of HTML text */
};

/* s[0..len) escaped for the sink (a JSON string or HTML text). */
static int put_text(const struct sink *k, const char *s, size_t len)
{
	char *tmp = pp_malloc(k->ctx, len + 1);

	if (!tmp)
		return pp_error(k->ctx, PP_ENOMEM, "out of memory");
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	if (k->json)
		pp_report_put_json_string(k->out, tmp);
	else
		pp_report__put_html_n(k->out, tmp, len);
	pp_free(k->ctx, tmp);
	return 0;
}

/* Spaces, then s with tabs expanded, padded to 80 columns (pp_free). */
static char *padded(struct pp_ctx *ctx, int indent, const char *s, size_t len)
{
	size_t cap = (size_t)indent + len * 8 + 81, n = 0;
	char *b = pp_malloc(ctx, cap);
	int col = 0;

	if (!b)
		return NULL;
	for (int i = 0; i < indent; i++, col++)
		b[n++] = ' ';
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c & 0xc0) != 0x80)
			col++;
		if (c == '\t') {
			b[n++] = ' ';
			while (col % 8 != 0) {
				col++;
				b[n++] = ' ';
			}
		} else {
			b[n++] = (char)c;
		}
	}
	while (col < 80) {
		col++;
		b[n++] = ' ';
	}
	b[n] = '\0';
	return b;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void put_html(FILE *out, const char *s)
{
	pp_report__put_html_n(out, s, strlen(s));
}

/* Go's unicode.IsSpace over ASCII, as strings.TrimSpace trims. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

/* A value's text: a profile's unit may hold NUL bytes, and be long. */
struct value {
	struct pp_report__val v;
};

static void value_or_dot(const struct pp_report *r, int64_t v,
                         struct value *out)
{
	if (v != 0)
		pp_report__format(r, v, &out->v);
	else
		pp_report__val_text(&out->v, ".");
}

/* A value padded to width runes, then escaped, as pprof's template
 * escapes what its printf padded. */
static void put_value_html(FILE *out, const struct value *v, int width)
{
	size_t runes =
	        v->v.num_len +
	        pp_utf8_runes((const unsigned char *)v->v.unit, v->v.unit_len);

	for (size_t i = runes; i < (size_t)width; i++)
		fputc(' ', out);
	pp_report__put_html_n(out, v->v.num, v->v.num_len);
	pp_report__put_html_n(out, v->v.unit, v->v.unit_len);
}

static void put_value_json(FILE *out, const struct value *v)
{
	pp_report__put_json_val(out, &v->v);
}

/* The functions of one file's records recs[0..n), as pprof's functions(). */
static int functions(struct wl *w, const struct rec *recs, size_t n,
                     struct fn_range **out, size_t *nout)
{
	struct pp_ctx *ctx = w->r->ctx;
	struct fn_range *v = NULL;
	size_t nv = 0, cap = 0;
	int err;

	for (size_t i = 0, j; i < n; i = j) {
		struct fn_range fn;
		const struct pp_asm_insn *in0 = &w->a->insns[recs[i].insn];

		fn.name = w->a->frames[in0->frame_first + recs[i].frame].name;
		fn.begin = recs[i].line;
		fn.end = recs[i].line + 1;
		fn.flat = fn.cum = 0;
		for (j = i; j < n && recs[j].line == recs[i].line; j++) {
			fn.flat += w->a->insns[recs[j].insn].flat;
			fn.cum += w->a->insns[recs[j].insn].cum;
		}
		if (nv > 0 && recs[i].line - v[nv - 1].end < MERGE_LIMIT &&
		    v[nv - 1].name == fn.name) {
			v[nv - 1].end = recs[i].line + 1;
			v[nv - 1].flat += fn.flat;
			v[nv - 1].cum += fn.cum;
			continue;
		}
		if ((err = pp_grow(ctx, (void **)&v, &cap, nv + 1,
		                   sizeof(*v))) < 0) {
			pp_free(ctx, v);
			return err;
		}
		v[nv++] = fn;
	}
	for (size_t i = 0; i < nv; i++) {
		if (i == 0) {
			if (v[i].begin > EXPAND)
				v[i].begin -= EXPAND;
			else if (v[i].begin > 1)
				v[i].begin = 1;
		} else {
			int64_t half = (v[i].begin - v[i - 1].end) / 2;

			if (half > EXPAND)
				half = EXPAND;
			v[i - 1].end += half;
			v[i].begin -= half;
		}
	}
	if (nv > 0)
		v[nv - 1].end += EXPAND;
	*out = v;
	*nout = nv;
	return 0;
}

/* One instruction's rows: a block marker, its new inline context, itself. */
static int print_insn(struct wl *w, const struct sink *k, const struct rec *x,
                      int indent, bool new_block, struct rec *cur, bool first)
{
	const struct pp_asm *a = w->a;
	const struct pp_asm_insn *in = &a->insns[x->insn];
	const struct pp_asm_frame *fr = &a->frames[in->frame_first];
	FILE *out = k->out;
	struct value fs, cs;
	char *pad;
	int ncalls = 0;
	int err;

	value_or_dot(w->r, in->flat, &fs);
	value_or_dot(w->r, in->cum, &cs);
	if (k->json) {
		/* synthetic: no instruction of a binary, only a place for
		 * the calls inlined below the line (no row of its own). */
		fprintf(out, "%s{\"new_block\":%s,\"synthetic\":%s,\"flat\":",
		        first ? "" : ",", new_block ? "true" : "false",
		        in->synthetic ? "true" : "false");
		put_value_json(out, &fs);
		fputs(",\"cum\":", out);
		put_value_json(out, &cs);
		fprintf(out, ",\"address\":\"%llx\",\"disasm\":",
		        (unsigned long long)in->addr);
		pp_report_put_json_string(out, pp_asm_str(a, in->text));
		fputs(",\"file_line\":", out);
	} else if (new_block) {
		/* pprof's %28s pads "⋮" as one character, not three bytes */
		fprintf(out, " %8s %27s\xe2\x8b\xae\n", "", "");
	}
	{
		char fl[512] = "";

		if (in->nframes && pp_asm_str(a, fr->file)[0])
			snprintf(fl, sizeof(fl), "%s:%lld",
			         base_name(pp_asm_str(a, fr->file)),
			         (long long)fr->line);
		if (k->json) {
			pp_report_put_json_string(out, fl);
			fputs(",\"inlined_calls\":[", out);
		}
		/* The inline chain below the line's frame, caller first,
		 * where it differs from the previous instruction's. */
		for (uint32_t j = 0; j < x->frame; j++) {
			const struct pp_asm_frame *c =
			        &a->frames[in->frame_first + x->frame - 1 - j];
			const struct pp_asm_insn *pin =
			        cur->seq != UINT32_MAX ? &a->insns[cur->insn]
			                               : NULL;
			const char *text = "";
			size_t len = 0;
			bool ok;
			static const char *const sep[2] = {"{", ",{"};

			if (pin && j < cur->frame) {
				const struct pp_asm_frame *pc =
				        &a->frames[pin->frame_first +
				                   cur->frame - 1 - j];

				if (pc->file == c->file && pc->line == c->line)
					continue;
			}
			cur->seq = UINT32_MAX; /* pprof: the rest is new */
			pin = NULL;
			if ((err = source_line(w, c->file, c->line, &text, &len,
			                       &ok)) < 0)
				return err;
			while (len && is_space(*text)) {
				text++;
				len--;
			}
			while (len && is_space(text[len - 1]))
				len--;
			if (!(pad = padded(w->r->ctx, indent + 4 + 4 * (int)j,
			                   text, len)))
				return pp_error(w->r->ctx, PP_ENOMEM,
				                "out of memory");
			if (k->json) {
				fputs(sep[ncalls++ > 0], out);
				fputs("\"src\":", out);
				pp_report_put_json_string(out, pad);
				fputs(",\"file_base\":", out);
				pp_report_put_json_string(
				        out, base_name(pp_asm_str(a, c->file)));
				fprintf(out, ",\"line\":%lld}",
				        (long long)c->line);
			} else {
				fprintf(out, " %8s %10s %10s %8s  ", "", "", "",
				        "");
				fputs("<span class=inlinesrc>", out);
				if ((err = put_text(k, pad, strlen(pad))) < 0) {
					pp_free(w->r->ctx, pad);
					return err;
				}
				fputs("</span> <span class=unimportant>", out);
				put_html(out,
				         base_name(pp_asm_str(a, c->file)));
				fprintf(out, ":%lld</span>\n",
				        (long long)c->line);
			}
			pp_free(w->r->ctx, pad);
		}
		*cur = *x;
		{
			const char *t = pp_asm_str(a, in->text);

			if (!(pad = padded(w->r->ctx,
			                   indent + 4 + 4 * (int)x->frame, t,
			                   strlen(t))))
				return pp_error(w->r->ctx, PP_ENOMEM,
				                "out of memory");
		}
		if (k->json) {
			fputs("]}", out);
		} else if (!in->synthetic) {
			fprintf(out, " %8s ", "");
			put_value_html(out, &fs, 10);
			fputc(' ', out);
			put_value_html(out, &cs, 10);
			fprintf(out, " %8llx: ", (unsigned long long)in->addr);
			if ((err = put_text(k, pad, strlen(pad))) < 0) {
				pp_free(w->r->ctx, pad);
				return err;
			}
			fputs(" <span class=unimportant>", out);
			put_html(out, fl);
			fputs("</span>\n", out);
		}
		pp_free(w->r->ctx, pad);
	}
	return 0;
}

/* One function of a file: its header and lines. */
static int print_function(struct wl *w, const struct sink *k,
                          const struct rec *recs, size_t n,
                          const struct fn_range *fn, bool first_fn)
{
	struct pp_report *r = w->r;
	const struct pp_asm *a = w->a;
	FILE *out = k->out;
	struct value fs, cs;
	char pct[32];
	size_t i = 0;
	int err;

	pp_report__format(r, fn->flat, &fs.v);
	pp_report__format(r, fn->cum, &cs.v);
	pp_percentage(fn->cum, r->total, pct, sizeof(pct));
	if (k->json) {
		fputs(first_fn ? "{\"name\":" : ",{\"name\":", out);
		pp_report_put_json_string(out, pp_asm_str(a, fn->name));
		fputs(",\"file\":", out);
		pp_report_put_json_string(out, pp_asm_str(a, recs[0].file));
		fputs(",\"flat\":", out);
		put_value_json(out, &fs);
		fputs(",\"cum\":", out);
		put_value_json(out, &cs);
		fputs(",\"percent\":", out);
		pp_report_put_json_string(out, pct);
		fputs(",\"lines\":[", out);
	} else {
		fputs("<h2>", out);
		put_html(out, pp_asm_str(a, fn->name));
		fputs("</h2><p class=\"filename\">", out);
		put_html(out, pp_asm_str(a, recs[0].file));
		fputs("</p>\n<pre onClick=\"pprof_toggle_asm(event)\">\n", out);
		fputs("  Total:  ", out);
		put_value_html(out, &fs, 10);
		fputc(' ', out);
		put_value_html(out, &cs, 10);
		fprintf(out, " (flat, cum) %s", pct);
	}
	while (i < n && recs[i].line < fn->begin)
		i++;
	for (int64_t l = fn->begin, nl = 0; l < fn->end; l++) {
		const char *text = NULL;
		size_t len = 0, j;
		int64_t flat = 0, cum = 0;
		bool ok, nested = false;
		const char *cls;
		uint64_t last_end = 0;
		struct rec cur = {0};

		while (i < n && recs[i].line < l)
			i++;
		for (j = i; j < n && recs[j].line == l; j++) {
			flat += a->insns[recs[j].insn].flat;
			cum += a->insns[recs[j].insn].cum;
			/* pprof shows a line's instructions when one of them
			 * was disassembled or has inlined calls below it. */
			nested = nested || recs[j].frame > 0 ||
			         !a->insns[recs[j].insn].synthetic;
		}
		cls = j == i ? "nop" : nested ? "livesrc" : "deadsrc";
		if ((err = source_line(w, recs[0].file, l, &text, &len, &ok)) <
		    0)
			return err;
		if (!ok) {
			if (j == i)
				continue;
			text = l == 0 ? "<instructions with unknown line "
			                "numbers>"
			              : "???";
			len = strlen(text);
		}
		value_or_dot(r, flat, &fs);
		value_or_dot(r, cum, &cs);
		if (k->json) {
			fputs(nl++ ? ",{\"line\":" : "{\"line\":", out);
			fprintf(out, "%lld,\"flat\":", (long long)l);
			put_value_json(out, &fs);
			fputs(",\"cum\":", out);
			put_value_json(out, &cs);
			fputs(",\"src\":", out);
			if ((err = put_text(k, text, len)) < 0)
				return err;
			fprintf(out, ",\"class\":\"%s\",\"instructions\":[",
			        cls);
		} else {
			fprintf(out, "\n<span class=line> %6lld</span> ",
			        (long long)l);
			fprintf(out, "<span class=%s>  ", cls);
			put_value_html(out, &fs, 10);
			fputc(' ', out);
			put_value_html(out, &cs, 10);
			fprintf(out, " %8s  ", "");
			if ((err = put_text(k, text, len)) < 0)
				return err;
			fputs(" </span>", out);
			if (nested)
				fputs("<span class=asm>", out);
		}
		if (!nested)
			j = i;
		cur.seq = UINT32_MAX;
		for (size_t q = i; q < j; q++) {
			const struct pp_asm_insn *in = &a->insns[recs[q].insn];
			bool nb = q > i && in->addr != last_end;

			last_end = in->addr + in->size;
			if ((err = print_insn(w, k, &recs[q],
			                      indentation(text, len), nb, &cur,
			                      q == i)) < 0)
				return err;
		}
		if (k->json)
			fputs("]}", out);
		else if (nested)
			fputs("</span>", out);
	}
	fputs(k->json ? "]}" : "\n</pre>\n", out);
	return 0;
}

/* One file's records, recs[first, end), and its flat value. */
struct file_span {
	size_t first, end;
	int64_t flat;
};

/* Heavier first; then by name, the records' order. */
static int span_cmp(const void *pa, const void *pb)
{
	const struct file_span *x = pa, *y = pb;

	if (x->flat != y->flat)
		return x->flat > y->flat ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int u32_cmp(const void *pa, const void *pb)
{
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;

	return x < y ? -1 : x > y;
}

/* The files of w's records in the order to print them, into *out: by
 * name (the page, as pprof's weblist), or for the web UI's source view
 * (by_flat), as pprof's web UI lists them: heaviest first (each
 * instruction counted once per file), at most max_files. */
static int file_spans(struct wl *w, bool by_flat, size_t max_files,
                      struct file_span **out, size_t *nout)
{
	struct pp_ctx *ctx = w->r->ctx;
	struct file_span *v = NULL;
	uint32_t *ids = NULL;
	size_t nv = 0, cap = 0;
	int err = 0;

	for (size_t i = 0, j; i < w->nrecs; i = j) {
		for (j = i; j < w->nrecs && w->recs[j].file == w->recs[i].file;
		     j++)
			;
		if ((err = pp_grow(ctx, (void **)&v, &cap, nv + 1,
		                   sizeof(*v))) < 0)
			goto fail;
		v[nv++] = (struct file_span){i, j, 0};
	}
	if (by_flat && nv > 0) {
		if (!(ids = pp_malloc(ctx, w->nrecs * sizeof(*ids)))) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto fail;
		}
		for (size_t f = 0; f < nv; f++) {
			size_t n = v[f].end - v[f].first;

			for (size_t q = 0; q < n; q++)
				ids[q] = w->recs[v[f].first + q].insn;
			qsort(ids, n, sizeof(*ids), u32_cmp);
			for (size_t q = 0; q < n; q++)
				if (q == 0 || ids[q] != ids[q - 1])
					v[f].flat += w->a->insns[ids[q]].flat;
		}
		qsort(v, nv, sizeof(*v), span_cmp);
		if (nv > max_files)
			nv = max_files;
	}
	pp_free(ctx, ids);
	*out = v;
	*nout = nv;
	return 0;
fail:
	pp_free(ctx, v);
	return err;
}

/* pprof's web UI lists this many files in its source view. */
#define WEB_MAX_FILES 50

static int print_files(struct wl *w, const struct sink *k)
{
	bool first_fn = true;
	struct file_span *spans = NULL;
	size_t nspans = 0;
	int err;

	if ((err = file_spans(w, k->json, WEB_MAX_FILES, &spans, &nspans)) < 0)
		return err;
	for (size_t s = 0; s < nspans; s++) {
		struct fn_range *fns = NULL;
		size_t nfns = 0, i = spans[s].first, j = spans[s].end;

		if ((err = functions(w, w->recs + i, j - i, &fns, &nfns)) < 0)
			break;
		for (size_t f = 0; f < nfns; f++) {
			if (fns[f].cum == 0)
				continue;
			/* Each function reads its source: look every time. */
			if (pp_interrupted(w->r->ctx))
				err = pp_error_interrupted(w->r->ctx);
			if (err < 0 ||
			    (err = print_function(w, k, w->recs + i, j - i,
			                          &fns[f], first_fn)) < 0)
				break;
			first_fn = false;
		}
		pp_free(w->r->ctx, fns);
		if (err < 0)
			break;
	}
	pp_free(w->r->ctx, spans);
	return err < 0 ? err : 0;
}

static void wl_release(struct wl *w)
{
	for (size_t i = 0; i < w->nsrcs; i++) {
		pp_free(w->r->ctx, w->srcs[i].starts);
		pp_bytes_release(w->r->ctx, &w->srcs[i].text);
	}
	pp_free(w->r->ctx, w->srcs);
	pp_free(w->r->ctx, w->recs);
	pp_report__asm_free(w->a);
}

/* The records of symbol's listing: with synthetic, also of the locations
 * whose binary was not read, from their own lines (the page and the web
 * UI's source view, as pprof's). */
static int build(struct pp_report *r, const char *symbol, int max_funcs,
                 bool synthetic, struct wl *w)
{
	struct pp_regex *re = NULL;
	uint32_t seq = 0;
	bool any = false;
	int err;

	memset(w, 0, sizeof(*w));
	w->r = r;
	if ((err = pp_report__asm(r, symbol, max_funcs, true, &w->a)) < 0)
		return err;
	if ((err = pp_regex_compile(r->ctx, "parsing argument regexp", symbol,
	                            &re)) < 0)
		return err;
	if (synthetic &&
	    (err = collect_synthetic(w, re, symbol, &seq, &any)) < 0)
		goto done;
	if (w->a->nroutines == 0 && (!any || w->nrecs == 0)) {
		err = pp_error(r->ctx, PP_ENOTFOUND,
		               "no matches found for regexp: %s", symbol);
		goto done;
	}
	err = collect(w, re, seq);
done:
	pp_regex_free(re);
	return err;
}

/* pprof's standalone weblist page (its source.html, weblistcss and
 * weblistjs templates), byte for byte. */
static const char *const page_style[] = {
        "<style type=\"text/css\">\n",
        "body #content{\n",
        "font-family: sans-serif;\n",
        "}\n",
        "h1 {\n",
        "  font-size: 1.5em;\n",
        "}\n",
        ".legend {\n",
        "  font-size: 1.25em;\n",
        "}\n",
        ".line, .nop, .unimportant {\n",
        "  color: #aaaaaa;\n",
        "}\n",
        ".inlinesrc {\n",
        "  color: #000066;\n",
        "}\n",
        ".livesrc {\n",
        "cursor: pointer;\n",
        "}\n",
        ".livesrc:hover {\n",
        "background-color: #eeeeee;\n",
        "}\n",
        ".asm {\n",
        "color: #008800;\n",
        "display: none;\n",
        "}\n",
        "</style>\n",
        "  <script type=\"text/javascript\">\n",
        "function pprof_toggle_asm(e) {\n",
        "  var target;\n",
        "  if (!e) e = window.event;\n",
        "  if (e.target) target = e.target;\n",
        "  else if (e.srcElement) target = e.srcElement;\n",
        "\n",
        "  if (target) {\n",
        "    var asm = target.nextSibling;\n",
        "    if (asm && asm.className == \"asm\") {\n",
        "      asm.style.display = (asm.style.display == \"block\" ? \"\" : "
        "\"block\");\n",
        "      e.preventDefault();\n",
        "      return false;\n",
        "    }\n",
        "  }\n",
        "}\n",
        "</script>\n",
        "</head>\n",
        "<body>\n",
        "\n",
        NULL,
};

/* The rest of the legend line that starts with key, or "unknown"; as
 * pprof's page title. */
/* The header lines are labels[0..n), names and units whole (NUL bytes
 * too), so they are walked by length. */
static void put_legend_value(FILE *out, const char *labels, size_t n,
                             const char *key)
{
	size_t k = strlen(key);

	for (const char *s = labels, *end = labels + n; s && s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (len >= k && memcmp(s, key, k) == 0) {
			pp_report__put_html_n(out, s + k, len - k);
			return;
		}
		if (!nl)
			break;
		s = nl + 1;
	}
	fputs("unknown", out);
}

int pp_report_weblist(struct pp_report *r, const char *symbol, FILE *out)
{
	struct sink k = {r->ctx, out, false};
	struct wl w;
	struct pp_report__val tot;
	char *labels = NULL;
	size_t nlabels = 0;
	FILE *mem;
	int err;

	if ((err = build(r, symbol, -1, true, &w)) < 0)
		goto done;
	if (!(mem = open_memstream(&labels, &nlabels))) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	pp_report__print_profile_labels(r, mem);
	fclose(mem);
	fputs("<!DOCTYPE html>\n<html>\n<head>\n  <meta charset=\"utf-8\">\n"
	      "  <title>",
	      out);
	put_legend_value(out, labels, nlabels, "File: ");
	fputc(' ', out);
	put_legend_value(out, labels, nlabels, "Type: ");
	fputs("</title>\n  \n  ", out);
	pp_report__put_lines(out, page_style);
	fputs("<div class=\"legend\">", out);
	for (const char *s = labels, *end = labels + nlabels, *nl; s && s < end;
	     s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			break;
		if (s != labels)
			fputs("<br>\n", out);
		pp_report__put_html_n(out, s, (size_t)(nl - s));
	}
	fputs("<br>Total: ", out);
	pp_report__format(r, r->total, &tot);
	pp_report__put_html_n(out, tot.num, tot.num_len);
	pp_report__put_html_n(out, tot.unit, tot.unit_len);
	fputs("</div>", out);
	err = print_files(&w, &k);
	fputs("\n</body>\n</html>\n", out);
done:
	free(labels);
	wl_release(&w);
	return err;
}

int pp_report_weblist_json(struct pp_report *r, const char *symbol,
                           int max_funcs, FILE *out)
{
	struct sink k = {r->ctx, out, true};
	struct wl w;
	struct pp_report__val tot;
	int err;

	if ((err = build(r, symbol, max_funcs, true, &w)) < 0)
		goto done;
	fputs("{\"total\":", out);
	pp_report__format(r, r->total, &tot);
	pp_report__put_json_val(out, &tot);
	fputs(",\"functions\":[", out);
	err = print_files(&w, &k);
	fputs("]}\n", out);
done:
	wl_release(&w);
	return err;
}
