/* The `proto` report: the profile the other reports see (merged when
 * there are several, and after the transforms), written back as gzip'd
 * profile.proto. As pprof 1.24, samples without a stack are kept (a name
 * filter drops them before this), -noinlines leaves each location its
 * outermost line only, as raw prints it, and the values are divided by
 * -divide_by (truncated, as pprof's printProto). */
#include "pprof/encode.h"
#include "report/internal.h"

int pp_report_proto(struct pp_report *r, FILE *out)
{
	struct pp_encode_opts eo = {
	        .noinlines = pp_report__raw_noinlines(r),
	        .drop_columns = pp_report__raw_drop_columns(r),
	        .ratio = r->ratio,
	};
	uint8_t *data = NULL;
	size_t len = 0;
	int err;

	if ((err = pp_encode_proto_gzip(r->ctx, r->prof, &eo, &data, &len)) < 0)
		return err;
	if (fwrite(data, 1, len, out) != len)
		err = pp_error(r->ctx, PP_EIO, "write error");
	pp_free(r->ctx, data);
	return err;
}
