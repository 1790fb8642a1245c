/* The `traces` report: every sample's stack, value and labels, as pprof's
 * printTraces lays them out. */
#include <string.h>

#include "report/internal.h"

#define SEPARATOR \
	"-----------+-------------------------------------------------------"

static void print_lines(struct pp_report__out *o,
                        const struct pp_report__lines *l)
{
	for (size_t i = 0; i < l->n; i++) {
		pp_report__out_bytes(o, l->v[i].s, l->v[i].n);
		pp_report__out_bytes(o, "\n", 1);
	}
}

/* How many columns the value takes: pprof's "%10s   " before each name. */
#define VALUE_COLS 10
#define INDENT (VALUE_COLS + 3)

/*
 * Every location prints the same lines in every sample: its nodes, each
 * after INDENT spaces, " (inline)" on all but the last. So each location's
 * text is made once, in one buffer (blocks, at block_at[l]), and a sample
 * is one copy per location, the first with its value written over the
 * indent. A location no sample uses gets no text. PP_ELIMIT when the text
 * would pass limit bytes: the caller then prints that location line by
 * line (print_location).
 */
struct blocks {
	char *text;
	size_t len, cap;
	uint64_t *at; /* per location: offset + 1 into text; 0 = not made */
	uint32_t *size;
};

static int block_for(struct pp_report *r, struct blocks *b, uint32_t l,
                     const uint32_t *name_len, size_t limit)
{
	static const char inl[] = " (inline)\n";
	const struct pp_graph *g = r->agg->graph;
	uint32_t first = g->loc_node_first[l], last = g->loc_node_first[l + 1];
	size_t need = 0, at = b->len;
	int err;

	for (uint32_t i = first; i < last; i++)
		need += INDENT + name_len[g->loc_nodes[i]] + sizeof(inl);
	if (b->len + need > limit)
		return PP_ELIMIT;
	if ((err = pp_grow(r->ctx, (void **)&b->text, &b->cap, b->len + need,
	                   1)) < 0)
		return err;
	for (uint32_t i = first; i < last; i++) {
		uint32_t n = g->loc_nodes[i];

		memset(b->text + b->len, ' ', INDENT);
		b->len += INDENT;
		memcpy(b->text + b->len, pp_report__node_name(r, n),
		       name_len[n]);
		b->len += name_len[n];
		if (i + 1 < last) {
			memcpy(b->text + b->len, inl, sizeof(inl) - 1);
			b->len += sizeof(inl) - 1;
		} else {
			b->text[b->len++] = '\n';
		}
	}
	b->at[l] = at + 1;
	b->size[l] = (uint32_t)(b->len - at);
	return 0;
}

/* A value and its text, pp_report__format's. */
struct formatted {
	int64_t value;
	bool used;
	struct pp_report__val text;
};

#define FORMAT_CACHE_BITS 8

/* The text of all blocks is kept under this; locations beyond it are
 * printed line by line. */
#ifndef BLOCKS_MAX
#define BLOCKS_MAX ((size_t)256 << 20)
#endif

/* Location l's lines without a block, the first with the value. */
static void print_location(struct pp_report *r, struct pp_report__out *o,
                           uint32_t l, const uint32_t *name_len, bool *first,
                           const struct pp_report__val *vs)
{
	static const char inl[] = " (inline)\n";
	const struct pp_graph *g = r->agg->graph;
	uint32_t a = g->loc_node_first[l], b = g->loc_node_first[l + 1];

	for (uint32_t i = a; i < b; i++) {
		uint32_t n = g->loc_nodes[i];

		if (*first)
			pp_report__out_val_right(o, vs, VALUE_COLS);
		else
			pp_report__out_right(o, "", 0, VALUE_COLS);
		pp_report__out_bytes(o, "   ", 3);
		pp_report__out_bytes(o, pp_report__node_name(r, n),
		                     name_len[n]);
		if (i + 1 < b)
			pp_report__out_bytes(o, inl, sizeof(inl) - 1);
		else
			pp_report__out_bytes(o, "\n", 1);
		*first = false;
	}
}

int pp_report__trace_graph(struct pp_report *r)
{
	struct pp_graph_opts go = {0};
	int err;

	go.sample_index = r->sample_index;
	go.granularity = r->opts.granularity;
	go.noinlines = r->opts.noinlines;
	go.columns = r->opts.showcolumns;
	go.edges = PP_EDGES_NONE;
	go.nodes_only = true; /* values come from the samples */
	if ((err = pp_report__graph(r, &go)) < 0)
		return err;
	return pp_report__num_units(r);
}

