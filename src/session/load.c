/* The load stages: sources -> one symbolized, pruned profile. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pprof/fetch.h"
#include "pprof/source.h"
#include "pprof/symbolize.h"
#include "pprof/transform.h"
#include "session/internal.h"

/* Is path an ELF file? */
static bool is_elf_file(const char *path)
{
	unsigned char magic[4];
	FILE *fp = fopen(path, "rb");
	bool yes;

	if (!fp)
		return false;
	yes = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "\177ELF", 4) == 0;
	fclose(fp);
	return yes;
}

const char *pp_session__leading_executable(const char *const *sources, size_t n)
{
	return n > 1 && is_elf_file(sources[0]) ? sources[0] : NULL;
}

/* A source that starts as a URL but is none: said so, without the
 * credentials it may hold, rather than "no such file". */
static int malformed_url(struct pp_ctx *ctx, const char *source)
{
	char *shown = pp_fetch_redact(ctx, source);
	int err;

	if (!shown)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	err = pp_error(ctx, PP_EUSAGE, "%s: malformed URL", shown);
	pp_free(ctx, shown);
	return err;
}

/* pprof's "profile has no samples" (a profile with no sample types, such
 * as a legacy heap profile with no sample line), naming the source. */
static int no_samples(struct pp_ctx *ctx, const char *source)
{
	char *shown = pp_fetch_redact(ctx, source);
	int err;

	if (!shown)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	err = pp_error(ctx, PP_EFORMAT, "%s: profile has no samples", shown);
	pp_free(ctx, shown);
	return err;
}

/* The fetched bodies' taker: body i decoded into the slot of the i-th
 * URL. */
struct fetched {
	struct pp_ctx *ctx;
	struct pp_profile **slot[]; /* one per URL */
};

static int take_fetched(void *arg, size_t i, struct pp_source_bytes *b)
{
	struct fetched *f = arg;

	return pp_session__decode_bytes(f->ctx, b, f->slot[i]);
}

/* A source that is no URL: a file, decoded. */
static int decode_file(struct pp_ctx *ctx, const char *source,
                       struct pp_profile **out)
{
	if (pp_fetch_looks_like_url(source) && access(source, F_OK) != 0)
		return malformed_url(ctx, source);
	return pp_session_decode_file(ctx, source, out);
}

/*
 * Read sources[0..n-1] into profs[0..n-1] (NULL on entry): the files
 * first (a missing one fails before a 30-second fetch), then every URL at
 * once, setting *remote when there was one. On failure the caller frees
 * what profs holds.
 */
static int open_sources(struct pp_ctx *ctx, const struct pp_load_opts *o,
                        const char *const *sources, const struct pp_bytes *data,
                        size_t n, struct pp_profile **profs, bool *remote)
{
	struct pp_fetch_opts fo = {0};
	const char **urls = NULL;
	struct fetched *f = NULL;
	size_t nurls = 0, k = 0;
	int err = 0;

	/* Each file decoded before the next is read: memory holds one raw
	 * profile at a time. */
	for (size_t i = 0; i < n; i++) {
		if (data)
			err = pp_session_decode(ctx, sources[i], data[i].data,
			                        data[i].len, &profs[i]);
		else if (pp_fetch_is_url(sources[i]))
			nurls++;
		else
			err = decode_file(ctx, sources[i], &profs[i]);
		if (err < 0)
			return err;
	}
	if (nurls == 0)
		return 0;
	urls = pp_calloc(ctx, nurls, sizeof(*urls));
	f = pp_calloc(ctx, 1, sizeof(*f) + nurls * sizeof(f->slot[0]));
	if (!urls || !f) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	f->ctx = ctx;
	for (size_t i = 0; i < n; i++)
		if (!profs[i]) {
			f->slot[k] = &profs[i];
			urls[k++] = sources[i];
		}
	fo.seconds = o->seconds;
	fo.timeout = o->timeout;
	fo.tls.cert = o->tls_cert;
	fo.tls.key = o->tls_key;
	fo.tls.ca = o->tls_ca;
	fo.progress = o->progress;
	fo.progress_data = o->data_cb;
	if ((err = pp_fetch_profiles(ctx, urls, nurls, &fo, take_fetched, f)) <
	    0)
		goto done;
	*remote = true;
done:
	pp_free(ctx, urls);
	pp_free(ctx, f);
	return err;
}

/* What remote symbolization needs to know of the fetched profiles. */
struct remote {
	struct pp_symbolz_source *v; /* key and url owned */
	size_t n, cap;
};

