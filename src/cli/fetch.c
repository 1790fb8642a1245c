#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/fetch.h"
#include "pprof/fetch.h"
#include "pprof/source.h"
#include "util/path.h"

int pp_cli_fetch_init(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const char *const *sources, size_t nsources)
{
	bool any = false;

	for (size_t i = 0; i < cfg->base.n && !any; i++)
		any = pp_fetch_is_url(cfg->base.v[i]);
	for (size_t i = 0; i < cfg->diff_base.n && !any; i++)
		any = pp_fetch_is_url(cfg->diff_base.v[i]);
	for (size_t i = 0; i < nsources && !any; i++)
		any = pp_fetch_is_url(sources[i]);
	return any ? pp_fetch_global_init(ctx) : 0;
}

void pp_cli_fetch_cleanup(void)
{
	pp_fetch_global_cleanup();
}

/* pprof's own lines, as pprof prints them. */
static void progress(void *data, const char *msg)
{
	(void)data;
	fprintf(stderr, "%s\n", msg);
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

int pp_cli_open_sources(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                        const char *const *sources, size_t n,
                        struct pp_profile **profs, bool *remote)
{
	struct pp_fetch_opts opts = PP_FETCH_OPTS_INIT;
	const char **urls = NULL;
	struct pp_profile **fetched = NULL;
	size_t nurls = 0, k = 0;
	int err = 0;

	/* Files first: a missing one fails before a 30-second fetch. */
	for (size_t i = 0; i < n; i++) {
		if (pp_fetch_is_url(sources[i]))
			nurls++;
		else if (pp_fetch_looks_like_url(sources[i]) &&
		         access(sources[i], F_OK) != 0)
			return malformed_url(ctx, sources[i]);
		else if ((err = pp_source_open(ctx, sources[i], &profs[i])) < 0)
			return err;
	}
	if (nurls == 0)
		return 0;
	urls = pp_calloc(ctx, nurls, sizeof(*urls));
	fetched = pp_calloc(ctx, nurls, sizeof(*fetched));
	if (!urls || !fetched) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		if (!profs[i])
			urls[k++] = sources[i];
	opts.seconds = cfg->seconds;
	opts.timeout = cfg->timeout;
	opts.progress = progress;
	if ((err = pp_fetch_profiles(ctx, urls, nurls, &opts, fetched)) < 0)
		goto done;
	*remote = true;
	k = 0;
	for (size_t i = 0; i < n; i++)
		if (!profs[i])
			profs[i] = fetched[k++];
done:
	pp_free(ctx, urls);
	pp_free(ctx, fetched);
	return err;
}

void pp_cli_save_fetched(struct pp_ctx *ctx, const struct pp_profile *p)
{
	const char *env = getenv("PPROF_TMPDIR"), *home = getenv("HOME");
	const char *tmp = getenv("TMPDIR");
	char dirs[3][4096];
	size_t ndirs = 0, i;
	char *path = NULL;

	/* pprof's setTmpDir, with os.TempDir last. */
	if (env && *env)
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s", env);
	if (home && *home)
		snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s/pprof", home);
	snprintf(dirs[ndirs++], sizeof(dirs[0]), "%s",
	         tmp && *tmp ? tmp : "/tmp");
	for (i = 0; i < ndirs; i++) {
		if (pp_path_mkdir_all(dirs[i], 0755) == 0)
			break;
		pp_warn(ctx, "could not use temp dir %s: %s", dirs[i],
		        strerror(errno));
	}
	if (i == ndirs)
		return;
	if (pp_fetch_save(ctx, p, dirs[i], &path) < 0) {
		pp_warn(ctx, "could not save profile: %s", ctx->message);
		ctx->message[0] = '\0';
		return;
	}
	fprintf(stderr, "Saved profile in %s\n", path);
	pp_free(ctx, path);
}
