/* The `topproto` report: top's table as a profile.proto, as pprof writes
 * it. Each node of top (trimmed as top trims, in top's order) becomes one
 * sample of one location with values cum and flat in the output unit; a
 * function per distinct name, system name, file and start line. No
 * mappings: a viewer reads it as an already symbolized profile. */
#include <inttypes.h>

#include "pprof/encode.h"
#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"

static int64_t scaled(const struct pp_report *r, int64_t v)
{
	const char *unit;
	size_t n;

	return pp_go_int64(pp_scale_n(v, r->sample_unit, r->sample_unit_len,
	                              r->output_unit, r->output_unit_len, &unit,
	                              &n));
}

/* The index in out of node n's function, added on first use. pprof keys
 * functions by name, system name, file and start line (our nodes carry no
 * system name): keys are interned in order, so a key's index less one (""
 * holds index 0) is its function's. */
static int find_function(const struct pp_report *r, struct pp_profile *out,
                         struct pp_strtab *keys, const struct pp_node *n,
                         uint32_t *fn)
{
	const struct pp_profile *p = r->prof;
	size_t nl, fl;
	const char *name = pp_profile_strn(p, n->info.name, &nl);
	const char *file = pp_profile_strn(p, n->info.file, &fl);
	uint32_t before = pp_strtab_count(keys);
	struct pp_function f = {0};
	char *key, head[64];
	size_t klen;
	int hl;
	pp_str id;

	/* Names and files may hold any byte: the key leads with their
	 * lengths (and the start line), so it is unambiguous. */
	hl = snprintf(head, sizeof(head), "%zu %zu %" PRId64 ":", nl, fl,
	              n->info.start_line);
	klen = (size_t)hl + nl + fl;
	if (!(key = pp_malloc(r->ctx, klen)))
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	memcpy(key, head, (size_t)hl);
	memcpy(key + hl, name, nl);
	memcpy(key + (size_t)hl + nl, file, fl);
	id = pp_strtab_intern(keys, key, klen);
	pp_free(r->ctx, key);
	if (id == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	*fn = id - 1;
	if (pp_strtab_count(keys) == before)
		return 0;
	f.id = (uint64_t)out->nfunctions + 1;
	f.name = pp_strtab_intern(out->strings, name, nl);
	f.filename = pp_strtab_intern(out->strings, file, fl);
	if (f.name == PP_NONE || f.filename == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	f.start_line = n->info.start_line;
	return pp_profile_add_function(out, &f, NULL);
}

int pp_report_topproto(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_profile *tp = NULL;
	struct pp_strtab *keys = NULL;
	struct pp_encode_opts eo = {0};
	uint8_t *data = NULL;
	size_t len = 0;
	pp_str cum, flat, unit;
	int err;

	if ((err = pp_report__trimmed_graph(r, false)) < 0)
		return err;
	tp = pp_profile_new(r->ctx);
	keys = pp_strtab_new(r->ctx);
	if (!tp || !keys) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	cum = pp_profile_intern(tp, "cum");
	flat = pp_profile_intern(tp, "flat");
	/* Whole: a profile's unit may hold NUL bytes. */
	unit = pp_strtab_intern(tp->strings, r->output_unit,
	                        r->output_unit_len);
	if (cum == PP_NONE || flat == PP_NONE || unit == PP_NONE) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = pp_profile_add_sample_type(tp, cum, unit)) < 0 ||
	    (err = pp_profile_add_sample_type(tp, flat, unit)) < 0)
		goto done;
	tp->time_nanos = p->time_nanos;
	tp->duration_nanos = p->duration_nanos;
	tp->period = p->period;
	tp->has_period_type = p->has_period_type;
	/* Whole: a profile's names may hold NUL bytes. */
	if ((tp->period_type.type = pp_profile_copy_str(
	             tp, p, p->period_type.type)) == PP_NONE ||
	    (tp->period_type.unit = pp_profile_copy_str(
	             tp, p, p->period_type.unit)) == PP_NONE) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	for (uint32_t i = 0; i < r->agg->view.norder; i++) {
		const struct pp_node *n =
		        &r->agg->graph->nodes[r->agg->view.order[i]];
		struct pp_location loc = {0};
		struct pp_line line = {0};
		int64_t v[2];
		uint32_t l;

		if ((err = find_function(r, tp, keys, n, &line.function)) < 0)
			goto done;
		line.line = n->info.lineno;
		loc.id = (uint64_t)i + 1;
		loc.address = n->info.address;
		loc.mapping = PP_NONE;
		if ((err = pp_profile_add_location(tp, &loc, &line, 1, &l)) < 0)
			goto done;
		v[0] = scaled(r, pp_node_cum(n));
		v[1] = scaled(r, pp_node_flat(n));
		if ((err = pp_profile_add_sample(tp, &l, 1, v, NULL, 0)) < 0)
			goto done;
	}
	if ((err = pp_encode_proto_gzip(r->ctx, tp, &eo, &data, &len)) < 0)
		goto done;
	if (fwrite(data, 1, len, out) != len)
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_free(r->ctx, data);
	pp_strtab_free(keys);
	pp_profile_free(tp);
	return err;
}
