/* Legacy profiles: memory-map parsing and building the profile from raw
 * stacks, with pprof's mapping heuristics (legacy_profile.go, profile.go). */
#include <ctype.h>
#include <string.h>

#include "profile/legacy.h"

#define GROWA(lg, arr, cap, need)                                   \
	pp_grow((lg)->ctx, (void **)&(lg)->arr, &(lg)->cap, (need), \
	        sizeof(*(lg)->arr))

void pp_legacy__init(struct pp_legacy *lg, struct pp_ctx *ctx, const char *name)
{
	memset(lg, 0, sizeof(*lg));
	lg->ctx = ctx;
	lg->name = name;
}

void pp_legacy__release(struct pp_legacy *lg)
{
	pp_free(lg->ctx, lg->addrs);
	pp_free(lg->ctx, lg->samples);
	lg->addrs = NULL;
	lg->samples = NULL;
}

int pp_legacy__add(struct pp_legacy *lg, const uint64_t *addrs, uint32_t n,
                   const int64_t *values, const int64_t *bytes)
{
	struct pp_legacy_sample *s;
	int err;

	if (lg->naddrs > SIZE_MAX / 2 - n)
		return pp_error(lg->ctx, PP_ELIMIT, "%s: too many frames",
		                lg->name);
	if ((err = GROWA(lg, addrs, cap_addrs, lg->naddrs + n)) < 0 ||
	    (err = GROWA(lg, samples, cap_samples, lg->nsamples + 1)) < 0)
		return err;
	s = &lg->samples[lg->nsamples++];
	memset(s, 0, sizeof(*s));
	s->first = lg->naddrs;
	s->n = n;
	memcpy(s->values, values, sizeof(s->values));
	if (bytes) {
		s->bytes = *bytes;
		s->has_bytes = true;
	}
	if (n)
		memcpy(lg->addrs + lg->naddrs, addrs, n * sizeof(*addrs));
	lg->naddrs += n;
	return 0;
}

void pp_legacy__drop_frame1(struct pp_legacy_sample *s)
{
	s->dropped++;
}

void pp_legacy__drop_duplicate_leaves(struct pp_legacy *lg)
{
	for (size_t i = 0; i < lg->nsamples; i++) {
		struct pp_legacy_sample *s = &lg->samples[i];

		if (pp_legacy__depth(s) >= 2 &&
		    pp_legacy__frame(lg, s, 0) ==
		            pp_legacy__frame(lg, s, 1) + 1)
			pp_legacy__drop_frame1(s);
	}
}

const char pp_legacy__cpu_drop[] =
        "ProfileData::Add|ProfileData::prof_handler|CpuProfiler::prof_handler|"
        "__pthread_sighandler|__restore";

const char pp_legacy__alloc_drop[] =
        "calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_mem"
        "align|pvalloc|valloc|realloc|tcmalloc::.*|tc_calloc|tc_cfree"
        "|tc_malloc|tc_free|tc_memalign|tc_posix_memalign|tc_pvalloc|"
        "tc_valloc|tc_realloc|tc_new|tc_delete|tc_newarray|tc_deletea"
        "rray|tc_new_nothrow|tc_newarray_nothrow|malloc_zone_malloc|m"
        "alloc_zone_calloc|malloc_zone_valloc|malloc_zone_realloc|mal"
        "loc_zone_memalign|malloc_zone_free|runtime\\..*|BaseArena::."
        "*|(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_mallo"
        "c|DoSampledAllocation|MallocedMemBlock::MallocedMemBlock|_M_"
        "allocate|__builtin_(vec_)?delete|__builtin_(vec_)?new|__gnu_"
        "cxx::new_allocator::allocate|__libc_malloc|__malloc_alloc_te"
        "mplate::allocate|allocate|cpp_alloc|operator new(\\[\\])?|si"
        "mple_alloc::allocate";

const char pp_legacy__alloc_keep[] =
        "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";

