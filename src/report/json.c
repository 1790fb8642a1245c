/*
 * The JSON reports: the data the web UI's views fetch and `-json` prints
 * (docs/web-api.md describes every field). Numbers come twice, raw (for
 * sorting and arithmetic) and formatted exactly as the text reports print
 * them, so a page never formats a value differently from the command line.
 *
 * Strings are escaped for every context a page may put them in: besides
 * JSON's own escapes, <, >, &, ' and U+2028/U+2029 become \u escapes (the
 * text can sit inside an HTML <script> element) and invalid UTF-8 becomes
 * U+FFFD, so a hostile function name is only ever text.
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"

#define MAX_TRAIL 256

/* The length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* Overlong forms, surrogates and values past U+10FFFF. */
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

void pp_report_put_json_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	fputc('"', out);
	while (n > 0) {
		size_t len = utf8_len(s, n);

		if (len == 0) {
			fputs("\\ufffd", out);
			s++, n--;
			continue;
		}
		if (len == 3 && s[0] == 0xe2 && s[1] == 0x80 &&
		    (s[2] == 0xa8 || s[2] == 0xa9))
			fprintf(out, "\\u%04x", s[2] == 0xa8 ? 0x2028 : 0x2029);
		else if (len > 1)
			fwrite(s, 1, len, out);
		else if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if (*s < 0x20 || *s == 0x7f || *s == '<' || *s == '>' ||
		         *s == '&' || *s == '\'')
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
		s += len, n -= len;
	}
	fputc('"', out);
}

static void put_pct(FILE *out, int64_t v, int64_t total)
{
	char pct[32];
	const char *p = pct;

	pp_percentage(v, total, pct, sizeof(pct));
	while (*p == ' ')
		p++;
	pp_report_put_json_string(out, p);
}

static void put_value(const struct pp_report *r, FILE *out, int64_t v)
{
	char buf[64];

	pp_report__format(r, v, buf, sizeof(buf));
	pp_report_put_json_string(out, buf);
}

/* The header lines a text report prints above its table (all: after the
 * graph is built), or only the profile's (File:, Type:, ...), as an
 * array. */
static int put_labels(struct pp_report *r, bool all, FILE *out)
{
	char *text = NULL, *line, *next;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	bool first = true;

	if (!mem)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if (all)
		pp_report__print_labels(r, mem);
	else if (!r->opts.compact_labels)
		pp_report__print_profile_labels(r, mem);
	if (fclose(mem) != 0) {
		free(text);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	fputc('[', out);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!first)
			fputc(',', out);
		first = false;
		pp_report_put_json_string(out, line);
	}
	fputc(']', out);
	free(text);
	return 0;
}

/* What every report's JSON starts with: the sample type and the total. */
static void put_common(const struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;

	fputs("\"sample_type\":", out);
	pp_report_put_json_string(out, r->sample_type ? r->sample_type : "");
	fputs(",\"sample_index\":", out);
	fprintf(out, "%u", r->sample_index);
	fputs(",\"sample_types\":[", out);
	for (uint32_t i = 0; i < p->nsample_types; i++) {
		if (i)
			fputc(',', out);
		pp_report_put_json_string(
		        out, pp_profile_str(p, p->sample_types[i].type));
	}
	fputs("],\"unit\":", out);
	pp_report_put_json_string(out, r->sample_unit ? r->sample_unit : "");
	fprintf(out, ",\"total\":%lld,\"total_str\":", (long long)r->total);
	put_value(r, out, r->total);
}

int pp_report__put_json_common(struct pp_report *r, FILE *out)
{
	put_common(r, out);
	fputs(",\"labels\":", out);
	return put_labels(r, true, out);
}

