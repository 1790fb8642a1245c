/*
 * genprof: write a large, valid, deterministic CPU profile in pprof's
 * gzip'd profile.proto format, for benchmarking pprof-c against
 * `go tool pprof`.
 *
 *	cc -O2 -o genprof genprof.c -lz
 *	./genprof -o large.pb.gz            (~2M samples)
 *	./genprof --small -o small.pb.gz    (~480k samples)
 *	./genprof --chain 100000 -o chain.pb.gz  (one stack, 100k functions)
 *
 * The protobuf wire format is encoded by hand (varints and length-delimited
 * fields) so the generator depends on nothing but zlib and shares no code
 * with the decoder it measures. Samples are generated and compressed one at
 * a time: memory stays at a few MB whatever --samples is; only the function,
 * location and string tables are held.
 *
 * The shape imitates a Go server's CPU profile, because the cost of the
 * reports depends on it (how many distinct stacks, how deep, how often a
 * function recurs, how many inlined frames):
 *
 *  - every stack starts at runtime.goexit, then enters one of a few entry
 *    functions and walks down a layered call graph: functions sit on
 *    levels, and each call site (location) of a function calls one fixed
 *    function a level or two deeper. Stacks therefore share long prefixes,
 *    as real ones do, and each level's callees are picked with a Zipf skew
 *    so a few functions are hot and most are cold; a walk mostly takes a
 *    function's main call site, so a few paths carry most samples;
 *  - some call sites recurse (at most three times in a row);
 *  - about a third of the stacks end in a runtime "tail" (mallocgc,
 *    memmove, map access, syscalls, locks): the hot flat entries of a
 *    real profile; a few percent are short GC worker stacks;
 *  - 15% of the locations carry one or two inlined frames (several Line
 *    entries, innermost first, as profile.proto orders them).
 *
 * Everything is drawn from one seeded xoshiro256** stream, so a seed and a
 * set of options always give the same bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define NONE UINT32_MAX

static const char *progname = "genprof";
/* The temporary output file, removed if we die before renaming it. */
static char tmpname[4096];

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (tmpname[0])
		remove(tmpname);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

/* ---- random numbers ------------------------------------------------- */

/* xoshiro256** seeded through splitmix64: fast, good, and the same on
 * every platform, which is what makes the output a function of the seed. */
