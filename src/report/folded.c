/* The collapsed ("folded") stack format: one "root;...;leaf value" line per
 * distinct stack, as flamegraph.pl, inferno and speedscope read it.
 *
 * The output of a big profile is large (a line of some kilobytes per
 * distinct stack), so it is written from one path buffer that each node
 * only rewrites from its own frame on, through the report's write buffer. */
#include <string.h>

#include "report/internal.h"

int pp_report_folded(struct pp_report *r, FILE *out)
{
	const struct pp_tree *t;
	const struct pp_tree_node *nodes;
	struct pp_report__out *o = NULL;
	uint32_t nframes, *len = NULL;
	size_t *end = NULL, cap = 0;
	char *names = NULL, *path = NULL;
	int err;

	if ((err = pp_report__tree(r, &t)) < 0)
		return err;
	nodes = t->nodes;
	nframes = t->graph->nnodes;
	o = pp_malloc(r->ctx, sizeof(*o));
	end = pp_calloc(r->ctx, (size_t)t->max_depth + 1, sizeof(*end));
	len = pp_malloc(r->ctx, ((size_t)nframes + 1) * sizeof(*len));
	names = pp_malloc(r->ctx, t->names_size + 1);
	if (!o || !end || !len || !names) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Each frame's name once, with the separators of the format made
	 * harmless: ';' splits frames and a newline ends the record. */
	for (uint32_t f = 0; f < nframes; f++) {
		const char *s = t->names + t->name_off[f];
		char *d = names + t->name_off[f];
		size_t n = pp_tree_frame_len(t, f);

		for (size_t i = 0; i < n; i++)
			d[i] = s[i] == ';' ? ':' : (s[i] == '\n' ? ' ' : s[i]);
		len[f] = (uint32_t)n;
	}
	o->f = out;
	o->n = 0;
	o->failed = false;
	/* The nodes are in depth-first order: the path text up to depth d
	 * ends at end[d], so a node writes only its own tail. */
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t d = nodes[i].depth, f = nodes[i].frame;
		size_t at = d == 1 ? 0 : end[d - 1] + 1;

		if ((err = pp_interrupt_poll(r->ctx, i)) < 0 ||
		    (err = pp_grow(r->ctx, (void **)&path, &cap,
		                   at + len[f] + 1, 1)) < 0)
			goto done;
		if (d > 1)
			path[at - 1] = ';';
		memcpy(path + at, names + t->name_off[f], len[f]);
		end[d] = at + len[f];
		if (nodes[i].self != 0) {
			pp_report__out_bytes(o, path, end[d]);
			pp_report__out_bytes(o, " ", 1);
			pp_report__out_int(o, nodes[i].self, 0);
			pp_report__out_bytes(o, "\n", 1);
		}
	}
	pp_report__out_flush(o);
	if (o->failed || ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_free(r->ctx, o);
	pp_free(r->ctx, end);
	pp_free(r->ctx, len);
	pp_free(r->ctx, names);
	pp_free(r->ctx, path);
	return err;
}