const char pp_legacy__lock_drop[] =
        "RecordLockProfileData|(base::)?RecordLockProfileData.*|"
        "(base::)?SubmitMutexProfileData.*|"
        "(base::)?SubmitSpinLockProfileData.*|"
        "(base::Mutex::)?AwaitCommon.*|(base::Mutex::)?Unlock.*|"
        "(base::Mutex::)?UnlockSlow.*|(base::Mutex::)?ReaderUnlock.*|"
        "(base::MutexLock::)?~MutexLock.*|(Mutex::)?AwaitCommon.*|"
        "(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|(Mutex::)?ReaderUnlock.*|"
        "(MutexLock::)?~MutexLock.*|(SpinLock::)?Unlock.*|"
        "(SpinLock::)?SlowUnlock.*|(SpinLockHolder::)?~SpinLockHolder.*";

int pp_legacy__new_profile(struct pp_ctx *ctx, const char *const *types,
                           size_t nt, const char *period_type,
                           const char *period_unit, int64_t period,
                           const char *drop_frames, struct pp_profile **out)
{
	struct pp_profile *p = pp_profile_new(ctx);
	int err = 0;

	*out = NULL;
	if (!p)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < nt; i++) {
		pp_str t = pp_profile_intern(p, types[2 * i]),
		       u = pp_profile_intern(p, types[2 * i + 1]);

		if (t == PP_NONE || u == PP_NONE)
			goto nomem;
		if ((err = pp_profile_add_sample_type(p, t, u)) < 0)
			goto fail;
	}
	p->period_type.type = pp_profile_intern(p, period_type);
	p->period_type.unit = pp_profile_intern(p, period_unit);
	p->has_period_type = true;
	p->period = period;
	if (drop_frames)
		p->drop_frames = pp_profile_intern(p, drop_frames);
	if (p->period_type.type == PP_NONE || p->period_type.unit == PP_NONE ||
	    p->drop_frames == PP_NONE)
		goto nomem;
	*out = p;
	return 0;
nomem:
	err = pp_error(ctx, PP_ENOMEM, "out of memory");
fail:
	pp_profile_free(p);
	return err;
}

/* ---- memory map text ----------------------------------------------------- */

struct map_entry {
	uint64_t start, limit, offset;
	/* Into the lines as read (struct lines); not NUL-terminated. While
	 * the lines still grow only the offsets hold; the pointers are set
	 * once all are read. */
	size_t file_at, build_id_at;
	const char *file;
	size_t file_len;
	const char *build_id;
	size_t build_id_len;
};

struct tok {
	const char *s;
	size_t n;
};

