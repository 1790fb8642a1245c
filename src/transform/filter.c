/*
 * pprof's name filters (profile/filter.go, prune.go, driver_focus.go):
 * focus/ignore/hide/show, show_from and prune_from, on a working view of the
 * profile (internal.h) that is turned into a new profile once at the end.
 */
#include <stdio.h>
#include <string.h>

#include "transform/internal.h"

/* ---- the working view ---------------------------------------------------- */

int pp_work_init(struct pp_ctx *ctx, const struct pp_profile *src,
                 struct pp_work *w)
{
	memset(w, 0, sizeof(*w));
	w->ctx = ctx;
	w->src = src;
	w->line_idx = pp_malloc(ctx, (src->nlines + 1) * sizeof(uint32_t));
	w->nlines = pp_malloc(ctx, (src->nlocations + 1) * sizeof(uint32_t));
	w->skip = pp_calloc(ctx, src->nsamples + 1, sizeof(uint32_t));
	w->nlocs = pp_malloc(ctx, (src->nsamples + 1) * sizeof(uint32_t));
	w->keep = pp_malloc(ctx, (src->nsamples + 1) * sizeof(bool));
	if (!w->line_idx || !w->nlines || !w->skip || !w->nlocs || !w->keep) {
		pp_work_release(w);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < src->nlines; i++)
		w->line_idx[i] = (uint32_t)i;
	for (uint32_t l = 0; l < src->nlocations; l++)
		w->nlines[l] = src->locations[l].line_count;
	for (uint32_t s = 0; s < src->nsamples; s++) {
		w->nlocs[s] = src->samples[s].loc_count;
		w->keep[s] = true;
	}
	return 0;
}

int pp_work__own_stacks(struct pp_work *w)
{
	const struct pp_profile *src = w->src;

	if (w->locs)
		return 0;
	w->locs = pp_malloc(w->ctx, (src->nsample_locs + 1) * sizeof(uint32_t));
	if (!w->locs)
		return pp_error(w->ctx, PP_ENOMEM, "out of memory");
	for (size_t i = 0; i < src->nsample_locs; i++)
		w->locs[i] = pp_profile_loc(src, i);
	return 0;
}

void pp_work_release(struct pp_work *w)
{
	pp_free(w->ctx, w->line_idx);
	pp_free(w->ctx, w->nlines);
	pp_free(w->ctx, w->locs);
	pp_free(w->ctx, w->skip);
	pp_free(w->ctx, w->nlocs);
	pp_free(w->ctx, w->keep);
	pp_free(w->ctx, w->label_keep);
	memset(w, 0, sizeof(*w));
}

static int copy_header(struct pp_profile *dst, const struct pp_profile *src)
{
	uint32_t nstr = pp_strtab_count(src->strings);
	int err;

	/* Re-interning the (already unique) strings in order gives every one
	 * its old index, so records copy over unchanged. */
	for (uint32_t i = 1; i < nstr; i++)
		if (pp_strtab_intern(dst->strings, pp_profile_str(src, i),
		                     pp_strtab_len(src->strings, i)) != i)
			return pp_error(dst->ctx, PP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < src->nsample_types; i++)
		if ((err = pp_profile_add_sample_type(
		             dst, src->sample_types[i].type,
		             src->sample_types[i].unit)) < 0)
			return err;
	for (uint32_t i = 0; i < src->nmappings; i++)
		if ((err = pp_profile_add_mapping(dst, &src->mappings[i],
		                                  NULL)) < 0)
			return err;
	for (uint32_t i = 0; i < src->nfunctions; i++)
		if ((err = pp_profile_add_function(dst, &src->functions[i],
		                                   NULL)) < 0)
			return err;
	for (uint32_t i = 0; i < src->ncomments; i++)
		if ((err = pp_profile_add_comment(dst, src->comments[i])) < 0)
			return err;
	dst->default_sample_type = src->default_sample_type;
	dst->drop_frames = src->drop_frames;
	dst->keep_frames = src->keep_frames;
	dst->time_nanos = src->time_nanos;
	dst->duration_nanos = src->duration_nanos;
	dst->period_type = src->period_type;
	dst->has_period_type = src->has_period_type;
	dst->period = src->period;
	dst->doc_url = src->doc_url;
	return 0;
}

