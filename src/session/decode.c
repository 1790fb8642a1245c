/* The decode stage: what the sources hand back (pprof/source.h,
 * pprof/fetch.h: bytes, or gzip'd bytes inflated piece by piece) into a
 * profile (pprof/decode.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pprof/decode.h"
#include "pprof/source.h"
#include "session/internal.h"

static int push_piece(void *arg, const uint8_t *piece, size_t n)
{
	return pp_decode_stream_push(arg, piece, n);
}

/*
 * A gzip'd profile decoded while a second thread inflates it, with no
 * inflated copy of the whole file. 1: not this way (no ISA-L, not
 * profile.proto, or anything amiss): inflate and decode it whole, which
 * also says what is wrong; 2: the same, but data's inflated pages may
 * have been given back (release_input), so it must be read again first.
 */
static int decode_while_inflating(struct pp_ctx *ctx, const char *name,
                                  const uint8_t *data, size_t len,
                                  bool release_input, struct pp_profile **out)
{
	struct pp_decode_stream *ds;
	char what[320];
	int r;

	*out = NULL;
	if (pp_decode_stream_new(ctx, name, &ds) < 0) {
		ctx->message[0] = '\0';
		return 1;
	}
	pp_decode_stream_expect(ds, pp_source_gunzip_size_hint(data, len));
	snprintf(what, sizeof(what), "decoding %s", name);
	r = pp_source_gunzip_each(ctx, what, data, len, release_input,
	                          push_piece, ds);
	/* The decoder may give up only at the end (a sample naming a
	 * location the file lacks), after the inflate passed, and gave
	 * back, the whole input. */
	if (r == 0 && pp_decode_stream_finish(ds, out) != 0)
		r = release_input ? 2 : 1;
	pp_decode_stream_free(ds);
	return r;
}

int pp_session_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out)
{
	struct pp_bytes raw = {NULL, 0};
	int err;

	*out = NULL;
	if (len == 0)
		return pp_error(ctx, PP_EFORMAT, "%s: empty input file", name);
	if (!pp_source_is_gzip(data, len))
		return pp_decode(ctx, name, data, len, out);
	if (decode_while_inflating(ctx, name, data, len, false, out) == 0)
		return 0;
	if ((err = pp_source_gunzip(ctx, name, data, len, &raw)) < 0)
		return err;
	err = pp_decode(ctx, name, raw.data, raw.len, out);
	pp_bytes_release(ctx, &raw);
	return err;
}

int pp_session__decode_bytes(struct pp_ctx *ctx, struct pp_source_bytes *b,
                             struct pp_profile **out)
{
	uint8_t *data = b->bytes.data;

	b->bytes.data = NULL;
	return pp_decode_owned(ctx, b->name, data, b->bytes.len, out);
}

int pp_session_decode_file(struct pp_ctx *ctx, const char *path,
                           struct pp_profile **out)
{
	struct pp_source_bytes b;
	int err;

	*out = NULL;
	if ((err = pp_source_load(ctx, path, &b)) < 0)
		return err;
	if (pp_source_is_gzip(b.bytes.data, b.bytes.len)) {
		/* A named file can be read again if streaming gives up
		 * after its first pages were given back; stdin cannot. */
		int r = decode_while_inflating(ctx, b.name, b.bytes.data,
		                               b.bytes.len,
		                               strcmp(path, "-") != 0, out);

		if (r == 0 || r == 2)
			pp_source_bytes_release(ctx, &b);
		if (r == 0)
			return 0;
		if (r == 2 && (err = pp_source_load(ctx, path, &b)) < 0)
			return err;
		if ((err = pp_source_inflate(ctx, &b)) < 0)
			goto done;
	}
	err = pp_session__decode_bytes(ctx, &b, out);
done:
	pp_source_bytes_release(ctx, &b);
	return err;
}
