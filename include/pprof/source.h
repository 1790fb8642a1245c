/*
 * Sources: turn a file name (or "-" for standard input) into the
 * uncompressed bytes of a profile, whole (pp_source_load, then
 * pp_source_inflate) or, gzip'd, handed piece by piece as they are
 * inflated to a consumer the caller gives (pp_source_gunzip_each).
 * Decoding them is the session's (pprof/session.h, pprof/decode.h): this
 * stage hands back bytes only.
 *
 * gzip is recognised by its magic bytes; anything else is passed through as
 * raw bytes. The decompressed size is capped by ctx->max_size.
 */
#ifndef PPROF_SOURCE_H
#define PPROF_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/error.h"

/* Read a whole file ("-" = stdin), capped at ctx->max_size bytes. */
int pp_source_read_file(struct pp_ctx *ctx, const char *path,
                        struct pp_bytes *out);

/* True if data starts with the gzip magic bytes. */
int pp_source_is_gzip(const uint8_t *data, size_t len);

/*
 * About how many bytes the gzip data inflates to, from its trailer (the
 * last member's size mod 2^32), or 0 when the trailer cannot be believed
 * (more than deflate can expand the data to). A hint for sizing buffers
 * once: it may lie for multi-member, huge or hostile input.
 */
uint64_t pp_source_gunzip_size_hint(const uint8_t *data, size_t len);

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

/* A profile's bytes as a source hands them to decoding: inflated when
 * they came gzip'd. */
struct pp_source_bytes {
	struct pp_bytes bytes; /* owned */
	/* What messages call the source: the path, "stdin", or the URL as
	 * shown (without credentials). Owned. */
	char *name;
};

/* Free b's bytes and name and empty it. */
void pp_source_bytes_release(struct pp_ctx *ctx, struct pp_source_bytes *b);

/*
 * Read one profile's file ("-": stdin) as it is, telling ctx's progress
 * "reading NAME". An empty file is PP_EFORMAT ("NAME: empty input file");
 * else errors as pp_source_read_file. On error *out is empty.
 */
int pp_source_load(struct pp_ctx *ctx, const char *path,
                   struct pp_source_bytes *out);

/*
 * Inflate b's bytes in place when they are gzip'd, telling ctx's progress
 * "inflating NAME" (nothing to do otherwise). The compressed bytes are
 * freed before the inflated ones are decoded, whatever the result; errors
 * as pp_source_gunzip.
 */
int pp_source_inflate(struct pp_ctx *ctx, struct pp_source_bytes *b);

#endif