/* Sample s's current stack as 32-bit location indices: w->locs' or src's
 * own, or src's 16-bit ones widened into *wide (NULL when out of
 * memory). */
static const uint32_t *current_stack(const struct pp_work *w, uint32_t s,
                                     uint32_t **wide, size_t *cap_wide)
{
	const struct pp_profile *src = w->src;
	size_t at = (size_t)src->samples[s].loc_first + w->skip[s];

	if (w->locs)
		return w->locs + at;
	if (src->loc_bytes == 4)
		return (const uint32_t *)src->sample_locs + at;
	if (pp_grow(w->ctx, (void **)wide, cap_wide, (size_t)w->nlocs[s] + 1,
	            sizeof(**wide)) < 0)
		return NULL;
	for (uint32_t i = 0; i < w->nlocs[s]; i++)
		(*wide)[i] = pp_profile_loc(src, at + i);
	return *wide;
}

/*
 * Room in dst for every kept sample at once. Grown as they came, the big
 * arrays would be doubled, and each doubling moves them: a copy of what
 * was written, or (glibc's mremap) pages that on some virtual machines
 * cost microseconds each at their next touch.
 */
static int reserve_kept(const struct pp_work *w, struct pp_profile *dst)
{
	const struct pp_profile *src = w->src;
	size_t ns = 0, nf = 0, nl = 0;

	for (uint32_t s = 0; s < src->nsamples; s++) {
		if (!w->keep[s])
			continue;
		ns++;
		nf += w->nlocs[s];
		nl += pp_sample_label_range(src, s).count +
		      (w->set_key != NULL);
	}
	return pp_profile_reserve(dst, ns, nf, nl);
}

int pp_work_build(struct pp_work *w, struct pp_profile **out)
{
	const struct pp_profile *src = w->src;
	struct pp_ctx *ctx = w->ctx;
	struct pp_profile *dst = NULL;
	struct pp_line *lines = NULL;
	struct pp_label *labels = NULL;
	uint32_t *wide = NULL;
	size_t cap_lines = 0, cap_labels = 0, cap_wide = 0;
	pp_str set_key = PP_NONE, set_value = PP_NONE;
	int err;

	*out = NULL;
	dst = pp_profile_new(ctx);
	if (!dst)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = copy_header(dst, src)) < 0)
		goto done;
	if (w->set_key) {
		set_key = pp_profile_intern(dst, w->set_key);
		set_value = pp_profile_intern(dst, w->set_value);
		if (set_key == PP_NONE || set_value == PP_NONE) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
	}
	for (uint32_t l = 0; l < src->nlocations; l++) {
		const uint32_t *idx = pp_work__lines(w, l);
		uint32_t n = w->nlines[l];

		if ((err = pp_interrupt_poll(ctx, l)) < 0 ||
		    (err = pp_grow(ctx, (void **)&lines, &cap_lines, n + 1,
		                   sizeof(*lines))) < 0)
			goto done;
		for (uint32_t i = 0; i < n; i++)
			lines[i] = src->lines[idx[i]];
		if ((err = pp_profile_add_location(dst, &src->locations[l],
		                                   lines, n, NULL)) < 0)
			goto done;
	}
	if ((err = reserve_kept(w, dst)) < 0)
		goto done;
	for (uint32_t s = 0; s < src->nsamples; s++) {
		const int64_t *values = pp_profile_sample_values(src, s);
		struct pp_label_range r = pp_sample_label_range(src, s);
		const uint32_t *stack;
		size_t nl = 0;

		if ((err = pp_interrupt_poll(ctx, s)) < 0)
			goto done;
		if (!w->keep[s])
			continue;
		if (w->values)
			values = w->values + (size_t)s * src->nsample_types;
		if ((err = pp_grow(ctx, (void **)&labels, &cap_labels,
		                   (size_t)r.count + 2, sizeof(*labels))) < 0)
			goto done;
		for (uint32_t i = r.first; i < r.first + r.count; i++) {
			const struct pp_label *l = &src->labels[i];

			if (w->label_keep && !w->label_keep[i])
				continue;
			if (l->key == set_key && l->str != 0)
				continue;
			labels[nl++] = *l;
		}
		if (w->set_key) {
			struct pp_label l = {set_key, set_value, 0, 0};

			labels[nl++] = l;
		}
		if (!(stack = current_stack(w, s, &wide, &cap_wide))) {
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		if ((err = pp_profile_add_sample(dst, stack, w->nlocs[s],
		                                 values, labels, nl)) < 0)
			goto done;
	}
	*out = dst;
	dst = NULL;
done:
	pp_free(ctx, lines);
	pp_free(ctx, labels);
	pp_free(ctx, wide);
	pp_profile_free(dst);
	return err;
}

