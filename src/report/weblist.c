/*
 * weblist: pprof's annotated source with each line's instructions, as
 * pprof's MakeWebList lays it out (source.go), over the instructions of
 * asm.c. Each instruction is filed under the source line of every frame of
 * its inline chain whose function (or file) matches, with the calls
 * inlined below that frame as its context; a file's lines are cut into
 * functions (lines of one function less than 20 apart) with five lines of
 * context around. Printed as one self-contained HTML page (weblist) or as
 * JSON for the web UI's source view (docs/web-api.md).
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "pprof/srcfile.h"
#include "report/asm.h"
#include "util/regex.h"

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

static int collect(struct wl *w, const struct pp_regex *re)
{
	struct pp_asm *a = w->a;
	uint32_t seq = 0;
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
		pp_report__put_xml(k->out, tmp);
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

static void value_or_dot(const struct pp_report *r, int64_t v, char *buf,
                         size_t size)
{
	if (v == 0)
		snprintf(buf, size, ".");
	else
		pp_report__format(r, v, buf, size);
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
	char fs[64], cs[64], *pad;
	int ncalls = 0;
	int err;

	value_or_dot(w->r, in->flat, fs, sizeof(fs));
	value_or_dot(w->r, in->cum, cs, sizeof(cs));
	if (k->json) {
		fprintf(out, "%s{\"new_block\":%s,\"flat\":", first ? "" : ",",
		        new_block ? "true" : "false");
		pp_report_put_json_string(out, fs);
		fputs(",\"cum\":", out);
		pp_report_put_json_string(out, cs);
		fprintf(out, ",\"address\":\"%llx\",\"disasm\":",
		        (unsigned long long)in->addr);
		pp_report_put_json_string(out, pp_asm_str(a, in->text));
		fputs(",\"file_line\":", out);
	} else if (new_block) {
		fprintf(out, " %8s %28s\n", "", "\xe2\x8b\xae");
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
			while (len && (*text == ' ' || *text == '\t')) {
				text++;
				len--;
			}
			while (len &&
			       (text[len - 1] == ' ' || text[len - 1] == '\t'))
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
				pp_report__put_xml(
				        out, base_name(pp_asm_str(a, c->file)));
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
		} else {
			fprintf(out, " %8s %10s %10s %8llx: ", "", fs, cs,
			        (unsigned long long)in->addr);
			if ((err = put_text(k, pad, strlen(pad))) < 0) {
				pp_free(w->r->ctx, pad);
				return err;
			}
			fputs(" <span class=unimportant>", out);
			pp_report__put_xml(out, fl);
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
	char fs[64], cs[64], pct[32];
	size_t i = 0;
	int err;

	pp_report__format(r, fn->flat, fs, sizeof(fs));
	pp_report__format(r, fn->cum, cs, sizeof(cs));
	pp_percentage(fn->cum, r->total, pct, sizeof(pct));
	if (k->json) {
		fputs(first_fn ? "{\"name\":" : ",{\"name\":", out);
		pp_report_put_json_string(out, pp_asm_str(a, fn->name));
		fputs(",\"file\":", out);
		pp_report_put_json_string(out, pp_asm_str(a, recs[0].file));
		fputs(",\"flat\":", out);
		pp_report_put_json_string(out, fs);
		fputs(",\"cum\":", out);
		pp_report_put_json_string(out, cs);
		fputs(",\"percent\":", out);
		pp_report_put_json_string(out, pct);
		fputs(",\"lines\":[", out);
	} else {
		fputs("<h2>", out);
		pp_report__put_xml(out, pp_asm_str(a, fn->name));
		fputs("</h2><p class=\"filename\">", out);
		pp_report__put_xml(out, pp_asm_str(a, recs[0].file));
		fputs("</p>\n<pre onClick=\"pprof_toggle_asm(event)\">\n", out);
		fprintf(out, "  Total:  %10s %10s (flat, cum) %s", fs, cs, pct);
	}
	while (i < n && recs[i].line < fn->begin)
		i++;
	for (int64_t l = fn->begin, nl = 0; l < fn->end; l++) {
		const char *text = NULL;
		size_t len = 0, j;
		int64_t flat = 0, cum = 0;
		bool ok;
		uint64_t last_end = 0;
		struct rec cur = {0};

		while (i < n && recs[i].line < l)
			i++;
		for (j = i; j < n && recs[j].line == l; j++) {
			flat += a->insns[recs[j].insn].flat;
			cum += a->insns[recs[j].insn].cum;
		}
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
		value_or_dot(r, flat, fs, sizeof(fs));
		value_or_dot(r, cum, cs, sizeof(cs));
		if (k->json) {
			fputs(nl++ ? ",{\"line\":" : "{\"line\":", out);
			fprintf(out, "%lld,\"flat\":", (long long)l);
			pp_report_put_json_string(out, fs);
			fputs(",\"cum\":", out);
			pp_report_put_json_string(out, cs);
			fputs(",\"src\":", out);
			if ((err = put_text(k, text, len)) < 0)
				return err;
			fprintf(out, ",\"class\":\"%s\",\"instructions\":[",
			        j == i ? "nop" : "livesrc");
		} else {
			fprintf(out, "\n<span class=line> %6lld</span> ",
			        (long long)l);
			fprintf(out, "<span class=%s>  %10s %10s %8s  ",
			        j == i ? "nop" : "livesrc", fs, cs, "");
			if ((err = put_text(k, text, len)) < 0)
				return err;
			fputs(" </span>", out);
			if (j > i)
				fputs("<span class=asm>", out);
		}
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
		else if (j > i)
			fputs("</span>", out);
	}
	fputs(k->json ? "]}" : "\n</pre>\n", out);
	return 0;
}

static int print_files(struct wl *w, const struct sink *k)
{
	bool first_fn = true;
	int err;

	for (size_t i = 0, j; i < w->nrecs; i = j) {
		struct fn_range *fns = NULL;
		size_t nfns = 0;

		for (j = i; j < w->nrecs && w->recs[j].file == w->recs[i].file;
		     j++)
			;
		if ((err = functions(w, w->recs + i, j - i, &fns, &nfns)) < 0)
			return err;
		for (size_t f = 0; f < nfns; f++) {
			if (fns[f].cum == 0)
				continue;
			/* Each function reads its source: look every time. */
			if (pp_interrupted(w->r->ctx))
				err = pp_error_interrupted(w->r->ctx);
			if (err < 0 ||
			    (err = print_function(w, k, w->recs + i, j - i,
			                          &fns[f], first_fn)) < 0) {
				pp_free(w->r->ctx, fns);
				return err;
			}
			first_fn = false;
		}
		pp_free(w->r->ctx, fns);
	}
	return 0;
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

