/*
 * Source files named in a profile, for the reports that show source lines
 * (list, weblist) and name files (callgrind). Below the reports, beside
 * the profile: nothing here reads or decodes a profile.
 */
#ifndef PPROF_SRCFILE_H
#define PPROF_SRCFILE_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/error.h"

/*
 * pp_srcfile_trim_path: how much of path to skip, as pprof's trimPath: with
 * no trim_path, the part up to and including "/BASE/" where BASE is the last
 * element of a search_path directory; else the first of trim_path's
 * ':'-separated prefixes (and "/proc/self/cwd/") that path starts with.
 *
 * pp_srcfile_read: the contents of source file path: after trimming,
 * an absolute path is read as it is; a relative one is looked up under
 * each search_path directory (':'-separated) and each of its parents, as
 * pprof does; when that fails, under $GOROOT/src and, for module paths
 * ("example.com/m@v1.2.3/f.go"), under the Go module cache ($GOMODCACHE,
 * else $GOPATH/pkg/mod) — places pprof 1.19 does not look. search_path
 * NULL or "" means the current directory. Not found: PP_ENOTFOUND with
 * "could not find file P on path S" (P trimmed, S the search path), the
 * words pprof uses.
 */
size_t pp_srcfile_trim_path(const char *path, const char *trim_path,
                            const char *search_path);
int pp_srcfile_read(struct pp_ctx *ctx, const char *path,
                    const char *search_path, const char *trim_path,
                    struct pp_bytes *out);
/*
 * pp_srcfile_read reading at most max_size bytes (0: the default,
 * PP_DEFAULT_MAX_SOURCE_SIZE). A file found that is not a regular file, or
 * is larger, is an error naming it (PP_EIO): the search stops there, as
 * pprof stops at the first file it can open.
 */
#define PP_DEFAULT_MAX_SOURCE_SIZE ((uint64_t)64 << 20)
int pp_srcfile_read_max(struct pp_ctx *ctx, const char *path,
                        const char *search_path, const char *trim_path,
                        uint64_t max_size, struct pp_bytes *out);

#endif