/* ---- matching ------------------------------------------------------------ */

/* Per-function and per-mapping match results of one regex, computed on
 * first use: 0 unknown, 1 no, 2 yes. */
struct matcher {
	const struct pp_profile *p;
	const struct pp_regex *re;
	unsigned char *fn, *map;
	bool simplified; /* match the simplified name only (prune) */
};

static int matcher_init(struct pp_ctx *ctx, struct matcher *m,
                        const struct pp_profile *p, const struct pp_regex *re,
                        bool simplified)
{
	m->p = p;
	m->re = re;
	m->simplified = simplified;
	m->fn = pp_calloc(ctx, p->nfunctions + 1, 1);
	m->map = pp_calloc(ctx, p->nmappings + 1, 1);
	if (!m->fn || !m->map)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return 0;
}

static void matcher_release(struct pp_ctx *ctx, struct matcher *m)
{
	pp_free(ctx, m->fn);
	pp_free(ctx, m->map);
}

static bool match_function(struct matcher *m, uint32_t f)
{
	const struct pp_function *fn;

	if (f == PP_NONE)
		return false;
	if (!m->fn[f]) {
		bool yes;

		fn = &m->p->functions[f];
		if (m->simplified) {
			size_t n;
			const char *name = pp_profile_strn(m->p, fn->name, &n);

			/* Matched in place, however long the name: a prefix
			 * of it. */
			name = pp_transform__simplify(name, n, &n);
			/* pprof skips frames without a name here. */
			yes = fn->name != 0 && pp_regex_match(m->re, name, n);
		} else {
			yes = pp_regex_match(
			              m->re, pp_profile_str(m->p, fn->name),
			              pp_strtab_len(m->p->strings, fn->name)) ||
			      pp_regex_match(m->re,
			                     pp_profile_str(m->p, fn->filename),
			                     pp_strtab_len(m->p->strings,
			                                   fn->filename));
		}
		m->fn[f] = yes ? 2 : 1;
	}
	return m->fn[f] == 2;
}

static bool match_mapping(struct matcher *m, uint32_t map)
{
	if (map == PP_NONE)
		return false;
	if (!m->map[map]) {
		pp_str file = m->p->mappings[map].file;

		m->map[map] = pp_regex_match(m->re, pp_profile_str(m->p, file),
		                             pp_strtab_len(m->p->strings, file))
		                      ? 2
		                      : 1;
	}
	return m->map[map] == 2;
}

static bool match_line(struct matcher *m, uint32_t line)
{
	return match_function(m, m->p->lines[line].function);
}

/* pprof's Location.matchesName on the location's current lines. */
static bool match_location(struct matcher *m, const struct pp_work *w,
                           uint32_t l)
{
	const uint32_t *idx = pp_work__lines(w, l);

	for (uint32_t i = 0; i < w->nlines[l]; i++)
		if (match_line(m, idx[i]))
			return true;
	return match_mapping(m, w->src->locations[l].mapping);
}

/* Keep the lines of l for which match_line(m) == want (a line without a
 * function always stays). */
