/*
 * Interned strings: the string table a profile's names live in
 * (pprof/profile.h), and that util's helpers read and add to.
 *
 * Every string is a pp_str, an index into its table, and two strings of
 * one table are equal exactly when their indices are. Index 0 is the empty
 * string.
 */
#ifndef PPROF_STRTAB_H
#define PPROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "pprof/error.h"

typedef uint32_t pp_str;

/* "No such record": a location without a mapping, a line without a
 * function; and a failed intern. */
#define PP_NONE UINT32_MAX

struct pp_strtab;

/* A new table holding just "" at index 0. NULL on allocation failure. */
struct pp_strtab *pp_strtab_new(struct pp_ctx *ctx);
void pp_strtab_free(struct pp_strtab *tab);

/* Intern len bytes at s (need not be NUL-terminated). PP_NONE on failure. */
pp_str pp_strtab_intern(struct pp_strtab *tab, const char *s, size_t len);

/* Look a string up without adding it: its index, or PP_NONE. */
pp_str pp_strtab_find(const struct pp_strtab *tab, const char *s, size_t len);

/* The NUL-terminated text of id; borrowed, valid until the table is freed.
 * Interning more strings never moves earlier ones. */
const char *pp_strtab_get(const struct pp_strtab *tab, pp_str id);
size_t pp_strtab_len(const struct pp_strtab *tab, pp_str id);
uint32_t pp_strtab_count(const struct pp_strtab *tab);

#endif
