/* The calling-context tree: exact nodes (preorder, children in name order,
 * self/total/end/depth) for small hand-made profiles, inlined frames,
 * granularities, -diff_base samples, and a random profile checked against
 * a naive walk of every sample; every allocation failure is clean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/tree.h"

/* A profile with one sample type (cpu/nanoseconds) and functions named
 * by the caller. */
struct fixture {
	struct pp_ctx ctx;
	struct pp_profile *p;
};

static void fx_init(struct fixture *fx)
{
	struct pp_ctx ctx = PP_CTX_INIT;

	fx->ctx = ctx;
	fx->p = pp_profile_new(&fx->ctx);
	assert_non_null(fx->p);
	assert_int_equal(pp_profile_add_sample_type(
	                         fx->p, pp_profile_intern(fx->p, "cpu"),
	                         pp_profile_intern(fx->p, "nanoseconds")),
	                 0);
}

static uint32_t fx_func(struct fixture *fx, const char *name)
{
	struct pp_function f = {0};
	uint32_t idx;

	f.id = fx->p->nfunctions + 1;
	f.name = f.system_name = pp_profile_intern(fx->p, name);
	f.filename = pp_profile_intern(fx->p, "main.c");
	assert_int_equal(pp_profile_add_function(fx->p, &f, &idx), 0);
	return idx;
}

/* A location of nlines frames, innermost first: (function, line) pairs. */
static uint32_t fx_loc(struct fixture *fx, size_t nlines, ...)
{
	struct pp_location l = {0};
	struct pp_line lines[8];
	uint32_t idx;
	va_list ap;

	va_start(ap, nlines);
	for (size_t i = 0; i < nlines; i++) {
		lines[i].function = va_arg(ap, uint32_t);
		lines[i].line = va_arg(ap, int);
		lines[i].column = 0;
	}
	va_end(ap);
	l.id = fx->p->nlocations + 1;
	l.address = 0x1000 + fx->p->nlocations;
	l.mapping = PP_NONE;
	assert_int_equal(
	        pp_profile_add_location(fx->p, &l, lines, nlines, &idx), 0);
	return idx;
}

/* A sample of value v with the locations given leaf first, ended by
 * PP_NONE. */
static void fx_sample(struct fixture *fx, int64_t v, bool base, ...)
{
	uint32_t locs[64], n = 0, l;
	struct pp_label label = {0};
	va_list ap;

	va_start(ap, base);
	while ((l = va_arg(ap, uint32_t)) != PP_NONE)
		locs[n++] = l;
	va_end(ap);
	label.key = pp_profile_intern(fx->p, "pprof::base");
	label.str = pp_profile_intern(fx->p, "true");
	assert_int_equal(
	        pp_profile_add_sample(fx->p, locs, n, &v, &label, base ? 1 : 0),
	        0);
}

static struct pp_tree *fx_tree(struct fixture *fx, enum pp_granularity gran,
                               bool noinlines)
{
	struct pp_graph_opts go = {0};
	struct pp_tree *t = NULL;

	go.granularity = gran;
	go.noinlines = noinlines;
	assert_int_equal(pp_tree_new(&fx->ctx, fx->p, &go, &t), 0);
	return t;
}

/* The expected nodes, in order. */
struct want {
	const char *name;
	uint32_t depth, end;
	int64_t self, total;
};

static void assert_nodes(const struct pp_tree *t, const struct want *w,
                         uint32_t n)
{
	assert_int_equal(t->nnodes, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct pp_tree_node *node = &t->nodes[i];

		assert_string_equal(pp_tree_name(t, i), w[i].name);
		assert_int_equal(node->depth, w[i].depth);
		assert_int_equal(node->end, w[i].end);
		assert_int_equal(node->self, w[i].self);
		assert_int_equal(node->total, w[i].total);
		if (i == 0) {
			assert_int_equal(node->parent, PP_NONE);
			assert_int_equal(node->frame, PP_NONE);
		} else {
			assert_true(node->parent < i);
			assert_int_equal(t->nodes[node->parent].depth + 1,
			                 node->depth);
		}
	}
}