static uint32_t keep_lines(struct matcher *m, struct pp_work *w, uint32_t l,
                           bool want)
{
	uint32_t *idx = pp_work__lines(w, l), n = 0;

	for (uint32_t i = 0; i < w->nlines[l]; i++) {
		uint32_t f = w->src->lines[idx[i]].function;

		if (f == PP_NONE || match_function(m, f) == want)
			idx[n++] = idx[i];
	}
	return w->nlines[l] = n;
}

/* Does the len-byte name hold word at i? */
static bool word_at(const char *name, size_t len, size_t i, const char *word,
                    size_t wl)
{
	return len - i >= wl && memcmp(name + i, word, wl) == 0;
}

const char *pp_transform__simplify(const char *name, size_t len,
                                   size_t *out_len)
{
	static const char anon[] = "(anonymous namespace)", op[] = "operator()";
	size_t i = 0, end;

	if (len > 0 && name[0] == '.')
		name++, len--;
	end = len;
	while (i < len) {
		if (word_at(name, len, i, anon, sizeof(anon) - 1))
			i += sizeof(anon) - 1;
		else if (word_at(name, len, i, op, sizeof(op) - 1))
			i += sizeof(op) - 1;
		else if (name[i] == '(') {
			end = i;
			break;
		} else
			i++;
	}
	*out_len = end;
	return name;
}

/* ---- the filters ------------------------------------------------------- */

enum { FI_NONE, FI_FOCUS, FI_IGNORE };

struct regexes {
	struct pp_regex *focus, *ignore, *hide, *show, *show_from, *prune_from;
};

static int compile(struct pp_ctx *ctx, const char *name, const char *value,
                   struct pp_regex **out)
{
	char what[64];

	*out = NULL;
	if (!value || !*value)
		return 0;
	snprintf(what, sizeof(what), "parsing %s regexp", name);
	return pp_regex_compile(ctx, what, value, out);
}

/* Profile.FilterSamplesByName. */
static int by_name(struct pp_work *w, struct regexes *rx)
{
	struct pp_ctx *ctx = w->ctx;
	const struct pp_profile *p = w->src;
	struct matcher mf = {0}, mi = {0}, mh = {0}, ms = {0};
	unsigned char *fi = NULL;
	bool *hidden = NULL, any_hidden = false;
	bool fm = false, im = false, hm = false, hnm = false;
	int err;

	fi = pp_calloc(ctx, p->nlocations + 1, 1);
	hidden = pp_calloc(ctx, p->nlocations + 1, sizeof(bool));
	if (!fi || !hidden) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((rx->focus &&
	     (err = matcher_init(ctx, &mf, p, rx->focus, false)) < 0) ||
	    (rx->ignore &&
	     (err = matcher_init(ctx, &mi, p, rx->ignore, false)) < 0) ||
	    (rx->hide &&
	     (err = matcher_init(ctx, &mh, p, rx->hide, false)) < 0) ||
	    (rx->show &&
	     (err = matcher_init(ctx, &ms, p, rx->show, false)) < 0))
		goto done;
	for (uint32_t l = 0; l < p->nlocations; l++) {
		uint32_t map = p->locations[l].mapping;

		/* A regex can take long on each of many names. */
		if ((err = pp_interrupt_poll(ctx, l)) < 0)
			goto done;
		if (rx->ignore && match_location(&mi, w, l)) {
			im = true;
			fi[l] = FI_IGNORE;
		} else if (!rx->focus || match_location(&mf, w, l)) {
			fm = true;
			fi[l] = FI_FOCUS;
		}
		if (rx->hide && match_location(&mh, w, l)) {
			hm = true;
			if (match_mapping(&mh, map))
				w->nlines[l] = 0;
			else
				keep_lines(&mh, w, l, false);
			if (w->nlines[l] == 0)
				hidden[l] = any_hidden = true;
		}
		if (rx->show) {
			if (!match_mapping(&ms, map))
				keep_lines(&ms, w, l, true);
			if (w->nlines[l] == 0)
				hidden[l] = any_hidden = true;
			else
				hnm = true;
		}
	}
	/* Taking locations out rewrites the stacks. */
	if (any_hidden && (err = pp_work__own_stacks(w)) < 0)
		goto done;
	for (uint32_t s = 0; s < p->nsamples; s++) {
		uint32_t *stack, n = 0;
		bool focused = false;

		if ((err = pp_interrupt_poll(ctx, s)) < 0)
			goto done;
		if (!w->keep[s])
			continue;
		for (uint32_t i = 0; i < w->nlocs[s]; i++) {
			uint32_t l = pp_work__loc(w, s, i);

			if (fi[l] == FI_IGNORE) {
				focused = false;
				break;
			}
			if (fi[l] == FI_FOCUS)
				focused = true;
		}
		if (!focused) {
			w->keep[s] = false;
			continue;
		}
		if (!any_hidden)
			continue;
		stack = pp_work__stack(w, s);
		for (uint32_t i = 0; i < w->nlocs[s]; i++)
			if (!hidden[stack[i]])
				stack[n++] = stack[i];
		w->nlocs[s] = n;
		if (n == 0)
			w->keep[s] = false;
	}
	if (rx->focus && !fm)
		pp_warn(ctx, "Focus expression matched no samples");
	if (rx->ignore && !im)
		pp_warn(ctx, "Ignore expression matched no samples");
	if (rx->hide && !hm)
		pp_warn(ctx, "Hide expression matched no samples");
	if (rx->show && !hnm)
		pp_warn(ctx, "Show expression matched no samples");
	err = 0;
done:
	matcher_release(ctx, &mf);
	matcher_release(ctx, &mi);
	matcher_release(ctx, &mh);
	matcher_release(ctx, &ms);
	pp_free(ctx, fi);
	pp_free(ctx, hidden);
	return err;
}