static bool is_hex_n(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

static uint64_t hex_n(const char *s, size_t n, bool *ok)
{
	uint64_t v = 0;

	if (n > 16 || !is_hex_n(s, n)) {
		*ok = false;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		v = v << 4 |
		    (uint64_t)(isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
	}
	return v;
}

static bool is_perm(const struct tok *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strchr("-rwxp", t->s[i]))
			return false;
	return t->n > 0;
}

static bool is_dev(const struct tok *t)
{
	const char *c = memchr(t->s, ':', t->n);

	return c && is_hex_n(t->s, (size_t)(c - t->s)) &&
	       is_hex_n(c + 1, t->n - (size_t)(c - t->s) - 1);
}

static bool is_digits(const struct tok *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (!isdigit((unsigned char)t->s[i]))
			return false;
	return t->n > 0;
}

/* Where the second number of a range starts when the first ends at q:
 * pprof's `[\s-]?\s*(?:0x)?` then a hex digit; NULL if none does. */
static const char *range_second(const char *q, const char *end)
{
	if (q < end && (*q == '-' || isspace((unsigned char)*q)))
		q++;
	while (q < end && isspace((unsigned char)*q))
		q++;
	if (end - q > 2 && q[0] == '0' && q[1] == 'x' &&
	    isxdigit((unsigned char)q[2]))
		q += 2;
	return q < end && isxdigit((unsigned char)*q) ? q : NULL;
}

/*
 * Parse "start-end" (or "0xstart 0xend") at the front of the line, as
 * pprof's regular expression matches it: the first number takes all the
 * hex digits it can and gives back its last one when no second number
 * follows ("abc" is ab-c), and nothing needs to follow the range. Returns the
 * rest of the line after an optional ':', or NULL if it doesn't start with a
 * range or a number has over 16 digits.
 */
static const char *parse_range(const char *s, const char *end, uint64_t *lo,
                               uint64_t *hi)
{
	const char *p = s, *q, *r;
	bool ok = true;

	while (p < end && isspace((unsigned char)*p))
		p++;
	if (end - p > 2 && p[0] == '0' && p[1] == 'x' &&
	    isxdigit((unsigned char)p[2]))
		p += 2;
	for (q = p; q < end && isxdigit((unsigned char)*q); q++)
		;
	if (q == p)
		return NULL;
	if (!(r = range_second(q, end))) {
		if (q - p < 2)
			return NULL;
		r = range_second(--q, end);
	}
	*lo = hex_n(p, (size_t)(q - p), &ok);
	for (p = r; p < end && isxdigit((unsigned char)*p); p++)
		;
	*hi = hex_n(r, (size_t)(p - r), &ok);
	if (p < end && *p == ':')
		p++;
	return ok ? p : NULL;
}

/*
 * One line of the map. Returns 1 with *e filled for an executable entry, 0
 * for a mapping that is not executable, -1 for a line that is no mapping
 * (pprof's errUnrecognized: it may assign a $attribute).
 */
static int parse_map_line(const char *s, const char *end, struct map_entry *e)
{
	struct tok t[8];
	size_t nt = 0, i = 0;
	const char *p;
	struct tok perm = {NULL, 0}, path = {NULL, 0}, off = {NULL, 0},
	           bid = {NULL, 0};
	bool ok = true;

	memset(e, 0, sizeof(*e));
	if (!(p = parse_range(s, end, &e->start, &e->limit)))
		return -1;
	/* The fields that follow are each preceded by spaces: with none
	 * after the range, it is a mapping with no name. */
	if (p < end && !isspace((unsigned char)*p))
		p = end;
	while (p < end && nt < 8) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end)
			break;
		t[nt].s = p;
		while (p < end && !isspace((unsigned char)*p))
			p++;
		t[nt].n = (size_t)(p - t[nt].s);
		nt++;
	}
	/* /proc/self/maps: [perms] [offset] dev inode [path] */
	for (size_t k = 0; k + 1 < nt && k <= 2; k++) {
		if (is_dev(&t[k]) && is_digits(&t[k + 1])) {
			if (k >= 1 && is_perm(&t[0]))
				perm = t[i++];
			if (i < k && is_hex_n(t[i].s, t[i].n))
				off = t[i++];
			if (i != k)
				break;
			if (k + 2 < nt)
				path = t[k + 2];
			goto got;
		}
	}
	/* pprof's brief form: [perms] [path] [(@offset)] [buildid] */
	i = 0;
	if (i < nt && is_perm(&t[i]))
		perm = t[i++];
	if (i < nt)
		path = t[i++];
	if (i < nt && t[i].n > 3 && t[i].s[0] == '(' && t[i].s[1] == '@' &&
	    t[i].s[t[i].n - 1] == ')') {
		off.s = t[i].s + 2;
		off.n = t[i].n - 3;
		i++;
	}
	if (i < nt && is_hex_n(t[i].s, t[i].n))
		bid = t[i++];
got:
	if (perm.n && !memchr(perm.s, 'x', perm.n))
		return 0;
	if (off.n)
		e->offset = hex_n(off.s, off.n, &ok);
	if (!ok)
		return -1;
	e->file = path.s;
	e->file_len = path.n;
	e->build_id = bid.s;
	e->build_id_len = bid.n;
	return 1;
}

