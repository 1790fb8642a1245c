#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

/* Flush, sync and close the temporary: 0 or an errno. */
static int finish(struct pp_atomic_file *af)
{
	int e = 0;

	if (fflush(af->fp) != 0 || ferror(af->fp))
		e = errno ? errno : EIO;
	if (!e && fsync(fileno(af->fp)) != 0 && errno != EINVAL)
		e = errno;
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	return e;
}

int pp_atomic_commit(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int e = finish(af);

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

/* Put tmp at name unless name exists: 0, or an errno (EEXIST: taken). */
static int place(const char *tmp, const char *name)
{
	int fd;

	if (link(tmp, name) == 0)
		return 0;
	if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP &&
	    errno != ENOSYS && errno != EMLINK)
		return errno;
	/* No hard links here (some FUSE and FAT file systems): claim the
	 * name with an empty file, then rename over it. */
	fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0)
		return errno;
	close(fd);
	if (rename(tmp, name) != 0) {
		int e = errno;

		unlink(name);
		return e;
	}
	return 0;
}

int pp_atomic_commit_numbered(struct pp_ctx *ctx, struct pp_atomic_file *af,
                              const char *suffix, char **out)
{
	size_t size = strlen(af->path) + strlen(suffix) + 8;
	char *name = pp_malloc(ctx, size);
	int e = finish(af), err = 0;

	*out = NULL;
	if (!name) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(name, size, "%s%03d%s", af->path, 1, suffix);
	for (int i = 1; !e && i < 10000; i++) {
		snprintf(name, size, "%s%03d%s", af->path, i, suffix);
		if ((e = place(af->tmp_path, name)) == 0) {
			*out = name;
			name = NULL;
			goto done;
		}
		if (e == EEXIST)
			e = 0;
	}
	if (e) {
		err = pp_error(ctx, PP_EIO, "%s: %s", name, strerror(e));
	} else {
		snprintf(name, size, "%s%03d%s", af->path, 1, suffix);
		err = pp_error(ctx, PP_EIO,
		               "could not create file of the form %s", name);
	}
done:
	if (af->tmp_path)
		unlink(af->tmp_path);
	pp_free(ctx, name);
	release(ctx, af);
	return err;
}

void pp_atomic_abort(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	if (af->fp) {
		fclose(af->fp);
		unlink(af->tmp_path);
	}
	release(ctx, af);
}