/* Profile.ShowFrom. */
static int show_from(struct pp_work *w, const struct pp_regex *re)
{
	struct pp_ctx *ctx = w->ctx;
	const struct pp_profile *p = w->src;
	struct matcher m = {0};
	bool *from = NULL, matched = false;
	int err;

	from = pp_calloc(ctx, p->nlocations + 1, sizeof(bool));
	if (!from) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = matcher_init(ctx, &m, p, re, false)) < 0)
		goto done;
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const uint32_t *idx = pp_work__lines(w, l);

		if ((err = pp_interrupt_poll(ctx, l)) < 0)
			goto done;
		if (match_mapping(&m, p->locations[l].mapping)) {
			from[l] = matched = true;
			continue;
		}
		for (uint32_t i = w->nlines[l]; i-- > 0;) {
			if (match_line(&m, idx[i])) {
				/* Only the lines inlined into the match stay.
				 */
				w->nlines[l] = i + 1;
				from[l] = matched = true;
				break;
			}
		}
	}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		uint32_t i;

		if ((err = pp_interrupt_poll(ctx, s)) < 0)
			goto done;
		if (!w->keep[s])
			continue;
		for (i = w->nlocs[s]; i-- > 0;)
			if (from[pp_work__loc(w, s, i)])
				break;
		if (i == UINT32_MAX)
			w->keep[s] = false;
		else
			w->nlocs[s] = i + 1;
	}
	if (!matched)
		pp_warn(ctx, "ShowFrom expression matched no samples");
done:
	matcher_release(ctx, &m);
	pp_free(ctx, from);
	return err;
}

/* Drop the first n lines of location l (its innermost ones). */
static void cut_lines(struct pp_work *w, uint32_t l, uint32_t n)
{
	uint32_t *idx = pp_work__lines(w, l);

	memmove(idx, idx + n, (w->nlines[l] - n) * sizeof(*idx));
	w->nlines[l] -= n;
}

