#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pprof/outfile.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Symlinks followed before giving up, as the kernel's limit. */
#define MAX_HOPS 40

static const char tmp_suffix[] = ".pprof-c-XXXXXX";

static void release(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	pp_free(ctx, af->path);
	pp_free(ctx, af->target);
	pp_free(ctx, af->tmp_path);
	af->path = af->target = af->tmp_path = NULL;
	af->fp = NULL;
}

/* A new string of dir (the first dirlen bytes of a path) joined to name. */
static char *join(struct pp_ctx *ctx, const char *dir, size_t dirlen,
                  const char *name)
{
	size_t n = strlen(name);
	char *s = pp_malloc(ctx, dirlen + 1 + n + 1);

	if (!s)
		return NULL;
	memcpy(s, dir, dirlen);
	s[dirlen] = '/';
	memcpy(s + dirlen + 1, name, n + 1);
	return s;
}

/* Length of path's directory part without the slash ("a/b" -> 1), or
 * SIZE_MAX when it has none. */
static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) : (size_t)-1;
}

/* Whether path's directory is under /proc: its entries there (the magic
 * links /dev/stdout and /dev/fd/N lead to) name open files, not paths. */
static bool in_proc(const char *path)
{
	size_t n = dir_len(path);
	char *dir, *real;
	bool yes;

	if (!(dir = n == (size_t)-1 ? strdup(".") : strndup(path, n ? n : 1)))
		return false;
	real = realpath(dir, NULL);
	yes = real && strncmp(real, "/proc", 5) == 0 &&
	      (real[5] == '\0' || real[5] == '/');
	free(real);
	free(dir);
	return yes;
}

/* Follow symlinks from af->path; set af->target, af->how and what to keep;
 * *st is the target's (st_mode 0 when it does not exist). */
static int resolve(struct pp_ctx *ctx, struct pp_atomic_file *af,
                   struct stat *st)
{
	char *cur = pp_strdup(ctx, af->path);
	int hops;

	if (!cur)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	for (hops = 0; hops <= MAX_HOPS; hops++) {
		char link[PATH_MAX];
		ssize_t n;
		size_t dn;
		char *next;

		if (lstat(cur, st) != 0) {
			int e = errno;

			if (e != ENOENT) {
				pp_free(ctx, cur);
				return pp_error(ctx, PP_EIO, "%s: %s", af->path,
				                strerror(e));
			}
			st->st_mode = 0; /* a new file */
			break;
		}
		if (!S_ISLNK(st->st_mode))
			break;
		if (in_proc(cur)) {
			af->how = PP_ATOMIC_THROUGH;
			break;
		}
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0 || (size_t)n >= sizeof(link) - 1) {
			int e = n < 0 ? errno : ENAMETOOLONG;

			pp_free(ctx, cur);
			return pp_error(ctx, PP_EIO, "%s: %s", af->path,
			                strerror(e));
		}
		link[n] = '\0';
		dn = dir_len(cur);
		if (link[0] == '/' || dn == (size_t)-1)
			next = pp_strdup(ctx, link);
		else
			next = join(ctx, cur, dn, link);
		pp_free(ctx, cur);
		if (!(cur = next))
			return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	af->target = cur;
	if (hops > MAX_HOPS)
		return pp_error(ctx, PP_EIO, "%s: %s", af->path,
		                strerror(ELOOP));
	if (af->how == PP_ATOMIC_THROUGH || st->st_mode == 0)
		return 0;
	if (S_ISDIR(st->st_mode))
		return pp_error(ctx, PP_EIO, "%s: is a directory", af->path);
	if (!S_ISREG(st->st_mode)) {
		af->how = PP_ATOMIC_THROUGH; /* device, FIFO, socket */
		return 0;
	}
	af->how = st->st_nlink > 1 ? PP_ATOMIC_COPY_IN : PP_ATOMIC_REPLACE;
	af->keep = 1;
	af->mode = st->st_mode & 07777;
	af->uid = (long)st->st_uid;
	af->gid = (long)st->st_gid;
	return 0;
}

