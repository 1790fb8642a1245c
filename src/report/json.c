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
#include "util/bytes.h"
#include "util/goint.h"
#include "util/utf8.h"

#define MAX_TRAIL 256

void pp_report_put_json_string(FILE *out, const char *str)
{
	pp_report_put_json_bytes(out, str, strlen(str));
}

/* The n bytes at str escaped for a JSON string, without its quotes. */
static void put_json_body(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	while (n > 0) {
		size_t len, run = 0;

		while (run < n && s[run] >= 0x20 && s[run] < 0x7f &&
		       !strchr("\"\\<>&'", s[run]))
			run++;
		if (run) {
			fwrite(s, 1, run, out);
			s += run, n -= run;
			continue;
		}
		len = pp_utf8_len(s, n);

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
}

void pp_report_put_json_bytes(FILE *out, const char *str, size_t n)
{
	fputc('"', out);
	put_json_body(out, str, n);
	fputc('"', out);
}

void pp_report__put_json_val(FILE *out, const struct pp_report__val *v)
{
	fputc('"', out);
	put_json_body(out, v->num, v->num_len);
	put_json_body(out, v->unit, v->unit_len);
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
	struct pp_report__val val;

	pp_report__format(r, v, &val);
	pp_report__put_json_val(out, &val);
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
	/* By length: a line may hold a name's NUL bytes. */
	for (line = text; line && line < text + size; line = next) {
		char *end = memchr(line, '\n', size - (size_t)(line - text));

		next = end ? end + 1 : text + size;
		if (!end)
			end = text + size;
		if (!first)
			fputc(',', out);
		first = false;
		pp_report_put_json_bytes(out, line, (size_t)(end - line));
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
	pp_report_put_json_bytes(out, r->sample_unit ? r->sample_unit : "",
	                         r->sample_unit_len);
	fprintf(out, ",\"total\":%lld,\"total_str\":", (long long)r->total);
	put_value(r, out, r->total);
}

void pp_report__put_json_head(const struct pp_report *r, FILE *out)
{
	put_common(r, out);
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
	g = r->agg->graph;
	fputc('{', out);
	if ((err = pp_report__put_json_common(r, out)) < 0)
		return err;
	fputs(",\"rows\":[", out);
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n = &g->nodes[r->agg->view.order[i]];
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
		pp_report_put_json_bytes(
		        out, pp_report__node_name(r, r->agg->view.order[i]),
		        pp_report__node_len(r, r->agg->view.order[i]));
		fputs(",\"inline\":", out);
		pp_report_put_json_string(out, inl);
		fputc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}

/* ---- names JSON cannot carry ------------------------------------------- */

/* Whether JSON carries the n bytes at s exactly: valid UTF-8 (NUL bytes
 * are \u0000); invalid bytes become U+FFFD, which loses them. */
static bool json_exact(const char *s, size_t n)
{
	for (size_t i = 0, k; i < n; i += k)
		if (!(k = pp_utf8_len((const unsigned char *)s + i, n - i)))
			return false;
	return true;
}

/* One member of "raw_names" for the k-th name, the n bytes at s, if JSON
 * would not carry them exactly: "k": their hex, so that a page can name
 * the function whole again (a pivot's pivotx, a colour's hash). */
static void put_raw_name(FILE *out, bool *first, uint32_t k, const char *s,
                         size_t n)
{
	if (json_exact(s, n))
		return;
	fprintf(out, "%s\"%u\":\"", *first ? "" : ",", k);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%02x", (unsigned char)s[i]);
	fputc('"', out);
	*first = false;
}

/* A flame graph's values are labelled as `pprof-c flame` labels them: each
 * in its own best unit ("auto") unless -unit names one. */
static void put_flame_value(const struct pp_report *r, FILE *out, int64_t v)
{
	const char *unit =
	        strcmp(r->opts.unit, "minimum") == 0 ? "auto" : r->opts.unit;
	struct pp_report__val val;

	val.num_len = pp_scaled_label_parts(
	        v, r->sample_unit, r->sample_unit_len, unit, strlen(unit),
	        val.num, sizeof(val.num), &val.unit, &val.unit_len);
	pp_report__put_json_val(out, &val);
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

/* The node of the whole tree t that the cut tree's node c stands for: the
 * same frames from the root (both trees are built on the same profile and
 * graph options, so their frames are the same graph nodes). */
static int cut_to_whole(struct pp_report *r, const struct pp_tree *cut,
                        uint32_t c, const struct pp_tree *t, uint32_t *out)
{
	uint32_t depth = cut->nodes[c].depth, *frames, n = 0;

	*out = PP_NONE;
	frames = pp_malloc(r->ctx, ((size_t)depth + 1) * sizeof(*frames));
	if (!frames)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = c; i != 0; i = cut->nodes[i].parent)
		frames[cut->nodes[i].depth - 1] = cut->nodes[i].frame;
	for (uint32_t d = 0; d < depth; d++) {
		uint32_t k = n + 1;

		while (k < t->nodes[n].end && t->nodes[k].frame != frames[d])
			k = t->nodes[k].end;
		if (k >= t->nodes[n].end) {
			n = PP_NONE;
			break;
		}
		n = k;
	}
	pp_free(r->ctx, frames);
	*out = n;
	return 0;
}

int pp_report_flame_json(struct pp_report *r,
                         const struct pp_flame_json_opts *o, FILE *out)
{
	const struct pp_tree *t;
	uint32_t root = o ? o->root : 0, nnames = 0, *name_ix = NULL;
	uint32_t id_base = 0; /* added to the ids of a cut tree's nodes */
	double min_share = o ? o->min_share : 0;
	int64_t min_value;
	bool first = true;
	int err;

	if (!r->agg->tree && r->agg->cut && root == 0 &&
	    min_share >= r->agg->cut_share) {
		/* Every frame it would send is in the cut tree. */
		t = r->agg->cut;
		id_base = PP_FLAME_CUT_ID;
	} else {
		uint32_t asked = root;

		if ((err = pp_report__tree(r, &t)) < 0)
			return err;
		if (root >= PP_FLAME_CUT_ID && r->agg->cut &&
		    root - PP_FLAME_CUT_ID < r->agg->cut->nnodes &&
		    (err = cut_to_whole(r, r->agg->cut, root - PP_FLAME_CUT_ID,
		                        t, &root)) < 0)
			return err;
		if (root >= t->nnodes)
			return pp_error(r->ctx, PP_ENOTFOUND,
			                "no frame %u in the flame graph",
			                asked);
	}
	/* Name indices in the order frames are sent, so that each name
	 * crosses the wire once. */
	name_ix = pp_calloc(r->ctx, t->graph->nnodes + 1, sizeof(*name_ix));
	if (!name_ix)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	min_value = pp_int64_clamped((double)frame_value(t, root) * min_share);
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
			pp_report_put_json_bytes(out, pp_tree_name(t, chain[k]),
			                         pp_tree_name_len(t, chain[k]));
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
		fprintf(out, "%s\n[%u,%u,%u,%lld,%lld,", first ? "" : ",",
		        i ? i + id_base : 0, n->depth - t->nodes[root].depth,
		        name_ix[frame] - 1, (long long)v, (long long)n->self);
		put_flame_value(r, out, v);
		fputc(',', out);
		put_flame_value(r, out, n->self);
		fputc(',', out);
		pp_report_put_json_string(out, p);
		fprintf(out, ",%lld,", (long long)(t->has_base ? n->total : 0));
		put_flame_value(r, out, t->has_base ? n->total : 0);
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
		bool first_raw = true;

		for (uint32_t k = 0; k < nnames; k++) {
			if (k)
				fputc(',', out);
			if (by_ix[k] == t->graph->nnodes)
				pp_report_put_json_string(out, "root");
			else
				pp_report_put_json_bytes(
				        out, t->names + t->name_off[by_ix[k]],
				        pp_tree_frame_len(t, by_ix[k]));
		}
		fputs("],\"raw_names\":{", out);
		for (uint32_t k = 0; k < nnames; k++)
			if (by_ix[k] != t->graph->nnodes)
				put_raw_name(out, &first_raw, k,
				             t->names + t->name_off[by_ix[k]],
				             pp_tree_frame_len(t, by_ix[k]));
		pp_free(r->ctx, by_ix);
	}
	fputs("}}\n", out);
	pp_free(r->ctx, name_ix);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}

/* ---- pivot: the callers or the callees of one function ------------------ */

/* A tree of frames merged from the calling-context tree's paths through
 * the pivot function: children found through a hash of (parent, frame). */
struct merged {
	struct pp_ctx *ctx;
	uint32_t *parent, *frame;
	int64_t *value, *self, *delta;
	uint32_t n, cap;
	uint64_t *keys; /* (parent << 32 | frame) + 1; 0 = empty */
	uint32_t *vals;
	uint32_t nslots;
};

static int merged_grow(struct merged *m)
{
	uint32_t cap = m->cap ? m->cap * 2 : 1024;

	if (cap < m->cap)
		return PP_ELIMIT;
#define GROW(field)                                                    \
	do {                                                           \
		void *p = pp_realloc(m->ctx, m->field,                 \
		                     (size_t)cap * sizeof(*m->field)); \
		if (!p)                                                \
			return PP_ENOMEM;                              \
		m->field = p;                                          \
	} while (0)
	GROW(parent);
	GROW(frame);
	GROW(value);
	GROW(self);
	GROW(delta);
#undef GROW
	m->cap = cap;
	return 0;
}

static int merged_rehash(struct merged *m)
{
	uint32_t nslots = m->nslots ? m->nslots * 2 : 4096;
	uint64_t *keys = pp_calloc(m->ctx, nslots, sizeof(*keys));
	uint32_t *vals = pp_calloc(m->ctx, nslots, sizeof(*vals));

	if (!keys || !vals) {
		pp_free(m->ctx, keys);
		pp_free(m->ctx, vals);
		return PP_ENOMEM;
	}
	for (uint32_t i = 0; i < m->nslots; i++) {
		uint32_t s;

		if (!m->keys[i])
			continue;
		for (s = (uint32_t)((m->keys[i] * 0x9e3779b97f4a7c15ull) >>
		                    32) &
		         (nslots - 1);
		     keys[s]; s = (s + 1) & (nslots - 1))
			;
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	pp_free(m->ctx, m->keys);
	pp_free(m->ctx, m->vals);
	m->keys = keys;
	m->vals = vals;
	m->nslots = nslots;
	return 0;
}

/* The child of parent for frame, made if new: its index, or a negative
 * error. */
static int64_t merged_child(struct merged *m, uint32_t parent, uint32_t frame)
{
	uint64_t key = ((uint64_t)parent << 32 | frame) + 1;
	uint32_t s;
	int err;

	if ((uint64_t)(m->n + 1) * 2 > m->nslots &&
	    (err = merged_rehash(m)) < 0)
		return err;
	for (s = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) &
	         (m->nslots - 1);
	     m->keys[s]; s = (s + 1) & (m->nslots - 1))
		if (m->keys[s] == key)
			return m->vals[s];
	if (m->n == m->cap && (err = merged_grow(m)) < 0)
		return err;
	m->keys[s] = key;
	m->vals[s] = m->n;
	m->parent[m->n] = parent;
	m->frame[m->n] = frame;
	m->value[m->n] = m->self[m->n] = m->delta[m->n] = 0;
	return m->n++;
}

static void merged_release(struct merged *m)
{
	pp_free(m->ctx, m->parent);
	pp_free(m->ctx, m->frame);
	pp_free(m->ctx, m->value);
	pp_free(m->ctx, m->self);
	pp_free(m->ctx, m->delta);
	pp_free(m->ctx, m->keys);
	pp_free(m->ctx, m->vals);
}

/* Fold every outermost occurrence of a frame named pivot into m: its
 * callers (the path up to the root, reversed) or its callees (its
 * subtree). */
static int merge_pivot(const struct pp_tree *t, const char *pivot,
                       size_t pivot_len, bool callers, struct merged *m)
{
	uint32_t inside_end = 0; /* end of the current occurrence's subtree */
	uint32_t *stack = NULL, base = 0;
	int64_t c;
	int err;

	/* Node 0 is the pivot itself. */
	if ((err = merged_grow(m)) < 0 || (err = merged_rehash(m)) < 0)
		return err;
	m->parent[0] = m->frame[0] = 0xffffffffu;
	m->value[0] = m->self[0] = m->delta[0] = 0;
	m->n = 1;
	if (!callers && !(stack = pp_calloc(m->ctx, (size_t)t->max_depth + 2,
	                                    sizeof(*stack))))
		return PP_ENOMEM;
	for (uint32_t i = 1; i < t->nnodes; i++) {
		const struct pp_tree_node *n = &t->nodes[i];
		int64_t v = frame_value(t, i), d = t->has_base ? n->total : 0;

		if (i < inside_end) {
			/* Under an occurrence: a callee path. */
			if (callers)
				continue;
			c = merged_child(m, stack[n->depth - base - 1],
			                 n->frame);
			if (c < 0) {
				err = (int)c;
				goto done;
			}
			stack[n->depth - base] = (uint32_t)c;
			m->value[c] += v;
			m->self[c] += n->self;
			m->delta[c] += d;
			continue;
		}
		if (!pp_bytes_eq(pp_tree_name(t, i), pp_tree_name_len(t, i),
		                 pivot, pivot_len))
			continue;
		inside_end = n->end;
		m->value[0] += v;
		m->delta[0] += d;
		if (!callers) {
			base = n->depth;
			stack[0] = 0;
			m->self[0] += n->self;
			continue;
		}
		{
			uint32_t cur = 0;

			if (n->parent == 0)
				m->self[0] += v;
			for (uint32_t a = n->parent; a != 0;
			     a = t->nodes[a].parent) {
				if ((c = merged_child(m, cur,
				                      t->nodes[a].frame)) < 0) {
					err = (int)c;
					goto done;
				}
				cur = (uint32_t)c;
				m->value[cur] += v;
				m->delta[cur] += d;
				if (t->nodes[a].parent == 0)
					m->self[cur] += v;
			}
		}
	}
	err = 0;
done:
	pp_free(m->ctx, stack);
	return err;
}

int pp_report_pivot_json(struct pp_report *r, const char *pivot,
                         size_t pivot_len, bool callers, double min_share,
                         FILE *out)
{
	struct merged m;
	const struct pp_tree *t;
	uint32_t *first = NULL, *next = NULL, *order = NULL, *stack = NULL;
	/* order: the nodes in the order sent; a node's name is its place */
	uint32_t *depth = NULL, sp = 0, emitted = 0;
	int64_t min_value;
	int err;

	memset(&m, 0, sizeof(m));
	m.ctx = r->ctx;
	if ((err = pp_report__tree(r, &t)) < 0)
		return err;
	if ((err = merge_pivot(t, pivot, pivot_len, callers, &m)) < 0)
		goto done;
	if (m.value[0] == 0 && m.delta[0] == 0) {
		/* The name whole in the message, NUL bytes too. */
		char msg[sizeof(r->ctx->message)];
		static const char head[] = "no frame named ",
		                  tail[] = " in the flame graph";
		size_t n = pivot_len < sizeof(msg) - sizeof(head) - sizeof(tail)
		                   ? pivot_len
		                   : sizeof(msg) - sizeof(head) - sizeof(tail);

		memcpy(msg, head, sizeof(head) - 1);
		memcpy(msg + sizeof(head) - 1, pivot, n);
		memcpy(msg + sizeof(head) - 1 + n, tail, sizeof(tail) - 1);
		err = pp_error_bytes(r->ctx, PP_ENOTFOUND, msg,
		                     sizeof(head) - 1 + n + sizeof(tail) - 1);
		goto done;
	}
	/* Children lists, each sorted by name, then a depth-first walk. */
	first = pp_malloc(r->ctx, (size_t)m.n * sizeof(*first));
	next = pp_malloc(r->ctx, (size_t)m.n * sizeof(*next));
	stack = pp_malloc(r->ctx, (size_t)m.n * sizeof(*stack));
	depth = pp_malloc(r->ctx, (size_t)m.n * sizeof(*depth));
	order = pp_malloc(r->ctx, (size_t)m.n * sizeof(*order));
	if (!first || !next || !stack || !depth || !order) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = 0; i < m.n; i++)
		first[i] = next[i] = 0xffffffffu;
	/* Insert each child into its parent's list in name order, from the
	 * last so that equal names keep their order. */
	for (uint32_t i = m.n; i-- > 1;) {
		uint32_t p = m.parent[i], *at = &first[p];
		const char *name = t->names + t->name_off[m.frame[i]];
		size_t len = pp_tree_frame_len(t, m.frame[i]);

		while (*at != 0xffffffffu &&
		       pp_bytes_cmp(t->names + t->name_off[m.frame[*at]],
		                    pp_tree_frame_len(t, m.frame[*at]), name,
		                    len) < 0)
			at = &next[*at];
		next[i] = *at;
		*at = i;
	}
	min_value = pp_int64_clamped((double)m.value[0] * min_share);
	fputc('{', out);
	put_common(r, out);
	fputs(",\"labels\":", out);
	if ((err = put_labels(r, false, out)) < 0)
		goto done;
	fprintf(out, ",\"diff\":%s,\"root\":0,\"path\":[],\"pivot\":",
	        t->has_base ? "true" : "false");
	pp_report_put_json_bytes(out, pivot, pivot_len);
	fprintf(out,
	        ",\"side\":\"%s\",\"fields\":[\"id\",\"depth\",\"name\","
	        "\"value\",\"self\",\"value_str\",\"self_str\",\"pct\","
	        "\"delta\",\"delta_str\"],\"nodes\":[",
	        callers ? "callers" : "callees");
	stack[sp] = 0;
	depth[sp++] = 0;
	while (sp > 0) {
		uint32_t i = stack[--sp], d = depth[sp], kids = 0;
		char pct[32];
		const char *p = pct;

		if (i != 0 && (m.value[i] < min_value ||
		               (min_share > 0 && m.value[i] == 0)))
			continue;
		pp_percentage(m.value[i], r->total, pct, sizeof(pct));
		while (*p == ' ')
			p++;
		fprintf(out, "%s\n[%u,%u,%u,%lld,%lld,", emitted ? "," : "", i,
		        d, emitted, (long long)m.value[i],
		        (long long)m.self[i]);
		order[emitted] = i;
		put_flame_value(r, out, m.value[i]);
		fputc(',', out);
		put_flame_value(r, out, m.self[i]);
		fputc(',', out);
		pp_report_put_json_string(out, p);
		fprintf(out, ",%lld,", (long long)m.delta[i]);
		put_flame_value(r, out, m.delta[i]);
		fputc(']', out);
		emitted++;
		/* Push the children in reverse so the first pops first. */
		for (uint32_t c = first[i]; c != 0xffffffffu; c = next[c])
			kids++;
		sp += kids;
		for (uint32_t c = first[i], k = 0; c != 0xffffffffu;
		     c = next[c], k++) {
			stack[sp - 1 - k] = c;
			depth[sp - 1 - k] = d + 1;
		}
	}
	fputs("],\"names\":[", out);
	for (uint32_t k = 0; k < emitted; k++) {
		uint32_t i = order[k];

		if (k)
			fputc(',', out);
		if (i == 0)
			pp_report_put_json_bytes(out, pivot, pivot_len);
		else
			pp_report_put_json_bytes(
			        out, t->names + t->name_off[m.frame[i]],
			        pp_tree_frame_len(t, m.frame[i]));
	}
	fputs("],\"raw_names\":{", out);
	{
		bool first_raw = true;

		for (uint32_t k = 0; k < emitted; k++) {
			uint32_t i = order[k];

			if (i == 0)
				put_raw_name(out, &first_raw, k, pivot,
				             pivot_len);
			else
				put_raw_name(out, &first_raw, k,
				             t->names + t->name_off[m.frame[i]],
				             pp_tree_frame_len(t, m.frame[i]));
		}
	}
	fputs("}}\n", out);
	err = ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
done:
	pp_free(r->ctx, first);
	pp_free(r->ctx, next);
	pp_free(r->ctx, stack);
	pp_free(r->ctx, depth);
	pp_free(r->ctx, order);
	merged_release(&m);
	return err;
}

