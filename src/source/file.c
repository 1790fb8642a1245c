/* Reading whole files: a profile's file as its bytes, inflated when
 * gzip'd (pp_source_inflate). Decoding them is the session's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void pp_source_bytes_release(struct pp_ctx *ctx, struct pp_source_bytes *b)
{
	pp_bytes_release(ctx, &b->bytes);
	pp_free(ctx, b->name);
	b->name = NULL;
}

int pp_source_load(struct pp_ctx *ctx, const char *path,
                   struct pp_source_bytes *out)
{
	const char *name = strcmp(path, "-") == 0 ? "stdin" : path;
	char what[320];
	int err;

	out->bytes.data = NULL;
	out->bytes.len = 0;
	if (!(out->name = pp_strdup(ctx, name)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	/* Progress: each step is one call (read, libdeflate), shown by the
	 * front end with its elapsed time; the decoder reports its bytes. */
	snprintf(what, sizeof(what), "reading %s", name);
	pp_progress(ctx, what, NULL, 0, 0);
	if ((err = pp_source_read_file(ctx, path, &out->bytes)) < 0)
		goto fail;
	if (out->bytes.len == 0) {
		err = pp_error(ctx, PP_EFORMAT, "%s: empty input file", name);
		goto fail;
	}
	return 0;
fail:
	pp_source_bytes_release(ctx, out);
	return err;
}

int pp_source_inflate(struct pp_ctx *ctx, struct pp_source_bytes *b)
{
	struct pp_bytes raw = {NULL, 0};
	char what[320];
	int err;

	if (!pp_source_is_gzip(b->bytes.data, b->bytes.len))
		return 0;
	snprintf(what, sizeof(what), "inflating %s", b->name);
	pp_progress(ctx, what, "bytes", 0, b->bytes.len);
	/* Drop the compressed bytes before decoding: at peak, memory holds
	 * the raw profile and the model, not a third copy. */
	err = pp_source_gunzip(ctx, b->name, b->bytes.data, b->bytes.len, &raw);
	pp_bytes_release(ctx, &b->bytes);
	if (err < 0)
		return err;
	b->bytes = raw;
	return 0;
}