/* Open the target itself for writing, as pprof's os.Create does. */
static int open_through(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int fd =
	        open(af->target,
	             O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0666);

	if (fd < 0 || !(af->fp = fdopen(fd, "w"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return pp_error(ctx, PP_EIO, "%s: %s", af->path, strerror(e));
	}
	return 0;
}

int pp_atomic_prepare(struct pp_ctx *ctx, const char *path,
                      struct pp_atomic_file *af)
{
	struct stat st;
	int err;

	memset(af, 0, sizeof(*af));
	if (!(af->path = pp_strdup(ctx, path))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto fail;
	}
	if ((err = resolve(ctx, af, &st)) < 0)
		goto fail;
	if (af->how == PP_ATOMIC_THROUGH && (err = open_through(ctx, af)) < 0)
		goto fail;
	return 0;
fail:
	release(ctx, af);
	return err;
}

/* The temporary's name: the target's, cut so the last element with the
 * suffix fits in NAME_MAX bytes (a 255-byte name is a valid output). */
static char *tmp_name(struct pp_ctx *ctx, const char *target)
{
	size_t dn = dir_len(target);
	const char *base = dn == (size_t)-1 ? target : target + dn + 1;
	size_t keep = strlen(base), head = (size_t)(base - target);
	const size_t room = NAME_MAX - (sizeof(tmp_suffix) - 1);
	char *s;

	if (keep > room)
		keep = room;
	if (!(s = pp_malloc(ctx, head + keep + sizeof(tmp_suffix))))
		return NULL;
	memcpy(s, target, head + keep);
	memcpy(s + head + keep, tmp_suffix, sizeof(tmp_suffix));
	return s;
}

/* Give the temporary the mode, owner and group it should end with. */
static void set_mode(struct pp_atomic_file *af, int fd)
{
	mode_t mode;

	if (!af->keep) {
		/* mkstemp makes 0600; a new file gets 0666 & ~umask. */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
		return;
	}
	mode = (mode_t)af->mode;
	if (fchown(fd, (uid_t)af->uid, (gid_t)af->gid) != 0) {
		/* Not root: keep the group if we are in it, and never
		 * carry set-id bits to a file we now own. */
		(void)fchown(fd, (uid_t)-1, (gid_t)af->gid);
		mode &= 0777;
	}
	fchmod(fd, mode);
}

/* Record e as the failure, remove the temporary and release af. */
static int fail(struct pp_ctx *ctx, struct pp_atomic_file *af, int e)
{
	int err = pp_error(ctx, PP_EIO, "%s: %s", af->path, strerror(e));

	if (af->tmp_path)
		unlink(af->tmp_path);
	release(ctx, af);
	return err;
}

int pp_atomic_start(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int fd, e;

	if (af->how == PP_ATOMIC_THROUGH)
		return 0;
	if (!(af->tmp_path = tmp_name(ctx, af->target))) {
		release(ctx, af);
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	}
	if ((fd = mkstemp(af->tmp_path)) < 0) {
		e = errno;
		pp_free(ctx, af->tmp_path);
		af->tmp_path = NULL;
		if (af->keep && (e == EACCES || e == EPERM)) {
			/* A file we may write in a directory we may not:
			 * pprof writes it; so do we, in place. */
			af->how = PP_ATOMIC_THROUGH;
			if (open_through(ctx, af) == 0)
				return 0;
		}
		return fail(ctx, af, e);
	}
	set_mode(af, fd);
	if (!(af->fp = fdopen(fd, af->how == PP_ATOMIC_COPY_IN ? "w+" : "w"))) {
		e = errno;
		close(fd);
		return fail(ctx, af, e);
	}
	return 0;
}

int pp_atomic_open(struct pp_ctx *ctx, const char *path,
                   struct pp_atomic_file *af)
{
	int err = pp_atomic_prepare(ctx, path, af);

	return err < 0 ? err : pp_atomic_start(ctx, af);
}

/* Flush and, for a temporary, sync: 0 or an errno. */
static int flush(struct pp_atomic_file *af)
{
	if (fflush(af->fp) != 0 || ferror(af->fp))
		return errno ? errno : EIO;
	if (af->how == PP_ATOMIC_REPLACE && fsync(fileno(af->fp)) != 0 &&
	    errno != EINVAL)
		return errno;
	return 0;
}

/* Close af->fp: e, or the close's errno if e is 0. */
static int close_fp(struct pp_atomic_file *af, int e)
{
	if (fclose(af->fp) != 0 && !e)
		e = errno ? errno : EIO;
	af->fp = NULL;
	return e;
}

/* Copy the temporary (af->fp, flushed) into the target in place. */
static int copy_in(struct pp_atomic_file *af)
{
	int in = fileno(af->fp), out, e = 0;
	char buf[65536];
	ssize_t n;

	if (lseek(in, 0, SEEK_SET) != 0)
		return errno;
	if ((out = open(af->target,
	                O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC)) < 0)
		return errno;
	while (!e && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				e = errno;
			continue;
		}
		for (ssize_t off = 0; !e && off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0 && errno != EINTR)
				e = errno;
			else if (w > 0)
				off += w;
		}
	}
	if (!e && fsync(out) != 0 && errno != EINVAL)
		e = errno;
	if (close(out) != 0 && !e)
		e = errno;
	return e;
}

int pp_atomic_commit(struct pp_ctx *ctx, struct pp_atomic_file *af)
{
	int e = flush(af);

	if (!e && af->how == PP_ATOMIC_COPY_IN)
		e = copy_in(af);
	e = close_fp(af, e);
	if (!e && af->how == PP_ATOMIC_REPLACE &&
	    rename(af->tmp_path, af->target) != 0)
		e = errno;
	if (af->tmp_path && (e || af->how == PP_ATOMIC_COPY_IN))
		unlink(af->tmp_path);
	if (e) {
		int err =
		        pp_error(ctx, PP_EIO, "%s: %s", af->path, strerror(e));

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
	int e = close_fp(af, flush(af)), err = 0;

	*out = NULL;
	if (!name) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if (!e && !af->tmp_path)
		e = EINVAL; /* a device or FIFO has no numbered copies */
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
	if (af->fp)
		fclose(af->fp);
	if (af->tmp_path)
		unlink(af->tmp_path);
	release(ctx, af);
}
