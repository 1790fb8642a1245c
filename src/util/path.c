#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "pprof/outfile.h"
#include "util/path.h"

const char *pp_path_base(const char *path)
{
	size_t len = strlen(path);

	return pp_path_base_n(path, &len);
}

const char *pp_path_base_n(const char *path, size_t *n)
{
	size_t len = *n;
	const char *slash;

	/* filepath.Base ignores trailing slashes; profiles never have them
	 * on object files, and "" stays "" for our callers' purposes. */
	while (len > 1 && path[len - 1] == '/')
		len--;
	slash = NULL;
	for (size_t i = len; i-- > 0;) {
		if (path[i] == '/') {
			slash = path + i;
			break;
		}
	}
	if (!slash)
		return path;
	*n = len - (size_t)(slash + 1 - path);
	return slash + 1;
}

char *pp_path_clean(const char *path, char *out)
{
	pp_path_clean_n(path, strlen(path), out);
	return out;
}

size_t pp_path_clean_n(const char *path, size_t n, char *out)
{
	size_t r = 0, w = 0, dotdot = 0;
	int rooted = n > 0 && path[0] == '/';

	if (n == 0) {
		out[0] = '.';
		out[1] = '\0';
		return 1;
	}
	if (rooted) {
		out[w++] = '/';
		r = 1;
		dotdot = 1;
	}
	while (r < n) {
		if (path[r] == '/') {
			r++;
		} else if (path[r] == '.' &&
		           (r + 1 == n || path[r + 1] == '/')) {
			r++;
		} else if (path[r] == '.' && r + 1 < n && path[r + 1] == '.' &&
		           (r + 2 == n || path[r + 2] == '/')) {
			r += 2;
			if (w > dotdot) {
				w--;
				while (w > dotdot && out[w] != '/')
					w--;
			} else if (!rooted) {
				if (w > 0)
					out[w++] = '/';
				out[w++] = '.';
				out[w++] = '.';
				dotdot = w;
			}
		} else {
			if ((rooted && w != 1) || (!rooted && w != 0))
				out[w++] = '/';
			while (r < n && path[r] != '/')
				out[w++] = path[r++];
		}
	}
	if (w == 0)
		out[w++] = '.';
	out[w] = '\0';
	return w;
}

pp_str pp_path_clean_str(struct pp_ctx *ctx, struct pp_strtab *tab, pp_str s)
{
	const char *orig;
	size_t len, clean;
	char small[512], *buf = small;
	pp_str out = s;

	if (s == 0)
		return 0;
	orig = pp_strtab_get(tab, s);
	len = pp_strtab_len(tab, s);
	if (len + 2 > sizeof(small)) {
		buf = pp_malloc(ctx, len + 2);
		if (!buf)
			return s;
	}
	/* Length-delimited: a name may hold NUL bytes. */
	clean = pp_path_clean_n(orig, len, buf);
	if (clean != len || memcmp(buf, orig, len) != 0) {
		out = pp_strtab_intern(tab, buf, clean);
		if (out == PP_NONE)
			out = s;
	}
	if (buf != small)
		pp_free(ctx, buf);
	return out;
}

int pp_path_mkdir_all(const char *path, unsigned mode)
{
	char buf[4096];
	size_t len = strlen(path);
	struct stat st;

	if (len == 0) {
		errno = ENOENT;
		return -1;
	}
	if (len >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	/* Each prefix ending before a '/', then the whole path. */
	for (size_t i = 1; i <= len; i++) {
		if (i < len && buf[i] != '/')
			continue;
		if (i < len && buf[i - 1] == '/')
			continue;
		buf[i] = '\0';
		if (stat(buf, &st) != 0) {
			if (mkdir(buf, (mode_t)mode) != 0 &&
			    !(errno == EEXIST && stat(buf, &st) == 0 &&
			      S_ISDIR(st.st_mode)))
				return -1;
		} else if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return -1;
		}
		if (i < len)
			buf[i] = '/';
	}
	return 0;
}
