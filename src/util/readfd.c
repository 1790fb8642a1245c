/* Reading a whole file descriptor, with a bound. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "util/readfd.h"

int pp_read_fd(struct pp_ctx *ctx, int fd, const char *name, size_t size,
               uint64_t max, struct pp_bytes *out)
{
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	int err;

	out->data = NULL;
	out->len = 0;
	/* The size the caller expects, exactly (a file's size and one byte
	 * to see its end): a power-of-two capacity leaves room past the data,
	 * where a huge page (util/pages.h) would be resident in part. More
	 * data than that grows the buffer. */
	cap = size ? size : 16;
	if (!(buf = pp_malloc(ctx, cap)))
		return pp_error(ctx, PP_ENOMEM, "out of memory reading %s",
		                name);
	for (;;) {
		ssize_t n;

		if (len == cap &&
		    (err = pp_grow(ctx, (void **)&buf, &cap, len + 1, 1)) < 0)
			goto fail;
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = pp_error(ctx, PP_EIO, "%s: %s", name,
			               strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			err = pp_error(ctx, PP_ELIMIT,
			               "%s: more than %llu bytes", name,
			               (unsigned long long)max);
			goto fail;
		}
	}
	out->data = buf;
	out->len = len;
	return 0;
fail:
	pp_free(ctx, buf);
	return err;
}