struct rng {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* Uniform in [0, 1): the top 53 bits, exactly representable. */
static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [0, n) by multiply-shift; the bias is below 2^-32, far under
 * anything a benchmark can notice, and it needs no division. */
static uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/*
 * Zipf with exponent 1 over ranks 0..n-1: P(k) is proportional to 1/(k+1).
 * harm[k] is the k-th harmonic number; a draw is a binary search for a
 * uniform point in [0, harm[n]). Exponent 1 keeps the table exact in
 * doubles and needs no libm (the build line links only zlib).
 */
static double *harm;
static uint32_t harm_n;

static void zipf_init(uint32_t n)
{
	harm = xrealloc(NULL, ((size_t)n + 1) * sizeof(*harm));
	harm[0] = 0;
	for (uint32_t k = 1; k <= n; k++)
		harm[k] = harm[k - 1] + 1.0 / k;
	harm_n = n;
}

static uint32_t zipf(struct rng *r, uint32_t n)
{
	double u;
	uint32_t lo = 1, hi = n;

	if (n <= 1)
		return 0;
	if (n > harm_n)
		die("internal error: zipf over %" PRIu32 " > %" PRIu32, n,
		    harm_n);
	u = rng_unit(r) * harm[n];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (harm[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo - 1;
}

/* ---- protobuf encoding ---------------------------------------------- */

struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void buf_grow(struct buf *b, size_t extra)
{
	if (b->cap - b->n >= extra)
		return;
	while (b->cap - b->n < extra)
		b->cap = b->cap ? b->cap * 2 : 256;
	b->p = xrealloc(b->p, b->cap);
}

static void buf_bytes(struct buf *b, const void *p, size_t n)
{
	buf_grow(b, n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void buf_varint(struct buf *b, uint64_t v)
{
	buf_grow(b, 10);
	while (v >= 0x80) {
		b->p[b->n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->p[b->n++] = (unsigned char)v;
}

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static void buf_tag(struct buf *b, unsigned field, unsigned wire)
{
	buf_varint(b, (uint64_t)field << 3 | wire);
}

/* Scalar field; zero is the default and, as Go's encoder does, omitted. */
static void put_uint(struct buf *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	buf_tag(b, field, WIRE_VARINT);
	buf_varint(b, v);
}

static void put_int(struct buf *b, unsigned field, int64_t v)
{
	put_uint(b, field, (uint64_t)v); /* int64: two's complement varint */
}

static void put_bool(struct buf *b, unsigned field, int v)
{
	put_uint(b, field, v ? 1 : 0);
}

static void put_len(struct buf *b, unsigned field, const void *p, size_t n)
{
	buf_tag(b, field, WIRE_LEN);
	buf_varint(b, n);
	buf_bytes(b, p, n);
}

static void put_msg(struct buf *b, unsigned field, const struct buf *m)
{
	put_len(b, field, m->p, m->n);
}

/* Compressed output. Records are gathered in a 1 MB buffer so that zlib
 * sees large writes rather than one call per ~100-byte sample. */
struct out {
	gzFile gz;
	const char *name;
	struct buf b;
	uint64_t raw; /* uncompressed bytes, for the summary */
};

static void out_flush(struct out *o)
{
	if (!o->b.n)
		return;
	if (gzwrite(o->gz, o->b.p, (unsigned)o->b.n) != (int)o->b.n) {
		int zerr;
		const char *msg = gzerror(o->gz, &zerr);

		die("%s: write failed: %s", o->name,
		    zerr == Z_ERRNO ? strerror(errno) : msg);
	}
	o->raw += o->b.n;
	o->b.n = 0;
}

static void out_buf(struct out *o, const struct buf *m)
{
	buf_bytes(&o->b, m->p, m->n);
	if (o->b.n >= (1u << 20))
		out_flush(o);
}

/* ---- the profile being generated ------------------------------------ */

/* profile.proto field numbers. */
enum {
	PROFILE_SAMPLE_TYPE = 1,
	PROFILE_SAMPLE = 2,
	PROFILE_MAPPING = 3,
	PROFILE_LOCATION = 4,
	PROFILE_FUNCTION = 5,
	PROFILE_STRING_TABLE = 6,
	PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS = 10,
	PROFILE_PERIOD_TYPE = 11,
	PROFILE_PERIOD = 12,
	VALUETYPE_TYPE = 1,
	VALUETYPE_UNIT = 2,
	SAMPLE_LOCATION_ID = 1,
	SAMPLE_VALUE = 2,
	SAMPLE_LABEL = 3,
	LABEL_KEY = 1,
	LABEL_STR = 2,
	MAPPING_ID = 1,
	MAPPING_MEMORY_START = 2,
	MAPPING_MEMORY_LIMIT = 3,
	MAPPING_FILE_OFFSET = 4,
	MAPPING_FILENAME = 5,
	MAPPING_BUILD_ID = 6,
	MAPPING_HAS_FUNCTIONS = 7,
	MAPPING_HAS_FILENAMES = 8,
	MAPPING_HAS_LINE_NUMBERS = 9,
	MAPPING_HAS_INLINE_FRAMES = 10,
	LOCATION_ID = 1,
	LOCATION_MAPPING_ID = 2,
	LOCATION_ADDRESS = 3,
	LOCATION_LINE = 4,
	LINE_FUNCTION_ID = 1,
	LINE_LINE = 2,
	FUNCTION_ID = 1,
	FUNCTION_NAME = 2,
	FUNCTION_SYSTEM_NAME = 3,
	FUNCTION_FILENAME = 4,
	FUNCTION_START_LINE = 5,
};

#define PERIOD_NS 10000000 /* 100 Hz, as runtime/pprof samples */
#define TIME_NANOS INT64_C(1700000000000000000) /* fixed: deterministic */
#define CODE_START UINT64_C(0x401000)
#define MAX_INLINE 3 /* Line entries per location */

/* The string table: index 0 is "" as profile.proto requires. */
static struct {
	char *data;
	size_t len, cap;
	size_t *off; /* start of string i; its end is off[i + 1] */
	uint32_t n, ncap;
} strs;

static uint32_t str_add(const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp))
		die("internal error: string too long");
	if (strs.n + 2 > strs.ncap) {
		strs.ncap = strs.ncap ? strs.ncap * 2 : 1024;
		strs.off = xrealloc(strs.off, strs.ncap * sizeof(*strs.off));
	}
	/* >=, so that even the first, empty string allocates: memcpy wants
	 * a valid pointer whatever the length. */
	if (strs.len + (size_t)n >= strs.cap) {
		while (strs.len + (size_t)n >= strs.cap)
			strs.cap = strs.cap ? strs.cap * 2 : 65536;
		strs.data = xrealloc(strs.data, strs.cap);
	}
	memcpy(strs.data + strs.len, tmp, (size_t)n);
	strs.off[strs.n] = strs.len;
	strs.len += (size_t)n;
	strs.off[strs.n + 1] = strs.len;
	return strs.n++;
}

struct func {
	uint32_t name, file; /* string indices */
	uint32_t start_line;
	uint32_t pkg;             /* package number; NONE for the runtime */
	uint32_t level;           /* depth in the layered call graph */
	uint32_t first_loc, nloc; /* its locations, 0-based and contiguous */
};

struct loc {
	uint64_t addr;
	uint32_t callee; /* function called from here; NONE in a leaf */
	uint32_t nlines;
	uint32_t fn[MAX_INLINE]; /* innermost inlined first, owner last */
	uint32_t line[MAX_INLINE];
};

/*
 * Runtime and standard-library functions, for the stack tails that carry
 * most of the flat time in a real Go CPU profile.
 */
enum {
	RT_GOEXIT,
	RT_MALLOCGC,
	RT_NEXTFREEFAST,
	RT_MEMMOVE,
	RT_MAPACCESS2,
	RT_MEMHASH,
	RT_SYSCALL,
	RT_SYSCALL6,
	RT_CHANRECV,
	RT_LOCK2,
	RT_FUTEX,
	RT_MUTEXLOCK,
	RT_LOCKSLOW,
	RT_GCBGMARKWORKER,
	RT_GCDRAIN,
	RT_SCANOBJECT,
	RT_GREYOBJECT,
	RT_N
};

static const struct {
	const char *name, *file;
	uint32_t line;
} runtime_funcs[RT_N] = {
        [RT_GOEXIT] = {"runtime.goexit", "runtime/asm_amd64.s", 1650},
        [RT_MALLOCGC] = {"runtime.mallocgc", "runtime/malloc.go", 905},
        [RT_NEXTFREEFAST] = {"runtime.nextFreeFast", "runtime/malloc.go", 815},
        [RT_MEMMOVE] = {"runtime.memmove", "runtime/memmove_amd64.s", 33},
        [RT_MAPACCESS2] = {"runtime.mapaccess2_faststr",
                           "runtime/map_faststr.go", 107},
        [RT_MEMHASH] = {"runtime.memhash", "runtime/asm_amd64.s", 1093},
        [RT_SYSCALL] = {"syscall.Syscall", "syscall/syscall_linux.go", 68},
        [RT_SYSCALL6] = {"runtime/internal/syscall.Syscall6",
                         "runtime/internal/syscall/asm_linux_amd64.s", 36},
        [RT_CHANRECV] = {"runtime.chanrecv", "runtime/chan.go", 455},
        [RT_LOCK2] = {"runtime.lock2", "runtime/lock_futex.go", 48},
        [RT_FUTEX] = {"runtime.futex", "runtime/sys_linux_amd64.s", 553},
        [RT_MUTEXLOCK] = {"sync.(*Mutex).Lock", "sync/mutex.go", 81},
        [RT_LOCKSLOW] = {"sync.(*Mutex).lockSlow", "sync/mutex.go", 117},
        [RT_GCBGMARKWORKER] = {"runtime.gcBgMarkWorker", "runtime/mgc.go",
                               1199},
        [RT_GCDRAIN] = {"runtime.gcDrain", "runtime/mgcmark.go", 1019},
        [RT_SCANOBJECT] = {"runtime.scanobject", "runtime/mgcmark.go", 1258},
        [RT_GREYOBJECT] = {"runtime.greyobject", "runtime/mgcmark.go", 1449},
};

/* Runtime functions have two locations each, goexit one. Their ids come
 * first, so the hottest frames get the shortest varints, as in a real
 * profile where the runtime's locations are met first. */
#define RT_LOCS (2 * RT_N - 1)

/* Stack tails, caller first, and their relative weights. */
static const struct tail {
	uint32_t n, weight;
	uint32_t fn[3];
} tails[] = {
        {2, 6, {RT_MALLOCGC, RT_NEXTFREEFAST, 0}},
        {1, 4, {RT_MALLOCGC, 0, 0}},
        {1, 6, {RT_MEMMOVE, 0, 0}},
        {2, 4, {RT_MAPACCESS2, RT_MEMHASH, 0}},
        {2, 3, {RT_SYSCALL, RT_SYSCALL6, 0}},
        {3, 2, {RT_CHANRECV, RT_LOCK2, RT_FUTEX}},
        {3, 2, {RT_MUTEXLOCK, RT_LOCKSLOW, RT_FUTEX}},
};
#define NTAILS (sizeof(tails) / sizeof(tails[0]))

/* How often a walk takes a function's main call site (its first location)
 * rather than a Zipf-chosen one. Real profiles are dominated by a few hot
 * paths; this also sets how well the file compresses (0.75 gives ~5.5x at
 * gzip -6, in the range of real profiles). */
#define HOT_SITE 0.75
#define TAIL_FRACTION 0.35
#define GC_FRACTION 0.03
#define FUNCS_PER_PKG 40
#define FUNCS_PER_TYPE 8
#define NENDPOINTS 24

struct options {
	uint64_t functions, locations, samples, min_depth, max_depth;
	uint64_t seed, level, chain;
	int labels, small;
	const char *output;
};

static struct func *funcs;
static struct loc *locs;
static uint32_t nfuncs, nlocs;
static uint32_t **level_funcs; /* per level, in Zipf rank order */
static uint32_t *level_n, nlevels;
static uint64_t code_end;

/* A callee on the first non-empty level at or below `level`, Zipf-ranked. */
static uint32_t pick_callee(struct rng *r, uint32_t level)
{
	for (; level < nlevels; level++)
		if (level_n[level])
			return level_funcs[level][zipf(r, level_n[level])];
	return NONE;
}

static uint32_t func_name(uint32_t pkg, uint32_t j)
{
	uint32_t t = j / FUNCS_PER_TYPE, m = j % FUNCS_PER_TYPE;
	const char *base = "github.com/acme/svc/pkg";

	/* A constructor, six methods and a closure inside the last one. */
	if (m == 0)
		return str_add("%s%02" PRIu32 ".NewType%02" PRIu32, base, pkg,
		               t);
	if (m == FUNCS_PER_TYPE - 1)
		return str_add("%s%02" PRIu32 ".(*Type%02" PRIu32
		               ").Method%02" PRIu32 ".func1",
		               base, pkg, t, m - 1);
	return str_add("%s%02" PRIu32 ".(*Type%02" PRIu32 ").Method%02" PRIu32,
	               base, pkg, t, m);
}

static void build_tables(const struct options *opt, struct rng *r)
{
	uint32_t ngen = nfuncs - RT_N; /* generated (non-runtime) functions */
	uint32_t nentry, *perm, *fill, loc_cursor, file = NONE, line = 0;
	uint64_t addr = CODE_START;

	funcs = xcalloc(nfuncs, sizeof(*funcs));
	locs = xcalloc(nlocs, sizeof(*locs));

	/* Enough levels that a max-depth walk, which sometimes skips a level,
	 * rarely runs out of callees before reaching its depth. */
	nlevels = (uint32_t)(opt->max_depth + opt->max_depth / 4 + 16);
	level_n = xcalloc(nlevels, sizeof(*level_n));
	level_funcs = xcalloc(nlevels, sizeof(*level_funcs));

	for (uint32_t i = 0; i < RT_N; i++) {
		funcs[i].name = str_add("%s", runtime_funcs[i].name);
		funcs[i].file =
		        str_add("/usr/local/go/src/%s", runtime_funcs[i].file);
		funcs[i].start_line = runtime_funcs[i].line;
		funcs[i].pkg = NONE;
		funcs[i].level = NONE;
		funcs[i].nloc = i == RT_GOEXIT ? 1 : 2;
	}
	for (uint32_t g = 0; g < ngen; g++) {
		struct func *f = &funcs[RT_N + g];
		uint32_t pkg = g / FUNCS_PER_PKG, j = g % FUNCS_PER_PKG;
		uint32_t t = j / FUNCS_PER_TYPE;

		f->pkg = pkg;
		f->name = func_name(pkg, j);
		/* One file per type: functions of a type are consecutive. */
		if (j % FUNCS_PER_TYPE == 0) {
			file = str_add("/src/github.com/acme/svc/pkg%02" PRIu32
			               "/type%02" PRIu32 ".go",
			               pkg, t);
			line = 20 + rng_below(r, 40);
		}
		f->file = file;
		f->start_line = line;
		f->nloc = 1;
	}
	/* The other locations go to random functions: most functions get
	 * one to four call sites, a few get more. */
	for (uint64_t k = RT_LOCS + ngen; k < nlocs; k++)
		funcs[RT_N + rng_below(r, ngen)].nloc++;

	/* Levels. A few entry points on level 0 (goroutine bodies, handlers);
	 * the rest spread evenly. The order in which a level's functions are
	 * listed is its Zipf rank, so it comes from a shuffle: hot functions
	 * fall in every package, not just the first ones. */
	perm = xcalloc(ngen, sizeof(*perm));
	for (uint32_t g = 0; g < ngen; g++)
		perm[g] = RT_N + g;
	for (uint32_t g = ngen; g > 1; g--) {
		uint32_t k = rng_below(r, g), tmp = perm[g - 1];

		perm[g - 1] = perm[k];
		perm[k] = tmp;
	}
	nentry = ngen / 400 > 2 ? ngen / 400 : 2;
	for (uint32_t g = 0; g < ngen; g++) {
		uint32_t lv = g < nentry ? 0 : 1 + rng_below(r, nlevels - 1);

		funcs[perm[g]].level = lv;
		level_n[lv]++;
	}
	fill = xcalloc(nlevels, sizeof(*fill));
	for (uint32_t lv = 0; lv < nlevels; lv++)
		level_funcs[lv] = xcalloc(level_n[lv], sizeof(uint32_t));
	for (uint32_t g = 0; g < ngen; g++) {
		uint32_t lv = funcs[perm[g]].level;

		level_funcs[lv][fill[lv]++] = perm[g];
	}
	free(fill);
	free(perm);

	/* Locations: contiguous per function, addresses increasing through
	 * the text segment, line numbers increasing through the function. */
	loc_cursor = 0;
	for (uint32_t i = 0; i < nfuncs; i++) {
		struct func *f = &funcs[i];

		f->first_loc = loc_cursor;
		loc_cursor += f->nloc;
		addr += 16 * (1 + rng_below(r, 8)); /* alignment padding */
		for (uint32_t k = 0; k < f->nloc; k++) {
			struct loc *l = &locs[f->first_loc + k];

			addr += 4 + rng_below(r, 60);
			l->addr = addr;
			l->nlines = 1;
			l->fn[0] = i;
			l->line[0] =
			        f->start_line + 2 + 4 * k + rng_below(r, 4);
			l->callee = NONE;
		}
		/* The next function in the same file starts below this one. */
		if (i + 1 < nfuncs && funcs[i + 1].file == f->file)
			funcs[i + 1].start_line = f->start_line + 6 +
			                          4 * f->nloc +
			                          rng_below(r, 12);
	}
	code_end = addr + 4096;
	if (loc_cursor != nlocs)
		die("internal error: %" PRIu32
		    " locations laid out, want %" PRIu32,
		    loc_cursor, nlocs);

	/* Call sites and inlining, for generated functions only: the runtime
	 * tails are wired by hand in gen_stack. */
	for (uint32_t i = RT_N; i < nfuncs; i++) {
		struct func *f = &funcs[i];
		uint32_t pkg_first = RT_N + f->pkg * FUNCS_PER_PKG;
		uint32_t pkg_n = nfuncs - pkg_first < FUNCS_PER_PKG
		                         ? nfuncs - pkg_first
		                         : FUNCS_PER_PKG;

		for (uint32_t k = 0; k < f->nloc; k++) {
			struct loc *l = &locs[f->first_loc + k];
			double u = rng_unit(r);
			uint32_t ninl;

			/* Location 0 never recurses, so a walk that has
			 * recursed enough can always leave through it. */
			if (k > 0 && f->level > 0 && u < 0.02)
				l->callee = i;
			else if (f->level + 1 < nlevels)
				l->callee = pick_callee(
				        r, f->level + 1 +
				                   (u < 0.80   ? 0
				                    : u < 0.95 ? 1
				                               : 2));

			/* Inlined helpers come from the same package, as
			 * small unexported helpers usually do. */
			u = rng_unit(r);
			ninl = u < 0.03 ? 2 : u < 0.15 ? 1 : 0;
			if (pkg_n < 3)
				ninl = 0;
			for (uint32_t m = 0; m < ninl; m++) {
				uint32_t h;

				do
					h = pkg_first + rng_below(r, pkg_n);
				while (h == i || (m == 1 && h == l->fn[0]));
				/* Shift the owner (and any earlier inlined
				 * frame) outward: index 0 stays innermost. */
				memmove(&l->fn[1], &l->fn[0],
				        l->nlines * sizeof(l->fn[0]));
				memmove(&l->line[1], &l->line[0],
				        l->nlines * sizeof(l->line[0]));
				l->fn[0] = h;
				l->line[0] = funcs[h].start_line + 1 +
				             rng_below(r, 4);
				l->nlines++;
			}
		}
	}
}

/* Everything is freed before exit only so that leak checkers stay quiet. */
static void free_tables(void)
{
	for (uint32_t lv = 0; lv < nlevels; lv++)
		free(level_funcs[lv]);
	free(level_funcs);
	free(level_n);
	free(funcs);
	free(locs);
	free(harm);
	free(strs.data);
	free(strs.off);
}

static void write_header(struct out *o, uint32_t s_samples, uint32_t s_count,
                         uint32_t s_cpu, uint32_t s_ns)
{
	struct buf vt = {0}, top = {0};

	put_uint(&vt, VALUETYPE_TYPE, s_samples);
	put_uint(&vt, VALUETYPE_UNIT, s_count);
	put_msg(&top, PROFILE_SAMPLE_TYPE, &vt);
	vt.n = 0;
	put_uint(&vt, VALUETYPE_TYPE, s_cpu);
	put_uint(&vt, VALUETYPE_UNIT, s_ns);
	put_msg(&top, PROFILE_SAMPLE_TYPE, &vt);
	out_buf(o, &top);
	free(vt.p);
	free(top.p);
}

static void write_tables(struct out *o, uint32_t s_binary, uint32_t s_buildid)
{
	struct buf m = {0}, ln = {0}, top = {0};

	put_uint(&m, MAPPING_ID, 1);
	put_uint(&m, MAPPING_MEMORY_START, CODE_START & ~UINT64_C(0xfff));
	put_uint(&m, MAPPING_MEMORY_LIMIT, code_end);
	put_uint(&m, MAPPING_FILE_OFFSET, 0);
	put_uint(&m, MAPPING_FILENAME, s_binary);
	put_uint(&m, MAPPING_BUILD_ID, s_buildid);
	put_bool(&m, MAPPING_HAS_FUNCTIONS, 1);
	put_bool(&m, MAPPING_HAS_FILENAMES, 1);
	put_bool(&m, MAPPING_HAS_LINE_NUMBERS, 1);
	put_bool(&m, MAPPING_HAS_INLINE_FRAMES, 1);
	put_msg(&top, PROFILE_MAPPING, &m);
	out_buf(o, &top);

	for (uint32_t i = 0; i < nlocs; i++) {
		const struct loc *l = &locs[i];

		m.n = top.n = 0;
		put_uint(&m, LOCATION_ID, (uint64_t)i + 1);
		put_uint(&m, LOCATION_MAPPING_ID, 1);
		put_uint(&m, LOCATION_ADDRESS, l->addr);
		for (uint32_t k = 0; k < l->nlines; k++) {
			ln.n = 0;
			put_uint(&ln, LINE_FUNCTION_ID, (uint64_t)l->fn[k] + 1);
			put_int(&ln, LINE_LINE, l->line[k]);
			put_msg(&m, LOCATION_LINE, &ln);
		}
		put_msg(&top, PROFILE_LOCATION, &m);
		out_buf(o, &top);
	}
	for (uint32_t i = 0; i < nfuncs; i++) {
		const struct func *f = &funcs[i];

		m.n = top.n = 0;
		put_uint(&m, FUNCTION_ID, (uint64_t)i + 1);
		put_uint(&m, FUNCTION_NAME, f->name);
		put_uint(&m, FUNCTION_SYSTEM_NAME, f->name);
		put_uint(&m, FUNCTION_FILENAME, f->file);
		put_int(&m, FUNCTION_START_LINE, f->start_line);
		put_msg(&top, PROFILE_FUNCTION, &m);
		out_buf(o, &top);
	}
	for (uint32_t i = 0; i < strs.n; i++) {
		top.n = 0;
		put_len(&top, PROFILE_STRING_TABLE, strs.data + strs.off[i],
		        strs.off[i + 1] - strs.off[i]);
		out_buf(o, &top);
	}
	free(m.p);
	free(ln.p);
	free(top.p);
}

/* One location of runtime function fn: its first is the hotter. */
static uint32_t rt_loc(struct rng *r, uint32_t fn)
{
	return funcs[fn].first_loc + zipf(r, funcs[fn].nloc);
}

/*
 * One stack, caller first, as 0-based location indices; returns its depth.
 * `stack` has room for max_depth entries.
 */
static uint32_t gen_stack(struct rng *r, const struct options *opt,
                          uint32_t *stack)
{
	uint32_t n = 0, steps, depth, f, rec = 0;
	const struct tail *tail = NULL;
	double u, u2;

	stack[n++] = rt_loc(r, RT_GOEXIT);
	if (rng_unit(r) < GC_FRACTION) {
		/* A background mark worker: short, and not user code. */
		stack[n++] = rt_loc(r, RT_GCBGMARKWORKER);
		stack[n++] = rt_loc(r, RT_GCDRAIN);
		if (rng_unit(r) < 0.7)
			stack[n++] =
			        rt_loc(r, rng_unit(r) < 0.6 ? RT_SCANOBJECT
			                                    : RT_GREYOBJECT);
		return n;
	}

	/* Depth skewed toward the shallow end: the lesser of two uniforms
	 * has a density falling linearly to zero at max_depth, so most
	 * stacks are moderately deep and a few reach max_depth. */
	u = rng_unit(r);
	u2 = rng_unit(r);
	if (u2 < u)
		u = u2;
	depth = (uint32_t)opt->min_depth +
	        (uint32_t)((double)(opt->max_depth - opt->min_depth + 1) * u);
	if (depth > opt->max_depth)
		depth = (uint32_t)opt->max_depth;

	if (rng_unit(r) < TAIL_FRACTION) {
		uint32_t total = 0, w;

		for (size_t i = 0; i < NTAILS; i++)
			total += tails[i].weight;
		w = rng_below(r, total);
		for (tail = tails; w >= tail->weight; tail++)
			w -= tail->weight;
	}
	steps = depth - 1 - (tail ? tail->n : 0);
	if (depth < 2 + (tail ? tail->n : 0))
		steps = 1;

	f = level_funcs[0][zipf(r, level_n[0])];
	for (uint32_t s = 0; s < steps; s++) {
		uint32_t k = 0, next;

		if (rng_unit(r) >= HOT_SITE)
			k = zipf(r, funcs[f].nloc);

		if (rec >= 3 && locs[funcs[f].first_loc + k].callee == f)
			k = 0;
		stack[n++] = funcs[f].first_loc + k;
		next = locs[funcs[f].first_loc + k].callee;
		if (next == NONE)
			break;
		rec = next == f ? rec + 1 : 0;
		f = next;
	}
	if (tail)
		for (uint32_t i = 0; i < tail->n && n < opt->max_depth; i++)
			stack[n++] = rt_loc(r, tail->fn[i]);
	return n;
}

static void usage(FILE *fp)
{
	fprintf(fp,
	        "usage: %s [options] [-o FILE]\n"
	        "Write a synthetic Go-like CPU profile (gzip'd "
	        "profile.proto).\n"
	        "\n"
	        "  -o FILE            output file (default: stdout, not a "
	        "terminal)\n"
	        "  --functions N      functions (default 20000)\n"
	        "  --locations N      locations (default 50000)\n"
	        "  --samples N        samples (default 2000000)\n"
	        "  --min-depth N      shortest stack, but for ~3%% short GC "
	        "worker\n"
	        "                     stacks (default 10)\n"
	        "  --max-depth N      deepest stack (default 60)\n"
	        "  --seed S           random seed (default 1)\n"
	        "  --labels           give ~40%% of samples a 'handler' label\n"
	        "  --chain N          instead: one sample, one stack of N "
	        "distinct functions\n"
	        "                     (the worst case of a call graph's "
	        "per-node work)\n"
	        "  --level N          gzip level 0-9 (default 6, as pprof "
	        "writes)\n"
	        "  --small            preset: 5000 functions, 12000 "
	        "locations,\n"
	        "                     480000 samples (explicit options win)\n"
	        "  -h, --help         this help\n"
	        "\n"
	        "The same options and seed always give the same bytes.\n",
	        progname);
}

static uint64_t parse_num(const char *opt, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-')
		die("%s: not a non-negative integer: '%s'", opt, s);
	return v;
}

static void parse_args(int argc, char **argv, struct options *opt)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = NULL;
		const char *eq = strchr(a, '=');
		char name[64];
		size_t nlen = eq ? (size_t)(eq - a) : strlen(a);
		uint64_t *num = NULL;

		if (nlen >= sizeof(name))
			die("unknown option '%s' (see --help)", a);
		memcpy(name, a, nlen);
		name[nlen] = '\0';

		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(name, "--labels")) {
			opt->labels = 1;
			continue;
		} else if (!strcmp(name, "--small")) {
			opt->small = 1;
			continue;
		} else if (!strcmp(name, "--functions")) {
			num = &opt->functions;
		} else if (!strcmp(name, "--locations")) {
			num = &opt->locations;
		} else if (!strcmp(name, "--samples")) {
			num = &opt->samples;
		} else if (!strcmp(name, "--min-depth")) {
			num = &opt->min_depth;
		} else if (!strcmp(name, "--max-depth")) {
			num = &opt->max_depth;
		} else if (!strcmp(name, "--chain")) {
			num = &opt->chain;
		} else if (!strcmp(name, "--seed")) {
			num = &opt->seed;
		} else if (!strcmp(name, "--level")) {
			num = &opt->level;
		} else if (strcmp(name, "-o") && strcmp(name, "--output")) {
			die("unknown option '%s' (see --help)", a);
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		else
			die("%s needs a value", name);
		if (num)
			*num = parse_num(name, val) + 1; /* 0 means unset */
		else
			opt->output = val;
	}

	/* Unset options take the preset's value; stored values are +1. */
#define DEFAULT(field, large_value, small_value)   \
	opt->field = opt->field   ? opt->field - 1 \
	             : opt->small ? (small_value)  \
	                          : (large_value)
	DEFAULT(functions, 20000, 5000);
	DEFAULT(locations, 50000, 12000);
	DEFAULT(samples, 2000000, 480000);
	DEFAULT(min_depth, 10, 10);
	DEFAULT(max_depth, 60, 60);
	DEFAULT(seed, 1, 1);
	DEFAULT(level, 6, 6);
	DEFAULT(chain, 0, 0);
#undef DEFAULT

	/* A chain: every generated function has one location, and the one
	 * sample's stack goes through all of them. */
	if (opt->chain) {
		if (opt->chain > 10000000)
			die("--chain must be at most 10000000");
		opt->functions = RT_N + opt->chain;
		opt->locations = RT_LOCS + opt->chain;
		opt->samples = 1;
	}

	if (opt->functions < RT_N + 16 || opt->functions > 10000000)
		die("--functions must be between %d and 10000000", RT_N + 16);
	if (opt->locations < opt->functions + (RT_LOCS - RT_N) ||
	    opt->locations > 100000000)
		die("--locations must be at least --functions + %d and at most "
		    "100000000",
		    RT_LOCS - RT_N);
	if (opt->samples > UINT32_MAX)
		die("--samples must be at most %" PRIu32, UINT32_MAX);
	if (opt->min_depth < 2 || opt->max_depth < opt->min_depth ||
	    opt->max_depth > 10000)
		die("need 2 <= --min-depth <= --max-depth <= 10000");
	if (opt->level > 9)
		die("--level must be 0-9");
}

/* The --chain stack, caller first: goexit, then every generated
 * function's location in order. */
static uint32_t chain_stack(const struct options *opt, uint32_t *stack)
{
	uint32_t n = 0;

	stack[n++] = funcs[RT_GOEXIT].first_loc;
	for (uint64_t k = 0; k < opt->chain; k++)
		stack[n++] = funcs[RT_N + k].first_loc;
	return n;
}

int main(int argc, char **argv)
{
	struct options opt = {0};
	struct rng r;
	struct out o = {0};
	struct buf sm = {0}, sub = {0}, lab = {0}, top = {0};
	uint32_t *stack, s_samples, s_count, s_cpu, s_ns, s_binary, s_buildid;
	uint32_t s_handler, s_endpoint[NENDPOINTS];
	uint64_t total_count = 0, total_frames = 0, labelled = 0;
	uint32_t min_seen = UINT32_MAX, max_seen = 0;
	char mode[8];
	int fd;

	if (argc > 0 && argv[0][0])
		progname = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1
		                                 : argv[0];
	parse_args(argc, argv, &opt);
	nfuncs = (uint32_t)opt.functions;
	nlocs = (uint32_t)opt.locations;

	rng_seed(&r, opt.seed);
	str_add("%s", "");
	s_samples = str_add("samples");
	s_count = str_add("count");
	s_cpu = str_add("cpu");
	s_ns = str_add("nanoseconds");
	s_binary = str_add("/usr/local/bin/svc");
	s_buildid = str_add("%016" PRIx64, splitmix64(&(uint64_t){opt.seed}));
	s_handler = str_add("handler");
	for (int i = 0; i < NENDPOINTS; i++)
		s_endpoint[i] = str_add("/api/v1/resource%02d", i);
	/* The largest Zipf domain is a level or a function's locations. */
	zipf_init(nlocs > nfuncs ? nlocs : nfuncs);
	build_tables(&opt, &r);

	/* Open: a temporary next to the target, renamed when complete, so an
	 * interrupted run never leaves a truncated profile under the name. */
	snprintf(mode, sizeof(mode), "wb%d", (int)opt.level);
	if (!opt.output || !strcmp(opt.output, "-")) {
		if (isatty(STDOUT_FILENO))
			die("refusing to write binary data to a terminal; use "
			    "-o FILE");
		o.name = "stdout";
		o.gz = gzdopen(STDOUT_FILENO, mode);
		tmpname[0] = '\0';
	} else {
		int n = snprintf(tmpname, sizeof(tmpname), "%s.tmp.%ld",
		                 opt.output, (long)getpid());

		if (n < 0 || (size_t)n >= sizeof(tmpname))
			die("%s: path too long", opt.output);
		fd = open(tmpname, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			die("%s: %s", tmpname, strerror(errno));
		o.name = opt.output;
		o.gz = gzdopen(fd, mode);
	}
	if (!o.gz)
		die("%s: cannot open gzip stream", o.name);
	gzbuffer(o.gz, 1u << 20);

	write_header(&o, s_samples, s_count, s_cpu, s_ns);

	if (opt.chain) {
		/* One line per location, so that every frame is its own
		 * function: no inlined helpers shared between frames. */
		for (uint32_t l = 0; l < nlocs; l++) {
			struct loc *lc = &locs[l];

			lc->fn[0] = lc->fn[lc->nlines - 1];
			lc->line[0] = lc->line[lc->nlines - 1];
			lc->nlines = 1;
		}
	}
	stack = xcalloc((opt.chain > opt.max_depth ? opt.chain : opt.max_depth) + 8,
	                sizeof(*stack));
	for (uint64_t i = 0; i < opt.samples; i++) {
		uint32_t n = opt.chain ? chain_stack(&opt, stack)
		                       : gen_stack(&r, &opt, stack);
		uint64_t count = 1;
		double u = rng_unit(&r);

		/* Identical stacks are not merged here (runtime/pprof would),
		 * so a sample's count is mostly 1 and sometimes a few. */
		if (u >= 0.88)
			count = 2 + rng_below(&r, 4);
		total_count += count;
		total_frames += n;
		min_seen = n < min_seen ? n : min_seen;
		max_seen = n > max_seen ? n : max_seen;

		sm.n = sub.n = 0;
		for (uint32_t k = n; k-- > 0;) /* leaf first */
			buf_varint(&sub, (uint64_t)stack[k] + 1);
		put_msg(&sm, SAMPLE_LOCATION_ID, &sub);
		sub.n = 0;
		buf_varint(&sub, count);
		buf_varint(&sub, count * PERIOD_NS);
		put_msg(&sm, SAMPLE_VALUE, &sub);

		/* Drawn whether or not --labels is given, so that the stacks
		 * are the same with and without labels. The handler follows
		 * from the entry call site, as a real request handler would. */
		u = rng_unit(&r);
		if (opt.labels && u < 0.4 && n > 2) {
			uint32_t e = (stack[1] * 2654435761u ^ stack[2]) %
			             NENDPOINTS;

			lab.n = 0;
			put_uint(&lab, LABEL_KEY, s_handler);
			put_uint(&lab, LABEL_STR, s_endpoint[e]);
			put_msg(&sm, SAMPLE_LABEL, &lab);
			labelled++;
		}
		top.n = 0;
		put_msg(&top, PROFILE_SAMPLE, &sm);
		out_buf(&o, &top);
	}

	write_tables(&o, s_binary, s_buildid);
	top.n = 0;
	put_int(&top, PROFILE_TIME_NANOS, TIME_NANOS);
	/* As if four cores were busy: a plausible "Total samples" % line. */
	put_int(&top, PROFILE_DURATION_NANOS,
	        (int64_t)(total_count * PERIOD_NS / 4 + PERIOD_NS));
	sub.n = 0;
	put_uint(&sub, VALUETYPE_TYPE, s_cpu);
	put_uint(&sub, VALUETYPE_UNIT, s_ns);
	put_msg(&top, PROFILE_PERIOD_TYPE, &sub);
	put_int(&top, PROFILE_PERIOD, PERIOD_NS);
	out_buf(&o, &top);
	out_flush(&o);
	if (gzclose(o.gz) != Z_OK)
		die("%s: write failed", o.name);

	if (tmpname[0]) {
		struct stat st;

		if (rename(tmpname, opt.output) != 0)
			die("%s: %s", opt.output, strerror(errno));
		tmpname[0] = '\0';
		if (stat(opt.output, &st) == 0)
			fprintf(stderr,
			        "%s: %s: %" PRIu64 " bytes gzip, %" PRIu64
			        " raw\n",
			        progname, opt.output, (uint64_t)st.st_size,
			        o.raw);
	}
	fprintf(stderr,
	        "%s: %" PRIu64 " samples (%" PRIu64 " labelled), %" PRIu32
	        " functions, %" PRIu32 " locations, %" PRIu32
	        " strings; depth %" PRIu32 "-%" PRIu32 ", mean %.1f\n",
	        progname, opt.samples, labelled, nfuncs, nlocs, strs.n,
	        min_seen == UINT32_MAX ? 0 : min_seen, max_seen,
	        opt.samples ? (double)total_frames / (double)opt.samples : 0.0);
	free(stack);
	free(sm.p);
	free(sub.p);
	free(lab.p);
	free(top.p);
	free(o.b.p);
	free_tables();
	return 0;
}
