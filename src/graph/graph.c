/* Aggregation of samples into nodes and edges; see pprof/graph.h. */
#include <stdio.h>
#include <string.h>

#include "graph/internal.h"
#include "util/helper.h"
#include "util/path.h"

static const char *const gran_names[] = {
        [PP_GRAN_FUNCTIONS] = "functions",
        [PP_GRAN_FILEFUNCTIONS] = "filefunctions",
        [PP_GRAN_FILES] = "files",
        [PP_GRAN_LINES] = "lines",
        [PP_GRAN_ADDRESSES] = "addresses",
};

int pp_granularity_parse(const char *s, enum pp_granularity *out)
{
	for (size_t i = 0; i < sizeof(gran_names) / sizeof(gran_names[0]);
	     i++) {
		if (strcmp(s, gran_names[i]) == 0) {
			*out = (enum pp_granularity)i;
			return 0;
		}
	}
	return PP_EUSAGE;
}

const char *pp_granularity_name(enum pp_granularity g)
{
	return (unsigned)g < sizeof(gran_names) / sizeof(gran_names[0])
	               ? gran_names[g]
	               : "?";
}

/* ---- node table ---------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
	return h;
}

static uint64_t info_hash(const struct pp_node_info *i)
{
	uint64_t h = 0;

	h = mix(h, i->name);
	h = mix(h, i->file);
	h = mix(h, i->objfile);
	h = mix(h, i->address);
	h = mix(h, (uint64_t)i->start_line);
	h = mix(h, (uint64_t)i->lineno);
	h = mix(h, (uint64_t)i->column);
	return h * 0x9E3779B97F4A7C15ull;
}

static bool info_eq(const struct pp_node_info *a, const struct pp_node_info *b)
{
	return a->name == b->name && a->file == b->file &&
	       a->objfile == b->objfile && a->address == b->address &&
	       a->start_line == b->start_line && a->lineno == b->lineno &&
	       a->column == b->column;
}

static int find_or_add_node(struct pp_graph *g, const struct pp_node_info *info,
                            uint32_t *out)
{
	struct pp_hashmap *ix = &pp_graph__in(g)->node_index;
	uint32_t h = (uint32_t)(info_hash(info) >> 32), pos, n;
	int err;

	for (n = pp_hashmap_first(ix, h, &pos); n != PP_NONE;
	     n = pp_hashmap_next(ix, h, &pos)) {
		if (info_eq(&g->nodes[n].info, info)) {
			*out = n;
			return 0;
		}
	}
	if ((err = pp_grow(g->ctx, (void **)&g->nodes,
	                   &pp_graph__in(g)->cap_nodes, (size_t)g->nnodes + 1,
	                   sizeof(*g->nodes))) < 0 ||
	    (err = pp_hashmap_add(ix, h, &pos, g->nnodes)) < 0)
		return err;
	memset(&g->nodes[g->nnodes], 0, sizeof(g->nodes[g->nnodes]));
	g->nodes[g->nnodes].info = *info;
	*out = g->nnodes++;
	return 0;
}

/* The node info of one line of a location, after pprof's aggregation to the
 * granularity has cleared what the granularity does not keep. */
static void line_info(struct pp_graph *g, const struct pp_location *loc,
                      const struct pp_line *line, struct pp_node_info *ni)
{
	const struct pp_profile *p = g->prof;
	enum pp_granularity gran = g->opts.granularity;
	bool keep_fn = gran != PP_GRAN_FILES;
	bool keep_file = gran != PP_GRAN_FUNCTIONS;
	bool keep_line = gran == PP_GRAN_LINES || gran == PP_GRAN_ADDRESSES;
	bool keep_addr = gran == PP_GRAN_ADDRESSES;
	/* pprof's Aggregate leaves addresses with inlines untouched, columns
	 * and all; elsewhere they go unless -showcolumns. */
	bool keep_col = keep_line &&
	                (g->opts.columns || (keep_addr && !g->opts.noinlines));
	pp_str objfile =
	        loc->mapping != PP_NONE ? p->mappings[loc->mapping].file : 0;

	memset(ni, 0, sizeof(*ni));
	ni->address = keep_addr ? loc->address : 0;
	if (!line || line->function == PP_NONE) {
		ni->objfile = objfile;
		return;
	}
	{
		const struct pp_function *f = &p->functions[line->function];

		ni->lineno = keep_line ? line->line : 0;
		ni->column = keep_col ? line->column : 0;
		ni->name = keep_fn ? f->name : 0;
		ni->file = keep_file ? pp_path_clean_str(g->ctx, p->strings,
		                                         f->filename)
		                     : 0;
		if (g->opts.obj_names || ni->name == 0) {
			ni->objfile = objfile;
			ni->start_line = f->start_line;
		}
	}
}