static int build(struct pp_report *r, const char *symbol, int max_funcs,
                 struct wl *w)
{
	struct pp_regex *re = NULL;
	int err;

	memset(w, 0, sizeof(*w));
	w->r = r;
	if ((err = pp_report__asm(r, symbol, max_funcs, true, &w->a)) < 0)
		return err;
	if ((err = pp_regex_compile(r->ctx, "parsing argument regexp", symbol,
	                            &re)) < 0)
		return err;
	err = collect(w, re);
	pp_regex_free(re);
	return err;
}

static const char *const page_head[] = {
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n",
        "<style type=\"text/css\">\n",
        "body { font-family: sans-serif; }\n",
        "h1 { font-size: 1.5em; }\n",
        ".legend { font-size: 1.25em; }\n",
        ".line, .nop, .unimportant { color: #aaaaaa; }\n",
        ".inlinesrc { color: #000066; }\n",
        ".livesrc { cursor: pointer; }\n",
        ".livesrc:hover { background-color: #eeeeee; }\n",
        ".asm { color: #008800; display: none; }\n",
        "</style>\n",
        "<script type=\"text/javascript\">\n",
        "function pprof_toggle_asm(e) {\n",
        "  var target = e && e.target;\n",
        "  var asm = target && target.nextSibling;\n",
        "  if (asm && asm.className == \"asm\") {\n",
        "    asm.style.display = (asm.style.display == \"block\" ? \"\" : "
        "\"block\");\n",
        "    e.preventDefault();\n",
        "    return false;\n",
        "  }\n",
        "}\n",
        "</script>\n",
        NULL,
};

int pp_report_weblist(struct pp_report *r, const char *symbol, FILE *out)
{
	struct sink k = {r->ctx, out, false};
	struct wl w;
	char tot[64], *labels = NULL;
	size_t nlabels = 0;
	FILE *mem;
	int err;

	if ((err = build(r, symbol, -1, &w)) < 0)
		goto done;
	if (!(mem = open_memstream(&labels, &nlabels))) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	pp_report__print_profile_labels(r, mem);
	fclose(mem);
	pp_report__put_lines(out, page_head);
	fputs("<title>", out);
	pp_report__put_xml(out, symbol);
	fputs(" - pprof-c weblist</title>\n</head>\n<body>\n<div "
	      "class=\"legend\">",
	      out);
	for (char *s = labels, *nl; s && *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			break;
		*nl = '\0';
		if (s != labels)
			fputs("<br>\n", out);
		pp_report__put_xml(out, s);
	}
	pp_report__format(r, r->total, tot, sizeof(tot));
	fprintf(out, "<br>Total: %s</div>", tot);
	err = print_files(&w, &k);
	fputs("</body>\n</html>\n", out);
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
	char tot[64];
	int err;

	if ((err = build(r, symbol, max_funcs, &w)) < 0)
		goto done;
	pp_report__format(r, r->total, tot, sizeof(tot));
	fputs("{\"total\":", out);
	pp_report_put_json_string(out, tot);
	fputs(",\"functions\":[", out);
	err = print_files(&w, &k);
	fputs("]}\n", out);
done:
	wl_release(&w);
	return err;
}