/* Profile.PruneFrom. */
static int prune_from(struct pp_work *w, const struct pp_regex *re)
{
	struct pp_ctx *ctx = w->ctx;
	const struct pp_profile *p = w->src;
	struct matcher m = {0};
	bool *beneath = NULL;
	int err;

	beneath = pp_calloc(ctx, p->nlocations + 1, sizeof(bool));
	if (!beneath) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = matcher_init(ctx, &m, p, re, true)) < 0)
		goto done;
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const uint32_t *idx = pp_work__lines(w, l);

		if ((err = pp_interrupt_poll(ctx, l)) < 0)
			goto done;
		for (uint32_t i = 0; i < w->nlines[l]; i++) {
			if (match_line(&m, idx[i])) {
				beneath[l] = true;
				cut_lines(w, l, i);
				break;
			}
		}
	}
	for (uint32_t s = 0; s < p->nsamples; s++) {
		if ((err = pp_interrupt_poll(ctx, s)) < 0)
			goto done;
		if (!w->keep[s])
			continue;
		for (uint32_t i = 0; i < w->nlocs[s]; i++) {
			if (beneath[pp_work__loc(w, s, i)]) {
				w->skip[s] += i;
				w->nlocs[s] -= i;
				break;
			}
		}
	}
done:
	matcher_release(ctx, &m);
	pp_free(ctx, beneath);
	return err;
}

int pp_profile_filter_marks(struct pp_ctx *ctx, const struct pp_profile *p,
                            const struct pp_filter_opts *o,
                            unsigned char *marks)
{
	struct pp_filter_opts rest = *o;
	struct regexes rx = {0};
	struct matcher mf = {0}, mi = {0};
	bool fm = false, im = false;
	int err;

	rest.focus = rest.ignore = NULL;
	if (pp_filter_opts_active(&rest) || !pp_filter_opts_active(o))
		return PP_EUNSUPPORTED;
	/* In pp_profile_filter's order, for its messages. */
	if ((err = compile(ctx, "focus", o->focus, &rx.focus)) < 0 ||
	    (err = compile(ctx, "ignore", o->ignore, &rx.ignore)) < 0)
		goto done;
	if ((rx.focus &&
	     (err = matcher_init(ctx, &mf, p, rx.focus, false)) < 0) ||
	    (rx.ignore &&
	     (err = matcher_init(ctx, &mi, p, rx.ignore, false)) < 0))
		goto done;
	/* by_name's first loop, on the locations' own lines. */
	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];
		bool ig = false, fo = !rx.focus;

		if ((err = pp_interrupt_poll(ctx, l)) < 0)
			goto done;
		for (uint32_t i = 0; i < loc->line_count; i++) {
			uint32_t line = loc->line_first + i;

			ig = ig || (rx.ignore && match_line(&mi, line));
			fo = fo || match_line(&mf, line);
		}
		ig = ig || (rx.ignore && match_mapping(&mi, loc->mapping));
		fo = fo || match_mapping(&mf, loc->mapping);
		im = im || ig;
		fm = fm || (!ig && fo);
		marks[l] = (unsigned char)((ig ? PP_FILTER_MARK_IGNORE : 0) |
		                           (fo ? PP_FILTER_MARK_FOCUS : 0));
	}
	if (rx.focus && !fm)
		pp_warn(ctx, "Focus expression matched no samples");
	if (rx.ignore && !im)
		pp_warn(ctx, "Ignore expression matched no samples");
	err = 0;
done:
	matcher_release(ctx, &mf);
	matcher_release(ctx, &mi);
	pp_regex_free(rx.focus);
	pp_regex_free(rx.ignore);
	return err;
}

/* by_name's and show_from's work on location l, as marks: its lines gone
 * (line_marks), and whether it is hidden or a show_from match. */
struct line_matchers {
	struct matcher f, i, h, s, sf;
	bool fm, im, hm, hnm, sfm;
};

