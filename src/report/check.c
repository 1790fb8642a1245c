/*
 * check: a gate for CI. Two profiles of the same program, before and after,
 * and rules on the share of the total that matching functions take; the
 * rows that break a rule are printed, and the caller fails the build.
 *
 * Shares are cum shares (the share a function is "in", as people read a top
 * table) and flat shares are printed beside them. Both profiles are read at
 * function granularity with no trimming, so a function too small to show
 * in top is still checked.
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/regex.h"

struct shares {
	struct pp_report *r;
	int64_t total;
};

static int open_side(struct pp_ctx *ctx, const struct pp_profile *p,
                     const struct pp_report_opts *base, struct shares *out)
{
	struct pp_report_opts o = *base;
	int err;

	o.granularity = PP_GRAN_FUNCTIONS;
	o.notrim = true;
	o.total_profile = NULL;
	if ((err = pp_report_new(ctx, p, &o, &out->r)) < 0 ||
	    (err = pp_report__trimmed_graph(out->r, false)) < 0)
		return err;
	out->total = out->r->total;
	return 0;
}

static double share(int64_t v, int64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0;
}

/* The node of side s named name, or PP_NONE. */
static uint32_t find_node(const struct shares *s, const char *name, size_t len)
{
	const struct pp_report *r = s->r;

	for (uint32_t i = 0; i < r->agg->view.norder; i++)
		if (pp_bytes_eq(pp_report__node_name(r, r->agg->view.order[i]),
		                pp_report__node_len(r, r->agg->view.order[i]),
		                name, len))
			return r->agg->view.order[i];
	return PP_NONE;
}

int pp_report_check(struct pp_ctx *ctx, const struct pp_profile *before,
                    const struct pp_profile *after,
                    const struct pp_report_opts *opts,
                    const struct pp_check_rule *rules, size_t nrules, FILE *out,
                    size_t *nbroken)
{
	struct shares old = {0}, now = {0};
	struct pp_regex *re = NULL;
	int err;

	*nbroken = 0;
	if ((err = open_side(ctx, before, opts, &old)) < 0 ||
	    (err = open_side(ctx, after, opts, &now)) < 0)
		goto done;
	fprintf(out, "%-11s %-10s %8s %8s %8s %8s  %s\n", "rule", "limit",
	        "old flat", "old cum", "new flat", "new cum", "function");
	for (size_t k = 0; k < nrules; k++) {
		const struct pp_check_rule *rule = &rules[k];
		const struct pp_report *r = now.r;

		if ((err = pp_regex_compile(
		             ctx, rule->growth ? "-max_growth" : "-max_share",
		             rule->regex, &re)) < 0)
			goto done;
		for (uint32_t i = 0; i < r->agg->view.norder; i++) {
			const struct pp_node *n =
			        &r->agg->graph->nodes[r->agg->view.order[i]];
			const char *name =
			        pp_report__node_name(r, r->agg->view.order[i]);
			size_t len =
			        pp_report__node_len(r, r->agg->view.order[i]);
			double cum = share(pp_node_cum(n), now.total);
			double flat = share(pp_node_flat(n), now.total);
			double ocum = 0, oflat = 0, measured;
			uint32_t o;

			/* A match is looked up by name in the old side. */
			if ((err = pp_interrupt_poll(ctx, i)) < 0)
				goto done;
			if (!pp_regex_match(re, name, len))
				continue;
			o = find_node(&old, name, len);
			if (o != PP_NONE) {
				const struct pp_node *on =
				        &old.r->agg->graph->nodes[o];

				ocum = share(pp_node_cum(on), old.total);
				oflat = share(pp_node_flat(on), old.total);
			}
			measured = rule->growth ? cum - ocum : cum;
			if (measured <= rule->limit)
				continue;
			(*nbroken)++;
			fprintf(out,
			        "%-11s %-10.2f %7.2f%% %7.2f%% %7.2f%% %7.2f%% "
			        " ",
			        rule->growth ? "max_growth" : "max_share",
			        rule->limit, oflat, ocum, flat, cum);
			fwrite(name, 1, len, out);
			fputc('\n', out);
		}
		pp_regex_free(re);
		re = NULL;
	}
	fprintf(out, "%zu rule%s, %zu broken\n", nrules, nrules == 1 ? "" : "s",
	        *nbroken);
done:
	pp_regex_free(re);
	pp_report_free(old.r);
	pp_report_free(now.r);
	return err;
}