static int build_nodes(struct pp_graph *g)
{
	const struct pp_profile *p = g->prof;
	size_t total = 0;
	uint32_t at = 0;
	int err;

	for (uint32_t l = 0; l < p->nlocations; l++) {
		uint32_t n = p->locations[l].line_count;

		total += n == 0 ? 1 : (g->opts.noinlines ? 1 : n);
	}
	g->loc_node_first = pp_malloc(g->ctx, ((size_t)p->nlocations + 1) *
	                                              sizeof(uint32_t));
	g->loc_nodes = pp_malloc(g->ctx, total * sizeof(uint32_t));
	if (!g->loc_node_first || !g->loc_nodes)
		return pp_error(g->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];
		const struct pp_line *lines = p->lines + loc->line_first;
		uint32_t count = loc->line_count, first = 0;
		struct pp_node_info ni;

		g->loc_node_first[l] = at;
		if (count == 0) {
			line_info(g, loc, NULL, &ni);
			if ((err = find_or_add_node(g, &ni,
			                            &g->loc_nodes[at])) < 0)
				return err;
			at++;
			continue;
		}
		if (g->opts.noinlines) {
			first = count - 1;
		}
		for (uint32_t i = first; i < count; i++) {
			line_info(g, loc, &lines[i], &ni);
			if ((err = find_or_add_node(g, &ni,
			                            &g->loc_nodes[at])) < 0)
				return err;
			/* Every line but the outermost is an inlined call. */
			if (i + 1 < count)
				g->nodes[g->loc_nodes[at]].maybe_inline = true;
			at++;
		}
	}
	g->loc_node_first[p->nlocations] = at;
	return 0;
}

/* ---- edges --------------------------------------------------------------- */

static int find_or_add_edge(struct pp_graph *g, uint32_t src, uint32_t dst,
                            uint32_t *out, bool *created)
{
	struct pp_hashmap *ix = &pp_graph__in(g)->edge_index;
	uint32_t h = pp_hash_pair(src, dst), pos, e;
	int err;

	*created = false;
	for (e = pp_hashmap_first(ix, h, &pos); e != PP_NONE;
	     e = pp_hashmap_next(ix, h, &pos)) {
		if (g->edges[e].src == src && g->edges[e].dst == dst) {
			*out = e;
			return 0;
		}
	}
	if ((err = pp_grow(g->ctx, (void **)&g->edges,
	                   &pp_graph__in(g)->cap_edges, (size_t)g->nedges + 1,
	                   sizeof(*g->edges))) < 0 ||
	    (err = pp_grow(g->ctx, (void **)&pp_graph__in(g)->stamp_edge,
	                   &pp_graph__in(g)->cap_stamp_edge,
	                   (size_t)g->nedges + 1,
	                   sizeof(*pp_graph__in(g)->stamp_edge))) < 0 ||
	    (err = pp_hashmap_add(ix, h, &pos, g->nedges)) < 0)
		return err;
	memset(&g->edges[g->nedges], 0, sizeof(g->edges[g->nedges]));
	g->edges[g->nedges].src = src;
	g->edges[g->nedges].dst = dst;
	g->edges[g->nedges].is_inline = true;
	pp_graph__in(g)->stamp_edge[g->nedges] = 0;
	*out = g->nedges++;
	*created = true;
	return 0;
}

/* Fold one contribution into edge ei. */
static void count_edge(struct pp_edge *e, int64_t w, int64_t dw, bool residual,
                       bool is_inline)
{
	e->weight += w;
	e->weight_div += dw;
	if (residual)
		e->residual = true;
	if (!is_inline)
		e->is_inline = false;
}

