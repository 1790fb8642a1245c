#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch.h"
#include "output.h"
#include "pprof/fetch.h"
#include "pprof/outfile.h"
#include "save.h"

int pp_cli_fetch_init(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                      const char *const *sources, size_t nsources)
{
	const char *url = NULL;
	char detail[sizeof(ctx->message)], *shown;
	int err;

	for (size_t i = 0; i < nsources && !url; i++)
		url = pp_fetch_is_url(sources[i]) ? sources[i] : NULL;
	for (size_t i = 0; i < cfg->base.n && !url; i++)
		url = pp_fetch_is_url(cfg->base.v[i]) ? cfg->base.v[i] : NULL;
	for (size_t i = 0; i < cfg->diff_base.n && !url; i++)
		url = pp_fetch_is_url(cfg->diff_base.v[i]) ? cfg->diff_base.v[i]
		                                           : NULL;
	if (!url || (err = pp_fetch_global_init(ctx)) >= 0)
		return 0;
	/* libcurl could not be loaded or started: say for which URL. */
	if (!(shown = pp_fetch_redact(ctx, url)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	memcpy(detail, ctx->message, sizeof(detail));
	err = pp_error(ctx, err, "%s: %s", shown, detail);
	pp_free(ctx, shown);
	return err;
}

void pp_cli_fetch_cleanup(void)
{
	pp_fetch_global_cleanup();
}

void pp_cli_save_fetched(struct pp_ctx *ctx, const struct pp_profile *p)
{
	const char *env = getenv("PPROF_TMPDIR"), *home = getenv("HOME");
	const char *tmp = getenv("TMPDIR");
	char dirs[3][4096];
	size_t ndirs = 0, i;
	char *path = NULL;
	int err;

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
	/* Signals wait while the save writes its temporary (removed on
	 * failure, linked into place on success): a Ctrl-C then ends us
	 * with the file whole and no temporary left. */
	pp_cli_signals_hold();
	err = pp_cli_save(ctx, p, dirs[i], &path);
	pp_cli_signals_release();
	if (err < 0) {
		pp_warn(ctx, "could not save profile: %s", ctx->message);
		ctx->message[0] = '\0';
		return;
	}
	fprintf(stderr, "Saved profile in %s\n", path);
	pp_free(ctx, path);
}
