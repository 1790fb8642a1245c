/*
 * The text `perf script` prints by default for a `perf record -g` file,
 * which no pprof reads:
 *
 *   myprog 24285/24286 [001] 29993.606945:     250000 cpu-clock:pppH:
 *   	    55d4c3a0b1c2 hash_loop+0x22 (/usr/bin/myprog)
 *   	    7f3f388f2ad7 [unknown] ([unknown])
 *   (blank line)
 *
 * A header per sample (the command, which may hold spaces, the pid or
 * pid/tid, an optional [cpu], the time in seconds, an optional period and
 * the event with its modifiers), then the call chain, leaf first, one frame
 * per line: address, symbol+offset as perf resolved it, and the DSO.
 *
 * Each sample counts 1 in samples/count and its period (1 without one) in
 * the column of its event, so `-sample_index=cycles` picks one event of a
 * multi-event recording; the last event is the default, as pprof's last
 * sample type. The command becomes a string label "comm", the pid and tid
 * numeric labels. Each DSO is a mapping whose functions are known (perf
 * named them), each (address, DSO) one location with the symbol as its
 * function, or none for "[unknown]". perf gives no files or lines: the
 * mappings are marked lines_from_binary, so that the symbolizer adds
 * them, and the inlined frames, from the DSOs' DWARF when it can. The
 * time from the first sample to the last is the profile's duration.
 */
#include <string.h>

#include "profile/perfscript.h"
#include "profile/textscan.h"
#include "util/goint.h"

#define MAX_EVENTS 64

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* What a header line holds; spans into the input. */
struct header {
	struct pp_span comm, pid, tid, event;
	double time;
	int64_t period;
	bool has_period;
};

/* "DIGITS.DIGITS:" */
static bool is_time(struct pp_span t, double *out)
{
	const char *p = t.s;
	double v = 0, scale = 0.1;

	if (t.e - t.s < 4 || t.e[-1] != ':' || !is_digit(*p))
		return false;
	for (; p < t.e && is_digit(*p); p++)
		v = v * 10 + (*p - '0');
	if (p == t.e || *p++ != '.' || p == t.e - 1)
		return false;
	for (; p < t.e - 1; p++) {
		if (!is_digit(*p))
			return false;
		v += (*p - '0') * scale;
		scale /= 10;
	}
	*out = v;
	return true;
}

/* The next blank-separated token of *rest, or false. */
static bool next_token(struct pp_span *rest, struct pp_span *tok)
{
	const char *p = rest->s;

	while (p < rest->e && is_space(*p))
		p++;
	if (p == rest->e)
		return false;
	tok->s = p;
	while (p < rest->e && !is_space(*p))
		p++;
	tok->e = p;
	rest->s = p;
	return true;
}

static bool all_digits(struct pp_span t)
{
	if (t.s == t.e)
		return false;
	for (const char *p = t.s; p < t.e; p++)
		if (!is_digit(*p))
			return false;
	return true;
}

/* "PID" or "PID/TID", digits only. */
static bool split_pid(struct pp_span t, struct header *h)
{
	const char *slash = memchr(t.s, '/', (size_t)(t.e - t.s));

	h->pid = (struct pp_span){t.s, slash ? slash : t.e};
	h->tid = slash ? (struct pp_span){slash + 1, t.e}
	               : (struct pp_span){t.e, t.e};
	return all_digits(h->pid) && (!slash || all_digits(h->tid));
}

