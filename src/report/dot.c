/*
 * The call graph in Graphviz's DOT language, as `go tool pprof -dot`
 * writes it: the legend box, one box per node labelled with its name
 * broken at package/type/method and its flat and cum values, font size
 * growing with flat, colours from cum, tag nodelets, and edges heaviest
 * first with weight, pen width and colour from their value, dotted when
 * they skip dropped nodes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/path.h"
#include "util/regex.h"

#define MAX_NODELETS 4

/* A tag's label: its "key:value" parts are joined by a literal "\n"
 * (visual.c), which stays DOT's line break; the parts are escaped as
 * pprof's escapeForDot (quotes and backslashes escaped, newlines made
 * left-justified line breaks) and as graphviz needs to write valid SVG
 * (escape.c). */
static void put_label_n(FILE *out, const char *s, size_t n)
{
	size_t i = 0, start = 0;

	/* By length: a label's key or value may hold NUL bytes. */
	while (i + 1 < n) {
		if (s[i] == '\\' && s[i + 1] == 'n') {
			pp_report__put_dot(out, s + start, i - start);
			fputs("\\n", out);
			i += 2;
			start = i;
		} else {
			i++;
		}
	}
	pp_report__put_dot(out, s + start, n - start);
}

static void put_label(FILE *out, const char *s)
{
	put_label_n(out, s, strlen(s));
}

/* String s of p's base name (a path's last element), whole. */
static void put_base(FILE *out, const struct pp_profile *p, pp_str s)
{
	size_t n;
	const char *b = pp_path_base_n(pp_profile_strn(p, s, &n), &n);

	pp_report__put_dot(out, b, n);
}

/*
 * pprof's ShortenFunctionName (internal/graph/graph.go), with its regular
 * expressions: a leading "(anonymous namespace)::" removed, a /vN module
 * version dropped from a Go package path, then the first of the Go, Java
 * and C++ rules that matches keeps only its group ("compress/flate.f" ->
 * "flate.f", "a.b.Class.method(" -> "Class.method", "ns::Class::f<T>(int)"
 * -> "Class::f<T>"). Go's `$` is written `\z`, which is what it means
 * there (PCRE2's `$` would also match before a final newline).
 */
enum { SHORT_ANON, SHORT_GOVER, SHORT_GO, SHORT_JAVA, SHORT_CPP, NSHORT };

static const char *const short_patterns[NSHORT] = {
        [SHORT_ANON] = "^\\(anonymous namespace\\)::",
        [SHORT_GOVER] = "^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)\\z",
        [SHORT_GO] = "^(?:[\\w\\-\\.]+\\/)+([^.]+\\..+)",
        [SHORT_JAVA] = "^(?:[a-z]\\w*\\.)*([A-Z][\\w\\$]*\\.(?:<init>|[a-z]"
                       "[\\w\\$]*(?:\\$\\d+)?))(?:(?:\\()|\\z)",
        [SHORT_CPP] = "^(?:[_a-zA-Z]\\w*::)+(_*[A-Z]\\w*::~?[_a-zA-Z]\\w*"
                      "(?:<.*>)?)",
};

struct shortener {
	struct pp_ctx *ctx;
	struct pp_regex *re[NSHORT];
	char *buf; /* the last shortened name */
	size_t cap;
};

static int shortener_init(struct shortener *sh, struct pp_ctx *ctx)
{
	int err;

	memset(sh, 0, sizeof(*sh));
	sh->ctx = ctx;
	for (int i = 0; i < NSHORT; i++)
		if ((err = pp_regex_compile(ctx, "ShortenFunctionName",
		                            short_patterns[i], &sh->re[i])) < 0)
			return err;
	return 0;
}

static void shortener_release(struct shortener *sh)
{
	for (int i = 0; i < NSHORT; i++)
		pp_regex_free(sh->re[i]);
	pp_free(sh->ctx, sh->buf);
}

/* The short form of the *n bytes at name (which may hold NUL bytes),
 * *n bytes borrowed from sh until the next call; name itself if there is
 * no memory to make it. */