/* pprof's adjacent(): two entries that are one mapping split in two. */
static bool adjacent(const char *buf, const struct map_entry *a,
                     const struct map_entry *b)
{
	if (a->file_len && b->file_len &&
	    (a->file_len != b->file_len ||
	     memcmp(buf + a->file_at, buf + b->file_at, a->file_len) != 0))
		return false;
	if (a->build_id_len && b->build_id_len &&
	    (a->build_id_len != b->build_id_len ||
	     memcmp(buf + a->build_id_at, buf + b->build_id_at,
	            a->build_id_len) != 0))
		return false;
	if (a->limit != b->start)
		return false;
	if (a->offset != 0 && b->offset != 0 &&
	    a->offset + (a->limit - a->start) != b->offset)
		return false;
	return true;
}

/* A shared object by name, as pprof's `([.]so$|[.]so[._][0-9]+)`. */
static bool is_shared_object(const char *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++) {
		if (memcmp(s + i, ".so", 3) != 0)
			continue;
		if (i + 3 == n)
			return true;
		if (i + 4 < n && (s[i + 3] == '.' || s[i + 3] == '_') &&
		    isdigit((unsigned char)s[i + 4]))
			return true;
	}
	return false;
}

static bool is_main_candidate(const struct map_entry *e)
{
	const char *s = e->file;
	size_t n = e->file_len;

	/* pprof trims " (deleted)"; our tokens never include it. */
	if (n == 0 || s[0] == '[')
		return false;
	return !is_shared_object(s, n);
}

/*
 * The map's lines as pprof reads them (log prefix gone, $attributes
 * replaced), one after another: the mappings' names point into it. attrs
 * holds, in the order assigned, each "$name" and its value as offsets
 * into buf.
 */
struct lines {
	struct pp_ctx *ctx;
	const char *name;
	char *buf;
	size_t len, cap;
	struct attr {
		size_t key_at, key_len, val_at, val_len;
	} * attrs;
	size_t nattrs, cap_attrs;
	uint64_t work; /* key comparisons left before giving up */
};

/* The substitutions could double a line per line (b=$a$a, c=$b$b...), and
 * many attributes times many '$' is quadratic: past these, the map is
 * refused rather than left to eat the machine. */
#define LINES_MAX ((size_t)64 << 20)
#define LINES_WORK ((uint64_t)1 << 28)

/* Append n bytes: from s, or with s NULL from buf + at (an attribute's
 * value, which growing buf may move). */
static int lines_append(struct lines *ls, const char *s, size_t at, size_t n)
{
	int err;

	if (n > LINES_MAX - ls->len)
		return pp_error(ls->ctx, PP_ELIMIT,
		                "%s: memory map over %zu MiB after its $name "
		                "substitutions",
		                ls->name, LINES_MAX >> 20);
	if ((err = pp_grow(ls->ctx, (void **)&ls->buf, &ls->cap, ls->len + n,
	                   1)) < 0)
		return err;
	if (n)
		memcpy(ls->buf + ls->len, s ? s : ls->buf + at, n);
	ls->len += n;
	return 0;
}

/* pprof's removeLoggingInfo: a glog prefix `^[^\[\]]+:[0-9]+]\s`. */
static const char *skip_log_prefix(const char *s, const char *end)
{
	const char *b = s, *d;

	while (b < end && *b != '[' && *b != ']')
		b++;
	if (b == end || *b != ']' || b + 1 == end || !strchr(" \t\n\f\r", b[1]))
		return s;
	for (d = b; d > s && isdigit((unsigned char)d[-1]); d--)
		;
	if (d == b || d - s < 2 || d[-1] != ':')
		return s;
	return b + 2;
}

/*
 * Append line [s, end) with pprof's strings.Replacer of the attributes:
 * scanning left to right, at each '$' the attribute assigned first among
 * those whose "$name" starts there is replaced by its value, and the scan
 * goes on after the name (values are not scanned again).
 */
