/*
 * Sources: turn a file name (or "-" for standard input) into the
 * uncompressed bytes of a profile, and into a decoded profile.
 *
 * gzip is recognised by its magic bytes; anything else is passed through as
 * raw bytes. The decompressed size is capped by ctx->max_size.
 */
#ifndef PPROF_SOURCE_H
#define PPROF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

struct pp_bytes {
	uint8_t *data; /* owned; release with pp_bytes_release */
	size_t len;
};

void pp_bytes_release(struct pp_ctx *ctx, struct pp_bytes *b);

/* Read a whole file ("-" = stdin), capped at ctx->max_size bytes. */
int pp_source_read_file(struct pp_ctx *ctx, const char *path,
                        struct pp_bytes *out);

/* True if data starts with the gzip magic bytes. */
int pp_source_is_gzip(const uint8_t *data, size_t len);

/*
 * Inflate a whole gzip buffer (one or more members) into *out, using
 * libdeflate, with zlib to diagnose failures precisely ("truncated gzip
 * stream", "corrupt gzip data"). Fails with PP_ELIMIT past ctx->max_size.
 */
int pp_source_gunzip(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                     size_t len, struct pp_bytes *out);

/*
 * Inflate gzip data (one or more members) on a second thread, handing its
 * output to consume(arg, piece, n) in order, piece by piece, on the
 * calling thread as it is made, so that consuming it (decoding) runs
 * alongside. what, if not NULL, is the progress line ("decoding NAME"),
 * reported in compressed bytes. Returns 0 when the whole stream was
 * inflated and consumed; 1 when it was not -- built without ISA-L, data
 * not well-formed gzip, larger than ctx->max_size inflated, or consume
 * returned nonzero -- and the caller then uses pp_source_gunzip, which
 * names any error. Nothing is left in ctx. With release_input the data is
 * the caller's to discard: pages of it already inflated are returned to
 * the system as the inflate passes them (a big file's compressed bytes
 * are not held while the model grows), and 2 instead of 1 says that this
 * happened, so the caller must read the data again before inflating it.
 */
int pp_source_gunzip_each(struct pp_ctx *ctx, const char *what,
                          const uint8_t *data, size_t len, bool release_input,
                          int (*consume)(void *arg, const uint8_t *piece,
                                         size_t n),
                          void *arg);

/*
 * Streaming inflate for data that arrives in pieces (HTTP bodies, pipes):
 * feed with pp_gunzip_stream_push, then pp_gunzip_stream_finish.
 */
struct pp_gunzip_stream;
int pp_gunzip_stream_new(struct pp_ctx *ctx, const char *name,
                         struct pp_gunzip_stream **out);
int pp_gunzip_stream_push(struct pp_gunzip_stream *s, const uint8_t *data,
                          size_t len);
/* On success moves the whole output into *out. */
int pp_gunzip_stream_finish(struct pp_gunzip_stream *s, struct pp_bytes *out);
void pp_gunzip_stream_free(struct pp_gunzip_stream *s);

/*
 * Load a profile from bytes already in memory (raw or gzip): decompress if
 * needed and decode. name is for messages.
 */
int pp_source_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                     size_t len, struct pp_profile **out);

/* Read, decompress and decode one file. */
int pp_source_open(struct pp_ctx *ctx, const char *path,
                   struct pp_profile **out);

/*
 * Source files named in a profile, for annotated listings (`list`).
 *
 * pp_source_trim_path: how much of path to skip, as pprof's trimPath: with
 * no trim_path, the part up to and including "/BASE/" where BASE is the last
 * element of a search_path directory; else the first of trim_path's
 * ':'-separated prefixes (and "/proc/self/cwd/") that path starts with.
 *
 * pp_source_read_text: the contents of source file path: after trimming,
 * an absolute path is read as it is; a relative one is looked up under
 * each search_path directory (':'-separated) and each of its parents, as
 * pprof does; when that fails, under $GOROOT/src and, for module paths
 * ("example.com/m@v1.2.3/f.go"), under the Go module cache ($GOMODCACHE,
 * else $GOPATH/pkg/mod) — places pprof 1.19 does not look. search_path
 * NULL or "" means the current directory. Not found: PP_ENOTFOUND with
 * "could not find file P on path S" (P trimmed, S the search path), the
 * words pprof uses.
 */
size_t pp_source_trim_path(const char *path, const char *trim_path,
                           const char *search_path);
int pp_source_read_text(struct pp_ctx *ctx, const char *path,
                        const char *search_path, const char *trim_path,
                        struct pp_bytes *out);
/*
 * pp_source_read_text reading at most max_size bytes (0: the default,
 * PP_DEFAULT_MAX_SOURCE_SIZE). A file found that is not a regular file, or
 * is larger, is an error naming it (PP_EIO): the search stops there, as
 * pprof stops at the first file it can open.
 */
#define PP_DEFAULT_MAX_SOURCE_SIZE ((uint64_t)64 << 20)
int pp_source_read_text_max(struct pp_ctx *ctx, const char *path,
                            const char *search_path, const char *trim_path,
                            uint64_t max_size, struct pp_bytes *out);

#endif
