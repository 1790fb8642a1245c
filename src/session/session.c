/* The session: the loaded profile and the staged cache of what reports
 * are made from (filtered profile -> aggregate -> view). */
#include <limits.h>
#include <string.h>

#include "pprof/aggregate.h"
#include "pprof/session.h"
#include "pprof/symbolize.h"
#include "pprof/tree.h"
#include "session/internal.h"

/* pp_profile_filter_marks' marks are pp_tree_select's. */
_Static_assert(PP_FILTER_MARK_IGNORE == PP_TREE_MARK_DROP &&
                       PP_FILTER_MARK_FOCUS == PP_TREE_MARK_NEED,
               "filter marks are tree marks");
_Static_assert(PP_FILTER_MARK_HIDDEN == PP_TREE_MARK_HIDDEN &&
                       PP_FILTER_MARK_FROM == PP_TREE_MARK_FROM &&
                       PP_FILTER_LINE_GONE == PP_TREE_LINE_GONE &&
                       PP_FILTER_LINE_FROM == PP_TREE_LINE_FROM,
               "filter line marks are tree line marks");
/* A tree selection holds its filtered entry and the whole profile's. */
_Static_assert(PP_SESSION_KEEP_FILTERED >= 2, "two filtered entries");

#define NFILTERS 10 /* the fields of struct pp_filter_opts */
/* The filtered stage's key: the filters, then -tagroot, -tagleaf and the
 * unit their numeric labels are named in (only with one of them). */
#define NKEYS (NFILTERS + 3)

/* A filtered profile, keyed by the filters. */
struct filtered {
	unsigned long long id; /* 0: an empty slot */
	unsigned long long used;
	char *key[NKEYS];        /* owned copies; NULL: unset */
	struct pp_profile *prof; /* owned; NULL: no filter, the source's */
	/* The filters as "name=value", for the reports' headers. */
	char *active[NFILTERS];
	size_t nactive;
	/* Not filtered yet (focus and ignore only, asked by a tree report):
	 * per location, pp_profile_filter_marks' marks; its aggregates are
	 * reports on the source whose trees were selected from the whole
	 * profile's. NULL once prof is made (or with no filter). */
	unsigned char *marks;
	/* With hide, show or show_from too: per line of the source,
	 * pp_profile_filter_line_marks' (marks are then its too). */
	unsigned char *line_marks;
};

/* An aggregate of a filtered profile (its graph, view and trees), and the
 * report on it: options, totals, unit. */
struct aggregate {
	unsigned long long id; /* 0: an empty slot */
	unsigned long long used;
	unsigned long long filtered; /* its filtered profile's id */
	bool relative;
	/* A tree report of a refine that keeps every sample: agg and rpt
	 * are NULL and the whole profile's report answers. */
	bool whole;
	struct pp_report_opts key; /* strings below */
	char *sample_index, *unit, *source_path, *trim_path;
	struct pp_aggregate *agg; /* owned; rpt borrows it */
	struct pp_report *rpt;
};

struct pp_session {
	struct pp_ctx *ctx;
	struct pp_profile *prof; /* combined */
	struct pp_profile *base; /* base_apart only */
	struct filtered filtered[PP_SESSION_KEEP_FILTERED];
	struct aggregate aggregates[PP_SESSION_KEEP_AGGREGATES];
	unsigned long long clock, next_id;
	struct pp_session_stats stats;
	/* Graph builds of the reports already freed. */
	unsigned long long graphs_freed;
	/* How the profile's binaries were found, for the reports that read
	 * them again (disasm, weblist); strings owned. */
	struct pp_symbolize_opts binaries;
	char *executable, *binary_path;
};

/* ---- opening ------------------------------------------------------------- */

static int dup_opt(struct pp_ctx *ctx, const char *s, char **out);

static int session_new(struct pp_ctx *ctx, struct pp_session **out)
{
	*out = pp_calloc(ctx, 1, sizeof(**out));
	if (!*out)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	(*out)->ctx = ctx;
	return 0;
}

/* Load the bases (several merged into one) with the sources' executable:
 * *out is NULL when there is none. */