static const char *shorten_name(struct shortener *sh, const char *name,
                                size_t *n)
{
	size_t len = *n, a, b, c, d;
	const char *s = name;

	if (pp_grow(sh->ctx, (void **)&sh->buf, &sh->cap, len + 1, 1) < 0)
		return name;
	if (pp_regex_group(sh->re[SHORT_ANON], s, len, 0, &a, &b)) {
		s += b;
		len -= b;
	}
	if (pp_regex_group(sh->re[SHORT_GOVER], s, len, 1, &a, &b) &&
	    pp_regex_group(sh->re[SHORT_GOVER], s, len, 2, &c, &d)) {
		memmove(sh->buf, s + a, b - a);
		memmove(sh->buf + (b - a), s + c, d - c);
		len = (b - a) + (d - c);
		sh->buf[len] = '\0';
		s = sh->buf;
	}
	for (int i = SHORT_GO; i <= SHORT_CPP; i++) {
		if (pp_regex_group(sh->re[i], s, len, 1, &a, &b)) {
			memmove(sh->buf, s + a, b - a);
			sh->buf[b - a] = '\0';
			*n = b - a;
			return sh->buf;
		}
	}
	if (s != sh->buf) {
		memcpy(sh->buf, s, len);
		sh->buf[len] = '\0';
	}
	*n = len;
	return sh->buf;
}

/* The node's name broken into lines: pprof's multilinePrintableName. */
static void put_multiline_name(const struct pp_report *r, struct shortener *sh,
                               const struct pp_node *n, FILE *out)
{
	const struct pp_profile *p = r->prof;
	const struct pp_node_info *i = &n->info;

	if (i->address)
		fprintf(out, "%016llx\\n", (unsigned long long)i->address);
	if (i->name) {
		size_t len;
		const char *name = pp_profile_strn(p, i->name, &len);
		const char *s, *end;

		name = shorten_name(sh, name, &len);
		/* By length: the name may hold NUL bytes. */
		for (s = name, end = name + len; s < end;) {
			size_t run = 0;

			while (s + run < end &&
			       (!s[run] || !strchr(":.[", s[run])))
				run++;
			pp_report__put_dot(out, s, run);
			s += run;
			if (s >= end)
				break;
			if (*s == ':' && s + 1 < end && s[1] == ':') {
				fputs("\\n", out);
				s += 2;
			} else if (end - s >= 5 && memcmp(s, "[...]", 5) == 0) {
				fputs("[\xe2\x80\xa6]", out);
				s += 5;
			} else if (*s == '.') {
				fputs("\\n", out);
				s++;
			} else {
				fputc(*s++, out); /* a lone ':' or '[' */
			}
		}
		fputs("\\n", out);
	}
	if (i->lineno) {
		put_base(out, p, i->file);
		fprintf(out, ":%lld", (long long)i->lineno);
		if (i->column)
			fprintf(out, ":%lld", (long long)i->column);
		fputs("\\n", out);
	} else if (i->file) {
		put_base(out, p, i->file);
		fputs("\\n", out);
	} else if (!i->name) {
		if (i->objfile) {
			fputc('[', out);
			put_base(out, p, i->objfile);
			fputs("]\\n", out);
		} else
			fputs("<unknown>\\n", out);
	}
}

/* pprof's dotColor: score in [-1, 1], green through grey to red. */
static void dot_color(double score, bool background, char *buf, size_t size)
{
	const double shift = 0.7;
	double saturation = background ? 0.1 : 1.0;
	double value = background ? 0.93 : 0.7;
	double r, g, b;

	/* A share of a zero total (under -mean the total is a mean, which
	 * can round to 0) is NaN for a node worth 0: pprof carries it into
	 * green, and Go's conversion of NaN to a byte gives 0 on amd64,
	 * leaving red and blue as for any positive score. */
	if (isnan(score)) {
		snprintf(buf, size, "#%02x00%02x",
		         (unsigned)(uint8_t)(value * 255.0),
		         (unsigned)(uint8_t)(value * (1 - saturation) * 255.0));
		return;
	}
	score = fmax(-1.0, fmin(1.0, score));
	if (fabs(score) < 0.2)
		saturation *= fabs(score) / 0.2;
	if (score > 0.0)
		score = pow(score, 1.0 - shift);
	if (score < 0.0)
		score = -pow(-score, 1.0 - shift);
	if (score < 0.0) {
		g = value;
		r = value * (1 + saturation * score);
	} else {
		r = value;
		g = value * (1 - saturation * score);
	}
	b = value * (1 - saturation);
	snprintf(buf, size, "#%02x%02x%02x", (unsigned)(uint8_t)(r * 255.0),
	         (unsigned)(uint8_t)(g * 255.0),
	         (unsigned)(uint8_t)(b * 255.0));
}

