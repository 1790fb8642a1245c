#include "check.h"
#include "pipeline.h"

int pp_cli_check(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 const char *const *sources, size_t nsources, size_t *nbroken)
{
	struct pp_session *s = NULL;
	struct pp_view_opts view;
	int err;

	*nbroken = 0;
	if (cfg->diff_base.n == 0)
		return pp_error(ctx, PP_EUSAGE,
		                "check needs -diff_base OLD, the profile to "
		                "compare with");
	if (cfg->nrules == 0)
		return pp_error(ctx, PP_EUSAGE,
		                "check needs at least one -max_growth or "
		                "-max_share rule");
	/* Several -diff_base profiles are merged into the old one, kept
	 * apart from the new. */
	if ((err = pp_cli_open(ctx, cfg, sources, nsources, true, &s)) < 0)
		return err;
	if ((err = pp_cli_view_opts(ctx, cfg, &view)) >= 0)
		err = pp_session_report(s, PP_REPORT_CHECK, NULL, &view,
		                        stdout);
	if (err >= 0) {
		*nbroken = (size_t)err;
		err = 0;
		if (fflush(stdout) != 0)
			err = pp_error(ctx, PP_EIO, "stdout: write error");
	}
	pp_session_free(s);
	return err;
}