static int load_base(struct pp_ctx *ctx, const struct pp_load_opts *o,
                     const char *executable, struct pp_profile **out)
{
	const char *const *bases = o->ndiff_base ? o->diff_base : o->base;
	size_t n = o->ndiff_base ? o->ndiff_base : o->nbase;

	*out = NULL;
	if (o->nbase && o->ndiff_base)
		return pp_error(ctx, PP_EUSAGE,
		                "-base and -diff_base flags cannot both be "
		                "specified");
	if (n == 0)
		return 0;
	/* As pprof's fetchProfiles: the bases are merged into one. */
	return pp_session__load(ctx, o, executable, bases, o->base_data, n,
	                        out);
}

int pp_session_open(struct pp_ctx *ctx, const char *const *sources, size_t n,
                    const struct pp_load_opts *opts, struct pp_session **out)
{
	static const struct pp_load_opts defaults = {0};
	const struct pp_load_opts *o = opts ? opts : &defaults;
	const char *executable = NULL;
	const char *first_base = o->ndiff_base ? o->diff_base[0]
	                         : o->nbase    ? o->base[0]
	                                       : NULL;
	struct pp_profile *prof = NULL, *base = NULL;
	const struct pp_bytes *data = o->data;
	struct pp_session *s = NULL;
	struct pp_load_opts lo = *o; /* o, all_frames aside */
	int err;

	*out = NULL;
	if (n == 0)
		return pp_error(ctx, PP_EUSAGE, "no profile given");
	if (!data)
		executable = pp_session__leading_executable(sources, n);
	if (executable) {
		sources++;
		n--;
	}
	if ((err = session_new(ctx, &s)) < 0)
		return err;
	if ((err = pp_symbolize_opts_parse(ctx, o->symbolize, &s->binaries)) <
	            0 ||
	    (err = dup_opt(ctx, executable, &s->executable)) < 0 ||
	    (err = dup_opt(ctx, o->binary_path, &s->binary_path)) < 0)
		goto fail;
	s->binaries.executable = s->executable;
	s->binaries.binary_path = s->binary_path;
	if (o->base_apart) {
		/* check: the base first, then the profile, alike in type. */
		const char *names[2] = {"the profile", first_base};

		if ((err = load_base(ctx, o, executable, &base)) < 0 ||
		    (err = pp_session__load(ctx, o, executable, sources, data,
		                            n, &prof)) < 0)
			goto fail;
		if (base &&
		    (err = pp_profile_check_base(ctx, prof, base, names)) < 0)
			goto fail;
		s->prof = prof;
		s->base = base;
		*out = s;
		return 0;
	}
	/* With a base, pprof drops the profile's drop_frames only from the
	 * two combined (its fetchProfiles), by the profile's regexes: the
	 * frames they cut stay in the merge's numbering of locations (raw),
	 * and the base's own drop_frames go unused. */
	lo.all_frames = o->all_frames || o->nbase || o->ndiff_base;
	if ((err = pp_session__load(ctx, &lo, executable, sources, data, n,
	                            &prof)) < 0 ||
	    (err = load_base(ctx, &lo, executable, &base)) < 0)
		goto fail;
	if (!base) {
		if (o->normalize) {
			err = pp_error(
			        ctx, PP_EUSAGE,
			        "must have base profile to normalize by");
			goto fail;
		}
		s->prof = prof;
		*out = s;
		return 0;
	}
	{
		/* The merged base has its first file's sample types. */
		const char *names[2] = {"the profile", first_base};

		err = pp_profile_apply_base(ctx, prof, base, o->ndiff_base > 0,
		                            o->normalize, names, &s->prof);
		if (err >= 0 && !o->all_frames)
			err = pp_profile_remove_uninteresting(ctx, s->prof);
	}
	pp_profile_free(base);
	base = NULL;
	pp_profile_free(prof);
	prof = NULL;
	if (err < 0)
		goto fail;
	*out = s;
	return 0;
fail:
	pp_profile_free(prof);
	pp_profile_free(base);
	pp_session_free(s);
	return err;
}

int pp_session_adopt(struct pp_ctx *ctx, struct pp_profile *prof,
                     struct pp_session **out)
{
	int err;

	if ((err = session_new(ctx, out)) < 0) {
		pp_profile_free(prof);
		return err;
	}
	(*out)->prof = prof;
	return 0;
}

const struct pp_profile *pp_session_profile(const struct pp_session *s)
{
	return s->prof;
}

const struct pp_profile *pp_session_base(const struct pp_session *s)
{
	return s->base;
}

/* ---- the cache ----------------------------------------------------------- */

