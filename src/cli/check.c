#include "cli/check.h"
#include "cli/pipeline.h"
#include "pprof/transform.h"

int pp_cli_check(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 const char *const *sources, size_t nsources, size_t *nbroken)
{
	struct pp_report_opts opts = cfg->report;
	struct pp_profile *old = NULL, *now = NULL;
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
	opts.sample_index = cfg->sample_index;
	opts.unit = cfg->unit;
	/* Several -diff_base profiles are merged into the old one. */
	if ((err = pp_cli_load_base(ctx, cfg, sources, nsources, &old)) < 0 ||
	    (err = pp_cli_load(ctx, cfg, sources, nsources, &now)) < 0)
		goto done;
	{
		const char *names[2] = {"the profile", cfg->diff_base.v[0]};

		/* Shares of other values would compare nothing. */
		if ((err = pp_profile_check_base(ctx, now, old, names)) < 0)
			goto done;
	}
	err = pp_report_check(ctx, old, now, &opts, cfg->rules, cfg->nrules,
	                      stdout, nbroken);
	if (err >= 0 && fflush(stdout) != 0)
		err = pp_error(ctx, PP_EIO, "stdout: write error");
done:
	pp_profile_free(old);
	pp_profile_free(now);
	return err;
}