static unsigned char location_line_marks(struct line_matchers *m,
                                         const struct regexes *rx,
                                         const struct pp_profile *p, uint32_t l,
                                         unsigned char *gone)
{
	const struct pp_location *loc = &p->locations[l];
	uint32_t n = loc->line_count, left = n, map = loc->mapping;
	const struct pp_line *lines = p->lines + loc->line_first;
	bool ig = false, fo = !rx->focus, hidden = false, from = false;

	for (uint32_t i = 0; i < n; i++) {
		ig = ig ||
		     (rx->ignore && match_line(&m->i, loc->line_first + i));
		fo = fo ||
		     (rx->focus && match_line(&m->f, loc->line_first + i));
	}
	ig = ig || (rx->ignore && match_mapping(&m->i, map));
	fo = fo || (rx->focus && match_mapping(&m->f, map));
	m->im = m->im || ig;
	m->fm = m->fm || (!ig && fo);
	if (rx->hide) {
		bool any = match_mapping(&m->h, map);

		for (uint32_t i = 0; i < n && !any; i++)
			any = match_line(&m->h, loc->line_first + i);
		if (any) {
			bool all = match_mapping(&m->h, map);

			m->hm = true;
			for (uint32_t i = 0; i < n; i++) {
				uint32_t f = lines[i].function;

				if (all || (f != PP_NONE &&
				            match_function(&m->h, f))) {
					gone[i] = PP_FILTER_LINE_GONE;
					left--;
				}
			}
			hidden = left == 0;
		}
	}
	if (rx->show) {
		if (!match_mapping(&m->s, map))
			for (uint32_t i = 0; i < n; i++) {
				uint32_t f = lines[i].function;

				if (!gone[i] && f != PP_NONE &&
				    !match_function(&m->s, f)) {
					gone[i] = PP_FILTER_LINE_GONE;
					left--;
				}
			}
		if (left == 0)
			hidden = true;
		else
			m->hnm = true;
	}
	if (rx->show_from) {
		if (match_mapping(&m->sf, map)) {
			from = true;
			for (uint32_t i = n; i-- > 0;)
				if (!gone[i]) {
					gone[i] = PP_FILTER_LINE_FROM;
					break;
				}
		} else {
			for (uint32_t i = n; i-- > 0;) {
				if (gone[i] ||
				    !match_line(&m->sf, loc->line_first + i))
					continue;
				/* Only the lines inlined into the match stay.
				 */
				for (uint32_t j = i + 1; j < n; j++)
					gone[j] = PP_FILTER_LINE_GONE;
				gone[i] = PP_FILTER_LINE_FROM;
				from = true;
				break;
			}
		}
		m->sfm = m->sfm || from;
	}
	return (unsigned char)((ig ? PP_FILTER_MARK_IGNORE : 0) |
	                       (fo ? PP_FILTER_MARK_FOCUS : 0) |
	                       (hidden ? PP_FILTER_MARK_HIDDEN : 0) |
	                       (from ? PP_FILTER_MARK_FROM : 0));
}