static void aggregate_clear(struct pp_session *s, struct aggregate *a)
{
	if (a->agg)
		s->graphs_freed += a->agg->builds;
	pp_report_free(a->rpt);
	pp_aggregate_free(a->agg);
	pp_free(s->ctx, a->sample_index);
	pp_free(s->ctx, a->unit);
	pp_free(s->ctx, a->source_path);
	pp_free(s->ctx, a->trim_path);
	memset(a, 0, sizeof(*a));
}

static void filtered_clear(struct pp_session *s, struct filtered *f)
{
	/* The aggregates made from f borrow its profile and strings. */
	for (size_t i = 0; i < PP_SESSION_KEEP_AGGREGATES; i++)
		if (f->id && s->aggregates[i].filtered == f->id)
			aggregate_clear(s, &s->aggregates[i]);
	for (size_t i = 0; i < NKEYS; i++)
		pp_free(s->ctx, f->key[i]);
	for (size_t i = 0; i < f->nactive; i++)
		pp_free(s->ctx, f->active[i]);
	pp_profile_free(f->prof);
	pp_free(s->ctx, f->marks);
	pp_free(s->ctx, f->line_marks);
	memset(f, 0, sizeof(*f));
}

void pp_session_free(struct pp_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < PP_SESSION_KEEP_FILTERED; i++)
		filtered_clear(s, &s->filtered[i]);
	for (size_t i = 0; i < PP_SESSION_KEEP_AGGREGATES; i++)
		aggregate_clear(s, &s->aggregates[i]);
	pp_profile_free(s->base);
	pp_profile_free(s->prof);
	pp_free(s->ctx, s->executable);
	pp_free(s->ctx, s->binary_path);
	pp_free(s->ctx, s);
}

void pp_session_stats(const struct pp_session *s, struct pp_session_stats *out)
{
	*out = s->stats;
	out->graphs = s->graphs_freed;
	for (size_t i = 0; i < PP_SESSION_KEEP_AGGREGATES; i++)
		if (s->aggregates[i].agg)
			out->graphs += s->aggregates[i].agg->builds;
}

/* The filters of o in pprof's order, with their names; prune_from is a
 * filter that pprof does not list among the active ones. */
static void filter_fields(const struct pp_view_opts *vo, const char *v[NKEYS])
{
	const struct pp_filter_opts *o = &vo->filter;

	v[0] = o->focus;
	v[1] = o->ignore;
	v[2] = o->hide;
	v[3] = o->show;
	v[4] = o->show_from;
	v[5] = o->tagfocus;
	v[6] = o->tagignore;
	v[7] = o->tagshow;
	v[8] = o->taghide;
	v[9] = o->prune_from;
	v[10] = vo->tagroot;
	v[11] = vo->tagleaf;
	v[12] = NULL;
	for (size_t i = 0; i < NKEYS; i++)
		if (v[i] && !*v[i])
			v[i] = NULL;
	if (v[10] || v[11])
		v[12] = vo->report.unit ? vo->report.unit : "minimum";
}

static const char *const filter_names[NFILTERS - 1] = {
        "focus",    "ignore",    "hide",    "show",   "show_from",
        "tagfocus", "tagignore", "tagshow", "taghide"};

