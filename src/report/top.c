/* The `top` report: pprof's flat/cum text table. */
#include "pprof/format.h"
#include "report/internal.h"

int pp_report_top(struct pp_report *r, FILE *out)
{
	const struct pp_graph *g;
	int64_t flat_sum = 0;
	int err;

	if ((err = pp_report__trimmed_graph(r, false)) < 0)
		return err;
	g = r->graph;
	pp_report__print_labels(r, out);
	fprintf(out, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum",
	        "cum", "cum");
	for (uint32_t i = 0; i < r->view.norder; i++) {
		const struct pp_node *n = &g->nodes[r->view.order[i]];
		int64_t flat = pp_node_flat(n), cum = pp_node_cum(n);
		char fs[64], cs[64], fp[32], sp[32], cp[32];
		const char *inl = "";

		if (n->in_inline)
			inl = n->in_call ? " (partial-inline)" : " (inline)";
		flat_sum += flat;
		size_t fl = pp_report__format(r, flat, fs, sizeof(fs));
		size_t cl = pp_report__format(r, cum, cs, sizeof(cs));

		pp_percentage(flat, r->total, fp, sizeof(fp));
		pp_percentage(flat_sum, r->total, sp, sizeof(sp));
		pp_percentage(cum, r->total, cp, sizeof(cp));
		pp_report__put_padded(out, fs, fl, 10);
		fprintf(out, " %s %s ", fp, sp);
		pp_report__put_padded(out, cs, cl, 10);
		fprintf(out, " %s  ", cp);
		pp_report__put_node_name(r, r->view.order[i], out);
		fprintf(out, "%s\n", inl);
	}
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}