static void fx_release(struct fixture *fx, struct pp_tree *t)
{
	pp_tree_free(t);
	pp_profile_free(fx->p);
}

static void test_tree__preorder_and_name_order(void **state)
{
	struct fixture fx;
	uint32_t fmain, fa, fb, fc, lmain, la, lb, lc;
	struct pp_tree *t;
	static const struct want want[] = {
	        {"", 0, 6, 0, 22}, {"main", 1, 6, 0, 22}, {"a", 2, 5, 2, 20},
	        {"b", 3, 4, 5, 5}, {"c", 3, 5, 13, 13},   {"b", 2, 6, 2, 2},
	};

	(void)state;
	fx_init(&fx);
	/* Added out of name order, so that order comes from sorting. */
	fc = fx_func(&fx, "c");
	fb = fx_func(&fx, "b");
	fmain = fx_func(&fx, "main");
	fa = fx_func(&fx, "a");
	lmain = fx_loc(&fx, 1, fmain, 1);
	la = fx_loc(&fx, 1, fa, 2);
	lb = fx_loc(&fx, 1, fb, 3);
	lc = fx_loc(&fx, 1, fc, 4);
	fx_sample(&fx, 3, false, lc, la, lmain, PP_NONE);
	fx_sample(&fx, 5, false, lb, la, lmain, PP_NONE);
	fx_sample(&fx, 2, false, la, lmain, PP_NONE);
	fx_sample(&fx, 10, false, lc, la, lmain, PP_NONE); /* same stack */
	fx_sample(&fx, 0, false, lmain, PP_NONE);          /* left out */
	fx_sample(&fx, 1, false, lb, lmain, PP_NONE);
	fx_sample(&fx, 1, false, lb, lmain, PP_NONE);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, want, 6);
	assert_int_equal(t->max_depth, 3);
	assert_false(t->has_base);
	assert_null(t->base_self);
	assert_null(t->base_total);
	fx_release(&fx, t);
}

/* Inlined frames are frames of their own, outermost first; -noinlines
 * keeps only the outermost. Recursion makes a chain. */
static void test_tree__inline_and_recursion(void **state)
{
	struct fixture fx;
	uint32_t fmain, fwork, fhelp, lmain, linl, lrec;
	struct pp_tree *t;
	static const struct want inl[] = {
	        {"", 0, 6, 0, 7},     {"main", 1, 6, 1, 7},
	        {"main", 2, 4, 0, 4}, {"main", 3, 4, 4, 4},
	        {"work", 2, 6, 0, 2}, {"help", 3, 6, 2, 2},
	};
	static const struct want noinl[] = {
	        {"", 0, 5, 0, 7},     {"main", 1, 5, 1, 7},
	        {"main", 2, 4, 0, 4}, {"main", 3, 4, 4, 4},
	        {"work", 2, 5, 2, 2},
	};

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	fwork = fx_func(&fx, "work");
	fhelp = fx_func(&fx, "help");
	lmain = fx_loc(&fx, 1, fmain, 1);
	/* help inlined into work: innermost first. */
	linl = fx_loc(&fx, 2, fhelp, 7, fwork, 8);
	lrec = fx_loc(&fx, 1, fmain, 2);
	fx_sample(&fx, 2, false, linl, lmain, PP_NONE);
	fx_sample(&fx, 4, false, lrec, lrec, lmain, PP_NONE);
	fx_sample(&fx, 1, false, lmain, PP_NONE);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, inl, 6);
	assert_int_equal(t->max_depth, 3);
	pp_tree_free(t);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, true);
	assert_nodes(t, noinl, 5);
	fx_release(&fx, t);
}

/* Reversed (flame -reverse): every stack read leaf first, an inlined
 * location's frames innermost first, so the root's children are the leaves
 * and self sits at the stack's outermost frame. */
