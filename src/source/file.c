/* Reading whole files, and the read-decompress-decode entry points. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pprof/decode.h"
#include "pprof/source.h"
#include "util/readfd.h"

static uint64_t cap_of(const struct pp_ctx *ctx)
{
	return ctx->max_size ? ctx->max_size : PP_DEFAULT_MAX_SIZE;
}

int pp_source_read_file(struct pp_ctx *ctx, const char *path,
                        struct pp_bytes *out)
{
	const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
	uint64_t cap = cap_of(ctx);
	size_t size = 0;
	struct stat st;
	int fd, err;

	out->data = NULL;
	out->len = 0;
	fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open(path, O_RDONLY);
	if (fd < 0)
		return pp_error(ctx, PP_EIO, "%s: %s", name, strerror(errno));
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			err = pp_error(ctx, PP_EIO, "%s: is a directory", name);
			goto done;
		}
		if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > cap) {
			err = pp_error(ctx, PP_ELIMIT,
			               "%s: file is larger than the %llu-byte "
			               "limit (--max-size)",
			               name, (unsigned long long)cap);
			goto done;
		}
		if (S_ISREG(st.st_mode))
			size = (size_t)st.st_size + 1;
	}
	err = pp_read_fd(ctx, fd, name, size, cap, out);
	if (err == PP_ELIMIT)
		err = pp_error(ctx, PP_ELIMIT,
		               "%s: input is larger than the %llu-byte limit "
		               "(--max-size)",
		               name, (unsigned long long)cap);
done:
	if (fd != STDIN_FILENO)
		close(fd);
	return err;
}

static int push_piece(void *arg, const uint8_t *piece, size_t n)
{
	return pp_decode_stream_push(arg, piece, n);
}

/*
 * A gzip'd profile decoded while a second thread inflates it, with no
 * inflated copy of the whole file. 1: not this way (no ISA-L, not
 * profile.proto, or anything amiss): inflate and decode it whole, which
 * also says what is wrong; 2: the same, but data's inflated pages were
 * given back (release_input), so it must be read again first.
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
	snprintf(what, sizeof(what), "decoding %s", name);
	r = pp_source_gunzip_each(ctx, what, data, len, release_input,
	                          push_piece, ds);
	if (r == 0)
		r = pp_decode_stream_finish(ds, out);
	pp_decode_stream_free(ds);
	return r;
}

int pp_source_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                     size_t len, struct pp_profile **out)
{
	struct pp_bytes raw = {NULL, 0};
	int err;

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

int pp_source_open(struct pp_ctx *ctx, const char *path,
                   struct pp_profile **out)
{
	const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
	struct pp_bytes file = {NULL, 0};
	char what[320];
	int err;

	*out = NULL;
	/* Progress: each step is one call (read, libdeflate), shown by the
	 * front end with its elapsed time; the decoder reports its bytes. */
	snprintf(what, sizeof(what), "reading %s", name);
	pp_progress(ctx, what, NULL, 0, 0);
	if ((err = pp_source_read_file(ctx, path, &file)) < 0)
		return err;
	if (file.len == 0) {
		pp_bytes_release(ctx, &file);
		return pp_error(ctx, PP_EFORMAT, "%s: empty input file", name);
	}
	if (pp_source_is_gzip(file.data, file.len)) {
		struct pp_bytes raw = {NULL, 0};

		/* A named file can be read again if streaming gives up
		 * after its first pages were given back; stdin cannot. */
		int r = decode_while_inflating(ctx, name, file.data, file.len,
		                               strcmp(path, "-") != 0, out);

		if (r != 1)
			pp_bytes_release(ctx, &file);
		if (r == 0)
			return 0;
		if (r == 2 && (err = pp_source_read_file(ctx, path, &file)) < 0)
			return err;

		snprintf(what, sizeof(what), "inflating %s", name);
		pp_progress(ctx, what, "bytes", 0, file.len);
		/* Drop the compressed bytes before decoding: at peak, memory
		 * holds the raw profile and the model, not a third copy. */
		err = pp_source_gunzip(ctx, name, file.data, file.len, &raw);
		pp_bytes_release(ctx, &file);
		if (err < 0)
			return err;
		file = raw;
	}
	err = pp_decode_owned(ctx, name, file.data, file.len, out);
	file.data = NULL;
	return err;
}