static int add_edge(struct pp_graph *g, uint32_t src, uint32_t dst, int64_t w,
                    int64_t dw, bool residual, bool is_inline)
{
	uint32_t ei;
	bool created;
	int err;

	if ((err = find_or_add_edge(g, src, dst, &ei, &created)) < 0)
		return err;
	/* Each caller/callee pair counts once per sample. */
	if (pp_graph__in(g)->stamp_edge[ei] == pp_graph__in(g)->stamp)
		return 0;
	pp_graph__in(g)->stamp_edge[ei] = pp_graph__in(g)->stamp;
	count_edge(&g->edges[ei], w, dw, residual, is_inline);
	return 0;
}

int pp_graph__merge_edge(struct pp_graph *g, uint32_t src, uint32_t dst,
                         int64_t w, int64_t dw, bool residual, bool is_inline)
{
	uint32_t ei;
	bool created;
	int err;

	if ((err = find_or_add_edge(g, src, dst, &ei, &created)) < 0)
		return err;
	count_edge(&g->edges[ei], w, dw, residual, is_inline);
	return 0;
}

/* ---- accumulation -------------------------------------------------------- */

static void next_stamp(struct pp_graph *g)
{
	if (++pp_graph__in(g)->stamp == UINT32_MAX) {
		memset(pp_graph__in(g)->stamp_node, 0,
		       (size_t)g->nnodes * sizeof(uint32_t));
		if (g->nedges)
			memset(pp_graph__in(g)->stamp_edge, 0,
			       (size_t)g->nedges * sizeof(uint32_t));
		pp_graph__in(g)->stamp = 1;
	}
}

/*
 * The common pass -- every node kept, no edges -- over compact arrays: at
 * tens of millions of frames, keeping the per-frame working set (stamps and
 * sums) small is what makes it fast. Frame order does not matter for cum,
 * so each stack is read front to back. Big profiles are split between two
 * threads, each summing its half of the samples into its own arrays.
 */
struct value_pass {
	const struct pp_graph *g;
	const uint32_t *one;  /* a location's only node, or PP_NONE */
	uint32_t first, last; /* the samples [first, last) */
	int64_t *sums;        /* per node: flat, flat_div, cum, cum_div */
	uint32_t *stamps;
	uint32_t nstamps;
};

/* One node's cum, once per sample: recursion meets a node again. */
static inline void value_pass_cum(int64_t *sums, uint32_t *stamps,
                                  uint32_t stamp, uint32_t n, int64_t w,
                                  int64_t dw, bool mean)
{
	if (stamps[n] != stamp) {
		stamps[n] = stamp;
		sums[4 * (size_t)n + 2] += w;
		if (mean)
			sums[4 * (size_t)n + 3] += dw;
	}
}

/*
 * The samples [vp->first, vp->last). Everything the frame loop reads is in
 * a local: the stores to stamps (uint32_t) may alias the sample's
 * loc_count and the pass's own fields as far as the compiler knows, and
 * it would reload them for every frame. mean is a constant in each of the
 * two calls (value_pass_run), so without -mean the div sums, all zero,
 * are not added.
 */
