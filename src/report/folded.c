/* The collapsed ("folded") stack format: one "root;...;leaf value" line per
 * distinct stack, as flamegraph.pl, inferno and speedscope read it. */
#include <string.h>

#include "report/internal.h"

/* Append name to the path at *len, with the separators of the format made
 * harmless: ';' splits frames and a newline ends the record. */
static int append_frame(struct pp_report *r, char **buf, size_t *cap, size_t at,
                        const char *name, size_t *len)
{
	size_t n = strlen(name);
	int err;

	if ((err = pp_grow(r->ctx, (void **)buf, cap, at + n + 2, 1)) < 0)
		return err;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		(*buf)[at + i] = c == ';' ? ':' : (c == '\n' ? ' ' : c);
	}
	*len = at + n;
	return 0;
}

int pp_report_folded(struct pp_report *r, FILE *out)
{
	const struct pp_tree *t;
	const struct pp_tree_node *nodes;
	size_t *end = NULL, cap = 0;
	char *path = NULL;
	uint32_t n;
	int err;

	if ((err = pp_report__tree(r, &t)) < 0)
		return err;
	nodes = t->nodes;
	end = pp_calloc(r->ctx, (size_t)t->max_depth + 1, sizeof(*end));
	if (!end)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	/* Depth-first, iteratively: the path text up to depth d ends at
	 * end[d], so a node only rewrites its own tail. */
	n = nodes[0].first_child;
	while (n != PP_NONE) {
		uint32_t d = nodes[n].depth;
		size_t at = d == 1 ? 0 : end[d - 1] + 1;

		if (d > 1)
			path[end[d - 1]] = ';';
		if ((err = append_frame(r, &path, &cap, at, pp_tree_name(t, n),
		                        &end[d])) < 0)
			goto done;
		if (nodes[n].self != 0) {
			fwrite(path, 1, end[d], out);
			fprintf(out, " %lld\n", (long long)nodes[n].self);
		}
		if (nodes[n].first_child != PP_NONE) {
			n = nodes[n].first_child;
			continue;
		}
		while (n != 0 && nodes[n].next_sibling == PP_NONE)
			n = nodes[n].parent;
		n = n == 0 ? PP_NONE : nodes[n].next_sibling;
	}
	if (ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_free(r->ctx, end);
	pp_free(r->ctx, path);
	return err;
}