static void remote_release(struct pp_ctx *ctx, struct remote *r)
{
	for (size_t i = 0; i < r->n; i++) {
		pp_free(ctx, (char *)r->v[i].key);
		pp_free(ctx, (char *)r->v[i].url);
	}
	pp_free(ctx, r->v);
}

/*
 * pprof's collectMappingSources for the profile p fetched from source:
 * each mapping keyed by its build-id, else its file, else the URL, which
 * then stands in the mapping's file until symbolization is done (so that
 * merging keeps the mappings of two servers apart).
 */
static int collect_sources(struct pp_ctx *ctx, const struct pp_load_opts *o,
                           const char *source, struct pp_profile *p,
                           struct remote *r)
{
	struct pp_fetch_url u;
	int err;

	if ((err = pp_fetch_adjust_url(ctx, source, o->seconds, o->timeout,
	                               &u)) <= 0)
		return err;
	err = 0;
	for (uint32_t m = 0; m < p->nmappings && err == 0; m++) {
		struct pp_mapping *map = &p->mappings[m];
		const char *key = pp_profile_str(p, map->build_id);
		struct pp_symbolz_source *s;

		if (!*key)
			key = pp_profile_str(p, map->file);
		if (!*key) {
			if ((map->file = pp_profile_intern(p, u.url)) ==
			    PP_NONE) {
				err = pp_error(ctx, PP_ENOMEM, "out of memory");
				break;
			}
			key = u.url;
		}
		if ((err = pp_grow(ctx, (void **)&r->v, &r->cap, r->n + 1,
		                   sizeof(*r->v))) < 0)
			break;
		s = &r->v[r->n];
		s->start = map->start;
		s->key = pp_strdup(ctx, key);
		s->url = pp_strdup(ctx, u.url);
		r->n++;
		if (!s->key || !s->url)
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	pp_fetch_url_release(ctx, &u);
	return err;
}

/* pprof's unsourceMappings: a mapping without a build-id whose file is a
 * URL (the stand-in above) gets its empty file back. */
static void unsource(struct pp_profile *p)
{
	for (uint32_t m = 0; m < p->nmappings; m++) {
		struct pp_mapping *map = &p->mappings[m];

		if (!*pp_profile_str(p, map->build_id) &&
		    pp_fetch_looks_like_url(pp_profile_str(p, map->file)))
			map->file = 0;
	}
}

/* pprof's Symbolize: local, then remote for what is left (either alone
 * as -symbolize asks). */
static int symbolize(struct pp_ctx *ctx, const struct pp_load_opts *o,
                     const char *executable, const struct remote *r,
                     struct pp_profile *p)
{
	struct pp_symbolize_opts so = {0};
	struct pp_symbolz_opts zo = {false, {NULL, NULL, NULL}};
	uint32_t nbrought, nlocal;
	int err;