static void test_tree__reversed(void **state)
{
	struct fixture fx;
	uint32_t fmain, fwork, fhelp, lmain, linl, lrec;
	struct pp_graph_opts go = {0};
	struct pp_tree *t = NULL;
	static const struct want want[] = {
	        {"", 0, 7, 0, 7},     {"help", 1, 4, 0, 2},
	        {"work", 2, 4, 0, 2}, {"main", 3, 4, 2, 2},
	        {"main", 1, 7, 1, 5}, {"main", 2, 7, 0, 4},
	        {"main", 3, 7, 4, 4},
	};

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	fwork = fx_func(&fx, "work");
	fhelp = fx_func(&fx, "help");
	lmain = fx_loc(&fx, 1, fmain, 1);
	linl = fx_loc(&fx, 2, fhelp, 7, fwork, 8);
	lrec = fx_loc(&fx, 1, fmain, 2);
	fx_sample(&fx, 2, false, linl, lmain, PP_NONE);
	fx_sample(&fx, 4, false, lrec, lrec, lmain, PP_NONE);
	fx_sample(&fx, 1, false, lmain, PP_NONE);
	assert_int_equal(pp_tree_new_reversed(&fx.ctx, fx.p, &go, &t), 0);
	assert_nodes(t, want, 7);
	assert_int_equal(t->max_depth, 3);
	fx_release(&fx, t);
}

/* Two lines of one function are one frame at function granularity and two
 * at line granularity. */
static void test_tree__granularity(void **state)
{
	struct fixture fx;
	uint32_t fmain, ff, lmain, l10, l11;
	struct pp_tree *t;
	static const struct want funcs[] = {
	        {"", 0, 3, 0, 3},
	        {"main", 1, 3, 0, 3},
	        {"f", 2, 3, 3, 3},
	};
	static const struct want lines[] = {
	        {"", 0, 4, 0, 3},
	        {"main main.c:1", 1, 4, 0, 3},
	        {"f main.c:10", 2, 3, 1, 1},
	        {"f main.c:11", 2, 4, 2, 2},
	};

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	ff = fx_func(&fx, "f");
	lmain = fx_loc(&fx, 1, fmain, 1);
	l11 = fx_loc(&fx, 1, ff, 11);
	l10 = fx_loc(&fx, 1, ff, 10);
	fx_sample(&fx, 2, false, l11, lmain, PP_NONE);
	fx_sample(&fx, 1, false, l10, lmain, PP_NONE);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, funcs, 3);
	pp_tree_free(t);
	t = fx_tree(&fx, PP_GRAN_LINES, false);
	assert_nodes(t, lines, 4);
	fx_release(&fx, t);
}

/* -diff_base: the base's samples (negated, labelled pprof::base) are summed
 * apart as well; a stack in both is not merged away. */
static void test_tree__base_samples(void **state)
{
	struct fixture fx;
	uint32_t fmain, fa, fb, lmain, la, lb;
	struct pp_tree *t;
	static const struct want want[] = {
	        {"", 0, 4, 0, 2},
	        {"main", 1, 4, 0, 2},
	        {"a", 2, 3, 2, 2},
	        {"b", 2, 4, 0, 0},
	};
	static const int64_t base_self[] = {0, 0, 3, 4};
	static const int64_t base_total[] = {7, 7, 3, 4};

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	fa = fx_func(&fx, "a");
	fb = fx_func(&fx, "b");
	lmain = fx_loc(&fx, 1, fmain, 1);
	la = fx_loc(&fx, 1, fa, 2);
	lb = fx_loc(&fx, 1, fb, 3);
	fx_sample(&fx, 5, false, la, lmain, PP_NONE);
	fx_sample(&fx, -3, true, la, lmain, PP_NONE);
	fx_sample(&fx, -4, true, lb, lmain, PP_NONE);
	fx_sample(&fx, 4, false, lb, lmain, PP_NONE);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, want, 4);
	assert_true(t->has_base);
	assert_non_null(t->base_self);
	assert_non_null(t->base_total);
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(t->base_self[i], base_self[i]);
		assert_int_equal(t->base_total[i], base_total[i]);
	}
	fx_release(&fx, t);
}