static bool parse_header(struct pp_span line, struct header *h)
{
	struct pp_span rest, tok, prev = {NULL, NULL}, prev2 = {NULL, NULL};
	struct pp_span pidtok;

	memset(h, 0, sizeof(*h));
	if (line.s == line.e || is_space(*line.s))
		return false;
	/* The time is the first token of its shape; the command before it
	 * may hold spaces, so the pid is found from the time leftwards. */
	rest = line;
	for (;;) {
		if (!next_token(&rest, &tok))
			return false;
		if (prev.s && is_time(tok, &h->time))
			break;
		prev2 = prev;
		prev = tok;
	}
	pidtok = prev;
	if (prev.e - prev.s >= 3 && *prev.s == '[' && prev.e[-1] == ']') {
		if (!prev2.s)
			return false;
		pidtok = prev2; /* "[cpu]" sits between pid and time */
	}
	if (!split_pid(pidtok, h) || pidtok.s == line.s)
		return false;
	h->comm = pp_span__trim((struct pp_span){line.s, pidtok.s});
	if (!next_token(&rest, &tok))
		return false;
	if (all_digits(tok)) {
		if (!pp_text__parse_int(tok, 10, &h->period))
			return false;
		h->has_period = true;
		if (!next_token(&rest, &tok))
			return false;
	}
	/* "cpu-clock:", "cycles:u:", "cpu-clock:pppH:": up to the first ':' */
	{
		const char *colon = memchr(tok.s, ':', (size_t)(tok.e - tok.s));

		if (!colon || colon == tok.s)
			return false;
		h->event = (struct pp_span){tok.s, colon};
	}
	return true;
}

/* "\tADDR SYM (DSO)": the address, the symbol without its +0xOFF, the DSO. */
static bool parse_frame(struct pp_span line, uint64_t *addr,
                        struct pp_span *sym, struct pp_span *dso)
{
	const char *p = line.s, *a, *open;
	struct pp_span rest;

	if (p == line.e || !is_space(*p))
		return false;
	while (p < line.e && is_space(*p))
		p++;
	for (a = p; p < line.e && is_xdigit(*p); p++)
		;
	if (p == a || p == line.e || !is_space(*p) ||
	    !pp_text__parse_uint((struct pp_span){a, p}, 16, addr))
		return false;
	rest = pp_span__trim((struct pp_span){p, line.e});
	if (rest.e - rest.s < 2 || rest.e[-1] != ')')
		return false;
	/* The DSO is the last "(...)": a symbol may hold parentheses. */
	for (open = rest.e - 1; open > rest.s && open[-1] != '('; open--)
		;
	if (open == rest.s)
		return false;
	*dso = (struct pp_span){open, rest.e - 1};
	*sym = pp_span__trim((struct pp_span){rest.s, open - 1});
	/* Drop "+0x1f" after the symbol name. */
	for (const char *q = sym->e; q > sym->s; q--) {
		if (!is_xdigit(q[-1])) {
			if (q - sym->s >= 3 && q[-1] == 'x' && q[-2] == '0' &&
			    q[-3] == '+' && q != sym->e)
				sym->e = q - 3;
			break;
		}
	}
	return true;
}

bool pp_perfscript__is_perf_script(const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line, sym, dso;
	struct header h;
	uint64_t addr;

	pp_lines__init(&ls, data, len < 65536 ? len : 65536);
	do {
		if (!pp_lines__next(&ls, &line))
			return false;
	} while (pp_span__empty(pp_span__trim(line)));
	if (!parse_header(line, &h) || !pp_lines__next(&ls, &line))
		return false;
	return parse_frame(line, &addr, &sym, &dso);
}

struct loc_slot {
	uint64_t addr;
	pp_str dso, sym;
	uint32_t loc1; /* location + 1; 0: empty */
};

struct reader {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_profile *p;
	struct pp_span events[MAX_EVENTS];
	size_t nevents;
	bool any_period;
	uint32_t *map_of; /* by DSO string: mapping + 1 */
	size_t cap_map_of;
	uint32_t *fn_of; /* by symbol string: function + 1 */
	size_t cap_fn_of;
	struct loc_slot *slots; /* open addressing, power of two */
	size_t nslots, nused;
	uint32_t *stack;
	size_t cap_stack, nstack;
	int64_t *values;
	struct pp_span first_comm;
};

/* Index of e among the events, adding it; -1 when there are too many. */
static int event_index(struct reader *r, struct pp_span e)
{
	size_t n = (size_t)(e.e - e.s);

	for (size_t i = 0; i < r->nevents; i++)
		if ((size_t)(r->events[i].e - r->events[i].s) == n &&
		    memcmp(r->events[i].s, e.s, n) == 0)
			return (int)i;
	if (r->nevents == MAX_EVENTS)
		return -1;
	r->events[r->nevents] = e;
	return (int)r->nevents++;
}