static int append_replaced(struct lines *ls, const char *s, const char *end)
{
	const char *run = s;
	int err;

	while (s < end) {
		const struct attr *hit = NULL;

		if (*s != '$' || !ls->nattrs) {
			s++;
			continue;
		}
		for (size_t i = 0; i < ls->nattrs && !hit; i++) {
			const struct attr *a = &ls->attrs[i];

			if (!ls->work--)
				return pp_error(
				        ls->ctx, PP_ELIMIT,
				        "%s: memory map has too many $name "
				        "substitutions",
				        ls->name);
			if (a->key_len <= (size_t)(end - s) &&
			    memcmp(ls->buf + a->key_at, s, a->key_len) == 0)
				hit = a;
		}
		if (!hit) {
			s++;
			continue;
		}
		if ((err = lines_append(ls, run, 0, (size_t)(s - run))) < 0 ||
		    (err = lines_append(ls, NULL, hit->val_at, hit->val_len)) <
		            0)
			return err;
		s += hit->key_len;
		run = s;
	}
	return lines_append(ls, run, 0, (size_t)(end - run));
}

static void trim(const char *buf, size_t *at, size_t *n)
{
	while (*n && isspace((unsigned char)buf[*at])) {
		++*at;
		--*n;
	}
	while (*n && isspace((unsigned char)buf[*at + *n - 1]))
		--*n;
}

/*
 * A line that is no mapping but "name = value" assigns $name for the
 * lines after it (pprof's ParseMemoryMap). The line at [at, ls->len) is
 * kept: the value points into it. Returns 1 if it assigned.
 */
static int add_attr(struct lines *ls, size_t at)
{
	const char *eq = memchr(ls->buf + at, '=', ls->len - at);
	struct attr a;
	size_t name_at, name_len;
	int err;

	if (!eq)
		return 0;
	name_at = at;
	name_len = (size_t)(eq - (ls->buf + at));
	a.val_at = name_at + name_len + 1;
	a.val_len = ls->len - a.val_at;
	trim(ls->buf, &name_at, &name_len);
	trim(ls->buf, &a.val_at, &a.val_len);
	a.key_at = ls->len;
	a.key_len = name_len + 1;
	if ((err = lines_append(ls, "$", 0, 1)) < 0 ||
	    (err = lines_append(ls, NULL, name_at, name_len)) < 0)
		return err;
	/* A name assigned again never wins (the first one always matches
	 * where it would): leave it out, so that it costs no comparisons. */
	for (size_t i = 0; i < ls->nattrs; i++)
		if (ls->attrs[i].key_len == a.key_len &&
		    memcmp(ls->buf + ls->attrs[i].key_at, ls->buf + a.key_at,
		           a.key_len) == 0)
			return 1;
	if ((err = pp_grow(ls->ctx, (void **)&ls->attrs, &ls->cap_attrs,
	                   ls->nattrs + 1, sizeof(*ls->attrs))) < 0)
		return err;
	ls->attrs[ls->nattrs++] = a;
	return 1;
}

static int parse_maps(struct pp_legacy *lg, const char *text, size_t len,
                      struct lines *ls, struct map_entry **out, size_t *nout)
{
	struct map_entry *v = NULL, e;
	size_t n = 0, cap = 0;
	const char *p = text, *end = text + len;
	int err, r;

	/* buf is never NULL, even for an empty map. */
	if ((err = pp_grow(lg->ctx, (void **)&ls->buf, &ls->cap, 256, 1)) < 0)
		return err;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t at = ls->len;