/* A base sample is one labelled pprof::base=true (pp_sample_is_base, as
 * pprof's DiffBaseSample): the key with another value marks nothing. */
static void test_tree__base_needs_true(void **state)
{
	struct fixture fx;
	uint32_t fmain, lmain;
	struct pp_label label = {0};
	int64_t v = -3;
	struct pp_tree *t;
	static const struct want want[] = {
	        {"", 0, 2, 0, 2},
	        {"main", 1, 2, 2, 2},
	};

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	lmain = fx_loc(&fx, 1, fmain, 1);
	fx_sample(&fx, 5, false, lmain, PP_NONE);
	label.key = pp_profile_intern(fx.p, "pprof::base");
	label.str = pp_profile_intern(fx.p, "false");
	assert_int_equal(pp_profile_add_sample(fx.p, &lmain, 1, &v, &label, 1),
	                 0);
	assert_false(pp_profile_is_base_sample(fx.p, 1));
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, want, 2);
	assert_false(t->has_base);
	fx_release(&fx, t);
}

/* No samples; a sample without locations counts at the root. */
static void test_tree__empty(void **state)
{
	struct fixture fx;
	struct pp_tree *t;
	static const struct want none[] = {{"", 0, 1, 0, 0}};
	static const struct want root[] = {{"", 0, 1, 5, 5}};

	(void)state;
	fx_init(&fx);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, none, 1);
	assert_int_equal(t->max_depth, 0);
	pp_tree_free(t);
	fx_sample(&fx, 5, false, PP_NONE);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_nodes(t, root, 1);
	fx_release(&fx, t);
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

/* Thousands of random stacks with shared prefixes, recursion, inlined
 * frames and zero and negative values (so that the sorts of long runs
 * are used): the tree's shape is consistent and each node's self is
 * what a naive walk of every sample down the tree sums. */
static void fx_random(struct fixture *fx, uint32_t nsamples, int64_t low)
{
	uint32_t funcs[12], locs[40], seed = 7;

	fx_init(fx);
	for (uint32_t i = 0; i < 12; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fn%02u", (i * 5) % 12);
		funcs[i] = fx_func(fx, name);
	}
	for (uint32_t i = 0; i < 40; i++) {
		uint32_t a = funcs[lcg(&seed) % 12], b = funcs[lcg(&seed) % 12];
		int line = (int)(lcg(&seed) % 3);

		locs[i] = i % 4 == 0 ? fx_loc(fx, 2, a, line, b, line + 1)
		                     : fx_loc(fx, 1, a, line);
	}
	for (uint32_t s = 0; s < nsamples; s++) {
		uint32_t stack[24], n = lcg(&seed) % 20, l = lcg(&seed) % 3;
		int64_t v = (int64_t)(lcg(&seed) % 14) + low;
		struct pp_label label = {0};

		for (uint32_t i = 0; i < n; i++) {
			l = (l * 7 + lcg(&seed) % 3) % 40;
			stack[n - 1 - i] = locs[l]; /* leaf first */
		}
		assert_int_equal(
		        pp_profile_add_sample(fx->p, stack, n, &v, &label, 0),
		        0);
	}
}

