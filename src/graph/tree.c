/*
 * The calling-context tree; see pprof/tree.h.
 *
 * Built top-down without a per-frame hash lookup. Samples with the same
 * locations are merged first (one hash lookup per sample; for big
 * profiles on two threads, each with half of the hash table). Then the
 * distinct stacks are partitioned, level by level, by their next frame, as
 * an MSD radix sort of the stacks would do: each carries a cursor into its
 * stack (root first); a node's stacks are sorted by the name rank of their
 * next frame, and each run of equal frames is one child, built completely
 * before its next sibling. So nodes come out in depth-first preorder with
 * children in name order, and each frame of each distinct stack is read
 * once. Unlike a (parent, frame) hash lookup per frame, where each lookup
 * waits for the one before, the reads of one level are independent and the
 * memory system overlaps them: on the large bench profile (51.6 M frames,
 * 8.8 M nodes) this is 4x faster than the hash, in half the memory.
 *
 * Most of the time goes to touching memory, so the builder touches little:
 * a group's stacks are sorted by one counting pass over the keys it holds
 * into the other of two cursor arrays (no copy back: each task says which
 * array its stacks are in), the second array is the hash's memory once the
 * stacks are found, and the node array is sized once for the most nodes
 * the stacks can make, so it never moves (pages never written cost
 * nothing).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/tree.h"
#include "util/bytes.h"
#include "util/goint.h"
#include "util/helper.h"
#include "util/pages.h"

/* Hint that *p will be read soon. The loops below read memory that is far
 * from the cache at every step, but each step's address is known some
 * steps ahead. */
#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

/* How many steps ahead to prefetch. */
#define AHEAD 8

