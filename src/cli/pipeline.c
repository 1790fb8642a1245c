#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/pipeline.h"
#include "pprof/report.h"
#include "pprof/source.h"
#include "pprof/symbolize.h"
#include "pprof/transform.h"
#include "util/atomicfile.h"

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

int pp_cli_load(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *const *sources, size_t nsources,
                struct pp_profile **out)
{
	struct pp_profile **profs;
	const char *executable = NULL;
	size_t n;
	int err = 0;

	*out = NULL;
	if (nsources == 0)
		return pp_error(ctx, PP_EUSAGE, "no profile given");
	/* `pprof-c top ./server cpu.prof`: a leading binary, as in pprof. */
	if (nsources > 1 && is_elf_file(sources[0])) {
		executable = sources[0];
		sources++;
		nsources--;
	}
	profs = pp_calloc(ctx, nsources, sizeof(*profs));
	if (!profs)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	for (n = 0; n < nsources; n++)
		if ((err = pp_source_open(ctx, sources[n], &profs[n])) < 0)
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
done:
	for (size_t i = 0; i < nsources; i++)
		pp_profile_free(profs[i]);
	pp_free(ctx, profs);
	return err;
}

int pp_cli_prepare(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                   const struct pp_profile *in, struct pp_profile **out)
{
	(void)ctx;
	(void)cfg;
	(void)in;
	*out = NULL;
	return 0;
}

int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               const struct pp_profile *prof)
{
	struct pp_report_opts opts = cfg->report;
	struct pp_report *rpt = NULL;
	struct pp_atomic_file af = {0};
	FILE *out = stdout;
	int err;

	opts.sample_index = cfg->sample_index;
	opts.unit = cfg->unit;
	opts.source_path = cfg->source_path;
	opts.trim_path = cfg->trim_path;
	if ((err = pp_report_new(ctx, prof, &opts, &rpt)) < 0)
		return err;
	if (cfg->output) {
		if ((err = pp_atomic_open(ctx, cfg->output, &af)) < 0)
			goto done;
		out = af.fp;
	} else if (cmd->binary && isatty(STDOUT_FILENO)) {
		err = pp_error(ctx, PP_EUSAGE,
		               "%s output is binary; not writing it to a "
		               "terminal (use -output FILE or redirect)",
		               cmd->name);
		goto done;
	}
	err = cmd->run(rpt, arg, out);
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
			pp_atomic_abort(ctx, &af);
		else
			err = pp_atomic_commit(ctx, &af);
	} else if (err >= 0 && fflush(stdout) != 0) {
		err = pp_error(ctx, PP_EIO, "stdout: %s",
		               strerror(errno ? errno : EIO));
	}
done:
	if (err < 0 && af.fp)
		pp_atomic_abort(ctx, &af);
	pp_report_free(rpt);
	return err;
}