		/* Lines as Go's bufio.ScanLines cuts them. */
		if (le > p && le[-1] == '\r')
			le--;
		if ((err = append_replaced(ls, skip_log_prefix(p, le), le)) < 0)
			goto fail;
		p = nl ? nl + 1 : end;
		r = parse_map_line(ls->buf + at, ls->buf + ls->len, &e);
		if (r < 0) {
			if ((r = add_attr(ls, at)) < 0) {
				err = r;
				goto fail;
			}
			if (r == 0)
				ls->len = at;
			continue;
		}
		if (r == 0) {
			ls->len = at;
			continue;
		}
		e.file_at = e.file_len ? (size_t)(e.file - ls->buf) : 0;
		e.build_id_at =
		        e.build_id_len ? (size_t)(e.build_id - ls->buf) : 0;
		if (n > 0 && adjacent(ls->buf, &v[n - 1], &e)) {
			v[n - 1].limit = e.limit;
			if (e.file_len) {
				v[n - 1].file_at = e.file_at;
				v[n - 1].file_len = e.file_len;
			}
			if (e.build_id_len) {
				v[n - 1].build_id_at = e.build_id_at;
				v[n - 1].build_id_len = e.build_id_len;
			}
		} else {
			if ((err = pp_grow(lg->ctx, (void **)&v, &cap, n + 1,
			                   sizeof(*v))) < 0)
				goto fail;
			v[n++] = e;
		}
	}
	/* The lines are all read: buf moves no more. */
	for (size_t i = 0; i < n; i++) {
		v[i].file = v[i].file_len ? ls->buf + v[i].file_at : NULL;
		v[i].build_id =
		        v[i].build_id_len ? ls->buf + v[i].build_id_at : NULL;
	}
	*out = v;
	*nout = n;
	return 0;
fail:
	pp_free(lg->ctx, v);
	return err;
}

/* ---- building the profile ------------------------------------------------ */

struct addr_table {
	uint64_t *keys;
	uint32_t *vals; /* location index + 1; 0 = empty */
	size_t mask;
};

static int table_init(struct pp_ctx *ctx, struct addr_table *t, size_t n)
{
	size_t size = 16;

	while (size < n * 2)
		size *= 2;
	t->mask = size - 1;
	t->keys = pp_calloc(ctx, size, sizeof(*t->keys));
	t->vals = pp_calloc(ctx, size, sizeof(*t->vals));
	if (!t->keys || !t->vals)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return 0;
}

static uint32_t *table_slot(struct addr_table *t, uint64_t key)
{
	size_t j = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & t->mask;

	while (t->vals[j] && t->keys[j] != key)
		j = (j + 1) & t->mask;
	t->keys[j] = key;
	return &t->vals[j];
}

int pp_legacy__finish(struct pp_legacy *lg, const char *text, size_t len,
                      struct pp_profile *p)
{
	struct pp_ctx *ctx = lg->ctx;
	struct map_entry *maps = NULL, tmp;
	size_t nmaps = 0, first = 0;
	struct addr_table tab = {NULL, NULL, 0};
	uint64_t *uaddrs = NULL; /* distinct addresses, first use first */
	uint32_t *locmap = NULL, *stack = NULL, nloc = 0, fake = PP_NONE;
	uint32_t maxdepth = 0;
	pp_str bytes_key = 0;
	struct lines ls = {
	        .ctx = lg->ctx, .name = lg->name, .work = LINES_WORK};
	int err;

	if ((err = parse_maps(lg, text, len, &ls, &maps, &nmaps)) < 0)
		goto done;
	/* The main binary goes first (pprof swaps it with entry 0). */
	for (size_t i = 0; i < nmaps; i++) {
		if (is_main_candidate(&maps[i])) {
			tmp = maps[0];
			maps[0] = maps[i];
			maps[i] = tmp;
			break;
		}
	}
	/* A leading /anon_hugepage glued to the next mapping is dropped. */
	if (nmaps > 1 && maps[0].file_len >= 14 &&
	    memcmp(maps[0].file, "/anon_hugepage", 14) == 0 &&
	    maps[0].limit == maps[1].start)
		first = 1;
	/* A classic non-PIE executable is mapped from 0x400000. */
	if (first < nmaps &&
	    maps[first].start - maps[first].offset == 0x400000) {
		maps[first].start = 0x400000;
		maps[first].offset = 0;
	}