static bool same_string(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The least recently used of n slots (an empty one first). */
#define OLDEST(arr, n, out)                                                \
	do {                                                               \
		(out) = &(arr)[0];                                         \
		for (size_t i_ = 1; i_ < (n) && (out)->id; i_++)           \
			if (!(arr)[i_].id || (arr)[i_].used < (out)->used) \
				(out) = &(arr)[i_];                        \
	} while (0)

/* The filtered stage: an entry for o's filters. */
/* Could a tree report on these filters select its tree from the whole
 * profile's (focus, ignore, hide, show and show_from only, and no label
 * frames)? */
static bool selectable(const char *const v[NKEYS])
{
	for (size_t k = 5; k < NKEYS; k++)
		if (v[k])
			return false;
	return v[0] || v[1] || v[2] || v[3] || v[4];
}

/* Do they take frames out of the stacks (hide, show, show_from)? */
static bool refining(const char *const v[NKEYS])
{
	return v[2] || v[3] || v[4];
}

/* Make the profile of a filtered entry whose reports selected their
 * trees: those reports go (they would show every sample elsewhere). */
static int materialize(struct pp_session *s, struct filtered *f)
{
	struct pp_filter_opts o = {0};
	int err;

	for (size_t i = 0; i < PP_SESSION_KEEP_AGGREGATES; i++)
		if (s->aggregates[i].filtered == f->id)
			aggregate_clear(s, &s->aggregates[i]);
	o.focus = f->key[0];
	o.ignore = f->key[1];
	o.hide = f->key[2];
	o.show = f->key[3];
	o.show_from = f->key[4];
	if ((err = pp_profile_filter(s->ctx, s->prof, &o, &f->prof)) < 0)
		return err;
	s->stats.filters++;
	pp_free(s->ctx, f->marks);
	pp_free(s->ctx, f->line_marks);
	f->marks = f->line_marks = NULL;
	return 0;
}

/* A selected tree's entry needs the whole profile's (its tree is where
 * the next refine selects from): using one uses the other after it, so
 * that a new refine evicts the older refine, not the whole profile. */
static void touch_whole(struct pp_session *s)
{
	for (size_t i = 0; i < PP_SESSION_KEEP_FILTERED; i++) {
		struct filtered *e = &s->filtered[i];
		size_t k;

		for (k = 0; k < NKEYS && !e->key[k]; k++)
			;
		if (e->id && k == NKEYS)
			e->used = ++s->clock;
	}
}

static int get_filtered(struct pp_session *s, const struct pp_view_opts *vo,
                        bool tree_only, struct filtered **out)
{
	const struct pp_filter_opts *o = &vo->filter;
	struct pp_profile *labelled = NULL;
	const char *v[NKEYS];
	struct filtered f = {0}, *slot;
	int err;

	*out = NULL;
	filter_fields(vo, v);
	for (size_t i = 0; i < PP_SESSION_KEEP_FILTERED; i++) {
		struct filtered *e = &s->filtered[i];
		size_t k;

		if (!e->id)
			continue;
		for (k = 0; k < NKEYS && same_string(e->key[k], v[k]); k++)
			;
		if (k == NKEYS) {
			e->used = ++s->clock;
			if (e->marks && !tree_only &&
			    (err = materialize(s, e)) < 0)
				return err;
			if (e->marks)
				touch_whole(s);
			*out = e;
			return 0;
		}
	}
	for (size_t k = 0; k < NKEYS; k++) {
		if (!v[k])
			continue;
		if (!(f.key[k] = pp_strdup(s->ctx, v[k]))) {
			err = pp_error(s->ctx, PP_ENOMEM, "out of memory");
			goto fail;
		}
		if (k < NFILTERS - 1) {
			size_t len = strlen(filter_names[k]) + strlen(v[k]) + 2;
			char *a = pp_malloc(s->ctx, len);

			if (!a) {
				err = pp_error(s->ctx, PP_ENOMEM,
				               "out of memory");
				goto fail;
			}
			snprintf(a, len, "%s=%s", filter_names[k], v[k]);
			f.active[f.nactive++] = a;
		}
	}
	/* As pprof, label frames are made before the filters (which may
	 * match them), and both run on a copy. */
	if (v[10] || v[11]) {
		struct pp_label_frames_opts lo = {v[10], v[11], v[12]};

		if ((err = pp_profile_label_frames(s->ctx, s->prof, &lo,
		                                   &labelled)) < 0)
			goto fail;
	}
	if (tree_only && selectable(v)) {
		/* The marks check the regexes and warn as the filter would. */
		f.marks = pp_malloc(s->ctx, (size_t)s->prof->nlocations + 1);
		if (!f.marks) {
			err = pp_error(s->ctx, PP_ENOMEM, "out of memory");
			goto fail;
		}
		if (refining(v)) {
			f.line_marks =
			        pp_malloc(s->ctx, (size_t)s->prof->nlines + 1);
			if (!f.line_marks) {
				err = pp_error(s->ctx, PP_ENOMEM,
				               "out of memory");
				goto fail;
			}
			err = pp_profile_filter_line_marks(
			        s->ctx, s->prof, o, f.marks, f.line_marks);
		} else {
			err = pp_profile_filter_marks(s->ctx, s->prof, o,
			                              f.marks);
		}
		if (err < 0)
			goto fail;
	} else if (pp_filter_opts_active(o)) {
		if ((err = pp_profile_filter(s->ctx,
		                             labelled ? labelled : s->prof, o,
		                             &f.prof)) < 0)
			goto fail;
		s->stats.filters++;
	} else if (labelled) {
		f.prof = labelled;
		labelled = NULL;
		s->stats.filters++;
	}
	pp_profile_free(labelled);
	labelled = NULL;
	if (f.marks)
		touch_whole(s);
	OLDEST(s->filtered, PP_SESSION_KEEP_FILTERED, slot);
	filtered_clear(s, slot);
	*slot = f;
	slot->id = ++s->next_id;
	slot->used = ++s->clock;
	*out = slot;
	return 0;
fail:
	pp_profile_free(labelled);
	f.id = 0;
	filtered_clear(s, &f);
	return err;
}

static int dup_opt(struct pp_ctx *ctx, const char *s, char **out)
{
	*out = NULL;
	if (s && !(*out = pp_strdup(ctx, s)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* f's cached aggregate for o, or NULL. */
static struct aggregate *find_aggregate(struct pp_session *s,
                                        const struct filtered *f,
                                        const struct pp_view_opts *o)
{
	for (size_t i = 0; i < PP_SESSION_KEEP_AGGREGATES; i++) {
		struct aggregate *e = &s->aggregates[i];

		if (e->id && e->filtered == f->id &&
		    e->relative == o->relative_percentages &&
		    pp_report_opts_same_aggregate(&e->key, &o->report))
			return e;
	}
	return NULL;
}

/* A new aggregate of f keyed by o (its strings copied), and the report
 * options it is made with; *a is cleared by the caller on failure. */
static int aggregate_start(struct pp_session *s, const struct filtered *f,
                           const struct pp_view_opts *o, struct aggregate *a,
                           struct pp_report_opts *ro)
{
	int err;

	a->filtered = f->id;
	a->relative = o->relative_percentages;
	a->key = o->report;
	if ((err = dup_opt(s->ctx, o->report.sample_index, &a->sample_index)) <
	            0 ||
	    (err = dup_opt(s->ctx, o->report.unit, &a->unit)) < 0 ||
	    (err = dup_opt(s->ctx, o->report.source_path, &a->source_path)) <
	            0 ||
	    (err = dup_opt(s->ctx, o->report.trim_path, &a->trim_path)) < 0)
		return err;
	a->key.sample_index = a->sample_index;
	a->key.unit = a->unit;
	a->key.source_path = a->source_path;
	a->key.trim_path = a->trim_path;
	*ro = a->key;
	ro->active_filters = (const char *const *)f->active;
	ro->nactive_filters = f->nactive;
	ro->binaries = &s->binaries;
	return 0;
}

/* a's aggregate of prof and its report with options ro. */
static int aggregate_make(struct pp_session *s, const struct pp_profile *prof,
                          const struct pp_report_opts *ro, struct aggregate *a)
{
	int err;

	if ((err = pp_aggregate_new(s->ctx, prof, &a->agg)) < 0)
		return err;
	return pp_report_new_on(s->ctx, a->agg, ro, &a->rpt);
}

/* Put a in the cache in place of the oldest entry. */
static struct aggregate *aggregate_insert(struct pp_session *s,
                                          const struct aggregate *a)
{
	struct aggregate *slot;

	s->stats.aggregates++;
	OLDEST(s->aggregates, PP_SESSION_KEEP_AGGREGATES, slot);
	aggregate_clear(s, slot);
	*slot = *a;
	slot->id = ++s->next_id;
	slot->used = ++s->clock;
	return slot;
}

/* The aggregate stage: a report on f for the options in o that shape the
 * aggregate, its view set from o. */
static int get_aggregate(struct pp_session *s, struct filtered *f,
                         const struct pp_view_opts *o, struct pp_report **out)
{
	struct aggregate a = {0}, *e;
	struct pp_report_opts ro;
	int err;

	*out = NULL;
	if ((e = find_aggregate(s, f, o))) {
		e->used = ++s->clock;
		pp_report_set_view(e->rpt, &o->report);
		*out = e->rpt;
		return 0;
	}
	if ((err = aggregate_start(s, f, o, &a, &ro)) < 0)
		goto fail;
	/* Percentages stay those of the unfiltered profile unless
	 * -relative_percentages. */
	ro.total_profile = f->prof && !a.relative ? s->prof : NULL;
	if ((err = aggregate_make(s, f->prof ? f->prof : s->prof, &ro, &a)) < 0)
		goto fail;
	*out = aggregate_insert(s, &a)->rpt;
	return 0;
fail:
	aggregate_clear(s, &a);
	return err;
}

/* A tree report on f (which has marks): a report on the source whose tree
 * is the whole profile's, selected by f's marks. PP_EUNSUPPORTED when the
 * tree cannot tell (the caller then filters). */
static int get_selected(struct pp_session *s, struct filtered *f,
                        const struct pp_view_opts *o, struct pp_report **out)
{
	struct pp_view_opts whole_opts = *o;
	struct filtered *whole_f;
	struct pp_report *whole;
	struct aggregate a = {0}, *e;
	struct pp_report_opts ro;
	unsigned long long fid = f->id;
	int err;

	*out = NULL;
	/* Percentages of the filtered total: pp_report_new would take the
	 * source's. */
	if (o->relative_percentages)
		return PP_EUNSUPPORTED;
	memset(&whole_opts.filter, 0, sizeof(whole_opts.filter));
	whole_opts.tagroot = whole_opts.tagleaf = NULL;
	if ((e = find_aggregate(s, f, o))) {
		e->used = ++s->clock;
		if (!e->whole) {
			pp_report_set_view(e->rpt, &o->report);
			*out = e->rpt;
			return 0;
		}
		/* else the whole profile's report answers */
	}
	/* f was used last, so making the whole profile's entry evicts
	 * another. */
	if ((err = get_filtered(s, &whole_opts, false, &whole_f)) < 0 ||
	    (err = get_aggregate(s, whole_f, &whole_opts, &whole)) < 0)
		return err;
	if (f->id != fid)
		return pp_error(s->ctx, PP_ENOTFOUND, "filtered entry lost");
	if ((e = find_aggregate(s, f, o)) && e->whole) {
		*out = whole;
		return 0;
	}
	if ((err = aggregate_start(s, f, o, &a, &ro)) < 0)
		goto fail;
	/* The whole profile's total, as a filtered report's. */
	ro.total_profile = NULL;
	if ((err = aggregate_make(s, s->prof, &ro, &a)) < 0 ||
	    (err = pp_report_select_tree(a.rpt, whole, f->marks, f->line_marks,
	                                 f->key[4] != NULL)) < 0)
		goto fail;
	if (err == 1) {
		/* Every sample stays: no second copy of the whole tree. */
		s->graphs_freed += a.agg->builds;
		pp_report_free(a.rpt);
		pp_aggregate_free(a.agg);
		a.rpt = NULL;
		a.agg = NULL;
		a.whole = true;
	}
	s->stats.selected++;
	e = aggregate_insert(s, &a);
	*out = e->whole ? whole : e->rpt;
	return 0;
fail:
	aggregate_clear(s, &a);
	return err;
}

static int get_report(struct pp_session *s, const struct pp_view_opts *o,
                      bool tree_only, struct pp_report **out)
{
	struct filtered *f;
	int err;

	if ((err = get_filtered(s, o, tree_only, &f)) < 0)
		return err;
	if (f->marks) {
		if ((err = get_selected(s, f, o, out)) != PP_EUNSUPPORTED)
			return err;
		if ((err = materialize(s, f)) < 0)
			return err;
	}
	return get_aggregate(s, f, o, out);
}

int pp_session_get_report(struct pp_session *s, const struct pp_view_opts *o,
                          struct pp_report **out)
{
	*out = NULL;
	return get_report(s, o, false, out);
}

int pp_session_get_tree_report(struct pp_session *s,
                               const struct pp_view_opts *o,
                               struct pp_report **out)
{
	*out = NULL;
	return get_report(s, o, true, out);
}

int pp_session_prepare(struct pp_session *s, enum pp_report_kind kind,
                       const struct pp_view_opts *o)
{
	struct pp_report *r;

	if (kind == PP_REPORT_CHECK)
		return 0;
	return get_report(s, o, false, &r);
}

int pp_session_report(struct pp_session *s, enum pp_report_kind kind,
                      const char *arg, const struct pp_view_opts *o, FILE *out)
{
	struct pp_report *r;
	int err;

	if (kind == PP_REPORT_CHECK) {
		size_t nbroken = 0;

		if (!s->base)
			return pp_error(
			        s->ctx, PP_EUSAGE,
			        "check needs a base profile kept apart");
		if ((err = pp_report_check(s->ctx, s->base, s->prof, &o->report,
		                           o->rules, o->nrules, out,
		                           &nbroken)) < 0)
			return err;
		return nbroken > INT_MAX ? INT_MAX : (int)nbroken;
	}
	if ((err = get_report(s, o, false, &r)) < 0)
		return err;
	return pp_report_run(r, kind, arg, out);
}