static inline void value_pass_samples(struct value_pass *vp, bool mean)
{
	const struct pp_graph *g = vp->g;
	const struct pp_profile *p = g->prof;
	const uint32_t *lnf = g->loc_node_first, *ln = g->loc_nodes;
	const uint32_t *one = vp->one;
	uint32_t nt = p->nsample_types, si = g->opts.sample_index;
	int64_t *sums = vp->sums;
	uint32_t *stamps = vp->stamps, stamp = 0, nstamps = vp->nstamps;

	for (uint32_t s = vp->first, last = vp->last; s < last; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = p->values + (size_t)s * nt;
		const struct pp_locs locs = pp_sample_locs(p, smp);
		uint32_t count = smp->loc_count, leaf;
		int64_t w = vals[si], dw = mean ? vals[0] : 0;

		if ((s & 0xffff) == 0 && pp_interrupted(g->ctx))
			break; /* accumulate_values reports it */
		if ((w == 0 && dw == 0) || count == 0)
			continue;
		if (++stamp == UINT32_MAX) {
			memset(stamps, 0, (size_t)nstamps * sizeof(*stamps));
			stamp = 1;
		}
		for (uint32_t i = 0; i < count; i++) {
			uint32_t l = pp_locs_at(locs, i), n = one[l];

			if (n != PP_NONE) {
				value_pass_cum(sums, stamps, stamp, n, w, dw,
				               mean);
				continue;
			}
			for (uint32_t k = lnf[l], end = lnf[l + 1]; k < end;
			     k++)
				value_pass_cum(sums, stamps, stamp, ln[k], w,
				               dw, mean);
		}
		/* The leaf is the innermost line of the first location. */
		leaf = ln[lnf[pp_locs_at(locs, 0)]];
		sums[4 * (size_t)leaf] += w;
		if (mean)
			sums[4 * (size_t)leaf + 1] += dw;
	}
}

static void *value_pass_run(void *arg)
{
	struct value_pass *vp = arg;

	if (vp->g->opts.mean)
		value_pass_samples(vp, true);
	else
		value_pass_samples(vp, false);
	return NULL;
}

/* Below this many samples a second thread costs more than it saves. */
#define PARALLEL_MIN_SAMPLES 200000

