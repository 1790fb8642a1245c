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
		pp_report__out_str(o, l->v[i]);
		pp_report__out_bytes(o, "\n", 1);
	}
}

int pp_report_traces(struct pp_report *r, FILE *out)
{
	static const char inl[] = " (inline)\n";
	const struct pp_profile *p = r->prof;
	struct pp_graph_opts go = {0};
	struct pp_report__lines labels = {0};
	struct pp_report__out *o = NULL;
	const struct pp_graph *g;
	uint32_t nt = p->nsample_types, *name_len = NULL;
	int64_t last = 0;
	bool have_last = false;
	char last_vs[64];
	int err;

	go.sample_index = r->sample_index;
	go.granularity = r->opts.granularity;
	go.noinlines = r->opts.noinlines;
	go.edges = PP_EDGES_NONE;
	if ((err = pp_report__graph(r, &go)) < 0 ||
	    (err = pp_report__num_units(r)) < 0)
		return err;
	g = r->graph;
	o = pp_malloc(r->ctx, sizeof(*o));
	name_len =
	        pp_malloc(r->ctx, ((size_t)g->nnodes + 1) * sizeof(*name_len));
	if (!o || !name_len) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	o->f = out;
	o->n = 0;
	o->failed = false;
	for (uint32_t n = 0; n < g->nnodes; n++)
		name_len[n] = (uint32_t)strlen(pp_report__node_name(r, n));
	pp_report__print_profile_labels(r, out);
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = p->values + (size_t)s * nt;
		int64_t value = v[r->sample_index];
		bool first = true;
		char vs[64];

		/* A stack of locations without lines is still one node per
		 * location; only a sample with no location is skipped. */
		if (smp->loc_count == 0)
			continue;
		pp_report__out_str(o, SEPARATOR "\n");
		if (smp->label_count) {
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
		/* Most samples repeat the last value (one tick, one event). */
		if (!have_last || value != last) {
			pp_report__format(r, value, last_vs, sizeof(last_vs));
			last = value;
			have_last = true;
		}
		memcpy(vs, last_vs, sizeof(vs));
		for (uint32_t k = 0; k < smp->loc_count; k++) {
			uint32_t l = p->sample_locs[smp->loc_first + k];
			uint32_t a = g->loc_node_first[l],
			         b = g->loc_node_first[l + 1];

			for (uint32_t i = a; i < b; i++) {
				uint32_t n = g->loc_nodes[i];

				pp_report__out_right(o, first ? vs : "",
				                     first ? strlen(vs) : 0,
				                     10);
				pp_report__out_bytes(o, "   ", 3);
				pp_report__out_bytes(o,
				                     pp_report__node_name(r, n),
				                     name_len[n]);
				if (i + 1 < b)
					pp_report__out_bytes(o, inl,
					                     sizeof(inl) - 1);
				else
					pp_report__out_bytes(o, "\n", 1);
				first = false;
			}
		}
	}
	pp_report__out_str(o, SEPARATOR "\n");
	pp_report__out_flush(o);
	if (o->failed)
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_report__lines_release(r, &labels);
	pp_free(r->ctx, name_len);
	pp_free(r->ctx, o);
	return err;
}
