#include "output.h"

int pp_cli_output_open(struct pp_ctx *ctx, const char *path,
                       struct pp_atomic_file *af)
{
	int err;

	/* Not held here: opening a FIFO waits for a reader, and Ctrl-C
	 * must still end that wait. */
	if ((err = pp_atomic_prepare(ctx, path, af)) < 0)
		return err;
	/* Held from the temporary's creation until the handlers know it. */
	pp_cli_signals_hold();
	if ((err = pp_atomic_start(ctx, af)) == 0 && af->tmp_path)
		pp_cli_signals_temp(af->tmp_path);
	pp_cli_signals_release();
	return err;
}

int pp_cli_output_commit(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int err;

	if (!af->tmp_path)
		return pp_atomic_commit(ctx, af); /* written through */
	pp_cli_signals_hold();
	err = pp_atomic_commit(ctx, af);
	pp_cli_signals_temp(NULL);
	/* A reserved name now holds the report: a signal keeps it. */
	if (err >= 0)
		pp_cli_signals_reserved(NULL);
	pp_cli_signals_release();
	return err;
}

void pp_cli_output_abort(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	pp_cli_signals_hold();
	pp_atomic_abort(ctx, af);
	pp_cli_signals_temp(NULL);
	pp_cli_signals_release();
}