static void check_random(enum pp_granularity gran, uint32_t nsamples)
{
	struct fixture fx;
	struct pp_tree *t;
	int64_t *self;
	bool *seen;

	fx_random(&fx, nsamples, -3);
	t = fx_tree(&fx, gran, false);
	self = calloc(t->nnodes, sizeof(*self));
	seen = calloc(t->nnodes, sizeof(*seen));
	assert_non_null(self);
	assert_non_null(seen);
	/* Shape: parents first, subtrees nested, children strictly in name
	 * order, totals summed. */
	for (uint32_t n = 0; n < t->nnodes; n++) {
		const struct pp_tree_node *node = &t->nodes[n];
		int64_t sum = node->self;
		uint32_t prev = PP_NONE;

		if (n > 0) {
			assert_true(node->parent < n);
			assert_true(node->end <= t->nodes[node->parent].end);
		}
		assert_true(node->end > n && node->end <= t->nnodes);
		for (uint32_t c = n + 1; c < node->end; c = t->nodes[c].end) {
			assert_int_equal(t->nodes[c].parent, n);
			if (prev != PP_NONE)
				assert_true(strcmp(pp_tree_name(t, prev),
				                   pp_tree_name(t, c)) < 0);
			sum += t->nodes[c].total;
			prev = c;
		}
		assert_int_equal(sum, node->total);
	}
	/* Every sample walked down by its frames, root first. */
	for (uint32_t s = 0; s < fx.p->nsamples; s++) {
		const struct pp_sample *smp = &fx.p->samples[s];
		const struct pp_graph *g = t->graph;
		int64_t v = fx.p->values[s];
		uint32_t n = 0;

		if (v == 0)
			continue;
		seen[0] = true;
		for (uint32_t i = smp->loc_count; i-- > 0;) {
			uint32_t l = pp_profile_loc(fx.p, smp->loc_first + i);

			for (uint32_t k = g->loc_node_first[l + 1];
			     k-- > g->loc_node_first[l];) {
				uint32_t c = n + 1;

				while (c < t->nodes[n].end &&
				       t->nodes[c].frame != g->loc_nodes[k])
					c = t->nodes[c].end;
				assert_true(c < t->nodes[n].end);
				n = c;
				seen[n] = true;
			}
		}
		self[n] += v;
	}
	for (uint32_t n = 0; n < t->nnodes; n++) {
		assert_true(seen[n]);
		assert_int_equal(self[n], t->nodes[n].self);
	}
	assert_true(t->nnodes > 1000);
	free(self);
	free(seen);
	fx_release(&fx, t);
}

static void test_tree__random_functions(void **state)
{
	(void)state;
	check_random(PP_GRAN_FUNCTIONS, 6000);
}

static void test_tree__random_lines(void **state)
{
	(void)state;
	check_random(PP_GRAN_LINES, 6000);
}

/* Enough distinct stacks (100000) for the tree to be built on two
 * threads, the second one's nodes appended to the first one's. */
static void test_tree__random_two_threads(void **state)
{
	(void)state;
	check_random(PP_GRAN_FUNCTIONS, 240000);
}

/* The cut tree is the whole tree without the subtrees worth less than
 * the share of the root (their values in their parents' totals), node for
 * node; with negative values too (a subtree's sum decides). */
/* A profile whose 40 root functions carry very different values: the
 * samples under the first 20 are worth 1000 each, the others 1. */
static void fx_skewed(struct fixture *fx, uint32_t nsamples, int64_t low)
{
	uint32_t roots[40], funcs[12], seed = 11;

	(void)low;
	fx_init(fx);
	for (uint32_t i = 0; i < 40; i++) {
		char name[16];

		snprintf(name, sizeof(name), "root%02u", i);
		roots[i] = fx_loc(fx, 1, fx_func(fx, name), 1);
	}
	for (uint32_t i = 0; i < 12; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fn%02u", i);
		funcs[i] = fx_loc(fx, 1, fx_func(fx, name), 2);
	}
	for (uint32_t s = 0; s < nsamples; s++) {
		uint32_t stack[16], n = 2 + lcg(&seed) % 12,
		                    r = lcg(&seed) % 40;
		int64_t v = r < 20 ? 1000 : 1;
		struct pp_label label = {0};

		stack[n - 1] = roots[r]; /* leaf first */
		for (uint32_t i = 0; i + 1 < n; i++)
			stack[i] = funcs[lcg(&seed) % 12];
		assert_int_equal(
		        pp_profile_add_sample(fx->p, stack, n, &v, &label, 0),
		        0);
	}
}

