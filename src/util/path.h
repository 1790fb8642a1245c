/* File path helpers with Go's path/filepath semantics, which pprof uses to
 * print file names. */
#ifndef PP_UTIL_PATH_H
#define PP_UTIL_PATH_H

#include <stddef.h>

#include "pprof/strtab.h"

/* The last element of path ("a/b/c.so" -> "c.so"), as filepath.Base. */
const char *pp_path_base(const char *path);
/* The same for the *n bytes at path (which may hold NUL bytes); *n becomes
 * the length of the base. */
const char *pp_path_base_n(const char *path, size_t *n);

/*
 * Lexically clean path as filepath.Clean does: collapse "//", drop "."
 * elements, resolve "x/.." pairs; "" becomes ".". Writes into out (which
 * must hold strlen(path) + 2 bytes) and returns out.
 */
char *pp_path_clean(const char *path, char *out);
/* The same for the n bytes at path (which may hold NUL bytes); out must
 * hold n + 2 bytes. Returns the cleaned length (out is NUL-terminated). */
size_t pp_path_clean_n(const char *path, size_t n, char *out);

/*
 * The interned cleaned form of string s of table tab (0 stays 0): a
 * profile's file names. The table is an append-only intern pool, so adding
 * the cleaned spelling changes no record of the profile. Returns s itself
 * if interning fails.
 */
pp_str pp_path_clean_str(struct pp_ctx *ctx, struct pp_strtab *tab, pp_str s);

#endif
