/* Reading a whole file descriptor, with a bound: the one read loop behind
 * profiles (source/file.c) and source files (srcfile/). */
#ifndef PP_UTIL_READFD_H
#define PP_UTIL_READFD_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/error.h"

/*
 * The rest of fd, read to its end into out (the caller releases it). The
 * first buffer holds size bytes (a regular file's size plus one reads it in
 * one go); a pipe, or a file that grows while it is read, grows it. Past
 * max bytes: PP_ELIMIT, whose message the caller replaces with its own
 * limit's name. A failed read: PP_EIO, "name: why". fd stays open.
 */
int pp_read_fd(struct pp_ctx *ctx, int fd, const char *name, size_t size,
               uint64_t max, struct pp_bytes *out);

#endif