/* Sums of hostile values wrap around instead of being undefined. */
static int64_t add64(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

/* Where location index i of p's sample_locs is, to prefetch it. */
static inline const void *loc_address(const struct pp_profile *p, size_t i)
{
	return (const char *)p->sample_locs + i * p->loc_bytes;
}

/* One distinct stack on its way down the tree. */
struct cursor {
	uint32_t stack; /* index into builder.weight / builder.base */
	uint32_t pos;   /* sample_locs index of the location being read */
	uint32_t stop;  /* the sample's loc_first: no location below it */
	uint32_t line;  /* frames of that location not read yet */
	uint32_t key;   /* 0: the stack ended; else 1 + rank of the frame */
};

/* A child to build: the stacks [a, b) of cursor array buf (0: cur, 1: tmp)
 * reach it through parent. */
struct task {
	uint32_t a, b;
	uint32_t parent;
	uint32_t key;
	uint32_t depth; /* the child's */
	uint32_t buf;
};

struct builder {
	struct pp_tree *t;
	const struct pp_profile *p;
	const uint32_t *lnf;     /* the graph's loc_node_first */
	const uint32_t *fkey;    /* per loc_nodes entry: 1 + its name rank */
	const uint32_t *by_rank; /* name rank -> graph node */
	/* Counting sort: per key, zero between sorts (nkeys of them), and
	 * the keys one sort met. */
	uint32_t *count, *seen;
	uint32_t nkeys;
	uint32_t si;   /* sample index */
	bool reversed; /* stacks read leaf first */
	struct pp_base_mark base_mark;
	/* The distinct stacks: samples with the same locations (and the same
	 * side of a diff) are walked once, with their values summed. */
	int64_t *weight;
	unsigned char *base;
	struct cursor *cur, *tmp;
	/* Children still to build, the next on top. pending: how many
	 * stacks they hold. */
	struct task *tasks;
	size_t ntasks, cap_tasks;
	uint64_t pending;
	/* Room in t->nodes, t->base_self and t->cut_value/cut_count: the
	 * tree grows only while it is built. */
	size_t cap_nodes, cap_base, cap_cut_value, cap_cut_count;
	/* pp_tree_new_cut: the share of the root a subtree needs to be
	 * built, and from it (once the root's value is known) the value;
	 * cutting is false when nothing is cut. */
	double cut_share;
	int64_t cut_min;
	bool cutting;
	/* A part's (two threads, below): its first tasks hang from nodes of
	 * the main array (parent PP_NONE), taken in stack order. Per such
	 * task: whether it was built, and the value it adds to its parent
	 * when too thin to be. */
	uint32_t roots_taken;
	unsigned char *root_built;
	int64_t *root_cut;
};

/* Reversed: the next frame leaf first. pos walks up from loc_first to
 * stop, and a location's frames are read innermost first. */
static uint32_t next_key_reversed(const struct builder *b, struct cursor *c)
{
	uint32_t l, n;

	if (c->line == 0) {
		if (c->pos == c->stop)
			return c->key = 0;
		l = pp_profile_loc(b->p, c->pos++);
		c->line = b->lnf[l + 1] - b->lnf[l];
	} else {
		l = pp_profile_loc(b->p, c->pos - 1);
	}
	n = b->lnf[l + 1] - b->lnf[l];
	c->line--;
	return c->key = b->fkey[b->lnf[l] + (n - 1 - c->line)];
}

/* Read the sample's next frame, root first: its key. */
static uint32_t next_key(const struct builder *b, struct cursor *c)
{
	uint32_t l;

	if (b->reversed)
		return next_key_reversed(b, c);
	if (c->line == 0) {
		if (c->pos == c->stop)
			return c->key = 0;
		l = pp_profile_loc(b->p, --c->pos);
		c->line = b->lnf[l + 1] - b->lnf[l];
	} else {
		l = pp_profile_loc(b->p, c->pos);
	}
	/* A location's frames are innermost first: the caller is last. */
	c->line--;
	return c->key = b->fkey[b->lnf[l] + c->line];
}

/* Room for n nodes in t->cut_value and t->cut_count, the new ones
 * zero. */
static int cut_room(struct builder *b, size_t n)
{
	struct pp_tree *t = b->t;
	size_t had = b->cap_cut_value;
	int err;

	if ((err = pp_grow(t->ctx, (void **)&t->cut_value, &b->cap_cut_value, n,
	                   sizeof(*t->cut_value))) < 0 ||
	    (err = pp_grow(t->ctx, (void **)&t->cut_count, &b->cap_cut_count, n,
	                   sizeof(*t->cut_count))) < 0)
		return err;
	if (b->cap_cut_value > had) {
		memset(t->cut_value + had, 0,
		       (b->cap_cut_value - had) * sizeof(*t->cut_value));
		/* Both grew from the same size to the same size. */
		memset(t->cut_count + had, 0,
		       (b->cap_cut_count - had) * sizeof(*t->cut_count));
	}
	return 0;
}

/* A subtree of value v under node parent was left out. */
static void note_cut(struct pp_tree *t, uint32_t parent, int64_t v)
{
	t->nodes[parent].total = add64(t->nodes[parent].total, v);
	if (v > 0) {
		t->cut_value[parent] = add64(t->cut_value[parent], v);
		t->cut_count[parent]++;
	}
	t->cut = true;
}

static int new_node(struct builder *b, uint32_t parent, uint32_t key,
                    uint32_t depth, uint32_t *out)
{
	struct pp_tree *t = b->t;
	struct pp_tree_node *n;
	int err;

	if (t->nnodes == UINT32_MAX - 1)
		return pp_error(t->ctx, PP_ELIMIT, "too many distinct stacks");
	if (t->nnodes == b->cap_nodes &&
	    (err = pp_grow(t->ctx, (void **)&t->nodes, &b->cap_nodes,
	                   (size_t)t->nnodes + 1, sizeof(*t->nodes))) < 0)
		return err;
	if (t->base_self) {
		if ((err = pp_grow(t->ctx, (void **)&t->base_self, &b->cap_base,
		                   (size_t)t->nnodes + 1,
		                   sizeof(*t->base_self))) < 0)
			return err;
		t->base_self[t->nnodes] = 0;
	}
	if (b->cutting && (err = cut_room(b, (size_t)t->nnodes + 1)) < 0)
		return err;
	n = &t->nodes[t->nnodes];
	n->parent = parent;
	n->frame = key ? b->by_rank[key - 1] : PP_NONE;
	n->depth = depth;
	n->end = 0;
	n->self = n->total = 0;
	if (n->depth > t->max_depth)
		t->max_depth = n->depth;
	*out = t->nnodes++;
	return 0;
}

/* A stack that ends at node n. */
static void end_stack(struct builder *b, uint32_t n, uint32_t stack)
{
	int64_t w = b->weight[stack];

	b->t->nodes[n].self = add64(b->t->nodes[n].self, w);
	if (b->base[stack])
		b->t->base_self[n] =
		        add64(b->t->base_self[n], (int64_t)(0 - (uint64_t)w));
}

/* Groups of at most this many stacks are sorted in place by insertion. */
#define SHORT_GROUP 24

static void sort_short(struct cursor *cur, uint32_t n)
{
	for (uint32_t i = 1; i < n; i++) {
		struct cursor c = cur[i];
		uint32_t j = i;

		for (; j > 0 && cur[j - 1].key > c.key; j--)
			cur[j] = cur[j - 1];
		cur[j] = c;
	}
}

static void sort_u32(uint32_t *v, uint32_t n);

/*
 * Sort the stacks src[a, e), whose keys lie in [min, max], by key into
 * dst[a, e) with one counting pass. The keys met go to b->seen[0, *out) in
 * increasing order, and b->count[k] is left at the end of key k's run:
 * the caller sets it back to zero.
 */
static void sort_counting(struct builder *b, const struct cursor *src,
                          struct cursor *dst, uint32_t a, uint32_t e,
                          uint32_t min, uint32_t max, uint32_t *out)
{
	uint32_t *count = b->count, *seen = b->seen, d = 0, at = a;

	for (uint32_t i = a; i < e; i++)
		if (count[src[i].key]++ == 0)
			seen[d++] = src[i].key;
	/* When the keys are dense in their range, walking the range is
	 * cheaper than sorting them. */
	if ((uint64_t)(max - min) <= 4 * (uint64_t)d) {
		d = 0;
		for (uint32_t k = min;; k++) {
			if (count[k])
				seen[d++] = k;
			if (k == max)
				break;
		}
	} else {
		sort_u32(seen, d);
	}
	for (uint32_t j = 0; j < d; j++) {
		uint32_t c = count[seen[j]];

		count[seen[j]] = at;
		at += c;
	}
	for (uint32_t i = a; i < e; i++)
		dst[count[src[i].key]++] = src[i];
	*out = d;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static void sort_u32(uint32_t *v, uint32_t n)
{
	if (n > 32) {
		qsort(v, n, sizeof(*v), cmp_u32);
		return;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = v[i], j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static int push_task(struct builder *b, uint32_t a, uint32_t e, uint32_t parent,
                     uint32_t key, uint32_t depth, uint32_t buf)
{
	struct task *tk;
	int err;

	if ((err = pp_grow(b->t->ctx, (void **)&b->tasks, &b->cap_tasks,
	                   b->ntasks + 1, sizeof(*b->tasks))) < 0)
		return err;
	tk = &b->tasks[b->ntasks++];
	tk->a = a;
	tk->b = e;
	tk->parent = parent;
	tk->key = key;
	tk->depth = depth;
	tk->buf = buf;
	b->pending += e - a;
	return 0;
}

/* Queue one task per run of equal keys in the sorted short group
 * cur[a, e) of array buf, last to first, ending the stacks of key 0. */
static int push_short_runs(struct builder *b, const struct cursor *cur,
                           uint32_t n, uint32_t depth, uint32_t a, uint32_t e,
                           uint32_t buf)
{
	uint32_t stop = a;
	int err;

	while (stop < e && cur[stop].key == 0)
		end_stack(b, n, cur[stop++].stack);
	for (uint32_t j = e; j > stop;) {
		uint32_t i = j - 1;

		while (i > stop && cur[i - 1].key == cur[j - 1].key)
			i--;
		if ((err = push_task(b, i, j, n, cur[i].key, depth + 1, buf)) <
		    0)
			return err;
		j = i;
	}
	return 0;
}

/*
 * Build the subtree of node n (at depth) from the stacks [a, e) of cursor
 * array buf, whose cursors stand just below n: straight down while they
 * all go the same way, then sort them by their next frame and queue one
 * task per child, the first child on top.
 */
static int expand(struct builder *b, uint32_t n, uint32_t depth, uint32_t a,
                  uint32_t e, uint32_t buf)
{
	struct cursor *cur = buf ? b->tmp : b->cur;
	int err;

	for (;;) {
		uint32_t min = UINT32_MAX, max = 0, i, d;

		if (e - a == 1) {
			/* One sample: a chain of new nodes. */
			uint32_t k;

			while ((k = next_key(b, &cur[a])) != 0)
				if ((err = new_node(b, n, k, ++depth, &n)) < 0)
					return err;
			end_stack(b, n, cur[a].stack);
			return 0;
		}
		for (i = a; i < e; i++) {
			uint32_t k;

			if (i + AHEAD < e && cur[i + AHEAD].line == 0 &&
			    cur[i + AHEAD].pos > 0)
				PREFETCH(loc_address(b->p,
				                     cur[i + AHEAD].pos - 1));
			k = next_key(b, &cur[i]);
			/* An ended stack's value is read soon, from far. */
			if (k == 0)
				PREFETCH(&b->weight[cur[i].stack]);
			min = k < min ? k : min;
			max = k > max ? k : max;
		}
		if (min == max && min != 0) {
			if ((err = new_node(b, n, min, ++depth, &n)) < 0)
				return err;
			continue;
		}
		if (min == max) {
			for (i = a; i < e; i++)
				end_stack(b, n, cur[i].stack);
			return 0;
		}
		if (e - a <= SHORT_GROUP) {
			sort_short(cur + a, e - a);
			return push_short_runs(b, cur, n, depth, a, e, buf);
		}
		/* Sorted into the other array; the children read it there. */
		sort_counting(b, cur, buf ? b->cur : b->tmp, a, e, min, max,
		              &d);
		cur = buf ? b->cur : b->tmp;
		if ((err = pp_grow(b->t->ctx, (void **)&b->tasks, &b->cap_tasks,
		                   b->ntasks + d, sizeof(*b->tasks))) < 0)
			return err;
		/* Last run first, so that the first child is on top. */
		for (uint32_t j = d; j-- > 0;) {
			uint32_t k = b->seen[j], end = b->count[k];
			uint32_t start = j ? b->count[b->seen[j - 1]] : a;

			b->count[k] = 0;
			if (k == 0)
				for (i = start; i < end; i++)
					end_stack(b, n, cur[i].stack);
			else if ((err = push_task(b, start, end, n, k,
			                          depth + 1, !buf)) < 0)
				return err;
		}
		return 0;
	}
}

static uint64_t stack_hash(struct pp_locs locs, uint32_t n, bool base)
{
	uint64_t h = n * 0x9E3779B97F4A7C15ull + base;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ pp_locs_at(locs, i)) * 0xff51afd7ed558ccdull;
	return h ^ h >> 29;
}

/* A distinct stack in the hash: its hash's high bits with the base flag
 * as bit 0 (tag), its number + 1 (0: empty), and its locations. */
struct stack_slot {
	uint32_t tag, stack, first, count;
};

static uint64_t sample_hash(const struct builder *b, uint32_t s)
{
	const struct pp_sample *smp = &b->p->samples[s];
	bool base = pp_sample_is_base(b->p, s, b->base_mark);
	uint64_t h =
	        stack_hash(pp_sample_locs(b->p, smp), smp->loc_count, base);

	return (h & ~((uint64_t)1 << 32)) | (uint64_t)base << 32;
}

/* Samples from which the stacks' hashes are computed on two threads. */
#define PARALLEL_MIN_SAMPLES 200000

/* sample_hash of samples [first, last), into hashes. */
struct hash_range {
	const struct builder *b;
	uint64_t *hashes;
	uint32_t first, last;
};

static void *hash_run(void *arg)
{
	struct hash_range *r = arg;

	for (uint32_t s = r->first; s < r->last; s++)
		r->hashes[s] = sample_hash(r->b, s);
	return NULL;
}

/* Every sample's stack hash, the second half by a second thread: reading
 * every location of every sample is most of finding the distinct stacks.
 * NULL when the profile is small or the memory is not there (the caller
 * then hashes as it goes). */
static uint64_t *hash_samples(const struct builder *b)
{
	uint32_t n = b->p->nsamples;
	struct hash_range lo, hi;
	struct pp_helper helper;
	uint64_t *hashes;

	if (n < PARALLEL_MIN_SAMPLES ||
	    !(hashes = pp_malloc(b->t->ctx, (size_t)n * sizeof(*hashes))))
		return NULL;
	lo = (struct hash_range){b, hashes, 0, n / 2};
	hi = (struct hash_range){b, hashes, n / 2, n};
	pp_helper_start(&helper, hash_run, &hi);
	hash_run(&lo);
	pp_helper_finish(&helper);
	return hashes;
}

/* About how many frames nlocs locations hold: as many as the profile's
 * locations hold on average. */
static uint64_t guess_frames(const struct builder *b, uint64_t nlocs)
{
	uint64_t nl = b->p->nlocations ? b->p->nlocations : 1;

	return nlocs / nl * b->lnf[b->p->nlocations] +
	       (nlocs % nl) * b->lnf[b->p->nlocations] / nl + 1;
}

/* How many frames sample smp has: a cut tree's whole depth is the most
 * of them, the depth of the whole tree's deepest node. */
static uint32_t sample_frames(const struct builder *b,
                              const struct pp_sample *smp)
{
	struct pp_locs locs = pp_sample_locs(b->p, smp);
	uint32_t frames = 0;

	for (uint32_t i = 0; i < smp->loc_count; i++) {
		uint32_t l = pp_locs_at(locs, i);

		frames += b->lnf[l + 1] - b->lnf[l];
	}
	return frames;
}

/*
 * One thread's share of finding the distinct stacks: the samples whose
 * hash's top bit is part (all of them when nparts is 1; equal stacks hash
 * alike, so they meet in one share), in a hash table of its own. Part 0
 * numbers its stacks 0, 1, ... and part 1 n - 1, n - 2, ...: both write
 * the builder's arrays (a stack's cursor, weight and base at its number)
 * without meeting, and distinct_stacks moves part 1's cursors after part
 * 0's once both are done.
 */
struct probe {
	struct builder *b;
	const uint64_t *hashes; /* NULL: hashed here */
	struct stack_slot *slots;
	size_t mask;
	uint32_t part, nparts;
	uint32_t found;   /* stacks found */
	uint64_t nlocs;   /* locations they hold */
	uint32_t depth;   /* a cut tree's: the most frames of one */
	bool has_base;    /* one is the base's */
	bool interrupted; /* it stopped at the interrupt flag */
};

static inline uint64_t probe_hash(const struct probe *pr, uint32_t s)
{
	return pr->hashes ? pr->hashes[s] : sample_hash(pr->b, s);
}

static inline bool probe_mine(const struct probe *pr, uint64_t h)
{
	return pr->nparts == 1 || (uint32_t)(h >> 63) == pr->part;
}

/*
 * The share's samples with a value, each found in the table by the hash
 * of its whole location list or added to it. The slots and then the
 * locations of the stack a slot holds are far from the cache; both are
 * prefetched, AHEAD and 2 * AHEAD samples ahead.
 */
static void *probe_run(void *arg)
{
	struct probe *pr = arg;
	struct builder *b = pr->b;
	const struct pp_profile *p = b->p;
	struct stack_slot *slots = pr->slots;
	const size_t mask = pr->mask;
	uint64_t ahead[2 * AHEAD], nlocs = 0;
	uint32_t n = p->nsamples, m = 0, depth = 0;
	bool has_base = false;

	/* The counts are kept in locals: the two shares' structs share a
	 * cache line, which each new stack would pull from the other
	 * thread. */
	for (uint32_t s = 0; s < 2 * AHEAD && s < n; s++) {
		ahead[s] = probe_hash(pr, s);
		if (probe_mine(pr, ahead[s]))
			PREFETCH(&slots[(size_t)ahead[s] & mask]);
	}
	for (uint32_t s = 0; s < n; s++) {
		const struct pp_sample *smp = &p->samples[s];
		uint64_t h = ahead[s % (2 * AHEAD)];
		uint32_t tag = (uint32_t)(h >> 32), k;
		int64_t w;
		size_t j;

		if ((s & 0x3ff) == 0 && pp_interrupted(b->t->ctx)) {
			pr->interrupted = true;
			break;
		}
		if (s + 2 * AHEAD < n) {
			uint64_t h2 = probe_hash(pr, s + 2 * AHEAD);

			ahead[s % (2 * AHEAD)] = h2;
			if (probe_mine(pr, h2))
				PREFETCH(&slots[(size_t)h2 & mask]);
		}
		if (s + AHEAD < n) {
			uint64_t h1 = ahead[(s + AHEAD) % (2 * AHEAD)];
			const struct stack_slot *sl = &slots[(size_t)h1 & mask];

			if (probe_mine(pr, h1) && sl->stack &&
			    sl->tag == (uint32_t)(h1 >> 32))
				PREFETCH(loc_address(p, sl->first));
		}
		if (!probe_mine(pr, h))
			continue;
		w = pp_profile_sample_values(p, s)[b->si];
		if (w == 0)
			continue;
		for (j = (size_t)h & mask; slots[j].stack; j = (j + 1) & mask)
			if (slots[j].tag == tag &&
			    slots[j].count == smp->loc_count &&
			    pp_profile_locs_equal(p, slots[j].first,
			                          smp->loc_first,
			                          smp->loc_count))
				break;
		if (slots[j].stack) {
			k = slots[j].stack - 1;
			b->weight[k] = add64(b->weight[k], w);
			continue;
		}
		k = pr->part ? n - 1 - m : m;
		slots[j].tag = tag;
		slots[j].stack = k + 1;
		slots[j].first = smp->loc_first;
		slots[j].count = smp->loc_count;
		b->cur[k].stack = k;
		b->cur[k].stop = smp->loc_first;
		b->cur[k].pos = smp->loc_first + smp->loc_count;
		if (b->reversed) {
			b->cur[k].pos = smp->loc_first;
			b->cur[k].stop = smp->loc_first + smp->loc_count;
		}
		b->cur[k].line = 0;
		nlocs += smp->loc_count;
		if (b->cut_share > 0) {
			uint32_t frames = sample_frames(b, smp);

			if (frames > depth)
				depth = frames;
		}
		b->weight[k] = w;
		b->base[k] = (unsigned char)(tag & 1);
		has_base = has_base || (tag & 1);
		m++;
	}
	pr->found = m;
	pr->nlocs = nlocs;
	pr->depth = depth;
	pr->has_base = has_base;
	return NULL;
}

/*
 * One cursor per distinct stack of the samples with a value, found with a
 * hash of the whole location list: on two threads when the samples' hashes
 * were computed first (big profiles), each with half of the table. *out:
 * how many, *nlocs: how many locations they hold in all. The table's
 * memory, no longer needed once the stacks are known, becomes the second
 * cursor array: what it holds beyond one cursor per stack goes back to
 * the system.
 */
static int distinct_stacks(struct builder *b, uint32_t *out, uint64_t *nlocs)
{
	struct pp_tree *t = b->t;
	const struct pp_profile *p = b->p;
	struct stack_slot *slots = NULL;
	struct probe pr[2];
	uint64_t *hashes = NULL;
	size_t nslots = 16, bytes;
	uint32_t n = p->nsamples, m;
	struct pp_helper helper;
	int nparts, err = 0;

	/* Each half of the table holds more slots than there are samples,
	 * so a probe always ends. */
	*out = 0;
	*nlocs = 0;
	while (nslots / 2 <= n && nslots <= SIZE_MAX / 64)
		nslots *= 2;
	if (nslots / 2 <= n)
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
	bytes = nslots * sizeof(*slots);
	if (bytes < ((size_t)n + 1) * sizeof(*b->tmp))
		bytes = ((size_t)n + 1) * sizeof(*b->tmp);
	/* Zeroed by the allocator: fresh memory is not written twice. */
	slots = pp_calloc(t->ctx, 1, bytes);
	b->weight = pp_malloc(t->ctx, ((size_t)n + 1) * sizeof(*b->weight));
	b->base = pp_malloc(t->ctx, (size_t)n + 1);
	b->cur = pp_malloc(t->ctx, ((size_t)n + 1) * sizeof(*b->cur));
	if (!slots || !b->weight || !b->base || !b->cur) {
		err = pp_error(t->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	hashes = hash_samples(b);
	nparts = hashes ? 2 : 1;
	for (int i = 0; i < 2; i++)
		pr[i] = (struct probe){
		        .b = b,
		        .hashes = hashes,
		        .slots = slots + i * (nslots / 2),
		        .mask = (nparts == 2 ? nslots / 2 : nslots) - 1,
		        .part = (uint32_t)i,
		        .nparts = (uint32_t)nparts,
		};
	if (nparts == 2)
		pp_helper_start(&helper, probe_run, &pr[1]);
	probe_run(&pr[0]);
	if (nparts == 2)
		pp_helper_finish(&helper);
	if (pr[0].interrupted || (nparts == 2 && pr[1].interrupted)) {
		err = pp_error_interrupted(t->ctx);
		goto done;
	}
	m = pr[0].found;
	*nlocs = pr[0].nlocs;
	t->has_base = pr[0].has_base;
	t->whole_depth = pr[0].depth;
	if (nparts == 2) {
		/* Part 1's cursors, numbered from the back, follow part 0's;
		 * each keeps its stack's number. */
		memmove(b->cur + m, b->cur + (n - pr[1].found),
		        (size_t)pr[1].found * sizeof(*b->cur));
		m += pr[1].found;
		*nlocs += pr[1].nlocs;
		t->has_base = t->has_base || pr[1].has_base;
		if (pr[1].depth > t->whole_depth)
			t->whole_depth = pr[1].depth;
	}
	*out = m;
	b->tmp = (struct cursor *)(void *)slots;
	slots = NULL;
	pp_pages_release(b->tmp + m + 1,
	                 bytes - ((size_t)m + 1) * sizeof(*b->tmp));
done:
	pp_free(t->ctx, hashes);
	pp_free(t->ctx, slots);
	return err;
}

/*
 * Size t's node array once for want nodes (about as many as the frames of
 * the stacks it is built from: the most they can make), so that it does
 * not move: a grown array is copied, and the copy writes pages that the
 * nodes would not have needed. Pages never written cost nothing. When so
 * much cannot be had, or more nodes come, the array grows as it fills.
 */
static void reserve_nodes(struct builder *b, uint64_t want)
{
	struct pp_tree *t = b->t;
	size_t bytes;
	void *p;

	if (want > UINT32_MAX)
		want = UINT32_MAX;
	if (want <= b->cap_nodes ||
	    pp_mul_size((size_t)want, sizeof(*t->nodes), &bytes) < 0)
		return;
	p = pp_realloc(t->ctx, t->nodes, bytes);
	if (p) {
		t->nodes = p;
		b->cap_nodes = (size_t)want;
	}
}

/* The value of the stacks [a, e) of cursor array buf. */
static int64_t task_value(const struct builder *b, uint32_t a, uint32_t e,
                          uint32_t buf)
{
	const struct cursor *cur = buf ? b->tmp : b->cur;
	int64_t v = 0;

	for (uint32_t i = a; i < e; i++) {
		if (i + AHEAD < e)
			PREFETCH(&b->weight[cur[i + AHEAD].stack]);
		v = add64(v, b->weight[cur[i].stack]);
	}
	return v;
}

/* Build the child on top of b's stack. */
static int build_top(struct builder *b)
{
	struct task tk = b->tasks[--b->ntasks];
	uint32_t n = 0;
	int err;

	b->pending -= tk.b - tk.a;
	if (b->cutting) {
		/* Too thin to be built: its value goes to its parent's
		 * total, which the final sweep completes (a part's first
		 * tasks' parents are in the main array: join_part adds it). */
		int64_t v = task_value(b, tk.a, tk.b, tk.buf);

		if (v < b->cut_min) {
			if (tk.parent == PP_NONE) {
				b->root_cut[b->roots_taken++] = v;
				b->t->cut = true;
			} else {
				note_cut(b->t, tk.parent, v);
			}
			return 0;
		}
	}
	if (tk.parent == PP_NONE)
		b->root_built[b->roots_taken++] = 1;
	if ((err = new_node(b, tk.parent, tk.key, tk.depth, &n)) < 0)
		return err;
	return expand(b, n, tk.depth, tk.a, tk.b, tk.buf);
}

/* Build the children on b's stack, each completely before the next. */
static int build_tasks(struct builder *b)
{
	size_t turn = 0;
	int err;

	while (b->ntasks > 0)
		if ((err = pp_interrupt_poll(b->t->ctx, ++turn)) < 0 ||
		    (err = build_top(b)) < 0)
			return err;
	return 0;
}

/*
 * A big tree is built on two threads. The children on the stack are
 * independent subtrees, and everything below the bottom ones is built
 * after everything the top ones hold. So once the stack can be cut into
 * two parts of about equal size, a second thread builds the bottom part
 * into a node array of its own, which is appended when the first thread
 * has built the top part: the nodes stay in preorder.
 */

/* Fewer distinct stacks than this are built on one thread. */
#define PARALLEL_MIN_STACKS 100000

struct part {
	struct builder b;
	struct pp_tree t; /* nodes, nnodes, max_depth, ctx: the part's */
	struct pp_ctx ctx;
	uint32_t *root_parents; /* of the nodes made for the stack's tasks */
	uint32_t nroots;
	int err;
};

static void *part_run(void *arg)
{
	struct part *pt = arg;

	pt->err = build_tasks(&pt->b);
	return NULL;
}

/* Where to cut the stack: k such that tasks [0, k) hold about half of the
 * pending stacks, or 0 when no cut leaves each side a quarter. */
static size_t find_cut(const struct builder *b)
{
	uint64_t below = 0, half = b->pending / 2;

	for (size_t k = 0; k < b->ntasks; k++) {
		uint64_t next = below + (b->tasks[k].b - b->tasks[k].a);

		if (next >= half) {
			/* Cut before or after task k, whichever is nearer. */
			uint64_t part =
			        next - half <= half - below ? next : below;
			size_t cut = part == next ? k + 1 : k;

			if (part * 4 >= b->pending &&
			    (b->pending - part) * 4 >= b->pending &&
			    cut < b->ntasks)
				return cut;
			return 0;
		}
		below = next;
	}
	return 0;
}

/* Hand tasks [0, cut) of b's stack to pt. */
static int start_part(struct builder *b, struct part *pt, size_t cut)
{
	struct pp_tree *t = b->t;
	uint64_t nlocs = 0, lines = 0;

	memset(pt, 0, sizeof(*pt));
	pt->ctx = *t->ctx;
	pt->t.ctx = &pt->ctx;
	pt->b = *b;
	pt->b.t = &pt->t;
	pt->b.tasks = NULL;
	pt->b.ntasks = pt->b.cap_tasks = 0;
	pt->b.pending = 0;
	pt->b.cap_nodes = pt->b.cap_base = 0;
	pt->b.cap_cut_value = pt->b.cap_cut_count = 0;
	pt->root_parents = pp_malloc(t->ctx, cut * sizeof(*pt->root_parents));
	pt->b.tasks = pp_malloc(t->ctx, cut * sizeof(*pt->b.tasks));
	pt->b.count = pp_calloc(t->ctx, (size_t)b->nkeys, sizeof(*b->count));
	pt->b.seen = pp_malloc(t->ctx, (size_t)b->nkeys * sizeof(*b->seen));
	pt->b.roots_taken = 0;
	pt->b.root_built = pp_calloc(t->ctx, cut, 1);
	pt->b.root_cut = pp_calloc(t->ctx, cut, sizeof(*pt->b.root_cut));
	if (!pt->root_parents || !pt->b.tasks || !pt->b.count || !pt->b.seen ||
	    !pt->b.root_built || !pt->b.root_cut)
		return pp_error(t->ctx, PP_ENOMEM, "out of memory");
	/* The part's first nodes hang from nodes of the main array: they
	 * get PP_NONE, and their parents in the order they are made (the
	 * stack's top first) are kept aside. */
	for (size_t i = 0; i < cut; i++) {
		const struct task *tk = &b->tasks[i];
		const struct cursor *cur = tk->buf ? b->tmp : b->cur;

		pt->b.tasks[i] = *tk;
		pt->b.tasks[i].parent = PP_NONE;
		pt->root_parents[i] = b->tasks[cut - 1 - i].parent;
		pt->b.pending += tk->b - tk->a;
		for (uint32_t c = tk->a; c < tk->b; c++) {
			nlocs += b->reversed ? cur[c].stop - cur[c].pos
			                     : cur[c].pos - cur[c].stop;
			lines += cur[c].line;
		}
	}
	reserve_nodes(&pt->b, guess_frames(b, nlocs) + lines + cut);
	pt->nroots = (uint32_t)cut;
	pt->b.ntasks = pt->b.cap_tasks = cut;
	memmove(b->tasks, b->tasks + cut,
	        (b->ntasks - cut) * sizeof(*b->tasks));
	b->ntasks -= cut;
	b->pending -= pt->b.pending;
	return 0;
}

/* Nodes copied between releases of the part's pages (2 MB). */
#define JOIN_CHUNK 65536

/* Append the part's nodes to b's array. */
static int join_part(struct builder *b, struct part *pt)
{
	struct pp_tree *t = b->t;
	uint32_t base = t->nnodes, r = 0;
	int err;

	if ((uint64_t)t->nnodes + pt->t.nnodes >= UINT32_MAX)
		return pp_error(t->ctx, PP_ELIMIT, "too many distinct stacks");
	if ((err = pp_grow(t->ctx, (void **)&t->nodes, &b->cap_nodes,
	                   (size_t)t->nnodes + pt->t.nnodes,
	                   sizeof(*t->nodes))) < 0)
		return err;
	if (b->cutting) {
		if ((err = cut_room(b, (size_t)t->nnodes + pt->t.nnodes)) < 0)
			return err;
		if (pt->t.nnodes) {
			memcpy(t->cut_value + base, pt->t.cut_value,
			       pt->t.nnodes * sizeof(*t->cut_value));
			memcpy(t->cut_count + base, pt->t.cut_count,
			       pt->t.nnodes * sizeof(*t->cut_count));
		}
	}
	/* In chunks, each returned to the system once copied, so that the
	 * two arrays are not resident at once. */
	for (uint32_t i = 0; i < pt->t.nnodes; i += JOIN_CHUNK) {
		uint32_t k = pt->t.nnodes - i < JOIN_CHUNK ? pt->t.nnodes - i
		                                           : JOIN_CHUNK;

		for (uint32_t j = i; j < i + k; j++) {
			struct pp_tree_node *n = &t->nodes[base + j];

			*n = pt->t.nodes[j];
			if (n->parent == PP_NONE) {
				/* The next first task that was built. */
				while (!pt->b.root_built[r])
					r++;
				n->parent = pt->root_parents[r++];
			} else {
				n->parent += base;
			}
		}
		pp_pages_release(pt->t.nodes + i, k * sizeof(*pt->t.nodes));
	}
	t->nnodes += pt->t.nnodes;
	if (pt->t.max_depth > t->max_depth)
		t->max_depth = pt->t.max_depth;
	/* First tasks too thin to be built: their parents' totals. */
	for (uint32_t i = 0; i < pt->nroots; i++)
		if (pt->b.root_cut[i])
			note_cut(t, pt->root_parents[i], pt->b.root_cut[i]);
	t->cut = t->cut || pt->t.cut;
	return 0;
}

static void release_part(struct builder *b, struct part *pt)
{
	pp_free(b->t->ctx, pt->b.tasks);
	pp_free(b->t->ctx, pt->b.count);
	pp_free(b->t->ctx, pt->b.seen);
	pp_free(b->t->ctx, pt->root_parents);
	pp_free(b->t->ctx, pt->b.root_built);
	pp_free(b->t->ctx, pt->b.root_cut);
	pp_free(b->t->ctx, pt->t.nodes);
	pp_free(b->t->ctx, pt->t.cut_value);
	pp_free(b->t->ctx, pt->t.cut_count);
}

static int add_samples(struct builder *b)
{
	struct pp_tree *t = b->t;
	struct part pt;
	pthread_t helper;
	bool parallel, split = false, threaded = false;
	uint64_t budget = 1u << 20; /* tasks looked at for a cut */
	uint64_t nlocs;
	size_t turn = 0;
	uint32_t m;
	int err;

	memset(&pt, 0, sizeof(pt));
	if (b->p->nsample_locs > UINT32_MAX)
		return pp_error(t->ctx, PP_ELIMIT, "too many stack frames");
	if ((err = distinct_stacks(b, &m, &nlocs)) < 0)
		return err;
	reserve_nodes(b, t->nnodes + guess_frames(b, nlocs));
	if (t->has_base) {
		if ((err = pp_grow(t->ctx, (void **)&t->base_self, &b->cap_base,
		                   1, sizeof(*t->base_self))) < 0)
			return err;
		t->base_self[0] = 0;
	}
	if (m == 0)
		return 0;
	if (b->cut_share > 0 && !t->has_base) {
		int64_t all = task_value(b, 0, m, 0);

		/* A share past 1 (a flame's -minwidth wider than the picture)
		 * leaves out every subtree, as does the most an int64_t
		 * holds: C's conversion of more is undefined. */
		b->cut_min = pp_int64_clamped((double)all * b->cut_share);
		b->cutting = all > 0 && b->cut_min > 0;
		if (b->cutting && (err = cut_room(b, t->nnodes)) < 0)
			return err;
	}
	/* The part keeps no base sums: a diff is built on one thread. A cut
	 * tree is small, but finding its top still reads the first frames
	 * of most stacks: two threads too. */
	parallel = m >= PARALLEL_MIN_STACKS && !t->has_base;
	if ((err = expand(b, 0, 0, 0, m, 0)) < 0)
		return err;
	while (b->ntasks > 0) {
		size_t cut;

		if (parallel && !split && budget >= b->ntasks &&
		    (cut = find_cut(b)) > 0) {
			split = true;
			if ((err = start_part(b, &pt, cut)) < 0)
				goto done;
			threaded = pthread_create(&helper, NULL, part_run,
			                          &pt) == 0;
		}
		budget -= budget >= b->ntasks ? b->ntasks : budget;
		if ((err = pp_interrupt_poll(t->ctx, ++turn)) < 0 ||
		    (err = build_top(b)) < 0)
			goto done;
	}
done:
	if (threaded)
		pthread_join(helper, NULL);
	else if (split && err >= 0)
		part_run(&pt);
	if (split && err >= 0 && pt.err < 0) {
		err = pt.err;
		memcpy(t->ctx->message, pt.ctx.message, sizeof(pt.ctx.message));
		t->ctx->message_len = pt.ctx.message_len;
	}
	if (split && err >= 0)
		err = join_part(b, &pt);
	if (split)
		release_part(b, &pt);
	return err;
}

struct name_ref {
	const char *name;
	size_t len;
	uint32_t node;
};

static int cmp_name_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = pp_bytes_cmp(x->name, x->len, y->name, y->len);

	if (c)
		return c;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Every graph node's name, and its rank in byte order (ties by node). */
static int rank_names(struct pp_tree *t, uint32_t *rank, uint32_t *by_rank)
{
	const struct pp_graph *g = t->graph;
	struct name_ref *refs = NULL;
	size_t used = 0, cap = 0;
	int err = 0;

	refs = pp_malloc(t->ctx, ((size_t)g->nnodes + 1) * sizeof(*refs));
	t->name_off =
	        pp_malloc(t->ctx, ((size_t)g->nnodes + 1) * sizeof(size_t));
	if (!refs || !t->name_off) {
		err = pp_error(t->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t n = 0; n < g->nnodes; n++) {
		size_t len = pp_node_name(g, &g->nodes[n], NULL, 0);

		if ((err = pp_grow(t->ctx, (void **)&t->names, &cap,
		                   used + len + 1, 1)) < 0)
			goto done;
		pp_node_name(g, &g->nodes[n], t->names + used, len + 1);
		t->name_off[n] = used;
		used += len + 1;
	}
	t->name_off[g->nnodes] = used;
	t->names_size = used;
	for (uint32_t n = 0; n < g->nnodes; n++) {
		refs[n].name = t->names + t->name_off[n];
		refs[n].len = pp_tree_frame_len(t, n);
		refs[n].node = n;
	}
	if (g->nnodes > 1)
		qsort(refs, g->nnodes, sizeof(*refs), cmp_name_ref);
	for (uint32_t i = 0; i < g->nnodes; i++) {
		rank[refs[i].node] = i;
		by_rank[i] = refs[i].node;
	}
done:
	pp_free(t->ctx, refs);
	return err;
}

static int tree_build(struct pp_ctx *ctx, const struct pp_profile *prof,
                      const struct pp_graph_opts *opts, bool reversed,
                      double cut_share, struct pp_tree **out);

int pp_tree_new(struct pp_ctx *ctx, const struct pp_profile *prof,
                const struct pp_graph_opts *opts, struct pp_tree **out)
{
	return tree_build(ctx, prof, opts, false, 0, out);
}

int pp_tree_new_reversed(struct pp_ctx *ctx, const struct pp_profile *prof,
                         const struct pp_graph_opts *opts, struct pp_tree **out)
{
	return tree_build(ctx, prof, opts, true, 0, out);
}

int pp_tree_new_cut(struct pp_ctx *ctx, const struct pp_profile *prof,
                    const struct pp_graph_opts *opts, double min_share,
                    struct pp_tree **out)
{
	return tree_build(ctx, prof, opts, false, min_share, out);
}

static int tree_build(struct pp_ctx *ctx, const struct pp_profile *prof,
                      const struct pp_graph_opts *opts, bool reversed,
                      double cut_share, struct pp_tree **out)
{
	struct pp_graph_opts go = *opts;
	struct builder b;
	uint32_t *rank = NULL, *by_rank = NULL, *fkey = NULL, root, nframes;
	struct pp_tree *t;
	int err;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	t = pp_calloc(ctx, 1, sizeof(*t));
	if (!t)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	t->ctx = ctx;
	go.edges = PP_EDGES_NONE;
	go.nodes_only = true;
	if ((err = pp_graph_new(ctx, prof, &go, &t->graph)) < 0)
		goto done;
	rank = pp_malloc(ctx, ((size_t)t->graph->nnodes + 1) * sizeof(*rank));
	by_rank = pp_malloc(ctx,
	                    ((size_t)t->graph->nnodes + 1) * sizeof(*by_rank));
	if (!rank || !by_rank) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = rank_names(t, rank, by_rank)) < 0)
		goto done;
	/* Each location's frames as their keys, read straight. */
	nframes = t->graph->loc_node_first[prof->nlocations];
	b.nkeys = t->graph->nnodes + 1;
	fkey = pp_malloc(ctx, ((size_t)nframes + 1) * sizeof(*fkey));
	b.count = pp_calloc(ctx, b.nkeys, sizeof(*b.count));
	b.seen = pp_malloc(ctx, (size_t)b.nkeys * sizeof(*b.seen));
	if (!fkey || !b.count || !b.seen) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t k = 0; k < nframes; k++)
		fkey[k] = rank[t->graph->loc_nodes[k]] + 1;
	b.t = t;
	b.p = prof;
	b.lnf = t->graph->loc_node_first;
	b.fkey = fkey;
	b.by_rank = by_rank;
	b.si = go.sample_index;
	b.reversed = reversed;
	b.cut_share = cut_share;
	b.base_mark = pp_profile_base_mark(prof);
	if ((err = new_node(&b, PP_NONE, 0, 0, &root)) < 0 ||
	    (err = add_samples(&b)) < 0)
		goto done;
	if (!t->cut) {
		pp_free(ctx, t->cut_value);
		pp_free(ctx, t->cut_count);
		t->cut_value = NULL;
		t->cut_count = NULL;
		t->whole_depth = 0;
	}
	/* Children come after their parents, so one backward sweep sums
	 * every subtree and finds where it ends: a node's children have
	 * added theirs when the sweep reaches it. */
	if (t->has_base) {
		t->base_total = pp_malloc(ctx, (size_t)t->nnodes *
		                                       sizeof(*t->base_total));
		if (!t->base_total) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		memcpy(t->base_total, t->base_self,
		       (size_t)t->nnodes * sizeof(*t->base_total));
	}
	for (uint32_t i = t->nnodes; i-- > 0;) {
		struct pp_tree_node *n = &t->nodes[i];
		struct pp_tree_node *p;

		n->total = add64(n->total, n->self);
		if (n->end < i + 1)
			n->end = i + 1;
		if (i == 0)
			break;
		p = &t->nodes[n->parent];
		p->total = add64(p->total, n->total);
		if (n->end > p->end)
			p->end = n->end;
		if (t->base_total)
			t->base_total[n->parent] = add64(
			        t->base_total[n->parent], t->base_total[i]);
	}
done:
	pp_free(ctx, rank);
	pp_free(ctx, by_rank);
	pp_free(ctx, fkey);
	pp_free(ctx, b.count);
	pp_free(ctx, b.seen);
	pp_free(ctx, b.cur);
	pp_free(ctx, b.tmp);
	pp_free(ctx, b.weight);
	pp_free(ctx, b.base);
	pp_free(ctx, b.tasks);
	if (err < 0) {
		pp_tree_free(t);
		return err;
	}
	*out = t;
	return 0;
}

void pp_tree_free(struct pp_tree *t)
{
	if (!t)
		return;
	pp_graph_free(t->graph);
	pp_free(t->ctx, t->nodes);
	pp_free(t->ctx, t->base_self);
	pp_free(t->ctx, t->base_total);
	pp_free(t->ctx, t->cut_value);
	pp_free(t->ctx, t->cut_count);
	pp_free(t->ctx, t->names);
	pp_free(t->ctx, t->name_off);
	pp_free(t->ctx, t);
}

const char *pp_tree_name(const struct pp_tree *t, uint32_t node)
{
	uint32_t f = t->nodes[node].frame;

	return f == PP_NONE ? "" : t->names + t->name_off[f];
}

size_t pp_tree_name_len(const struct pp_tree *t, uint32_t node)
{
	uint32_t f = t->nodes[node].frame;

	return f == PP_NONE ? 0 : pp_tree_frame_len(t, f);
}