static void check_cut_of(void (*make)(struct fixture *, uint32_t, int64_t),
                         uint32_t nsamples, int64_t low, double share)
{
	struct fixture fx;
	struct pp_graph_opts go = {0};
	struct pp_tree *t, *cut = NULL;
	uint32_t c = 0, *map, *left_count;
	int64_t min, *left_value;

	make(&fx, nsamples, low);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_int_equal(pp_tree_new_cut(&fx.ctx, fx.p, &go, share, &cut), 0);
	assert_true(t->nodes[0].total > 0);
	min = (int64_t)((double)t->nodes[0].total * share);
	map = calloc(t->nnodes, sizeof(*map));
	left_value = calloc(cut->nnodes, sizeof(*left_value));
	left_count = calloc(cut->nnodes, sizeof(*left_count));
	assert_non_null(map);
	assert_non_null(left_value);
	assert_non_null(left_count);
	for (uint32_t n = 0; n < t->nnodes;) {
		const struct pp_tree_node *w = &t->nodes[n], *g;

		if (n > 0 && w->total < min) {
			/* Left out: its parent counts it if positive. */
			if (w->total > 0) {
				left_value[map[w->parent]] += w->total;
				left_count[map[w->parent]]++;
			}
			n = w->end;
			continue;
		}
		assert_true(c < cut->nnodes);
		g = &cut->nodes[c];
		map[n] = c;
		assert_int_equal(g->frame, w->frame);
		assert_string_equal(pp_tree_name(cut, c), pp_tree_name(t, n));
		assert_int_equal(g->depth, w->depth);
		assert_int_equal(g->self, w->self);
		assert_int_equal(g->total, w->total);
		if (n > 0)
			assert_int_equal(g->parent, map[w->parent]);
		c++;
		n++;
	}
	assert_int_equal(c, cut->nnodes);
	assert_true(cut->cut);
	assert_true(cut->nnodes > 10 && cut->nnodes < t->nnodes / 4);
	/* What a flame graph draws of the subtrees left out. */
	assert_int_equal(cut->whole_depth, t->max_depth);
	assert_true(cut->max_depth < cut->whole_depth);
	for (uint32_t k = 0; k < cut->nnodes; k++) {
		assert_int_equal(cut->cut_value[k], left_value[k]);
		assert_int_equal(cut->cut_count[k], left_count[k]);
	}
	free(left_value);
	free(left_count);
	free(map);
	pp_tree_free(cut);
	fx_release(&fx, t);
}

static void check_cut(uint32_t nsamples, int64_t low, double share)
{
	check_cut_of(fx_random, nsamples, low, share);
}

static void test_tree__cut(void **state)
{
	(void)state;
	check_cut(6000, 1, 1.0 / 500);
	check_cut(6000, -3, 1.0 / 200);
}

/* Enough distinct stacks for the cut tree to be built on two threads:
 * the second one's first subtrees hang from the first one's nodes, and
 * those too thin to be built (fx_skewed's light roots) add their values
 * to them. */
static void test_tree__cut_two_threads(void **state)
{
	(void)state;
	check_cut(240000, 1, 1.0 / 2048);
	check_cut(240000, 1, 1.0 / 20000);
	check_cut_of(fx_skewed, 240000, 0, 1.0 / 100);
}

/* A share past 1, up to one whose value overflows an int64_t: every
 * subtree under the root is left out, its value in the root's total. */
static void test_tree__cut_share_past_one(void **state)
{
	struct fixture fx;
	struct pp_graph_opts go = {0};
	struct pp_tree *t;
	const double shares[] = {1.0, 2.5, 1e15, 1e300};

	(void)state;
	fx_random(&fx, 6000, 1);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++) {
		struct pp_tree *cut = NULL;

		assert_int_equal(
		        pp_tree_new_cut(&fx.ctx, fx.p, &go, shares[i], &cut),
		        0);
		assert_true(cut->cut);
		assert_int_equal(cut->nnodes, 1);
		assert_int_equal(cut->nodes[0].total, t->nodes[0].total);
		assert_int_equal(cut->whole_depth, t->max_depth);
		pp_tree_free(cut);
	}
	fx_release(&fx, t);
}