/* Index id in *table (grown, zero-filled), the slot for string s. */
static int slot_of(struct reader *r, uint32_t **table, size_t *cap, pp_str s,
                   uint32_t **slot)
{
	size_t old = *cap;
	int err;

	if (s >= old) {
		if ((err = pp_grow(r->ctx, (void **)table, cap, (size_t)s + 1,
		                   sizeof(**table))) < 0)
			return err;
		memset(*table + old, 0, (*cap - old) * sizeof(**table));
	}
	*slot = &(*table)[s];
	return 0;
}

static pp_str intern(struct reader *r, struct pp_span s)
{
	return pp_strtab_intern(r->p->strings, s.s, (size_t)(s.e - s.s));
}

static int mapping_of(struct reader *r, pp_str dso, uint32_t *out)
{
	uint32_t *slot;
	int err;

	if ((err = slot_of(r, &r->map_of, &r->cap_map_of, dso, &slot)) < 0)
		return err;
	if (!*slot) {
		struct pp_mapping m;

		memset(&m, 0, sizeof(m));
		m.id = (uint64_t)r->p->nmappings + 1;
		m.file = dso;
		m.has_functions = true; /* perf named the frames */
		/* perf prints a DSO's addresses as the DSO's own (what
		 * objdump shows), so its DWARF can add the lines. */
		m.lines_from_binary = true;
		if ((err = pp_profile_add_mapping(r->p, &m, NULL)) < 0)
			return err;
		*slot = r->p->nmappings;
	}
	*out = *slot - 1;
	return 0;
}

static int function_of(struct reader *r, pp_str sym, uint32_t *out)
{
	uint32_t *slot;
	int err;

	if ((err = slot_of(r, &r->fn_of, &r->cap_fn_of, sym, &slot)) < 0)
		return err;
	if (!*slot) {
		struct pp_function fn = {r->p->nfunctions + 1, sym, sym, 0, 0};

		if ((err = pp_profile_add_function(r->p, &fn, NULL)) < 0)
			return err;
		*slot = r->p->nfunctions;
	}
	*out = *slot - 1;
	return 0;
}

static size_t slot_hash(uint64_t addr, pp_str dso, pp_str sym)
{
	uint64_t h = addr * 0x9e3779b97f4a7c15ULL;

	h ^= ((uint64_t)dso << 32 | sym) * 0xc2b2ae3d27d4eb4fULL;
	return (size_t)(h ^ (h >> 29));
}

static int grow_slots(struct reader *r)
{
	size_t n = r->nslots ? r->nslots * 2 : 1024;
	struct loc_slot *s = pp_calloc(r->ctx, n, sizeof(*s));

	if (!s)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < r->nslots; i++) {
		const struct loc_slot *o = &r->slots[i];
		size_t j;

		if (!o->loc1)
			continue;
		for (j = slot_hash(o->addr, o->dso, o->sym) & (n - 1);
		     s[j].loc1; j = (j + 1) & (n - 1))
			;
		s[j] = *o;
	}
	pp_free(r->ctx, r->slots);
	r->slots = s;
	r->nslots = n;
	return 0;
}

static int location_of(struct reader *r, uint64_t addr, struct pp_span symsp,
                       struct pp_span dsosp, uint32_t *out)
{
	bool unknown_sym = pp_span__equals(symsp, "[unknown]");
	bool unknown_dso = pp_span__equals(dsosp, "[unknown]");
	pp_str sym = unknown_sym ? 0 : intern(r, symsp);
	pp_str dso = unknown_dso ? 0 : intern(r, dsosp);
	struct loc_slot *s;
	size_t j;
	int err;

