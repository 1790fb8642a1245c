#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/atomicfile.h"

static void release(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	pp_free(ctx, af->path);
	pp_free(ctx, af->tmp_path);
	af->path = af->tmp_path = NULL;
	af->fp = NULL;
}

int pp_atomic_open(struct pp_ctx *ctx, const char *path,
                   struct pp_atomic_file *af)
{
	static const char suffix[] = ".pprof-c-XXXXXX";
	size_t len = strlen(path);
	struct stat st;
	int fd;

	memset(af, 0, sizeof(*af));
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return pp_error(ctx, PP_EIO, "%s: is a directory", path);
	af->path = pp_strdup(ctx, path);
	af->tmp_path = pp_malloc(ctx, len + sizeof(suffix));
	if (!af->path || !af->tmp_path) {
		release(ctx, af);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	memcpy(af->tmp_path, path, len);
	memcpy(af->tmp_path + len, suffix, sizeof(suffix));
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		int e = errno;

		release(ctx, af);
		return pp_error(ctx, PP_EIO, "%s: %s", path, strerror(e));
	}
	/* mkstemp makes 0600; an output file gets the usual 0666 & ~umask. */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
	af->fp = fdopen(fd, "w");
	if (!af->fp) {
		int e = errno;

		close(fd);
		unlink(af->tmp_path);
		release(ctx, af);
		return pp_error(ctx, PP_EIO, "%s: %s", path, strerror(e));
	}
	return 0;
}

int pp_atomic_commit(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int e = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	if (!e && fsync(fileno(af->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	if (!e && rename(af->tmp_path, af->path) != 0)
		e = errno;
	if (e) {
		int err =
		        pp_error(ctx, PP_EIO, "%s: %s", af->path, strerror(e));

		unlink(af->tmp_path);
		release(ctx, af);
		return err;
	}
	release(ctx, af);
	return 0;
}

void pp_atomic_abort(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	if (af->fp) {
		fclose(af->fp);
		unlink(af->tmp_path);
	}
	release(ctx, af);
}