/* Nothing to cut, and a diff is never cut: the whole tree. */
static void test_tree__cut_whole(void **state)
{
	struct fixture fx;
	struct pp_graph_opts go = {0};
	struct pp_tree *t, *cut = NULL;

	(void)state;
	fx_random(&fx, 300, 1);
	t = fx_tree(&fx, PP_GRAN_FUNCTIONS, false);
	assert_int_equal(pp_tree_new_cut(&fx.ctx, fx.p, &go, 1e-9, &cut), 0);
	assert_false(cut->cut);
	assert_null(cut->cut_value);
	assert_null(cut->cut_count);
	assert_int_equal(cut->nnodes, t->nnodes);
	for (uint32_t n = 0; n < t->nnodes; n++) {
		assert_int_equal(cut->nodes[n].total, t->nodes[n].total);
		assert_int_equal(cut->nodes[n].end, t->nodes[n].end);
	}
	pp_tree_free(cut);
	fx_release(&fx, t);
}

static void test_tree__allocation_failures(void **state)
{
	struct fixture fx;
	uint32_t fmain, fa, lmain, la, chain[20];
	struct pp_label none = {0};
	int64_t one = 1;
	int absorbed = 0;

	(void)state;
	fx_init(&fx);
	fmain = fx_func(&fx, "main");
	fa = fx_func(&fx, "a");
	lmain = fx_loc(&fx, 1, fmain, 1);
	la = fx_loc(&fx, 2, fa, 2, fmain, 3);
	fx_sample(&fx, 5, false, la, lmain, PP_NONE);
	fx_sample(&fx, -3, true, la, lmain, PP_NONE);
	fx_sample(&fx, 2, false, lmain, la, lmain, PP_NONE);
	/* A chain of 20 more functions, for a node array big enough to be
	 * sized at once. */
	for (uint32_t i = 0; i < 20; i++) {
		char name[16];

		snprintf(name, sizeof(name), "chain%02u", i);
		chain[i] = fx_loc(&fx, 1, fx_func(&fx, name), 1);
	}
	assert_int_equal(pp_profile_add_sample(fx.p, chain, 20, &one, &none, 0),
	                 0);
	for (long n = 0;; n++) {
		struct failing_alloc f;
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_graph_opts go = {0};
		struct pp_tree *t = NULL;
		int err;

		failing_alloc_install(&ctx, &f, n);
		err = pp_tree_new(&ctx, fx.p, &go, &t);
		if (!f.failed) {
			assert_int_equal(err, 0);
			assert_int_equal(t->nnodes, 25);
			pp_tree_free(t);
			break;
		}
		if (err == 0) {
			/* Only sizing the node array at once may fail without
			 * failing the build: the array then grows as it
			 * fills, to the same tree. */
			assert_int_equal(t->nnodes, 25);
			assert_int_equal(t->nodes[1].depth, 1);
			assert_int_equal(t->nodes[20].depth, 20);
			assert_int_equal(t->nodes[20].self, 1);
			pp_tree_free(t);
			absorbed++;
			continue;
		}
		assert_int_equal(err, PP_ENOMEM);
		assert_null(t);
		assert_true(n < 1000);
	}
	assert_int_equal(absorbed, 1);
	pp_profile_free(fx.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_tree__preorder_and_name_order),
	        cmocka_unit_test(test_tree__inline_and_recursion),
	        cmocka_unit_test(test_tree__reversed),
	        cmocka_unit_test(test_tree__granularity),
	        cmocka_unit_test(test_tree__base_samples),
	        cmocka_unit_test(test_tree__base_needs_true),
	        cmocka_unit_test(test_tree__empty),
	        cmocka_unit_test(test_tree__random_functions),
	        cmocka_unit_test(test_tree__random_lines),
	        cmocka_unit_test(test_tree__random_two_threads),
	        cmocka_unit_test(test_tree__cut),
	        cmocka_unit_test(test_tree__cut_two_threads),
	        cmocka_unit_test(test_tree__cut_whole),
	        cmocka_unit_test(test_tree__cut_share_past_one),
	        cmocka_unit_test(test_tree__allocation_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
