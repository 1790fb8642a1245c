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
	g = r->agg->graph;
	pp_report__print_labels(r, out);
	fprintf(out, "%10s %5s%% %5s%% %10s %5s%%\n", "flat", "flat", "sum",
	        "cum", "cum");
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n = &g->nodes[r->agg->view.order[i]];
		int64_t flat = pp_node_flat(n), cum = pp_node_cum(n);
		struct pp_report__val fs, cs;
		char fp[32], sp[32], cp[32];
		const char *inl = "";

		if (n->in_inline)
			inl = n->in_call ? " (partial-inline)" : " (inline)";
		flat_sum += flat;
		pp_report__format(r, flat, &fs);
		pp_report__format(r, cum, &cs);

		pp_percentage(flat, r->total, fp, sizeof(fp));
		pp_percentage(flat_sum, r->total, sp, sizeof(sp));
		pp_percentage(cum, r->total, cp, sizeof(cp));
		pp_report__put_val_padded(out, &fs, 10);
		fprintf(out, " %s %s ", fp, sp);
		pp_report__put_val_padded(out, &cs, 10);
		fprintf(out, " %s  ", cp);
		pp_report__put_node_name(r, r->agg->view.order[i], out);
		fprintf(out, "%s\n", inl);
	}
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}