int pp_profile_filter_line_marks(struct pp_ctx *ctx, const struct pp_profile *p,
                                 const struct pp_filter_opts *o,
                                 unsigned char *marks,
                                 unsigned char *line_marks)
{
	struct pp_filter_opts rest = *o;
	struct regexes rx = {0};
	struct line_matchers m;
	int err;

	memset(&m, 0, sizeof(m));
	rest.focus = rest.ignore = rest.hide = rest.show = rest.show_from =
	        NULL;
	if (pp_filter_opts_active(&rest) || !pp_filter_opts_active(o))
		return PP_EUNSUPPORTED;
	/* In pp_profile_filter's order, for its messages. */
	if ((err = compile(ctx, "focus", o->focus, &rx.focus)) < 0 ||
	    (err = compile(ctx, "ignore", o->ignore, &rx.ignore)) < 0 ||
	    (err = compile(ctx, "hide", o->hide, &rx.hide)) < 0 ||
	    (err = compile(ctx, "show", o->show, &rx.show)) < 0 ||
	    (err = compile(ctx, "show_from", o->show_from, &rx.show_from)) < 0)
		goto done;
	if ((rx.focus &&
	     (err = matcher_init(ctx, &m.f, p, rx.focus, false)) < 0) ||
	    (rx.ignore &&
	     (err = matcher_init(ctx, &m.i, p, rx.ignore, false)) < 0) ||
	    (rx.hide &&
	     (err = matcher_init(ctx, &m.h, p, rx.hide, false)) < 0) ||
	    (rx.show &&
	     (err = matcher_init(ctx, &m.s, p, rx.show, false)) < 0) ||
	    (rx.show_from &&
	     (err = matcher_init(ctx, &m.sf, p, rx.show_from, false)) < 0))
		goto done;
	if (p->nlines)
		memset(line_marks, 0, p->nlines);
	for (uint32_t l = 0; l < p->nlocations; l++) {
		if ((err = pp_interrupt_poll(ctx, l)) < 0)
			goto done;
		marks[l] = location_line_marks(
		        &m, &rx, p, l, line_marks + p->locations[l].line_first);
	}
	/* pp_profile_filter's warnings, in its order; by_name runs only
	 * with one of its four regexes. */
	if (rx.focus && !m.fm)
		pp_warn(ctx, "Focus expression matched no samples");
	if (rx.ignore && !m.im)
		pp_warn(ctx, "Ignore expression matched no samples");
	if (rx.hide && !m.hm)
		pp_warn(ctx, "Hide expression matched no samples");
	if (rx.show && !m.hnm)
		pp_warn(ctx, "Show expression matched no samples");
	if (rx.show_from && !m.sfm)
		pp_warn(ctx, "ShowFrom expression matched no samples");
	err = 0;
done:
	matcher_release(ctx, &m.f);
	matcher_release(ctx, &m.i);
	matcher_release(ctx, &m.h);
	matcher_release(ctx, &m.s);
	matcher_release(ctx, &m.sf);
	pp_regex_free(rx.focus);
	pp_regex_free(rx.ignore);
	pp_regex_free(rx.hide);
	pp_regex_free(rx.show);
	pp_regex_free(rx.show_from);
	return err;
}

bool pp_filter_opts_active(const struct pp_filter_opts *o)
{
	const char *v[] = {o->focus,     o->ignore,    o->hide,      o->show,
	                   o->show_from, o->tagfocus,  o->tagignore, o->tagshow,
	                   o->taghide,   o->prune_from};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (v[i] && *v[i])
			return true;
	return false;
}

int pp_profile_filter(struct pp_ctx *ctx, const struct pp_profile *in,
                      const struct pp_filter_opts *o, struct pp_profile **out)
{
	struct regexes rx = {0};
	struct pp_work w = {0};
	int err;

	*out = NULL;
	/* Compiled first, in pprof's order, so a bad one fails before any
	 * work (tagshow/taghide are checked by tags.c likewise). */
	if ((err = compile(ctx, "focus", o->focus, &rx.focus)) < 0 ||
	    (err = compile(ctx, "ignore", o->ignore, &rx.ignore)) < 0 ||
	    (err = compile(ctx, "hide", o->hide, &rx.hide)) < 0 ||
	    (err = compile(ctx, "show", o->show, &rx.show)) < 0 ||
	    (err = compile(ctx, "show_from", o->show_from, &rx.show_from)) <
	            0 ||
	    (err = compile(ctx, "prune_from", o->prune_from, &rx.prune_from)) <
	            0)
		goto done;
	if ((err = pp_work_init(ctx, in, &w)) < 0)
		goto done;
	/* pprof's FilterSamplesByName does nothing without one of its four
	 * regexes; with one, it drops every sample that has no location. */
	if ((rx.focus || rx.ignore || rx.hide || rx.show) &&
	    (err = by_name(&w, &rx)) < 0)
		goto done;
	if (rx.show_from && (err = show_from(&w, rx.show_from)) < 0)
		goto done;
	if ((err = pp_transform__tag_filters(&w, o)) < 0)
		goto done;
	if (rx.prune_from && (err = prune_from(&w, rx.prune_from)) < 0)
		goto done;
	err = pp_work_build(&w, out);
done:
	pp_work_release(&w);
	pp_regex_free(rx.focus);
	pp_regex_free(rx.ignore);
	pp_regex_free(rx.hide);
	pp_regex_free(rx.show);
	pp_regex_free(rx.show_from);
	pp_regex_free(rx.prune_from);
	return err;
}
