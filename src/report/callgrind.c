/* The callgrind format (`callgrind`, `kcachegrind`), as pprof writes it:
 * the untrimmed graph at address granularity with binary names, one cost
 * line per node in report order and one call record per out-edge.
 *
 * pprof's quirks are kept, since kcachegrind and callgrind_annotate read
 * them and the goldens pin them: a call's address is relative to the
 * previous node's address (not its caller's), edge costs are the edges'
 * raw weights (node costs divide by -mean's count), and -divide_by only
 * chooses the unit. */
#include <inttypes.h>
#include <stdlib.h>

#include "pprof/format.h"
#include "pprof/srcfile.h"
#include "report/internal.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/strbuf.h"

/* callgrind's name compression: "(N) name" the first time a name is
 * written, "(N)" after; "" for no name. Names are told apart by their text,
 * as pprof's maps are (N is the name's index in the table, which holds ""
 * at 0). */
static int put_name(struct pp_ctx *ctx, FILE *out, const char *tag,
                    struct pp_strtab *t, const char *text, size_t len)
{
	uint32_t before = pp_strtab_count(t);
	pp_str id;

	fputs(tag, out);
	if (!len) {
		fputc('\n', out);
		return 0;
	}
	/* The whole name, NUL bytes and all: names that differ after a NUL
	 * are two names. */
	if ((id = pp_strtab_intern(t, text, len)) == PP_NONE)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (pp_strtab_count(t) == before) {
		fprintf(out, "(%" PRIu32 ")\n", id);
	} else {
		fprintf(out, "(%" PRIu32 ") ", id);
		fwrite(text, 1, len, out);
		fputc('\n', out);
	}
	return 0;
}

static int put_str(struct pp_ctx *ctx, FILE *out, const char *tag,
                   struct pp_strtab *t, const struct pp_profile *p, pp_str s)
{
	size_t n;
	const char *text = pp_profile_strn(p, s, &n);

	return put_name(ctx, out, tag, t, text, n);
}

/* A position: absolute ("0x4010a0"), "*" for the previous one, or
 * "+12"/"-3" relative to it when that is shorter. */
static void put_address(FILE *out, const struct pp_node *prev, uint64_t addr)
{
	char abs[32], rel[32];

	snprintf(abs, sizeof(abs), "%#" PRIx64, addr);
	if (addr == 0)
		snprintf(abs, sizeof(abs), "0x0");
	if (!prev) {
		fputs(abs, out);
		return;
	}
	if (prev->info.address == addr) {
		fputc('*', out);
		return;
	}
	snprintf(rel, sizeof(rel), "%+" PRId64,
	         (int64_t)(addr - prev->info.address));
	fputs(strlen(rel) < strlen(abs) ? rel : abs, out);
}

struct cg {
	struct pp_report *r;
	const char **file;    /* per node: its file, path trimmed */
	size_t *file_len;     /* per node: its length (NUL bytes too) */
	uint32_t *fn_index;   /* per node: 1-based index among its namesakes */
	uint32_t *fn_count;   /* per node: how many namesakes; 1: none */
	uint32_t *edge_first; /* out-edges of node n: edge_ord[first[n]..] */
	uint32_t *edge_ord;
	struct pp_strtab *obs, *fls, *fns;
};

/* A node as its namesakes are found: same file and name. */
struct namesake {
	pp_str name, objfile;
	const char *file;
	size_t file_len;
	int64_t start_line;
	/* A call tree's node is of its parent's function table, as pprof's
	 * per-parent node maps: the parent node (PP_NONE for roots), else
	 * PP_NONE for all. */
	uint32_t parent;
	uint32_t pos; /* in report order */
};