	if ((err = pp_symbolize_opts_parse(ctx, o->symbolize, &so)) < 0)
		return err;
	so.executable = executable;
	so.binary_path = o->binary_path;
	/* A binary named explicitly that cannot give symbols is said so,
	 * even when the profile needs none. */
	if (executable && pp_symbolize_check_binary(ctx, executable) < 0) {
		pp_warn(ctx, "%s", ctx->message);
		ctx->message[0] = '\0';
	}
	nbrought = p->nfunctions;
	if ((err = pp_symbolize(ctx, p, &so)) < 0)
		return err;
	nlocal = p->nfunctions;
	if (!so.none && !so.no_remote && r->n) {
		zo.force = so.force;
		zo.tls.cert = o->tls_cert;
		zo.tls.key = o->tls_key;
		zo.tls.ca = o->tls_ca;
		err = pp_symbolz_symbolize(ctx, p, r->v, r->n, &zo);
	}
	unsource(p);
	/* As pprof: names the profile brought, and those symbolz gave, are
	 * demangled and simplified too, whoever wrote them. */
	if (err >= 0)
		err = pp_symbolize_names(ctx, p, &so, nbrought, nlocal);
	return err;
}

/* pprof's -buildid: only a main mapping without a build-id takes it
 * (replacing one the profile has is very likely wrong, says pprof). */
static int set_build_id(struct pp_profile *p, const char *id)
{
	struct pp_mapping *m = &p->mappings[0];

	if (!id || !*id || *pp_profile_str(p, m->build_id))
		return 0;
	if ((m->build_id = pp_profile_intern(p, id)) == PP_NONE)
		return pp_error(p->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

static int add_comment(struct pp_profile *p, const char *comment)
{
	pp_str s;

	if (!comment || !*comment)
		return 0;
	if ((s = pp_profile_intern(p, comment)) == PP_NONE)
		return pp_error(p->ctx, PP_ENOMEM, "out of memory");
	return pp_profile_add_comment(p, s);
}

/* What each profile read goes through before it is merged. */
static int prepare(struct pp_ctx *ctx, const struct pp_load_opts *o,
                   const char *executable, const char *source,
                   struct pp_profile *p, bool fetched, struct remote *r)
{
	int err;

	if ((p->nsample_types == 0 && (err = no_samples(ctx, source)) < 0) ||
	    (err = pp_symbolize_locate(p, o->binary_path)) < 0 ||
	    (err = pp_profile_locate(p, executable)) < 0 ||
	    (err = set_build_id(p, o->buildid)) < 0 ||
	    (fetched && (err = collect_sources(ctx, o, source, p, r)) < 0))
		return err;
	return 0;
}

/*
 * Several files and nothing fetched: each file is read, prepared and
 * merged before the next is read, so that memory holds the merged profile
 * and one input rather than every input (50 files: 3.85x their raw size
 * before, see bench/RESULTS.md).
 */
static int load_files_merging(struct pp_ctx *ctx, const struct pp_load_opts *o,
                              const char *executable,
                              const char *const *sources, size_t n,
                              struct pp_profile **out)
{
	struct pp_merger *mg = NULL;
	int err = 0;

	for (size_t i = 0; i < n && err >= 0; i++) {
		struct pp_profile *p = NULL;

		if ((err = decode_file(ctx, sources[i], &p)) >= 0 &&
		    (err = prepare(ctx, o, executable, sources[i], p, false,
		                   NULL)) >= 0 &&
		    (mg || (err = pp_merger_new(ctx, p, &mg)) >= 0))
			err = pp_merger_add(mg, p, sources[i]);
		pp_profile_free(p);
	}
	if (err >= 0)
		err = pp_merger_finish(mg, out);
	pp_merger_free(mg);
	return err;
}

static bool any_url(const char *const *sources, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (pp_fetch_is_url(sources[i]))
			return true;
	return false;
}

int pp_session__load(struct pp_ctx *ctx, const struct pp_load_opts *o,
                     const char *executable, const char *const *sources,
                     const struct pp_bytes *data, size_t n,
                     struct pp_profile **out)
{
	struct pp_profile **profs;
	struct remote r = {NULL, 0, 0};
	bool remote = false;
	int err = 0;

	*out = NULL;
	profs = pp_calloc(ctx, n, sizeof(*profs));
	if (!profs)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (n > 1 && !data && !any_url(sources, n)) {
		if ((err = load_files_merging(ctx, o, executable, sources, n,
		                              out)) < 0)
			goto done;
	} else {
		if ((err = open_sources(ctx, o, sources, data, n, profs,
		                        &remote)) < 0)
			goto done;
		for (size_t i = 0; i < n; i++)
			if ((err = prepare(ctx, o, executable, sources[i],
			                   profs[i],
			                   remote && !data &&
			                           pp_fetch_is_url(sources[i]),
			                   &r)) < 0)
				goto done;
		if (n == 1) {
			*out = profs[0];
			profs[0] = NULL;
		} else {
			err = pp_profile_merge(ctx, profs, sources, n, out);
		}
	}
	/* pprof: merge, symbolize, then drop the frames the profile calls
	 * uninteresting (they can only be matched once they have names). */
	if (err >= 0 &&
	    ((err = symbolize(ctx, o, executable, &r, *out)) < 0 ||
	     (!o->all_frames &&
	      (err = pp_profile_remove_uninteresting(ctx, *out)) < 0) ||
	     (err = add_comment(*out, o->add_comment)) < 0)) {
		pp_profile_free(*out);
		*out = NULL;
	}
	/* As pprof: what came over HTTP is kept, symbolized (the work
	 * shown as progress is over: the front end says where it is). */
	pp_progress_done(ctx);
	if (err >= 0 && remote && o->fetched)
		o->fetched(o->data_cb, *out);
done:
	pp_progress_done(ctx);
	for (size_t i = 0; i < n; i++)
		pp_profile_free(profs[i]);
	pp_free(ctx, profs);
	remote_release(ctx, &r);
	return err;
}