static int accumulate_values(struct pp_graph *g)
{
	const struct pp_profile *p = g->prof;
	uint32_t nn = g->nnodes ? g->nnodes : 1;
	int nparts = p->nsamples >= PARALLEL_MIN_SAMPLES ? 2 : 1;
	struct value_pass vp[2];
	uint32_t *one;
	struct pp_helper helper;
	int err = 0;

	memset(vp, 0, sizeof(vp));
	one = pp_malloc(g->ctx, ((size_t)p->nlocations + 1) * sizeof(*one));
	for (int i = 0; i < nparts; i++) {
		vp[i].g = g;
		vp[i].one = one;
		vp[i].first = (uint32_t)((uint64_t)p->nsamples * i / nparts);
		vp[i].last =
		        (uint32_t)((uint64_t)p->nsamples * (i + 1) / nparts);
		vp[i].sums = pp_calloc(g->ctx, (size_t)nn * 4, sizeof(int64_t));
		vp[i].stamps = pp_calloc(g->ctx, nn, sizeof(uint32_t));
		vp[i].nstamps = nn;
		if (!vp[i].sums || !vp[i].stamps)
			err = PP_ENOMEM;
	}
	if (!one || err) {
		err = pp_error(g->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const uint32_t *lnf = g->loc_node_first;

		one[l] = lnf[l + 1] - lnf[l] == 1 ? g->loc_nodes[lnf[l]]
		                                  : PP_NONE;
	}
	if (nparts == 2)
		pp_helper_start(&helper, value_pass_run, &vp[1]);
	value_pass_run(&vp[0]);
	if (nparts == 2) {
		pp_helper_finish(&helper);
		for (size_t k = 0; k < (size_t)nn * 4; k++)
			vp[0].sums[k] += vp[1].sums[k];
	}
	if (pp_interrupted(g->ctx)) {
		err = pp_error_interrupted(g->ctx);
		goto done;
	}
	for (uint32_t n = 0; n < g->nnodes; n++) {
		struct pp_node *node = &g->nodes[n];
		const int64_t *sum = vp[0].sums + 4 * (size_t)n;

		node->flat = sum[0];
		node->flat_div = sum[1];
		node->cum = sum[2];
		node->cum_div = sum[3];
		node->in_inline = node->in_call = false;
	}
	g->nedges = 0;
done:
	for (int i = 0; i < 2; i++) {
		pp_free(g->ctx, vp[i].sums);
		pp_free(g->ctx, vp[i].stamps);
	}
	pp_free(g->ctx, one);
	return err;
}

int pp_graph_accumulate(struct pp_graph *g, const bool *kept,
                        enum pp_edge_mode edges)
{
	const struct pp_profile *p = g->prof;
	uint32_t nt = p->nsample_types, si = g->opts.sample_index;
	unsigned char *loc_kept = NULL;
	int err = 0;

	if (!kept && edges == PP_EDGES_NONE)
		return accumulate_values(g);
	for (uint32_t n = 0; n < g->nnodes; n++) {
		struct pp_node *node = &g->nodes[n];

		node->flat = node->flat_div = node->cum = node->cum_div = 0;
		node->in_inline = node->in_call = false;
	}
	g->nedges = 0;
	pp_hashmap_clear(&pp_graph__in(g)->edge_index);
	memset(pp_graph__in(g)->stamp_node, 0,
	       (size_t)g->nnodes * sizeof(uint32_t));
	pp_graph__in(g)->stamp = 0;
	/* When few nodes are kept (a top-80 graph of a big profile), most
	 * frames belong to locations with no kept node: mark those so the
	 * walk passes them with one byte load. */
	if (kept) {
		const struct pp_profile *prof = g->prof;

		pp_free(g->ctx, loc_kept);
		loc_kept = pp_malloc(g->ctx,
		                     prof->nlocations ? prof->nlocations : 1);
		if (!loc_kept)
			return pp_error(g->ctx, PP_ENOMEM, "out of memory");
		for (uint32_t l = 0; l < prof->nlocations; l++) {
			loc_kept[l] = 0;
			for (uint32_t k = g->loc_node_first[l];
			     k < g->loc_node_first[l + 1]; k++)
				loc_kept[l] |= kept[g->loc_nodes[k]];
		}
	}

	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *vals = p->values + (size_t)s * nt;
		const struct pp_locs locs = pp_sample_locs(p, smp);
		int64_t w = vals[si], dw = g->opts.mean ? vals[0] : 0;
		uint32_t parent = PP_NONE;
		bool residual = false;

		if ((s & 0xffff) == 0 && pp_interrupted(g->ctx)) {
			err = pp_error_interrupted(g->ctx);
			goto done;
		}
		if (w == 0 && dw == 0)
			continue;
		next_stamp(g);
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = pp_locs_at(locs, i);
			uint32_t first = g->loc_node_first[l];
			uint32_t cnt = g->loc_node_first[l + 1] - first;

			if (loc_kept && !loc_kept[l]) {
				residual = true;
				continue;
			}
			for (uint32_t ni = cnt; ni-- > 0;) {
				uint32_t n = g->loc_nodes[first + ni];
				struct pp_node *node = &g->nodes[n];

				if (kept && !kept[n]) {
					residual = true;
					continue;
				}
				if (pp_graph__in(g)->stamp_node[n] !=
				    pp_graph__in(g)->stamp) {
					pp_graph__in(g)->stamp_node[n] =
					        pp_graph__in(g)->stamp;
					node->cum += w;
					node->cum_div += dw;
				}
				if (parent != PP_NONE && n != parent &&
				    (edges == PP_EDGES_ALL ||
				     (edges == PP_EDGES_INLINE_TARGETS &&
				      node->maybe_inline) ||
				     (edges == PP_EDGES_MARKED &&
				      (g->edge_marks[n] ||
				       g->edge_marks[parent]))) &&
				    (err = add_edge(g, parent, n, w, dw,
				                    residual, ni != cnt - 1)) <
				            0)
					goto done;
				parent = n;
				residual = false;
			}
		}
		if (parent != PP_NONE && !residual) {
			g->nodes[parent].flat += w;
			g->nodes[parent].flat_div += dw;
		}
	}
done:
	pp_free(g->ctx, loc_kept);
	return err;
}