/* Value v escaped: a profile's unit may hold any byte. */
static void put_dot_val(FILE *out, const struct pp_report__val *v)
{
	pp_report__put_dot(out, v->num, v->num_len);
	pp_report__put_dot(out, v->unit, v->unit_len);
}

/* The edge from node `from` to its tag node `to`_i, labelled with value
 * w. */
static void put_tag_edge(FILE *out, const char *from, const char *to,
                         uint32_t i, const struct pp_report__val *w,
                         const char *attr)
{
	fprintf(out, "%s -> %s_%u [label=\" ", from, to, i);
	put_dot_val(out, w);
	fputs("\" weight=100 tooltip=\"", out);
	put_dot_val(out, w);
	fputs("\" labeltooltip=\"", out);
	put_dot_val(out, w);
	fprintf(out, "\"%s]\n", attr);
}

static void put_pct(FILE *out, int64_t v, int64_t total)
{
	char pct[32];
	const char *p = pct;

	pp_percentage(v, total, pct, sizeof(pct));
	while (*p == ' ')
		p++;
	fputs(p, out);
}

/* The graph's title, the main binary's base name (*len bytes, NUL bytes
 * and all), or NULL. */
static const char *title_of(const struct pp_report *r, size_t *len)
{
	const struct pp_profile *p = r->prof;

	if (p->nmappings > 0 && p->mappings[0].file &&
	    pp_strtab_len(p->strings, p->mappings[0].file))
		return pp_path_base_n(
		        pp_profile_strn(p, p->mappings[0].file, len), len);
	return NULL;
}

/* The legend: the profile's header lines and what the graph leaves out,
 * one left-justified line each. */