	if (sym == PP_NONE || dso == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if (2 * (r->nused + 1) > r->nslots && (err = grow_slots(r)) < 0)
		return err;
	for (j = slot_hash(addr, dso, sym) & (r->nslots - 1); r->slots[j].loc1;
	     j = (j + 1) & (r->nslots - 1)) {
		s = &r->slots[j];
		if (s->addr == addr && s->dso == dso && s->sym == sym) {
			*out = s->loc1 - 1;
			return 0;
		}
	}
	{
		struct pp_location loc;
		struct pp_line ln = {0, 0, 0};
		uint32_t m = PP_NONE, f = 0;

		memset(&loc, 0, sizeof(loc));
		loc.id = (uint64_t)r->p->nlocations + 1;
		loc.address = addr;
		if (!unknown_dso && (err = mapping_of(r, dso, &m)) < 0)
			return err;
		if (!unknown_sym && (err = function_of(r, sym, &f)) < 0)
			return err;
		loc.mapping = m;
		ln.function = f;
		if ((err = pp_profile_add_location(
		             r->p, &loc, &ln, unknown_sym ? 0 : 1, NULL)) < 0)
			return err;
	}
	s = &r->slots[j];
	s->addr = addr;
	s->dso = dso;
	s->sym = sym;
	s->loc1 = r->p->nlocations;
	r->nused++;
	*out = s->loc1 - 1;
	return 0;
}

/* First pass: the events, in order of appearance, and whether any header
 * has a period. */
static int scan_events(struct reader *r, const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line;
	struct header h;

	pp_lines__init(&ls, data, len);
	while (pp_lines__next(&ls, &line)) {
		if (!parse_header(line, &h))
			continue;
		if (event_index(r, h.event) < 0)
			return pp_error(r->ctx, PP_EFORMAT,
			                "%s:%zu: more than %d events", r->name,
			                ls.lineno, MAX_EVENTS);
		r->any_period |= h.has_period;
	}
	return 0;
}

static int add_types(struct reader *r)
{
	pp_str t = pp_profile_intern(r->p, "samples");
	pp_str u = pp_profile_intern(r->p, "count");
	int err;

	if (t == PP_NONE || u == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if ((err = pp_profile_add_sample_type(r->p, t, u)) < 0)
		return err;
	if (!r->any_period)
		return 0;
	for (size_t i = 0; i < r->nevents; i++) {
		struct pp_span e = r->events[i];
		size_t n = (size_t)(e.e - e.s);
		/* perf's software clocks count nanoseconds */
		bool ns = n >= 6 && memcmp(e.e - 6, "-clock", 6) == 0;

		t = intern(r, e);
		u = pp_profile_intern(r->p, ns ? "nanoseconds" : "count");
		if (t == PP_NONE || u == PP_NONE)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		if ((err = pp_profile_add_sample_type(r->p, t, u)) < 0)
			return err;
		if (i == 0) {
			r->p->period_type.type = t;
			r->p->period_type.unit = u;
			r->p->has_period_type = true;
		}
	}
	return 0;
}

static int finish_sample(struct reader *r, const struct header *h)
{
	struct pp_label labels[3];
	size_t nl = 0, nvalues = r->any_period ? r->nevents + 1 : 1;
	int64_t v;

	memset(labels, 0, sizeof(labels));
	memset(r->values, 0, nvalues * sizeof(*r->values));
	r->values[0] = 1;
	if (r->any_period)
		r->values[1 + event_index(r, h->event)] =
		        h->has_period ? h->period : 1;
	if ((labels[nl].key = pp_profile_intern(r->p, "comm")) == PP_NONE ||
	    (labels[nl].str = intern(r, h->comm)) == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	nl++;
	if (pp_text__parse_int(h->pid, 10, &v)) {
		if ((labels[nl].key = pp_profile_intern(r->p, "pid")) ==
		    PP_NONE)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		labels[nl++].num = v;
	}
	if (pp_text__parse_int(h->tid, 10, &v)) {
		if ((labels[nl].key = pp_profile_intern(r->p, "tid")) ==
		    PP_NONE)
			return pp_error(r->ctx, PP_ENOMEM, "out of memory");
		labels[nl++].num = v;
	}
	return pp_profile_add_sample(r->p, r->stack, r->nstack, r->values,
	                             labels, nl);
}

/* The program's own DSO becomes the first mapping, which reports name in
 * their File: line (pprof's main binary): the one whose base name the
 * first sample's command starts (the kernel keeps 15 bytes of it). */
static void main_mapping_first(struct reader *r, struct pp_span comm)
{
	struct pp_profile *p = r->p;
	size_t n = (size_t)(comm.e - comm.s);
	uint32_t k;

	if (n == 0)
		return;
	for (k = 0; k < p->nmappings; k++) {
		const char *f = pp_profile_str(p, p->mappings[k].file);
		const char *base = strrchr(f, '/');

		base = base ? base + 1 : f;
		if (strncmp(base, comm.s, n) == 0)
			break;
	}
	if (k == 0 || k == p->nmappings)
		return;
	{
		struct pp_mapping m = p->mappings[k];

		p->mappings[k] = p->mappings[0];
		p->mappings[0] = m;
		p->mappings[0].id = 1;
		p->mappings[k].id = (uint64_t)k + 1;
	}
	for (uint32_t l = 0; l < p->nlocations; l++) {
		uint32_t *m = &p->locations[l].mapping;

		*m = *m == k ? 0 : *m == 0 ? k : *m;
	}
}

static int read_samples(struct reader *r, const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line;
	struct header h;
	bool in_sample = false;
	double first = 0, last = 0;
	int err;

	pp_lines__init(&ls, data, len);
	while (pp_lines__next(&ls, &line)) {
		struct pp_span sym, dso;
		uint64_t addr;

		if (pp_span__empty(pp_span__trim(line))) {
			if (in_sample && (err = finish_sample(r, &h)) < 0)
				return err;
			in_sample = false;
			continue;
		}
		if (in_sample && parse_frame(line, &addr, &sym, &dso)) {
			if ((err = pp_grow(r->ctx, (void **)&r->stack,
			                   &r->cap_stack, r->nstack + 1,
			                   sizeof(*r->stack))) < 0 ||
			    (err = location_of(r, addr, sym, dso,
			                       &r->stack[r->nstack])) < 0)
				return err;
			r->nstack++;
			continue;
		}
		if (in_sample && (err = finish_sample(r, &h)) < 0)
			return err;
		if (!parse_header(line, &h))
			return pp_error(
			        r->ctx, PP_EFORMAT,
			        "%s:%zu: not a perf script sample header "
			        "or frame",
			        r->name, ls.lineno);
		if (r->p->nsamples == 0 && !in_sample) {
			first = h.time;
			r->first_comm = h.comm;
		}
		if (h.has_period && r->p->period == 0)
			r->p->period = h.period;
		last = h.time;
		in_sample = true;
		r->nstack = 0;
	}
	if (in_sample && (err = finish_sample(r, &h)) < 0)
		return err;
	if (r->p->nsamples)
		main_mapping_first(r, r->first_comm);
	/* Clamped: timestamps are the text's, and C's conversion of a span
	 * past int64's range is undefined. */
	if (last > first)
		r->p->duration_nanos =
		        pp_int64_clamped((last - first) * 1e9 + 0.5);
	return 0;
}

int pp_perfscript__decode(struct pp_ctx *ctx, const char *name,
                          const uint8_t *data, size_t len,
                          struct pp_profile **out)
{
	struct reader r;
	int err;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.name = name;
	if (!(r.p = pp_profile_new(ctx)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = scan_events(&r, data, len)) < 0 || (err = add_types(&r)) < 0)
		goto done;
	if (!(r.values = pp_calloc(ctx, r.nevents + 1, sizeof(*r.values)))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = read_samples(&r, data, len)) < 0)
		goto done;
	*out = r.p;
	r.p = NULL;
done:
	pp_free(ctx, r.map_of);
	pp_free(ctx, r.fn_of);
	pp_free(ctx, r.slots);
	pp_free(ctx, r.stack);
	pp_free(ctx, r.values);
	pp_profile_free(r.p);
	return err;
}