int pp_report_traces(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_report__lines labels = {0};
	struct pp_report__out *o = NULL;
	struct blocks b = {0};
	const struct pp_graph *g;
	uint32_t nt = p->nsample_types, *name_len = NULL;
	int64_t last = 0;
	bool have_last = false;
	struct pp_report__val last_vs;
	struct formatted *cache = NULL;
	int err;

	if ((err = pp_report__trace_graph(r)) < 0)
		return err;
	g = r->agg->graph;
	o = pp_malloc(r->ctx, sizeof(*o));
	name_len =
	        pp_malloc(r->ctx, ((size_t)g->nnodes + 1) * sizeof(*name_len));
	b.at = pp_calloc(r->ctx, (size_t)p->nlocations + 1, sizeof(*b.at));
	b.size = pp_malloc(r->ctx,
	                   ((size_t)p->nlocations + 1) * sizeof(*b.size));
	cache = pp_calloc(r->ctx, (size_t)1 << FORMAT_CACHE_BITS,
	                  sizeof(*cache));
	if (!o || !name_len || !b.at || !b.size || !cache) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	o->f = out;
	o->n = 0;
	o->failed = false;
	for (uint32_t n = 0; n < g->nnodes; n++)
		name_len[n] = (uint32_t)pp_report__node_len(r, n);
	pp_report__print_profile_labels(r, out);
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = p->values + (size_t)s * nt;
		int64_t value = v[r->sample_index];
		bool first = true;

		if ((s & 0x3ff) == 0 && pp_interrupted(r->ctx)) {
			err = pp_error_interrupted(r->ctx);
			goto done;
		}
		/* A stack of locations without lines is still one node per
		 * location; only a sample with no location is skipped. */
		if (smp->loc_count == 0)
			continue;
		pp_report__out_str(o, SEPARATOR "\n");
		if (pp_sample_label_range(p, s).count) {
			if ((err = pp_report__label_lines(r, s, false,
			                                  PP_LABELS_TRACES,
			                                  &labels)) < 0)
				goto done;
			print_lines(o, &labels);
			if ((err = pp_report__label_lines(r, s, true,
			                                  PP_LABELS_TRACES,
			                                  &labels)) < 0)
				goto done;
			print_lines(o, &labels);
		}
		if (r->opts.mean && v[0] != 0)
			value /= v[0];
		/* Samples repeat a few values (ticks, events): each is
		 * formatted once into a small cache. */
		if (!have_last || value != last) {
			struct formatted *f = &cache[((uint64_t)value *
			                              0x9E3779B97F4A7C15ull) >>
			                             (64 - FORMAT_CACHE_BITS)];

			if (!f->used || f->value != value) {
				pp_report__format(r, value, &f->text);
				f->value = value;
				f->used = true;
			}
			last_vs = f->text;
			last = value;
			have_last = true;
		}
		for (uint32_t k = 0; k < smp->loc_count; k++) {
			uint32_t l = pp_sample_loc(p, smp, k);
			const char *text;
			uint32_t size;

			if (!b.at[l] && (err = block_for(r, &b, l, name_len,
			                                 BLOCKS_MAX)) < 0) {
				if (err != PP_ELIMIT)
					goto done;
				err = 0;
				print_location(r, o, l, name_len, &first,
				               &last_vs);
				continue;
			}
			text = b.text + b.at[l] - 1;
			size = b.size[l];
			if (size == 0) /* a location with no node */
				continue;
			if (first) {
				/* "%10s" of the value, then the rest. */
				pp_report__out_val_right(o, &last_vs,
				                         VALUE_COLS);
				text += VALUE_COLS;
				size -= VALUE_COLS;
				first = false;
			}
			pp_report__out_bytes(o, text, size);
		}
	}
	pp_report__out_str(o, SEPARATOR "\n");
	pp_report__out_flush(o);
	if (o->failed)
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_report__lines_release(r, &labels);
	pp_free(r->ctx, cache);
	pp_free(r->ctx, b.text);
	pp_free(r->ctx, b.at);
	pp_free(r->ctx, b.size);
	pp_free(r->ctx, name_len);
	pp_free(r->ctx, o);
	return err;
}