static int put_legend(struct pp_report *r, FILE *out)
{
	char *text = NULL, *line, *nl;
	size_t len = 0;
	FILE *mem;
	const struct pp_graph *g = r->agg->graph;
	size_t title_len = 0;
	const char *title = title_of(r, &title_len);
	int64_t flat_sum = 0;
	struct pp_report__val a, b;
	bool first = true;

	mem = open_memstream(&text, &len);
	if (!mem)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	pp_report__print_profile_labels(r, mem);
	for (uint32_t i = 0; i < r->agg->view.norder; i++)
		flat_sum += pp_node_flat(&g->nodes[r->agg->view.order[i]]);
	pp_report__format(r, flat_sum, &a);
	pp_report__format(r, r->total, &b);
	pp_report__print_active_filters(r, mem);
	fputs("Showing nodes accounting for ", mem);
	pp_report__put_val(mem, &a);
	fputs(", ", mem);
	put_pct(mem, flat_sum, r->total);
	fputs(" of ", mem);
	pp_report__put_val(mem, &b);
	fputs(" total\n", mem);
	pp_report__print_dropped(r, true, mem);
	fputs("\nSee https://git.io/JfYMW for how to read the graph\n", mem);
	if (fclose(mem) != 0 || !text) {
		free(text);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	/* By length: a header line may hold a name's NUL bytes. */
	for (line = text;
	     (nl = memchr(line, '\n', len - (size_t)(line - text)));
	     line = nl + 1) {
		if (first) {
			fputs("subgraph cluster_L { \"", out);
			pp_report__put_dot(out, line, (size_t)(nl - line));
			fputs("\" [shape=box fontsize=16 label=\"", out);
			first = false;
		} else if (nl == line) {
			/* The blank line before "See ...": pprof writes it as
			 * a newline inside the next label. */
			fputs("\\l", out);
			continue;
		}
		pp_report__put_dot(out, line, (size_t)(nl - line));
		fputs("\\l", out);
	}
	fputs("\"", out);
	if (title) {
		fputs(" tooltip=\"", out);
		pp_report__put_dot(out, title, title_len);
		fputs("\"", out);
	}
	fputs("] }\n", out);
	free(text);
	return 0;
}

static void put_node(struct pp_report *r, struct shortener *sh, uint32_t n,
                     uint32_t id, double max_flat, FILE *out)
{
	const struct pp_node *node = &r->agg->graph->nodes[n];
	int64_t flat = pp_node_flat(node), cum = pp_node_cum(node);
	struct pp_report__val fs, cs;
	char color[16], fill[16];
	int font = 8;
	double score = (double)cum / (double)pp_go_abs64(r->total);

	pp_report__format(r, flat, &fs);
	cs = fs;
	fprintf(out, "N%u [label=\"", id);
	put_multiline_name(r, sh, node, out);
	if (flat != 0) {
		put_dot_val(out, &fs);
		fputs(" (", out);
		put_pct(out, flat, r->total);
		fputc(')', out);
	} else {
		fputc('0', out);
	}
	if (cum != flat) {
		pp_report__format(r, cum, &cs);
		fputs(flat != 0 ? "\\n" : " ", out);
		fputs("of ", out);
		put_dot_val(out, &cs);
		fputs(" (", out);
		put_pct(out, cum, r->total);
		fputc(')', out);
	}
	if (max_flat != 0 && flat != 0 && (double)pp_go_abs64(flat) <= max_flat)
		font += (int)ceil(16.0 *
		                  sqrt((double)pp_go_abs64(flat) / max_flat));
	dot_color(score, false, color, sizeof(color));
	dot_color(score, true, fill, sizeof(fill));
	fprintf(out, "\" id=\"node%u\" fontsize=%d shape=box tooltip=\"", id,
	        font);
	pp_report__put_dot(out, pp_report__node_name(r, n),
	                   pp_report__node_len(r, n));
	fputs(" (", out);
	put_dot_val(out, &cs);
	fprintf(out, ")\" color=\"%s\" fillcolor=\"%s\"]\n", color, fill);
}

static int64_t tag_flat(const struct pp_graph_tag *t)
{
	return t->flat_div ? t->flat / t->flat_div : t->flat;
}

static int64_t tag_cum(const struct pp_graph_tag *t)
{
	return t->cum_div ? t->cum / t->cum_div : t->cum;
}

/* pprof's tag order: cum (unless flat), then flat, heavier first, then
 * by name. */
static bool tag_before(const struct pp_graph_tags *vt,
                       const struct pp_graph_tag *x,
                       const struct pp_graph_tag *y, bool flat_tags)
{
	if (!flat_tags && x->cum != y->cum)
		return pp_go_abs64(x->cum) > pp_go_abs64(y->cum);
	if (x->flat != y->flat)
		return pp_go_abs64(x->flat) > pp_go_abs64(y->flat);
	{
		pp_str a = x->name == PP_NONE ? x->label : x->name;
		pp_str b = y->name == PP_NONE ? y->label : y->name;

		return pp_bytes_cmp(pp_strtab_get(vt->strings, a),
		                    pp_strtab_len(vt->strings, a),
		                    pp_strtab_get(vt->strings, b),
		                    pp_strtab_len(vt->strings, b)) < 0;
	}
}

/* The live tags of node n with label set label (numeric tags) or, with
 * label PP_NONE, its label tags, sorted. Returns how many. */
static uint32_t node_tags(const struct pp_report *r, uint32_t n, uint32_t label,
                          bool flat_tags, uint32_t *v)
{
	const struct pp_graph_tags *vt = r->agg->view.tags;
	uint32_t count = 0;

	for (uint32_t t = 0; t < vt->ntags; t++) {
		const struct pp_graph_tag *x = &vt->tags[t];
		uint32_t pos;

		if (x->node != n || x->dead ||
		    (label == PP_NONE
		             ? x->name != PP_NONE
		             : (x->name == PP_NONE || x->label != label)))
			continue;
		for (pos = count;
		     pos > 0 &&
		     tag_before(vt, x, &vt->tags[v[pos - 1]], flat_tags);
		     pos--)
			v[pos] = v[pos - 1];
		v[pos] = t;
		count++;
	}
	return count;
}

struct group {
	uint32_t min, max; /* tags with the smallest and largest value */
	uint32_t count;
	int64_t flat, flat_div, cum, cum_div;
	int64_t sort_flat, sort_cum;
	char name[96];
};

/* pprof's numericNodelets: at most MAX_NODELETS boxes for the numeric tags
 * under source, more tags grouped around the heaviest by value distance
 * into "min..max" ranges. */
static bool put_numeric(struct pp_report *r, uint32_t n, uint32_t label,
                        bool flat_tags, const char *source, uint32_t *v,
                        FILE *out)
{
	const struct pp_graph_tags *vt = r->agg->view.tags;
	struct group gr[MAX_NODELETS];
	uint32_t count = node_tags(r, n, label, flat_tags, v), ng;
	bool any = false;

	if (count == 0)
		return false;
	ng = count < MAX_NODELETS ? count : MAX_NODELETS;
	memset(gr, 0, sizeof(gr));
	for (uint32_t i = 0; i < count; i++) {
		const struct pp_graph_tag *t = &vt->tags[v[i]];
		uint32_t g = 0;

		if (i >= ng) {
			const struct pp_graph_tag *seed = &vt->tags[v[0]];
			int64_t d = pp_go_abs64(seed->value - t->value);

			for (uint32_t k = 1; k < ng; k++) {
				int64_t nd = pp_go_abs64(vt->tags[v[k]].value -
				                         t->value);

				if (nd < d) {
					g = k;
					d = nd;
				}
			}
		} else {
			g = i;
			gr[g].min = gr[g].max = v[i];
		}
		if (gr[g].count) {
			if (t->value < vt->tags[gr[g].min].value)
				gr[g].min = v[i];
			if (t->value > vt->tags[gr[g].max].value)
				gr[g].max = v[i];
		}
		gr[g].count++;
		gr[g].flat += t->flat;
		gr[g].flat_div += t->flat_div;
		gr[g].cum += t->cum;
		gr[g].cum_div += t->cum_div;
	}
	for (uint32_t g = 0; g < ng; g++) {
		const struct pp_graph_tag *lo = &vt->tags[gr[g].min];
		const struct pp_graph_tag *hi = &vt->tags[gr[g].max];
		char a[40], b[40];

		/* "auto" prints no unknown unit: the labels fit. */
		pp_scaled_label_n(lo->value, lo->unit, lo->unit_len, "auto", 4,
		                  a, sizeof(a));
		if (count <= MAX_NODELETS) {
			/* Few enough to show as they are: pprof keeps their
			 * names, formatted in the report's unit. */
			snprintf(gr[g].name, sizeof(gr[g].name), "%s",
			         pp_strtab_get(vt->strings, lo->name));
		} else if (gr[g].count == 1) {
			snprintf(gr[g].name, sizeof(gr[g].name), "%s", a);
		} else {
			pp_scaled_label_n(hi->value, hi->unit, hi->unit_len,
			                  "auto", 4, b, sizeof(b));
			snprintf(gr[g].name, sizeof(gr[g].name), "%s..%s", a,
			         b);
		}
		gr[g].sort_flat = gr[g].flat_div ? gr[g].flat / gr[g].flat_div
		                                 : gr[g].flat;
		gr[g].sort_cum =
		        gr[g].cum_div ? gr[g].cum / gr[g].cum_div : gr[g].cum;
	}
	/* Groups of several tags sort again by the same order, on their
	 * divided values; tags few enough to be shown as they are keep the
	 * order of their undivided ones (which differs under -mean), as
	 * pprof's collapsedTags returns them. */
	for (uint32_t i = 1; count > MAX_NODELETS && i < ng; i++) {
		struct group x = gr[i];
		uint32_t j;

		for (j = i; j > 0; j--) {
			const struct group *y = &gr[j - 1];
			bool before;

			if (!flat_tags && x.sort_cum != y->sort_cum)
				before = pp_go_abs64(x.sort_cum) >
				         pp_go_abs64(y->sort_cum);
			else if (x.sort_flat != y->sort_flat)
				before = pp_go_abs64(x.sort_flat) >
				         pp_go_abs64(y->sort_flat);
			else
				before = strcmp(x.name, y->name) < 0;
			if (!before)
				break;
			gr[j] = gr[j - 1];
		}
		gr[j] = x;
	}
	for (uint32_t g = 0; g < ng; g++) {
		int64_t w = gr[g].sort_cum;
		const char *attr = " style=\"dotted\"";
		struct pp_report__val ws;

		if (flat_tags || gr[g].sort_flat == gr[g].sort_cum) {
			w = gr[g].sort_flat;
			attr = "";
		}
		if (w == 0)
			continue;
		pp_report__format(r, w, &ws);
		fprintf(out, "N%s_%u [label = \"", source, g);
		put_label(out, gr[g].name);
		fprintf(out,
		        "\" id=\"N%s_%u\" fontsize=8 shape=box3d "
		        "tooltip=\"",
		        source, g);
		put_dot_val(out, &ws);
		fputs("\"]\n", out);
		{
			char to[40];

			snprintf(to, sizeof(to), "N%s", source);
			put_tag_edge(out, source, to, g, &ws, attr);
		}
		any = true;
	}
	return any;
}

/* The nodelets of node n: its heaviest label sets (flat values for nodes
 * with callees, cum for leaves), each a box3d joined to the node, with
 * the numeric tags of each set below it, then the numeric tags of samples
 * without labels. Returns whether any was written. */
static int put_nodelets(struct pp_report *r, uint32_t n, uint32_t id,
                        bool flat_tags, FILE *out, bool *any)
{
	const struct pp_graph_tags *vt = r->agg->view.tags;
	uint32_t *v, nlabel;
	char source[32];

	*any = false;
	v = pp_malloc(r->ctx, (vt->ntags ? vt->ntags : 1) * sizeof(*v));
	if (!v)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	nlabel = node_tags(r, n, PP_NONE, flat_tags, v);
	if (nlabel > MAX_NODELETS)
		nlabel = MAX_NODELETS;
	{
		uint32_t best[MAX_NODELETS];

		memcpy(best, v, nlabel * sizeof(*best));
		for (uint32_t i = 0; i < nlabel; i++) {
			const struct pp_graph_tag *t = &vt->tags[best[i]];
			int64_t w = flat_tags ? tag_flat(t) : tag_cum(t);
			struct pp_report__val ws;
			char from[32], to[32];

			if (w == 0)
				continue;
			pp_report__format(r, w, &ws);
			fprintf(out, "N%u_%u [label = \"", id, i);
			put_label_n(out, pp_strtab_get(vt->strings, t->label),
			            pp_strtab_len(vt->strings, t->label));
			fprintf(out,
			        "\" id=\"N%u_%u\" fontsize=8 shape=box3d "
			        "tooltip=\"",
			        id, i);
			put_dot_val(out, &ws);
			fputs("\"]\n", out);
			snprintf(from, sizeof(from), "N%u", id);
			snprintf(to, sizeof(to), "N%u", id);
			put_tag_edge(out, from, to, i, &ws, "");
			*any = true;
			snprintf(source, sizeof(source), "N%u_%u", id, i);
			if (put_numeric(r, n, t->label, flat_tags, source, v,
			                out))
				*any = true;
		}
	}
	snprintf(source, sizeof(source), "N%u", id);
	if (put_numeric(r, n, 0, flat_tags, source, v, out))
		*any = true;
	pp_free(r->ctx, v);
	return 0;
}

static void put_edge(struct pp_report *r, uint32_t e, const uint32_t *id,
                     const bool *nodelets, FILE *out)
{
	const struct pp_edge *edge = &r->agg->graph->edges[e];
	int64_t w = edge->weight_div ? edge->weight / edge->weight_div
	                             : edge->weight;
	struct pp_report__val ws;
	char color[16];
	const char *arrow = edge->residual ? "..." : "->";

	pp_report__format(r, w, &ws);
	fprintf(out, "N%u -> N%u [label=\" ", id[edge->src], id[edge->dst]);
	put_dot_val(out, &ws);
	fprintf(out, "%s\"", edge->is_inline ? "\\n (inline)" : "");
	if (r->total != 0) {
		/* In double: w * 100 overflows int64 for hostile values. */
		double share = fabs((double)w / (double)r->total);
		int64_t weight =
		        share * 100 > 100 ? 100 : (int64_t)(share * 100);
		int64_t width = share * 5 > 5 ? 5 : (int64_t)(share * 5);

		if (weight > 100)
			weight = 100;
		if (width > 5)
			width = 5;
		if (weight + 1 > 1)
			fprintf(out, " weight=%lld", (long long)weight + 1);
		if (width + 1 > 1)
			fprintf(out, " penwidth=%lld", (long long)width + 1);
		dot_color((double)w / (double)pp_go_abs64(r->total), false,
		          color, sizeof(color));
		fprintf(out, " color=\"%s\"", color);
	}
	for (int k = 0; k < 2; k++) {
		fputs(k ? " labeltooltip=\"" : " tooltip=\"", out);
		pp_report__put_dot(out, pp_report__node_name(r, edge->src),
		                   pp_report__node_len(r, edge->src));
		fprintf(out, " %s ", arrow);
		pp_report__put_dot(out, pp_report__node_name(r, edge->dst),
		                   pp_report__node_len(r, edge->dst));
		fputs(" (", out);
		put_dot_val(out, &ws);
		fputs(")\"", out);
	}
	if (edge->residual)
		fputs(" style=\"dotted\"", out);
	if (nodelets[edge->src])
		fputs(" minlen=2", out);
	fputs("]\n", out);
}

int pp_report_dot(struct pp_report *r, FILE *out)
{
	const struct pp_graph *g;
	const char *title;
	size_t title_len = 0;
	struct shortener sh;
	uint32_t *id = NULL, *edges = NULL, nedges = 0;
	bool *nodelets = NULL, *out_edge = NULL;
	double max_flat;
	int err;

	if ((err = shortener_init(&sh, r->ctx)) < 0 ||
	    (err = pp_report__visual_graph(r)) < 0)
		goto done;
	g = r->agg->graph;
	title = title_of(r, &title_len);
	fputs("digraph \"", out);
	if (title)
		pp_report__put_dot(out, title, title_len);
	else
		fputs("unnamed", out);
	fputs("\" {\n", out);
	fputs("node [style=filled fillcolor=\"#f8f8f8\"]\n", out);
	if ((err = put_legend(r, out)) < 0)
		goto done;
	if (r->agg->view.norder == 0)
		goto close;
	id = pp_calloc(r->ctx, g->nnodes, sizeof(*id));
	nodelets = pp_calloc(r->ctx, g->nnodes, sizeof(*nodelets));
	out_edge = pp_calloc(r->ctx, g->nnodes, sizeof(*out_edge));
	edges = pp_malloc(r->ctx, (g->nedges ? g->nedges : 1) * sizeof(*edges));
	if (!id || !nodelets || !out_edge || !edges) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	max_flat = (double)pp_go_abs64(
	        pp_node_flat(&g->nodes[r->agg->view.order[0]]));
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		double f = (double)pp_go_abs64(
		        pp_node_flat(&g->nodes[r->agg->view.order[i]]));

		id[r->agg->view.order[i]] = i + 1;
		if (f > max_flat)
			max_flat = f;
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (r->agg->view.edge_dead[e] || !id[g->edges[e].src] ||
		    !id[g->edges[e].dst])
			continue;
		out_edge[g->edges[e].src] = true;
		edges[nedges++] = e;
	}
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		uint32_t n = r->agg->view.order[i];

		put_node(r, &sh, n, i + 1, max_flat, out);
		if ((err = put_nodelets(r, n, i + 1, out_edge[n], out,
		                        &nodelets[n])) < 0)
			goto done;
	}
	/* Heaviest first, as a hint to the layout. */
	for (uint32_t i = 1; i < nedges; i++) {
		uint32_t x = edges[i], j;

		for (j = i; j > 0 && pp_view_edge_cmp(&r->agg->view,
		                                      edges[j - 1], x) > 0;
		     j--)
			edges[j] = edges[j - 1];
		edges[j] = x;
	}
	for (uint32_t i = 0; i < nedges; i++)
		put_edge(r, edges[i], id, nodelets, out);
close:
	fputs("}\n", out);
	if (ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	shortener_release(&sh);
	pp_free(r->ctx, id);
	pp_free(r->ctx, nodelets);
	pp_free(r->ctx, out_edge);
	pp_free(r->ctx, edges);
	return err;
}