int pp_report_top_json(struct pp_report *r, FILE *out)
{
	const struct pp_graph *g;
	int64_t flat_sum = 0;
	int err;

	if ((err = pp_report__trimmed_graph(r, false)) < 0)
		return err;
	g = r->graph;
	fputc('{', out);
	if ((err = pp_report__put_json_common(r, out)) < 0)
		return err;
	fputs(",\"rows\":[", out);
	for (uint32_t i = 0; i < r->norder; i++) {
		const struct pp_node *n = &g->nodes[r->order[i]];
		int64_t flat = pp_node_flat(n), cum = pp_node_cum(n);
		const char *inl = "";

		if (n->in_inline)
			inl = n->in_call ? "partial-inline" : "inline";
		flat_sum += flat;
		fprintf(out, "%s\n{\"flat\":%lld,\"flat_str\":", i ? "," : "",
		        (long long)flat);
		put_value(r, out, flat);
		fputs(",\"flat_pct\":", out);
		put_pct(out, flat, r->total);
		fputs(",\"sum_pct\":", out);
		put_pct(out, flat_sum, r->total);
		fprintf(out, ",\"cum\":%lld,\"cum_str\":", (long long)cum);
		put_value(r, out, cum);
		fputs(",\"cum_pct\":", out);
		put_pct(out, cum, r->total);
		fputs(",\"name\":", out);
		pp_report_put_json_string(out,
		                          pp_report__node_name(r, r->order[i]));
		fputs(",\"inline\":", out);
		pp_report_put_json_string(out, inl);
		fputc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}

/* A frame's width in a flame graph: the new profile's value in a diff
 * (the base's samples are negated and carried apart, pprof/tree.h). */
static int64_t frame_value(const struct pp_tree *t, uint32_t n)
{
	int64_t v = t->nodes[n].total;

	if (t->has_base)
		v += t->base_total[n];
	return v < 0 ? 0 : v;
}

int pp_report_flame_json(struct pp_report *r,
                         const struct pp_flame_json_opts *o, FILE *out)
{
	const struct pp_tree *t;
	uint32_t root = o ? o->root : 0, nnames = 0, *name_ix = NULL;
	double min_share = o ? o->min_share : 0;
	int64_t min_value;
	bool first = true;
	int err;

	if ((err = pp_report__tree(r, &t)) < 0)
		return err;
	if (root >= t->nnodes)
		return pp_error(r->ctx, PP_ENOTFOUND,
		                "no frame %u in the flame graph", root);
	/* Name indices in the order frames are sent, so that each name
	 * crosses the wire once. */
	name_ix = pp_calloc(r->ctx, t->graph->nnodes + 1, sizeof(*name_ix));
	if (!name_ix)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	min_value = (int64_t)((double)frame_value(t, root) * min_share);
	fputc('{', out);
	put_common(r, out);
	fputs(",\"labels\":", out);
	if ((err = put_labels(r, false, out)) < 0) {
		pp_free(r->ctx, name_ix);
		return err;
	}
	fprintf(out, ",\"diff\":%s,\"root\":%u,\"path\":[",
	        t->has_base ? "true" : "false", root);
	/* The zoomed frame's ancestors, outermost first, for the trail: the
	 * nearest MAX_TRAIL of them (a hostile stack can be very deep). */
	{
		uint32_t chain[MAX_TRAIL], n = 0;

		for (uint32_t i = t->nodes[root].parent;
		     root != 0 && i != 0 && n < MAX_TRAIL;
		     i = t->nodes[i].parent)
			chain[n++] = i;
		for (uint32_t k = n; k-- > 0;) {
			fprintf(out,
			        "%s{\"id\":%u,\"name\":", k + 1 == n ? "" : ",",
			        chain[k]);
			pp_report_put_json_string(out,
			                          pp_tree_name(t, chain[k]));
			fputc('}', out);
		}
	}
	fputs("],\"fields\":[\"id\",\"depth\",\"name\",\"value\",\"self\","
	      "\"value_str\",\"self_str\",\"pct\",\"delta\",\"delta_str\"],"
	      "\"nodes\":[",
	      out);
	for (uint32_t i = root; i < t->nodes[root].end;) {
		const struct pp_tree_node *n = &t->nodes[i];
		int64_t v = frame_value(t, i);
		uint32_t frame = i == 0 ? t->graph->nnodes : n->frame;
		char pct[32];
		const char *p = pct;

		/* min_share 0 sends every frame, even those worth nothing in
		 * the new profile of a diff (they are the base's alone). */
		if (i != root && min_share > 0 && (v < min_value || v == 0)) {
			i = n->end; /* too thin: its subtree is thinner */
			continue;
		}
		if (!name_ix[frame])
			name_ix[frame] = ++nnames;
		pp_percentage(v, r->total, pct, sizeof(pct));
		while (*p == ' ')
			p++;
		fprintf(out, "%s\n[%u,%u,%u,%lld,%lld,", first ? "" : ",", i,
		        n->depth - t->nodes[root].depth, name_ix[frame] - 1,
		        (long long)v, (long long)n->self);
		put_value(r, out, v);
		fputc(',', out);
		put_value(r, out, n->self);
		fputc(',', out);
		pp_report_put_json_string(out, p);
		fprintf(out, ",%lld,", (long long)(t->has_base ? n->total : 0));
		put_value(r, out, t->has_base ? n->total : 0);
		fputc(']', out);
		first = false;
		i++;
	}
	fputs("],\"names\":[", out);
	{
		/* Names by index: invert name_ix. */
		uint32_t *by_ix = pp_calloc(r->ctx, nnames + 1, sizeof(*by_ix));

		if (!by_ix) {
			pp_free(r->ctx, name_ix);
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		}
		for (uint32_t f = 0; f <= t->graph->nnodes; f++)
			if (name_ix[f])
				by_ix[name_ix[f] - 1] = f;
		for (uint32_t k = 0; k < nnames; k++) {
			if (k)
				fputc(',', out);
			pp_report_put_json_string(
			        out,
			        by_ix[k] == t->graph->nnodes
			                ? "root"
			                : t->names + t->name_off[by_ix[k]]);
		}
		pp_free(r->ctx, by_ix);
	}
	fputs("]}\n", out);
	pp_free(r->ctx, name_ix);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}