/* ---- traces ------------------------------------------------------------- */

static int put_label_lines(struct pp_report *r, uint32_t s, bool numeric,
                           struct pp_report__lines *l, FILE *out)
{
	int err;

	if ((err = pp_report__label_lines(r, s, numeric, PP_LABELS_TRACES, l)) <
	    0)
		return err;
	fputc('[', out);
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			fputc(',', out);
		pp_report_put_json_bytes(out, l->v[i].s, l->v[i].n);
	}
	fputc(']', out);
	return 0;
}

int pp_report_traces_json(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_report__lines lines = {0};
	const struct pp_graph *g;
	bool first_trace = true;
	int err;

	if ((err = pp_report__trace_graph(r)) < 0)
		return err;
	g = r->agg->graph;
	fputc('{', out);
	put_common(r, out);
	fputs(",\"labels\":", out);
	if ((err = put_labels(r, false, out)) < 0)
		return err;
	fputs(",\"traces\":[", out);
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = p->values + (size_t)s * p->nsample_types;
		int64_t value = v[r->sample_index];
		bool labelled = pp_sample_label_range(p, s).count != 0;
		bool first = true;

		if (smp->loc_count == 0)
			continue; /* as traces: no stack, no trace */
		if (r->opts.mean && v[0] != 0)
			value /= v[0];
		fprintf(out, "%s\n{\"value\":%lld,\"value_str\":",
		        first_trace ? "" : ",", (long long)value);
		first_trace = false;
		put_value(r, out, value);
		fputs(",\"labels\":", out);
		if (labelled &&
		    (err = put_label_lines(r, s, false, &lines, out)) < 0)
			goto done;
		if (!labelled)
			fputs("[]", out);
		fputs(",\"num_labels\":", out);
		if (labelled &&
		    (err = put_label_lines(r, s, true, &lines, out)) < 0)
			goto done;
		if (!labelled)
			fputs("[]", out);
		fputs(",\"frames\":[", out);
		for (uint32_t k = 0; k < smp->loc_count; k++) {
			uint32_t l = pp_sample_loc(p, smp, k);
			uint32_t a = g->loc_node_first[l],
			         b = g->loc_node_first[l + 1];

			for (uint32_t i = a; i < b; i++) {
				fprintf(out, "%s{\"name\":", first ? "" : ",");
				first = false;
				pp_report_put_json_bytes(
				        out,
				        pp_report__node_name(r,
				                             g->loc_nodes[i]),
				        pp_report__node_len(r,
				                            g->loc_nodes[i]));
				fprintf(out, ",\"inline\":%s}",
				        i + 1 < b ? "true" : "false");
			}
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
	err = ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
done:
	pp_report__lines_release(r, &lines);
	return err;
}
