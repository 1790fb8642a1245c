#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/fetch.h"
#include "cli/output.h"
#include "cli/pipeline.h"
#include "pprof/report.h"
#include "pprof/source.h"
#include "pprof/symbolize.h"
#include "pprof/transform.h"

/* Is path an ELF file? The first source that is one is the executable. */
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

static int symbolize(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     const char *executable, struct pp_profile *p)
{
	struct pp_symbolize_opts so = PP_SYMBOLIZE_OPTS_INIT;
	const char *bp = getenv("PPROF_BINARY_PATH"), *home = getenv("HOME");
	char defpath[4096];
	int err;

	if ((err = pp_symbolize_opts_parse(ctx, cfg->symbolize, &so)) < 0)
		return err;
	/* pprof's default search path when PPROF_BINARY_PATH is unset. */
	if (!bp && home) {
		snprintf(defpath, sizeof(defpath), "%s/pprof/binaries", home);
		bp = defpath;
	}
	so.executable = executable;
	so.binary_path = bp;
	return pp_symbolize(ctx, p, &so);
}

/* The leading executable of sources, as pprof takes it: an ELF file
 * first of several arguments (`pprof-c top ./server cpu.prof`). */
static const char *leading_executable(const char *const *sources,
                                      size_t nsources)
{
	return nsources > 1 && is_elf_file(sources[0]) ? sources[0] : NULL;
}

/* Read every source, merge them, symbolize with executable (may be NULL)
 * and drop the profile's uninteresting frames. */
static int load(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *executable, const char *const *sources,
                size_t nsources, struct pp_profile **out)
{
	struct pp_profile **profs;
	bool remote = false;
	int err = 0;

	*out = NULL;
	profs = pp_calloc(ctx, nsources, sizeof(*profs));
	if (!profs)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if ((err = pp_cli_open_sources(ctx, cfg, sources, nsources, profs,
	                               &remote)) < 0)
		goto done;
	for (size_t i = 0; i < nsources; i++)
		if ((err = pp_profile_locate(profs[i], executable)) < 0)
			goto done;
	if (nsources == 1 && !cfg->merge_one) {
		*out = profs[0];
		profs[0] = NULL;
	} else {
		err = pp_profile_merge(ctx, profs, sources, nsources, out);
	}
	/* pprof: merge, symbolize, then drop the frames the profile calls
	 * uninteresting (they can only be matched once they have names). */
	if (err >= 0 &&
	    ((err = symbolize(ctx, cfg, executable, *out)) < 0 ||
	     (err = pp_profile_remove_uninteresting(ctx, *out)) < 0)) {
		pp_profile_free(*out);
		*out = NULL;
	}
	/* As pprof: what came over HTTP is kept, symbolized. */
	if (err >= 0 && remote)
		pp_cli_save_fetched(ctx, *out);
done:
	for (size_t i = 0; i < nsources; i++)
		pp_profile_free(profs[i]);
	pp_free(ctx, profs);
	return err;
}

int pp_cli_load(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *const *sources, size_t nsources,
                struct pp_profile **out)
{
	const char *executable = leading_executable(sources, nsources);

	*out = NULL;
	if (nsources == 0)
		return pp_error(ctx, PP_EUSAGE, "no profile given");
	if (executable) {
		sources++;
		nsources--;
	}
	return load(ctx, cfg, executable, sources, nsources, out);
}

int pp_cli_load_base(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                     const char *const *sources, size_t nsources,
                     struct pp_profile **out)
{
	const struct pp_strlist *bases =
	        cfg->diff_base.n ? &cfg->diff_base : &cfg->base;

	*out = NULL;
	if (cfg->base.n && cfg->diff_base.n)
		return pp_error(ctx, PP_EUSAGE,
		                "-base and -diff_base flags cannot both be "
		                "specified");
	if (bases->n == 0)
		return 0;
	/* As pprof's fetchProfiles: the bases are merged into one, read
	 * with the profiles' executable. */
	return load(ctx, cfg, leading_executable(sources, nsources),
	            (const char *const *)bases->v, bases->n, out);
}

int pp_cli_prepare(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                   const char *const *sources, size_t nsources,
                   const struct pp_profile *in, struct pp_profile **out)
{
	const struct pp_strlist *bases =
	        cfg->diff_base.n ? &cfg->diff_base : &cfg->base;
	struct pp_profile *base = NULL, *combined = NULL;
	int err;

	*out = NULL;
	if ((err = pp_cli_load_base(ctx, cfg, sources, nsources, &base)) < 0)
		return err;
	if (!base) {
		if (cfg->normalize)
			return pp_error(ctx, PP_EUSAGE,
			                "must have base profile to normalize "
			                "by");
		return 0;
	}
	{
		/* The merged base has its first file's sample types. */
		const char *names[2] = {"the profile", bases->v[0]};

		err = pp_profile_apply_base(ctx, in, base, cfg->diff_base.n > 0,
		                            cfg->normalize, names, &combined);
	}
	pp_profile_free(base);
	*out = combined;
	return err;
}

/* The filters of cfg and their "name=value" strings for the header, in
 * pprof's order. */
struct filters {
	struct pp_filter_opts opts;
	char *active[9];
	size_t nactive;
};

static int add_active(struct pp_ctx *ctx, struct filters *f, const char *name,
                      const char *value)
{
	size_t len;
	char *s;

	if (!value || !*value)
		return 0;
	len = strlen(name) + strlen(value) + 2;
	s = pp_malloc(ctx, len);
	if (!s)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	snprintf(s, len, "%s=%s", name, value);
	f->active[f->nactive++] = s;
	return 0;
}

