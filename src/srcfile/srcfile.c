/* Finding the source files a profile names, with pprof's rules (its
 * report/source.go: trimPath and openSourceFile) and a few more places. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pprof/srcfile.h"
#include "util/path.h"
#include "util/readfd.h"

static bool has_prefix(const char *s, const char *p, size_t n)
{
	return strncmp(s, p, n) == 0;
}

/* The next ':'-separated element of list at *pos (advanced), as Go's
 * filepath.SplitList: "" has no elements. Returns its length. */
static bool next_elem(const char *list, size_t *pos, const char **start,
                      size_t *len)
{
	const char *s = list + *pos, *e;

	if (!list[0] || *pos > strlen(list))
		return false;
	e = strchr(s, ':');
	*start = s;
	*len = e ? (size_t)(e - s) : strlen(s);
	*pos += *len + 1;
	return true;
}

size_t pp_srcfile_trim_path(const char *path, const char *trim_path,
                            const char *search_path)
{
	static const char *const fixed[] = {"/proc/self/cwd/./",
	                                    "/proc/self/cwd/"};
	const char *el;
	size_t pos = 0, len;
	char want[PATH_MAX + 2], base[PATH_MAX];

	if (!trim_path || !trim_path[0]) {
		while (search_path && next_elem(search_path, &pos, &el, &len)) {
			const char *b, *hit;

			if (len >= sizeof(base))
				continue;
			memcpy(base, el, len);
			base[len] = '\0';
			/* filepath.Base: trailing slashes do not count. */
			while (len > 1 && base[len - 1] == '/')
				base[--len] = '\0';
			b = len == 0 ? "." : pp_path_base(base);
			snprintf(want, sizeof(want), "/%s/", b);
			if ((hit = strstr(path, want)))
				return (size_t)(hit - path) + strlen(want);
		}
	}
	pos = 0;
	while (trim_path && next_elem(trim_path, &pos, &el, &len)) {
		bool slash = len > 0 && el[len - 1] == '/';

		if (has_prefix(path, el, len) && (slash || path[len] == '/'))
			return len + (slash ? 0 : 1);
	}
	for (size_t i = 0; i < 2; i++)
		if (has_prefix(path, fixed[i], strlen(fixed[i])))
			return strlen(fixed[i]);
	return 0;
}

/* The whole of file path, read into size bytes at first: PP_ELIMIT past
 * max bytes (the file may grow while it is read), PP_EIO when it cannot be
 * read. */
static int read_whole(struct pp_ctx *ctx, const char *path, uint64_t max,
                      size_t size, struct pp_bytes *out)
{
	int fd = open(path, O_RDONLY), err;

	if (fd < 0)
		return pp_error(ctx, PP_EIO, "%s: %s", path, strerror(errno));
	err = pp_read_fd(ctx, fd, path, size, max, out);
	close(fd);
	return err;
}

/* Read dir/rel if it is there; 1 if read, 0 if not, <0 on error. Only a
 * regular file up to max bytes is read: a profile naming /dev/zero, a FIFO
 * or a huge file must not make list read forever. */
static int try_read(struct pp_ctx *ctx, const char *dir, size_t dirlen,
                    const char *rel, uint64_t max, struct pp_bytes *out)
{
	char joined[2 * PATH_MAX + 2], clean[2 * PATH_MAX + 4];
	struct stat st;
	int err = 0;

	if (dirlen + strlen(rel) + 2 > sizeof(joined))
		return 0;
	memcpy(joined, dir, dirlen);
	joined[dirlen] = '/';
	memcpy(joined + dirlen + 1, rel, strlen(rel) + 1);
	pp_path_clean(joined, clean);
	if (access(clean, R_OK) != 0 || stat(clean, &st) != 0 ||
	    S_ISDIR(st.st_mode))
		return 0;
	if (!S_ISREG(st.st_mode))
		return pp_error(ctx, PP_EIO, "%s: not a regular file", clean);
	if ((uint64_t)st.st_size <= max)
		err = read_whole(ctx, clean, max, (size_t)st.st_size + 1, out);
	if ((uint64_t)st.st_size > max || err == PP_ELIMIT)
		return pp_error(ctx, PP_EIO,
		                "%s: source file is larger than the %llu-byte "
		                "limit (-max_source_size)",
		                clean, (unsigned long long)max);
	if (err == PP_ENOMEM)
		return err;
	ctx->message[0] = '\0';
	return err < 0 ? 0 : 1;
}

