#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fetch.h"
#include "output.h"
#include "pipeline.h"
#include "progress.h"
#include "tty.h"
#include "viewer.h"

/* pprof's lines, as pprof prints them; never on the progress line. */
static void progress(void *data, const char *msg)
{
	struct pp_ctx *ctx = data;
	struct pp_cli_progress *line =
	        ctx->progress ? ctx->progress_data : NULL;

	pp_cli_progress_hold(line);
	fprintf(stderr, "%s\n", msg);
	pp_cli_progress_release(line);
}

static void fetched(void *data, const struct pp_profile *p)
{
	pp_cli_save_fetched(data, p);
}

int pp_cli_open(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                const char *const *sources, size_t nsources, bool base_apart,
                struct pp_session **out)
{
	struct pp_load_opts o = {0};
	const char *bp = getenv("PPROF_BINARY_PATH"), *home = getenv("HOME");
	char defpath[4096];

	/* pprof's default search path when PPROF_BINARY_PATH is unset. */
	if (!bp && home) {
		snprintf(defpath, sizeof(defpath), "%s/pprof/binaries", home);
		bp = defpath;
	}
	o.base = (const char *const *)cfg->base.v;
	o.nbase = cfg->base.n;
	o.diff_base = (const char *const *)cfg->diff_base.v;
	o.ndiff_base = cfg->diff_base.n;
	o.normalize = cfg->normalize;
	o.base_apart = base_apart;
	o.symbolize = cfg->symbolize;
	o.add_comment = cfg->add_comment;
	o.all_frames = cfg->all_frames;
	o.buildid = cfg->buildid;
	o.binary_path = bp;
	o.tls_cert = cfg->tls_cert;
	o.tls_key = cfg->tls_key;
	o.tls_ca = cfg->tls_ca;
	o.seconds = cfg->seconds;
	o.timeout = cfg->timeout;
	o.progress = progress;
	o.fetched = fetched;
	o.data_cb = ctx;
	return pp_session_open(ctx, sources, nsources, &o, out);
}

static int run_to_output(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                         const struct pp_command *cmd, const char *arg,
                         struct pp_session *s);

int pp_cli_run(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
               const struct pp_command *cmd, const char *arg,
               struct pp_session *s)
{
	struct pp_cli_config c;
	char *path = NULL;
	int err;

	/* With -output a viewer's report is only written, as pprof's: a
	 * script that names the file wants the file, not a window. */
	if (!cmd->viewers || cfg->output)
		return run_to_output(ctx, cfg, cmd, arg, s);
	/* Written to a file of its own, then opened. */
	c = *cfg;
	if ((err = pp_cli_viewer_file(ctx, cmd, &path)) < 0)
		return err;
	c.output = path;
	if ((err = run_to_output(ctx, &c, cmd, arg, s)) >= 0)
		pp_cli_viewer_open(cmd, c.output);
	else
		unlink(path);
	free(path);
	return err;
}

static int run_to_output(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                         const struct pp_command *cmd, const char *arg,
                         struct pp_session *s)
{
	struct pp_atomic_file af = {0};
	struct pp_view_opts view;
	struct pp_report *rpt = NULL;
	FILE *out = stdout, *tty = NULL;
	int err = 0;
	pp_command_run_fn run = cmd->run;

	if (cfg->json && !(run = pp_command_json_run(cmd)))
		return pp_error(ctx, PP_EUSAGE,
		                "-json: %s has no JSON form (top, tree, "
		                "peek, traces, tags, flame have)",
		                cmd->name);
	if ((err = pp_cli_view_opts(ctx, cfg, &view)) < 0)
		return err;
	/* The CLI's own printers (html, -json) run on the session's report. */
	if (run && (err = pp_session_get_report(s, &view, &rpt)) < 0)
		return err;
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
	} else if (!cmd->binary && isatty(STDOUT_FILENO) &&
	           (tty = pp_cli_tty_open(stdout))) {
		out = tty;
	}
	if (run)
		err = run(rpt, arg, out);
	else
		err = pp_session_report(s, cmd->kind, arg, &view, out);
	if (tty && fflush(tty) != 0 && err >= 0)
		err = pp_error(ctx, PP_EIO, "stdout: %s",
		               strerror(errno ? errno : EIO));
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
	if (tty)
		fclose(tty);
	if (err < 0 && af.fp)
		pp_cli_output_abort(ctx, &af);
	return err;
}
