/* The aggregate: a profile's graph at one granularity with its saved
 * values, its view and its flame trees, each built on first use. */
#include <string.h>

#include "pprof/aggregate.h"

int pp_aggregate_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                     struct pp_aggregate **out)
{
	*out = pp_calloc(ctx, 1, sizeof(**out));
	if (!*out)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	(*out)->ctx = ctx;
	(*out)->prof = prof;
	return 0;
}

void pp_aggregate_free(struct pp_aggregate *a)
{
	if (!a)
		return;
	pp_graph_free(a->graph);
	pp_free(a->ctx, a->graph_values);
	pp_tree_free(a->tree);
	pp_tree_free(a->cut);
	pp_view_release(&a->view);
	pp_free(a->ctx, a);
}

/* Would a graph built with a hold the values of one built with b? Which
 * edges each records does not matter: restoring forgets them. */
static bool same_values(const struct pp_graph_opts *a,
                        const struct pp_graph_opts *b)
{
	return a->sample_index == b->sample_index && a->mean == b->mean &&
	       a->granularity == b->granularity &&
	       a->noinlines == b->noinlines && a->columns == b->columns &&
	       a->call_tree == b->call_tree && a->obj_names == b->obj_names &&
	       a->drop_negative == b->drop_negative && !a->nodes_only &&
	       !b->nodes_only;
}

int pp_aggregate_graph(struct pp_aggregate *a, const struct pp_graph_opts *go)
{
	int err;

	pp_view_invalidate(&a->view);
	if (a->graph && a->graph_values && same_values(&a->graph_opts, go)) {
		/* The same aggregate: its node table and names stand. */
		pp_graph_restore_values(a->graph, a->graph_values);
		a->graph->opts.edges = go->edges;
		pp_view_reset(&a->view);
		return 0;
	}
	pp_graph_free(a->graph);
	a->graph = NULL;
	a->view.graph = NULL;
	pp_free(a->ctx, a->graph_values);
	a->graph_values = NULL;
	a->builds++;
	if ((err = pp_graph_new(a->ctx, a->prof, go, &a->graph)) < 0)
		return err;
	/* A call tree's edges are its shape: saved values, which forget
	 * edges, cannot stand for it; it is built again when asked for. */
	if (!go->nodes_only && !go->call_tree) {
		a->graph_opts = *go;
		if ((err = pp_graph_save_values(a->graph, &a->graph_values)) <
		    0)
			return err;
	}
	return pp_view_set_graph(&a->view, a->ctx, a->graph);
}

int pp_aggregate_tree(struct pp_aggregate *a, const struct pp_graph_opts *go,
                      const struct pp_tree **out)
{
	int err;

	if (!a->tree) {
		a->builds++;
		if ((err = pp_tree_new(a->ctx, a->prof, go, &a->tree)) < 0)
			return err;
	}
	*out = a->tree;
	return 0;
}

int pp_aggregate_cut(struct pp_aggregate *a, const struct pp_graph_opts *go,
                     double min_share)
{
	struct pp_tree *t;
	int err;

	if (a->tree || a->cut || !(min_share > 0))
		return 0;
	a->builds++;
	if ((err = pp_tree_new_cut(a->ctx, a->prof, go, min_share, &t)) < 0)
		return err;
	/* Nothing left out: it is the whole tree. */
	if (!t->cut) {
		a->tree = t;
		return 0;
	}
	a->cut = t;
	a->cut_share = min_share;
	return 0;
}

int pp_aggregate_select_tree(struct pp_aggregate *a, struct pp_aggregate *whole,
                             const struct pp_graph_opts *go,
                             const unsigned char *marks,
                             const unsigned char *line_marks, bool show_from)
{
	const struct pp_tree *t;
	int err;

	if (a->tree || whole->prof != a->prof)
		return PP_EUNSUPPORTED;
	if ((err = pp_aggregate_tree(whole, go, &t)) < 0)
		return err;
	if (line_marks)
		return pp_tree_refine(a->ctx, t, marks, line_marks, show_from,
		                      &a->tree);
	return pp_tree_select(a->ctx, t, marks, &a->tree);
}