/* Under dir and each of its parents, as pprof searches. */
static int search_up(struct pp_ctx *ctx, const char *dir, size_t len,
                     const char *rel, uint64_t max, struct pp_bytes *out)
{
	char d[PATH_MAX + 2], parent[PATH_MAX + 2];
	int r;

	if (len >= sizeof(d))
		return 0;
	memcpy(d, dir, len);
	d[len] = '\0';
	for (;;) {
		char *slash;

		if ((r = try_read(ctx, d, strlen(d), rel, max, out)) != 0)
			return r;
		/* filepath.Dir: drop the last element, clean the rest. */
		pp_path_clean(d, parent);
		slash = strrchr(parent, '/');
		if (!slash)
			snprintf(parent, sizeof(parent), ".");
		else if (slash == parent)
			parent[1] = '\0';
		else
			*slash = '\0';
		if (strcmp(parent, d) == 0)
			return 0;
		/* A parent is never longer than its child. */
		memcpy(d, parent, strlen(parent) + 1);
	}
}

/* The places Go keeps sources that pprof 1.19 does not look at. */
static int search_go(struct pp_ctx *ctx, const char *rel, uint64_t max,
                     struct pp_bytes *out)
{
	const char *goroot = getenv("GOROOT"), *modcache = getenv("GOMODCACHE");
	const char *gopath = getenv("GOPATH");
	char dir[PATH_MAX];
	int r;

	if (goroot && goroot[0]) {
		snprintf(dir, sizeof(dir), "%s/src", goroot);
		if ((r = try_read(ctx, dir, strlen(dir), rel, max, out)) != 0)
			return r;
	}
	if (!strchr(rel, '@'))
		return 0;
	if (modcache && modcache[0])
		snprintf(dir, sizeof(dir), "%s", modcache);
	else if (gopath && gopath[0])
		snprintf(dir, sizeof(dir), "%.*s/pkg/mod",
		         (int)strcspn(gopath, ":"), gopath);
	else
		return 0;
	return try_read(ctx, dir, strlen(dir), rel, max, out);
}

int pp_srcfile_read(struct pp_ctx *ctx, const char *path,
                    const char *search_path, const char *trim_path,
                    struct pp_bytes *out)
{
	return pp_srcfile_read_max(ctx, path, search_path, trim_path, 0, out);
}

int pp_srcfile_read_max(struct pp_ctx *ctx, const char *path,
                        const char *search_path, const char *trim_path,
                        uint64_t max, struct pp_bytes *out)
{
	char cwd[PATH_MAX];
	const char *rel, *el;
	size_t pos = 0, len;
	int r;

	out->data = NULL;
	out->len = 0;
	if (!max)
		max = PP_DEFAULT_MAX_SOURCE_SIZE;
	if (!search_path || !search_path[0]) {
		if (!getcwd(cwd, sizeof(cwd)))
			return pp_error(ctx, PP_EIO,
			                "could not stat current dir");
		search_path = cwd;
	}
	rel = path + pp_srcfile_trim_path(path, trim_path, search_path);
	if (rel[0] == '/') {
		/* pprof opens an absolute path as it is and reports the
		 * system's error in Go's words. */
		if ((r = try_read(ctx, "", 0, rel + 1, max, out)) != 0)
			return r < 0 ? r : 0;
		return pp_error(ctx, PP_ENOTFOUND,
		                "open %s: no such file or directory", rel);
	} else {
		while (next_elem(search_path, &pos, &el, &len))
			if ((r = search_up(ctx, el, len, rel, max, out)) != 0)
				return r < 0 ? r : 0;
		if ((r = search_go(ctx, rel, max, out)) != 0)
			return r < 0 ? r : 0;
	}
	return pp_error(ctx, PP_ENOTFOUND, "could not find file %s on path %s",
	                rel, search_path);
}