int pp_graph_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                 const struct pp_graph_opts *opts, struct pp_graph **out)
{
	struct pp_graph__full *full;
	struct pp_graph *g;
	int err;

	*out = NULL;
	if (opts->sample_index >= prof->nsample_types && prof->nsamples)
		return pp_error(ctx, PP_EUSAGE, "sample index out of range");
	full = pp_calloc(ctx, 1, sizeof(*full));
	if (!full)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	g = &full->pub;
	g->ctx = ctx;
	pp_hashmap_init(&full->node_index, ctx);
	pp_hashmap_init(&full->edge_index, ctx);
	g->prof = prof;
	g->opts = *opts;
	if ((err = build_nodes(g)) < 0 ||
	    (opts->call_tree && (err = pp_graph__call_tree(g)) < 0))
		goto fail;
	pp_graph__in(g)->stamp_node =
	        pp_calloc(ctx, g->nnodes ? g->nnodes : 1,
	                  sizeof(*pp_graph__in(g)->stamp_node));
	if (!pp_graph__in(g)->stamp_node) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto fail;
	}
	if (!opts->nodes_only && !opts->call_tree &&
	    (err = pp_graph_accumulate(g, NULL, opts->edges)) < 0)
		goto fail;
	*out = g;
	return 0;
fail:
	pp_graph_free(g);
	return err;
}

void pp_graph_free(struct pp_graph *g)
{
	if (!g)
		return;
	pp_free(g->ctx, g->nodes);
	pp_free(g->ctx, g->loc_nodes);
	pp_free(g->ctx, g->loc_node_first);
	pp_free(g->ctx, g->edges);
	pp_hashmap_release(&pp_graph__in(g)->node_index);
	pp_hashmap_release(&pp_graph__in(g)->edge_index);
	pp_free(g->ctx, pp_graph__in(g)->stamp_node);
	pp_free(g->ctx, pp_graph__in(g)->stamp_edge);
	pp_free(g->ctx, g->tree_parent);
	pp_free(g->ctx, g->tree_in_edge);
	pp_free(g->ctx, g->sample_leaf);
	pp_free(g->ctx, g);
}

/* Append n bytes at s to buf (of size bytes) at *len, as far as they fit;
 * *len counts them all. */
static void put_bytes(char *buf, size_t size, size_t *len, const char *s,
                      size_t n)
{
	if (*len < size)
		memcpy(buf + *len, s, n < size - *len ? n : size - *len);
	*len += n;
}

/* Append the bytes of profile string s: whole, NUL bytes and all. */
static void put_str(char *buf, size_t size, size_t *len,
                    const struct pp_profile *p, pp_str s)
{
	size_t n;
	const char *t = pp_profile_strn(p, s, &n);

	put_bytes(buf, size, len, t, n);
}

size_t pp_node_name(const struct pp_graph *g, const struct pp_node *n,
                    char *buf, size_t size)
{
	const struct pp_profile *p = g->prof;
	const struct pp_node_info *i = &n->info;
	size_t len = 0;
	char num[64];
	int w;

	if (i->address) {
		w = snprintf(num, sizeof(num), "%016llx",
		             (unsigned long long)i->address);
		put_bytes(buf, size, &len, num, (size_t)w);
	}
	if (i->name) {
		if (len)
			put_bytes(buf, size, &len, " ", 1);
		put_str(buf, size, &len, p, i->name);
	}
	if (i->lineno) {
		if (len)
			put_bytes(buf, size, &len, " ", 1);
		put_str(buf, size, &len, p, i->file);
		w = snprintf(num, sizeof(num), ":%lld", (long long)i->lineno);
		put_bytes(buf, size, &len, num, (size_t)w);
		if (i->column) {
			w = snprintf(num, sizeof(num), ":%lld",
			             (long long)i->column);
			put_bytes(buf, size, &len, num, (size_t)w);
		}
	} else if (i->file) {
		if (len)
			put_bytes(buf, size, &len, " ", 1);
		put_str(buf, size, &len, p, i->file);
	} else if (i->name) {
		;
	} else if (i->objfile) {
		size_t on;
		const char *o = pp_profile_strn(p, i->objfile, &on);

		o = pp_path_base_n(o, &on);
		put_bytes(buf, size, &len, len ? " [" : "[", len ? 2 : 1);
		put_bytes(buf, size, &len, o, on);
		put_bytes(buf, size, &len, "]", 1);
	} else {
		if (len)
			put_bytes(buf, size, &len, " ", 1);
		put_bytes(buf, size, &len, "<unknown>", 9);
	}
	/* NUL-terminated when it fits, as snprintf would. */
	if (size)
		buf[len < size ? len : size - 1] = '\0';
	return len;
}
