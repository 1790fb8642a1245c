/*
 * The `list` report: annotated source for the functions matching a regex,
 * as pprof's printSource. Nodes are source lines (granularity "lines",
 * binary names kept, nothing trimmed); for each function and each file it
 * spans, the source lines from five before its first sampled line (or from
 * its start line) to five after its last, with flat and cum per line.
 *
 * Each source file is read at most once per report, however many functions
 * it holds. Where pprof prints only an error for a file it cannot find,
 * the lines with samples follow the error, so the numbers are not lost.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pprof/format.h"
#include "pprof/srcfile.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/regex.h"

#define MARGIN 5 /* lines shown before the first and after the last sample */

/* A matching node's function and file name (trimmed), with their
 * lengths: names may hold NUL bytes. */
struct match {
	const char *name, *file;
	size_t name_len, file_len;
	uint32_t node;
};

static int cmp_match(const void *a, const void *b)
{
	const struct match *x = a, *y = b;
	int c;

	if ((c = pp_bytes_cmp(x->name, x->name_len, y->name, y->name_len)) != 0)
		return c;
	if ((c = pp_bytes_cmp(x->file, x->file_len, y->file, y->file_len)) != 0)
		return c;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* A source file, read on first use. */
struct src_file {
	bool loaded;
	char *error; /* why it could not be read, or NULL */
	size_t error_len;
	struct pp_bytes text;
	size_t *line_start; /* nlines + 1 offsets */
	uint32_t nlines;
};

struct lister {
	struct pp_report *r;
	FILE *out;
	struct src_file *files;
	size_t nfiles, cap_files;
	uint32_t *file_slot; /* per string id: index + 1 into files */
};

static int split_lines(struct pp_ctx *ctx, struct src_file *f)
{
	const uint8_t *d = f->text.data;
	size_t n = 0, len = f->text.len, cap = 0;
	int err;

	for (size_t i = 0; i < len;) {
		const uint8_t *nl = memchr(d + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - d) + 1 : len;

		if ((err = pp_grow(ctx, (void **)&f->line_start, &cap, n + 2,
		                   sizeof(*f->line_start))) < 0)
			return err;
		f->line_start[n++] = i;
		i = end;
	}
	if ((err = pp_grow(ctx, (void **)&f->line_start, &cap, n + 1,
	                   sizeof(*f->line_start))) < 0)
		return err;
	f->line_start[n] = len;
	f->nlines = (uint32_t)n;
	return 0;
}

/* No file's name holds a NUL byte, so pprof's search fails, in the words
 * it fails with; the name is never cut at the NUL (another file's). */
static int nul_error(struct lister *l, const char *path, size_t len,
                     struct src_file *f)
{
	struct pp_report *r = l->r;
	const char *search = r->opts.source_path;
	char cwd[PATH_MAX];
	char *e;

	if (!search || !search[0])
		search = getcwd(cwd, sizeof(cwd)) ? cwd : "";
	/* "open " path ": invalid argument" or "could not find file " path
	 * " on path " search. */
	e = pp_malloc(r->ctx, len + strlen(search) + 64);
	if (!e)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if (path[0] == '/') {
		memcpy(e, "open ", 5);
		memcpy(e + 5, path, len);
		memcpy(e + 5 + len, ": invalid argument", 19);
		f->error_len = len + 23;
	} else {
		size_t sl = strlen(search);

		memcpy(e, "could not find file ", 20);
		memcpy(e + 20, path, len);
		memcpy(e + 20 + len, " on path ", 9);
		memcpy(e + 29 + len, search, sl + 1);
		f->error_len = 29 + len + sl;
	}
	f->error = e;
	return 0;
}

/* The file named by string id name, read (once) through the search path;
 * path is its trimmed name, len bytes. */
static int get_file(struct lister *l, pp_str name, const char *path, size_t len,
                    struct src_file **out)
{
	struct pp_report *r = l->r;
	struct src_file *f;
	int err;

	if (!l->file_slot) {
		l->file_slot =
		        pp_calloc(r->ctx, pp_strtab_count(r->prof->strings),
		                  sizeof(*l->file_slot));
		if (!l->file_slot)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	if (l->file_slot[name]) {
		*out = &l->files[l->file_slot[name] - 1];
		return 0;
	}
	if ((err = pp_grow(r->ctx, (void **)&l->files, &l->cap_files,
	                   l->nfiles + 1, sizeof(*l->files))) < 0)
		return err;
	f = &l->files[l->nfiles];
	memset(f, 0, sizeof(*f));
	l->file_slot[name] = (uint32_t)++l->nfiles;
	f->loaded = true;
	if (memchr(path, '\0', len)) {
		if ((err = nul_error(l, path, len, f)) < 0)
			return err;
		*out = f;
		return 0;
	}
	err = pp_srcfile_read_max(r->ctx, path, r->opts.source_path,
	                          r->opts.trim_path, r->opts.max_source_size,
	                          &f->text);
	if (err == PP_ENOMEM || err == PP_ELIMIT)
		return err;
	if (err < 0) {
		f->error = pp_strdup(r->ctx, r->ctx->message);
		r->ctx->message[0] = '\0';
		if (!f->error)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		f->error_len = strlen(f->error);
	} else if ((err = split_lines(r->ctx, f)) < 0) {
		return err;
	}
	*out = f;
	return 0;
}

static void print_values(const struct pp_report *r, int64_t flat, int64_t cum,
                         int64_t lineno, const char *text, size_t len,
                         FILE *out)
{
	struct pp_report__val fs, cs;

	pp_report__val_text(&fs, ".");
	pp_report__val_text(&cs, ".");
	if (flat != 0)
		pp_report__format(r, flat, &fs);
	if (cum != 0)
		pp_report__format(r, cum, &cs);
	pp_report__put_val_padded(out, &fs, 10);
	fputc(' ', out);
	pp_report__put_val_padded(out, &cs, 10);
	fprintf(out, " %6lld:", (long long)lineno);
	fwrite(text, 1, len, out);
	fputc('\n', out);
}

/* One function's lines in one file: m[0..n) are its nodes, graph order. */
static int print_file(struct lister *l, const struct match *m, size_t n)
{
	struct pp_report *r = l->r;
	const struct pp_graph *g = r->agg->graph;
	const struct pp_node *first = &g->nodes[m[0].node];
	int64_t flat_sum = 0, cum_sum = 0, start, end;
	struct src_file *f = NULL;
	struct pp_report__val a, b;
	char pct[32];
	int err;

	/* pprof's window: from the first node's start line (or five lines
	 * before it) to five lines after; each other node may move the
	 * start down or, failing that, the end up. */
	start = first->info.start_line ? first->info.start_line
	                               : first->info.lineno - MARGIN;
	end = first->info.lineno + MARGIN;
	for (size_t i = 0; i < n; i++) {
		const struct pp_node *node = &g->nodes[m[i].node];
		int64_t ns = node->info.start_line ? node->info.start_line
		                                   : node->info.lineno - MARGIN;
		int64_t ne = node->info.lineno + MARGIN;

		if (ns < start)
			start = ns;
		else if (ne > end)
			end = ne;
		flat_sum += node->flat;
		cum_sum += node->cum;
	}
	if (start < 1)
		start = 1;
	if ((err = get_file(l, g->nodes[m[0].node].info.file, m[0].file,
	                    m[0].file_len, &f)) < 0)
		return err;
	fputs("ROUTINE ======================== ", l->out);
	fwrite(m[0].name, 1, m[0].name_len, l->out);
	fputs(" in ", l->out);
	fwrite(m[0].file, 1, m[0].file_len, l->out);
	fputc('\n', l->out);
	pp_report__format(r, flat_sum, &a);
	pp_report__format(r, cum_sum, &b);
	pp_percentage(cum_sum, r->total, pct, sizeof(pct));
	pp_report__put_val_padded(l->out, &a, 10);
	fputc(' ', l->out);
	pp_report__put_val_padded(l->out, &b, 10);
	fprintf(l->out, " (flat, cum) %s of Total\n", pct);
	if (f->error) {
		fputs(" Error: ", l->out);
		fwrite(f->error, 1, f->error_len, l->out);
		fputc('\n', l->out);
	}
	/* Either the window of source text or, without the file, each line
	 * that has samples, in line order. */
	for (int64_t ln = start; f->error || ln <= end; ln++) {
		int64_t flat = 0, cum = 0, next = INT64_MAX;
		const char *text = "";
		size_t len = 0;

		for (size_t i = 0; i < n; i++) {
			const struct pp_node *node = &g->nodes[m[i].node];

			if (node->info.lineno == ln) {
				flat += node->flat;
				cum += node->cum;
			} else if (node->info.lineno > ln &&
			           node->info.lineno < next) {
				next = node->info.lineno;
			}
		}
		if (f->error) {
			if (flat != 0 || cum != 0)
				print_values(r, flat, cum, ln, "", 0, l->out);
			if (next == INT64_MAX)
				break;
			ln = next - 1;
			continue;
		}
		if (ln > (int64_t)f->nlines)
			break;
		text = (const char *)f->text.data + f->line_start[ln - 1];
		len = f->line_start[ln] - f->line_start[ln - 1];
		if (len > 0 && text[len - 1] == '\n')
			len--;
		if (len > 0 && text[len - 1] == '\r')
			len--;
		print_values(r, flat, cum, ln, text, len, l->out);
	}
	return 0;
}

static void lister_release(struct lister *l)
{
	struct pp_ctx *ctx = l->r->ctx;

	for (size_t i = 0; i < l->nfiles; i++) {
		pp_free(ctx, l->files[i].error);
		pp_free(ctx, l->files[i].line_start);
		pp_bytes_release(ctx, &l->files[i].text);
	}
	pp_free(ctx, l->files);
	pp_free(ctx, l->file_slot);
}

int pp_report_list(struct pp_report *r, const char *symbol, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_graph_opts go = {0};
	struct pp_regex *re = NULL;
	struct lister l = {r, out, NULL, 0, 0, NULL};
	struct match *m = NULL;
	uint8_t *name_match = NULL; /* per string id: 0 unknown, 1 no, 2 yes */
	size_t nm = 0;
	struct pp_report__val tot;
	int err;

	if ((err = pp_regex_compile(r->ctx, "parsing argument regexp", symbol,
	                            &re)) < 0)
		return err;
	pp_report__graph_opts(r, PP_EDGES_NONE, &go);
	go.granularity = PP_GRAN_LINES;
	go.obj_names = true;
	if ((err = pp_report__graph(r, &go)) < 0)
		goto done;
	m = pp_malloc(r->ctx, ((size_t)r->agg->graph->nnodes + 1) * sizeof(*m));
	name_match = pp_calloc(r->ctx, pp_strtab_count(p->strings), 1);
	if (!m || !name_match) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t n = 0; n < r->agg->graph->nnodes; n++) {
		const struct pp_node *node = &r->agg->graph->nodes[n];
		pp_str name = node->info.name;
		size_t trim;

		if ((err = pp_interrupt_poll(r->ctx, n)) < 0)
			goto done;
		if (node->flat == 0 && node->cum == 0)
			continue;
		if (r->opts.drop_negative &&
		    (node->flat < 0 || (node->flat == 0 && node->cum < 0)))
			continue;
		m[nm].name = pp_profile_strn(p, name, &m[nm].name_len);
		if (!name_match[name])
			name_match[name] =
			        pp_regex_match(re, m[nm].name, m[nm].name_len)
			                ? 2
			                : 1;
		if (name_match[name] != 2)
			continue;
		m[nm].file =
		        pp_profile_strn(p, node->info.file, &m[nm].file_len);
		/* The trimmed prefix ends before any NUL byte. */
		trim = pp_srcfile_trim_path(m[nm].file, r->opts.trim_path,
		                            r->opts.source_path);
		m[nm].file += trim;
		m[nm].file_len -= trim;
		m[nm++].node = n;
	}
	if (nm == 0) {
		err = pp_error(r->ctx, PP_ENOTFOUND,
		               "no matches found for regexp: %s", symbol);
		goto done;
	}
	if (nm > 1)
		qsort(m, nm, sizeof(*m), cmp_match);
	fputs("Total: ", out);
	pp_report__format(r, r->total, &tot);
	pp_report__put_val(out, &tot);
	fputc('\n', out);
	for (size_t i = 0, j; i < nm; i = j) {
		bool any_file = false;

		/* Each function reads its files: look at every one. */
		if (pp_interrupted(r->ctx)) {
			err = pp_error_interrupted(r->ctx);
			goto done;
		}
		for (j = i; j < nm && pp_bytes_eq(m[j].name, m[j].name_len,
		                                  m[i].name, m[i].name_len);
		     j++)
			any_file = any_file || m[j].file_len;
		if (!any_file) {
			fputs("No source information for ", out);
			fwrite(m[i].name, 1, m[i].name_len, out);
			fputc('\n', out);
			continue;
		}
		for (size_t k = i, e; k < j; k = e) {
			for (e = k;
			     e < j && pp_bytes_eq(m[e].file, m[e].file_len,
			                          m[k].file, m[k].file_len);
			     e++)
				;
			if (!m[k].file_len)
				continue;
			if ((err = print_file(&l, m + k, e - k)) < 0)
				goto done;
		}
	}
done:
	lister_release(&l);
	pp_free(r->ctx, m);
	pp_free(r->ctx, name_match);
	pp_regex_free(re);
	return err;
}