static int cmp_namesake(const void *pa, const void *pb)
{
	const struct namesake *a = pa, *b = pb;
	int c;

	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	if ((c = pp_bytes_cmp(a->file, a->file_len, b->file, b->file_len)) != 0)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/* pprof's getDisambiguatedNames: nodes of one file and name but of
 * different functions (another binary, another start line) are told apart
 * as "name [i/n]", i in the order the functions first appear in the
 * report. Sorted into groups of namesakes, so linear in the nodes but for
 * the sort and the (few) functions of each group. */
static int disambiguate(struct cg *c)
{
	struct pp_report *r = c->r;
	const struct pp_graph *g = r->agg->graph;
	struct namesake *v;
	uint32_t *rep;

	v = pp_malloc(r->ctx, ((size_t)r->agg->view.norder + 1) * sizeof(*v));
	rep = pp_malloc(r->ctx,
	                ((size_t)r->agg->view.norder + 1) * sizeof(*rep));
	if (!v || !rep) {
		pp_free(r->ctx, v);
		pp_free(r->ctx, rep);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n = &g->nodes[r->agg->view.order[i]];

		v[i].name = n->info.name;
		v[i].objfile = n->info.objfile;
		v[i].file = c->file[r->agg->view.order[i]];
		v[i].file_len = c->file_len[r->agg->view.order[i]];
		v[i].start_line = n->info.start_line;
		v[i].parent = g->tree_parent
		                      ? g->tree_parent[r->agg->view.order[i]]
		                      : PP_NONE;
		v[i].pos = i;
	}
	qsort(v, r->agg->view.norder, sizeof(*v), cmp_namesake);
	for (uint32_t i = 0, j; i < r->agg->view.norder; i = j) {
		uint32_t nfn = 0;

		for (j = i; j < r->agg->view.norder && v[j].name == v[i].name &&
		            pp_bytes_eq(v[j].file, v[j].file_len, v[i].file,
		                        v[i].file_len);
		     j++) {
			uint32_t k, fn = 0;

			/* The function's first node, among the first
			 * nodes of the functions seen (rep[0..nfn)). */
			for (k = 0; k < nfn; k++)
				if (v[rep[k]].objfile == v[j].objfile &&
				    v[rep[k]].start_line == v[j].start_line &&
				    v[rep[k]].parent == v[j].parent)
					break;
			if (k == nfn)
				rep[nfn++] = j;
			fn = k + 1;
			c->fn_index[r->agg->view.order[v[j].pos]] = fn;
		}
		for (uint32_t k = i; k < j; k++)
			c->fn_count[r->agg->view.order[v[k].pos]] = nfn;
	}
	pp_free(r->ctx, v);
	pp_free(r->ctx, rep);
	return 0;
}

/* Out-edges grouped by source, each group in pprof's edge order. */
static int index_edges(struct cg *c)
{
	struct pp_report *r = c->r;
	const struct pp_graph *g = r->agg->graph;
	uint32_t *fill;

	c->edge_first =
	        pp_calloc(r->ctx, (size_t)g->nnodes + 1, sizeof(uint32_t));
	c->edge_ord =
	        pp_malloc(r->ctx, ((size_t)g->nedges + 1) * sizeof(uint32_t));
	fill = pp_calloc(r->ctx, (size_t)g->nnodes + 1, sizeof(uint32_t));
	if (!c->edge_first || !c->edge_ord || !fill) {
		pp_free(r->ctx, fill);
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	}
	for (uint32_t e = 0; e < g->nedges; e++)
		c->edge_first[g->edges[e].src + 1]++;
	for (uint32_t n = 0; n < g->nnodes; n++)
		c->edge_first[n + 1] += c->edge_first[n];
	for (uint32_t e = 0; e < g->nedges; e++) {
		uint32_t s = g->edges[e].src;

		c->edge_ord[c->edge_first[s] + fill[s]++] = e;
	}
	pp_free(r->ctx, fill);
	/* Groups are small: insertion sort. */
	for (uint32_t n = 0; n < g->nnodes; n++) {
		uint32_t *v = c->edge_ord + c->edge_first[n];
		uint32_t len = c->edge_first[n + 1] - c->edge_first[n];

		for (uint32_t i = 1; i < len; i++) {
			uint32_t x = v[i], j;

			for (j = i; j > 0 && pp_view_edge_cmp(&r->agg->view,
			                                      v[j - 1], x) > 0;
			     j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	}
	return 0;
}

static int64_t scaled(const struct pp_report *r, int64_t v)
{
	const char *unit;
	size_t n;

	return pp_go_int64(pp_scale_n(v, r->sample_unit, r->sample_unit_len,
	                              r->output_unit, r->output_unit_len, &unit,
	                              &n));
}

static int print_node(struct cg *c, uint32_t n, const struct pp_node *prev,
                      FILE *out)
{
	struct pp_report *r = c->r;
	const struct pp_graph *g = r->agg->graph;
	const struct pp_profile *p = r->prof;
	const struct pp_node *node = &g->nodes[n];
	struct pp_strbuf named; /* a shared name with its [i/n] */
	int err = 0;

	if (!prev || node->info.objfile != prev->info.objfile ||
	    node->info.name != prev->info.name ||
	    !pp_bytes_eq(c->file[n], c->file_len[n], c->file[prev - g->nodes],
	                 c->file_len[prev - g->nodes])) {
		fputc('\n', out);
		if ((err = put_str(r->ctx, out, "ob=", c->obs, p,
		                   node->info.objfile)) < 0 ||
		    (err = put_name(r->ctx, out, "fl=", c->fls, c->file[n],
		                    c->file_len[n])) < 0 ||
		    (err = put_str(r->ctx, out, "fn=", c->fns, p,
		                   node->info.name)) < 0)
			return err;
	}
	put_address(out, prev, node->info.address);
	fprintf(out, " %" PRId64 " %" PRId64 "\n", node->info.lineno,
	        scaled(r, pp_node_flat(node)));
	pp_strbuf_init(&named, r->ctx);
	for (uint32_t i = c->edge_first[n]; i < c->edge_first[n + 1]; i++) {
		const struct pp_edge *e = &g->edges[c->edge_ord[i]];
		size_t len;
		const char *name =
		        pp_profile_strn(p, g->nodes[e->dst].info.name, &len);

		/* An edge into a node with no value (a -diff_base that
		 * cancels out) names no function, as pprof's lookup of a
		 * node outside its graph gives "". */
		if (!c->fn_index[e->dst]) {
			len = 0;
		} else if (c->fn_count[e->dst] > 1) {
			pp_strbuf_reset(&named);
			pp_strbuf_add(&named, name, len);
			if ((err = pp_strbuf_addf(&named,
			                          " [%" PRIu32 "/%" PRIu32 "]",
			                          c->fn_index[e->dst],
			                          c->fn_count[e->dst])) < 0)
				break;
			name = named.s;
			len = named.len;
		}
		if ((err = put_name(r->ctx, out, "cfl=", c->fls,
		                    c->file[e->dst], c->file_len[e->dst])) <
		            0 ||
		    (err = put_name(r->ctx, out, "cfn=", c->fns, name, len)) <
		            0)
			break;
		fputs("calls=0 ", out);
		put_address(out, prev, g->nodes[e->dst].info.address);
		fprintf(out, " %" PRId64 "\n", g->nodes[e->dst].info.lineno);
		fprintf(out, "* * %" PRId64 "\n", scaled(r, e->weight));
	}
	pp_strbuf_release(&named);
	return err;
}

int pp_report_callgrind(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_graph_opts go;
	struct cg c;
	int err;

	memset(&c, 0, sizeof(c));
	c.r = r;
	pp_report__graph_opts(r, PP_EDGES_NONE, &go);
	go.granularity = PP_GRAN_ADDRESSES;
	go.obj_names = true;
	/* -call_tree: pprof's callgrind honours it; a tree comes with its
	 * edges and is never re-accumulated. */
	go.call_tree = r->opts.call_tree;
	if ((err = pp_report__graph(r, &go)) < 0 ||
	    (err = pp_report__select_order(r)) < 0)
		return err;
	for (uint32_t n = 0; n < r->agg->graph->nnodes; n++)
		r->agg->view.kept[n] = true;
	if (!go.call_tree && (err = pp_graph_accumulate_kept(
	                              r->agg->graph, r->agg->view.kept)) < 0)
		return err;
	pp_report__choose_output_unit(r, true);

	c.file = pp_malloc(r->ctx, ((size_t)r->agg->graph->nnodes + 1) *
	                                   sizeof(*c.file));
	c.file_len = pp_malloc(r->ctx, ((size_t)r->agg->graph->nnodes + 1) *
	                                       sizeof(*c.file_len));
	c.fn_index = pp_calloc(r->ctx, (size_t)r->agg->graph->nnodes + 1,
	                       sizeof(uint32_t));
	c.fn_count = pp_calloc(r->ctx, (size_t)r->agg->graph->nnodes + 1,
	                       sizeof(uint32_t));
	c.obs = pp_strtab_new(r->ctx);
	c.fls = pp_strtab_new(r->ctx);
	c.fns = pp_strtab_new(r->ctx);
	if (!c.file || !c.file_len || !c.fn_index || !c.fn_count || !c.obs ||
	    !c.fls || !c.fns) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t n = 0; n < r->agg->graph->nnodes; n++) {
		size_t len;
		const char *f = pp_profile_strn(
		        p, r->agg->graph->nodes[n].info.file, &len);
		/* The trimmed prefix ends before any NUL byte. */
		size_t trim = pp_srcfile_trim_path(f, r->opts.trim_path,
		                                   r->opts.source_path);

		c.file[n] = f + trim;
		c.file_len[n] = len - trim;
	}
	if ((err = disambiguate(&c)) < 0 || (err = index_edges(&c)) < 0)
		goto done;

	fprintf(out, "positions: instr line\nevents: %s",
	        r->opts.mean ? "mean_" : "");
	/* The type whole, NUL bytes and all, as pprof prints it. */
	pp_report__put_str(r->prof, r->prof->sample_types[r->sample_index].type,
	                   out);
	fputc('(', out);
	fwrite(r->output_unit, 1, r->output_unit_len, out);
	fputs(")\n", out);
	for (uint32_t i = 0; i < r->agg->view.norder && err >= 0; i++)
		err = print_node(
		        &c, r->agg->view.order[i],
		        i ? &r->agg->graph->nodes[r->agg->view.order[i - 1]]
		          : NULL,
		        out);
	if (err >= 0 && ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	/* The graph's edges and unit are this report's own. */
	pp_view_invalidate(&r->agg->view);
	pp_free(r->ctx, c.file);
	pp_free(r->ctx, c.file_len);
	pp_free(r->ctx, c.fn_index);
	pp_free(r->ctx, c.fn_count);
	pp_free(r->ctx, c.edge_first);
	pp_free(r->ctx, c.edge_ord);
	pp_strtab_free(c.obs);
	pp_strtab_free(c.fls);
	pp_strtab_free(c.fns);
	return err;
}