static int filters_init(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                        struct filters *f)
{
	struct pp_filter_opts o = PP_FILTER_OPTS_INIT;
	int err;

	memset(f, 0, sizeof(*f));
	o.focus = cfg->focus;
	o.ignore = cfg->ignore;
	o.hide = cfg->hide;
	o.show = cfg->show;
	o.show_from = cfg->show_from;
	o.tagfocus = cfg->tagfocus;
	o.tagignore = cfg->tagignore;
	o.tagshow = cfg->tagshow;
	o.taghide = cfg->taghide;
	o.prune_from = cfg->prune_from;
	f->opts = o;
	/* prune_from is a filter that pprof does not list. */
	if ((err = add_active(ctx, f, "focus", o.focus)) < 0 ||
	    (err = add_active(ctx, f, "ignore", o.ignore)) < 0 ||
	    (err = add_active(ctx, f, "hide", o.hide)) < 0 ||
	    (err = add_active(ctx, f, "show", o.show)) < 0 ||
	    (err = add_active(ctx, f, "show_from", o.show_from)) < 0 ||
	    (err = add_active(ctx, f, "tagfocus", o.tagfocus)) < 0 ||
	    (err = add_active(ctx, f, "tagignore", o.tagignore)) < 0 ||
	    (err = add_active(ctx, f, "tagshow", o.tagshow)) < 0 ||
	    (err = add_active(ctx, f, "taghide", o.taghide)) < 0)
		return err;
	return 0;
}

static void filters_release(struct pp_ctx *ctx, struct filters *f)
{
	for (size_t i = 0; i < f->nactive; i++)
		pp_free(ctx, f->active[i]);
	f->nactive = 0;
}

/* The report borrows the filtered copy and the strings, so they live here. */
struct pp_cli_report {
	struct pp_ctx *ctx;
	struct pp_profile
	        *filtered;      /* NULL: no filter, the report is on prof */
	struct filters filters; /* and the header's strings */
	struct pp_report *rpt;
};

int pp_cli_report_new(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const struct pp_profile *prof, struct pp_cli_report **out)
{
	struct pp_report_opts opts = cfg->report;
	struct pp_cli_report *r;
	int err;

	*out = NULL;
	r = pp_calloc(ctx, 1, sizeof(*r));
	if (!r)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	r->ctx = ctx;
	opts.sample_index = cfg->sample_index;
	opts.unit = cfg->unit;
	opts.source_path = cfg->source_path;
	opts.trim_path = cfg->trim_path;
	if ((err = filters_init(ctx, cfg, &r->filters)) < 0)
		goto fail;
	/* As pprof, filters run per report on a copy, and percentages stay
	 * those of the unfiltered profile unless -relative_percentages. */
	if (pp_filter_opts_active(&r->filters.opts)) {
		if ((err = pp_profile_filter(ctx, prof, &r->filters.opts,
		                             &r->filtered)) < 0)
			goto fail;
		if (!cfg->relative_percentages)
			opts.total_profile = prof;
		prof = r->filtered;
	}
	opts.active_filters = (const char *const *)r->filters.active;
	opts.nactive_filters = r->filters.nactive;
	if ((err = pp_report_new(ctx, prof, &opts, &r->rpt)) < 0)
		goto fail;
	*out = r;
	return 0;
fail:
	pp_cli_report_free(r);
	return err;
}

struct pp_report *pp_cli_report_get(const struct pp_cli_report *r)
{
	return r->rpt;
}

void pp_cli_report_free(struct pp_cli_report *r)
{
	if (!r)
		return;
	pp_report_free(r->rpt);
	pp_profile_free(r->filtered);
	filters_release(r->ctx, &r->filters);
	pp_free(r->ctx, r);
}

int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               const struct pp_profile *prof)
{
	struct pp_cli_report *r;
	int err;

	if ((err = pp_cli_report_new(ctx, cfg, prof, &r)) < 0)
		return err;
	err = pp_cli_run_report(ctx, cfg, cmd, arg, r->rpt);
	pp_cli_report_free(r);
	return err;
}

int pp_cli_run_report(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const struct pp_command *cmd, const char *arg,
                      struct pp_report *rpt)
{
	struct pp_atomic_file af = {0};
	FILE *out = stdout;
	int err = 0;
	pp_command_run_fn run = cmd->run;

	if (cfg->json && !(run = pp_command_json_run(cmd)))
		return pp_error(ctx, PP_EUSAGE,
		                "-json: %s has no JSON form (top, tree, peek, "
		                "flame have)",
		                cmd->name);

	if (cfg->output) {
		if ((err = pp_cli_output_open(ctx, cfg->output, &af)) < 0)
			goto done;
		out = af.fp;
	} else if (cmd->binary && isatty(STDOUT_FILENO)) {
		err = pp_error(ctx, PP_EUSAGE,
		               "%s output is binary; not writing it to a "
		               "terminal (use -output FILE or redirect)",
		               cmd->name);
		goto done;
	}
	err = run(rpt, arg, out);
	if (ferror(out)) {
		/* Name the destination and the system's reason (a full disk,
		 * a file-size limit), not the report's generic failure. */
		int e = errno ? errno : EIO;

		err = pp_error(ctx, PP_EIO, "%s: %s",
		               cfg->output ? cfg->output : "stdout",
		               strerror(e));
	}
	if (cfg->output) {
		if (err < 0)
			pp_cli_output_abort(ctx, &af);
		else
			err = pp_cli_output_commit(ctx, &af);
	} else if (err >= 0 && fflush(stdout) != 0) {
		err = pp_error(ctx, PP_EIO, "stdout: %s",
		               strerror(errno ? errno : EIO));
	}
done:
	if (err < 0 && af.fp)
		pp_cli_output_abort(ctx, &af);
	return err;
}
