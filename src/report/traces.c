/* The `traces` report: every sample's stack, value and labels, as pprof's
 * printTraces lays them out. */
#include "report/internal.h"

#define SEPARATOR \
	"-----------+-------------------------------------------------------"

static void print_lines(FILE *out, const struct pp_report__lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(out, "%s\n", l->v[i]);
}

int pp_report_traces(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_graph_opts go = {0};
	struct pp_report__lines labels = {0};
	const struct pp_graph *g;
	uint32_t nt = p->nsample_types;
	int err;

	go.sample_index = r->sample_index;
	go.granularity = r->opts.granularity;
	go.noinlines = r->opts.noinlines;
	go.edges = PP_EDGES_NONE;
	if ((err = pp_report__graph(r, &go)) < 0 ||
	    (err = pp_report__num_units(r)) < 0)
		return err;
	g = r->graph;
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
		fprintf(out, "%s\n", SEPARATOR);
		if ((err = pp_report__label_lines(r, s, false, PP_LABELS_TRACES,
		                                  &labels)) < 0)
			goto done;
		print_lines(out, &labels);
		if ((err = pp_report__label_lines(r, s, true, PP_LABELS_TRACES,
		                                  &labels)) < 0)
			goto done;
		print_lines(out, &labels);
		if (r->opts.mean && v[0] != 0)
			value /= v[0];
		pp_report__format(r, value, vs, sizeof(vs));
		for (uint32_t k = 0; k < smp->loc_count; k++) {
			uint32_t l = p->sample_locs[smp->loc_first + k];
			uint32_t a = g->loc_node_first[l],
			         b = g->loc_node_first[l + 1];

			for (uint32_t i = a; i < b; i++) {
				fprintf(out, "%10s   %s%s\n", first ? vs : "",
				        pp_report__node_name(r,
				                             g->loc_nodes[i]),
				        i + 1 < b ? " (inline)" : "");
				first = false;
			}
		}
	}
	fprintf(out, "%s\n", SEPARATOR);
done:
	pp_report__lines_release(r, &labels);
	return err;
}