	if ((err = table_init(ctx, &tab, lg->naddrs + 1)) < 0)
		goto done;
	uaddrs = pp_malloc(ctx, (lg->naddrs + 1) * sizeof(*uaddrs));
	if (!uaddrs) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < lg->naddrs; i++) {
		uint32_t *slot = table_slot(&tab, lg->addrs[i]);

		if (!*slot) {
			uaddrs[nloc] = lg->addrs[i];
			*slot = ++nloc;
		}
	}
	locmap = pp_malloc(ctx, ((size_t)nloc + 1) * sizeof(*locmap));
	if (!locmap) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Each address to its mapping, in location order: the "extend a
	 * mapping downwards" rule changes mappings as it goes. */
	for (uint32_t l = 0; l < nloc; l++) {
		uint64_t a = uaddrs[l];
		size_t m;

		locmap[l] = PP_NONE;
		if (a == 0)
			continue;
		for (m = first; m < nmaps; m++)
			if (maps[m].start <= a && a < maps[m].limit)
				break;
		if (m == nmaps) {
			for (m = first; m < nmaps; m++) {
				struct map_entry *e = &maps[m];

				if (e->offset != 0 &&
				    e->start - e->offset <= a && a < e->start) {
					e->start -= e->offset;
					e->offset = 0;
					break;
				}
			}
		}
		if (m == nmaps) {
			if (fake == PP_NONE)
				fake = (uint32_t)(nmaps - first);
			locmap[l] = fake;
		} else {
			locmap[l] = (uint32_t)(m - first);
		}
	}
	for (size_t m = first; m < nmaps; m++) {
		struct pp_mapping pm;

		memset(&pm, 0, sizeof(pm));
		pm.id = m - first + 1;
		pm.start = maps[m].start;
		pm.limit = maps[m].limit;
		pm.offset = maps[m].offset;
		pm.file = pp_strtab_intern(p->strings,
		                           maps[m].file ? maps[m].file : "",
		                           maps[m].file_len);
		pm.build_id = pp_strtab_intern(
		        p->strings, maps[m].build_id ? maps[m].build_id : "",
		        maps[m].build_id_len);
		if (pm.file == PP_NONE || pm.build_id == PP_NONE) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		if ((err = pp_profile_add_mapping(p, &pm, NULL)) < 0)
			goto done;
	}
	if (fake != PP_NONE) {
		struct pp_mapping pm;

		memset(&pm, 0, sizeof(pm));
		pm.id = fake + 1;
		pm.limit = UINT64_MAX;
		if ((err = pp_profile_add_mapping(p, &pm, NULL)) < 0)
			goto done;
	}
	for (uint32_t l = 0; l < nloc; l++) {
		struct pp_location loc;

		memset(&loc, 0, sizeof(loc));
		loc.id = (uint64_t)l + 1;
		loc.address = uaddrs[l];
		loc.mapping = locmap[l];
		if ((err = pp_profile_add_location(p, &loc, NULL, 0, NULL)) < 0)
			goto done;
	}
	for (size_t s = 0; s < lg->nsamples; s++)
		if (lg->samples[s].n > maxdepth)
			maxdepth = lg->samples[s].n;
	stack = pp_malloc(ctx, ((size_t)maxdepth + 1) * sizeof(*stack));
	if (!stack) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if (lg->nsamples && lg->samples[0].has_bytes &&
	    (bytes_key = pp_profile_intern(p, "bytes")) == PP_NONE) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t s = 0; s < lg->nsamples; s++) {
		const struct pp_legacy_sample *ls = &lg->samples[s];
		struct pp_label lab = {bytes_key, 0, ls->bytes, 0};
		uint32_t depth = pp_legacy__depth(ls);

		for (uint32_t k = 0; k < depth; k++)
			stack[k] =
			        *table_slot(&tab, pp_legacy__frame(lg, ls, k)) -
			        1;
		if ((err = pp_profile_add_sample(p, stack, depth, ls->values,
		                                 &lab, ls->has_bytes ? 1 : 0)) <
		    0)
			goto done;
	}
done:
	pp_free(ctx, ls.buf);
	pp_free(ctx, ls.attrs);
	pp_free(ctx, maps);
	pp_free(ctx, tab.keys);
	pp_free(ctx, tab.vals);
	pp_free(ctx, uaddrs);
	pp_free(ctx, locmap);
	pp_free(ctx, stack);
	return err;
}
