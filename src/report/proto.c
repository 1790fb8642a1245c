/* The `proto` report: the profile the other reports see (merged, and
 * after the transforms), written back as gzip'd profile.proto. */
#include "pprof/encode.h"
#include "report/internal.h"

int pp_report_proto(struct pp_report *r, FILE *out)
{
	struct pp_encode_opts eo = PP_ENCODE_OPTS_INIT;
	uint8_t *data = NULL;
	size_t len = 0;
	int err;

	eo.drop_stackless = true;
	if ((err = pp_encode_proto_gzip(r->ctx, r->prof, &eo, &data, &len)) < 0)
		return err;
	if (fwrite(data, 1, len, out) != len)
		err = pp_error(r->ctx, PP_EIO, "write error");
	pp_free(r->ctx, data);
	return err;
}
