/*
 * Names already in a profile, demangled and simplified as pprof does when it
 * loads a profile (its symbolizer's Demangle step): producers such as perf
 * converters, async-profiler or pprof-rs write mangled or fully demangled
 * C++ and Rust names, and pprof shows them shortened. Which names it touches
 * and how it shortens them is pprof's behaviour, reproduced exactly so that
 * rows match the reference's.
 */
#include <stdlib.h>
#include <string.h>

#include "pprof/symbolize.h"

/* pprof's test for a name that is demangled C++ already: brackets or a
 * "::", but not Java's "Class.<init>" nor Go's "pkg.(*T[...]).Method". */
static bool has(const char *s, size_t n, const char *word)
{
	size_t wl = strlen(word);

	for (size_t i = 0; i + wl <= n; i++)
		if (memcmp(s + i, word, wl) == 0)
			return true;
	return false;
}

/* Of the n bytes at s (which may hold NUL bytes). */
static bool looks_like_cxx(const char *s, size_t n)
{
	if (has(s, n, ".<") || has(s, n, "])."))
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] && strchr("<>[]", s[i]))
			return true;
	return has(s, n, "::");
}

/* Remove each outermost open...close group in place. On a close without
 * its open, stop and keep what has been removed so far (pprof does the
 * same); an unclosed open is left as it is. */
static size_t remove_matching(char *s, size_t n, char open, char close)
{
	size_t first = 0, cur = 0;
	int depth = 0;

	while (cur < n) {
		if (s[cur] == open) {
			if (++depth == 1)
				first = cur;
		} else if (s[cur] == close) {
			if (--depth < 0)
				return n;
			if (depth == 0) {
				/* With the NUL after the n bytes. */
				memmove(s + first, s + cur + 1, n - cur);
				n -= cur + 1 - first;
				cur = first;
				continue;
			}
		}
		cur++;
	}
	return n;
}

/* pprof's heuristics for a name that looks like demangled C++ already,
 * on the n bytes at s, in place; returns the new length. */
static size_t simplify_cxx(char *s, size_t n, enum pp_demangle mode)
{
	if (looks_like_cxx(s, n)) {
		if (mode == PP_DEMANGLE_DEFAULT ||
		    mode == PP_DEMANGLE_TEMPLATES)
			n = remove_matching(s, n, '(', ')');
		if (mode == PP_DEMANGLE_DEFAULT)
			n = remove_matching(s, n, '<', '>');
	}
	return n;
}

/* The name pprof shows for system name sys; NULL when memory ran out. */
static char *display_name(struct pp_ctx *ctx, const char *sys,
                          enum pp_demangle mode)
{
	char *dm = mode == PP_DEMANGLE_NONE ? pp_demangle_verbatim(ctx, sys)
	                                    : pp_demangle(ctx, sys, mode);

	if (dm && strcmp(dm, sys) != 0)
		return dm;
	pp_free(ctx, dm);
	if (!(dm = pp_strdup(ctx, sys)))
		return NULL;
	simplify_cxx(dm, strlen(dm), mode);
	return dm;
}

int pp_symbolize_names(struct pp_ctx *ctx, struct pp_profile *p,
                       const struct pp_symbolize_opts *opts,
                       uint32_t local_first, uint32_t local_end)
{
	bool force = opts->force || opts->demangle != PP_DEMANGLE_DEFAULT;

	if (opts->none)
		return 0;
	for (uint32_t i = 0; i < p->nfunctions; i++) {
		struct pp_function *f = &p->functions[i];
		size_t nl, sl;
		const char *name = pp_profile_strn(p, f->name, &nl);
		const char *sys = pp_profile_strn(p, f->system_name, &sl);
		char *shown;
		pp_str s;

		if (i >= local_first && i < local_end)
			continue; /* named from a binary, for opts already */

		if (force && nl && sl) {
			f->name = f->system_name;
			name = sys;
			nl = sl;
		}
		/* Interned: another index is another name. */
		if (nl && f->name != f->system_name)
			continue; /* demangled by its producer or by us */
		/* A NUL byte is in no mangled name: the system name is
		 * only simplified, whole (cut at the NUL, it would be
		 * another). */
		if (memchr(sys, '\0', sl)) {
			if (!(shown = pp_malloc(ctx, sl + 1)))
				return pp_error(ctx, PP_ENOMEM,
				                "out of memory");
			memcpy(shown, sys, sl + 1);
			s = pp_strtab_intern(
			        p->strings, shown,
			        simplify_cxx(shown, sl, opts->demangle));
			pp_free(ctx, shown);
			if (s == PP_NONE)
				return pp_error(ctx, PP_ENOMEM,
				                "out of memory");
			f->name = s;
			continue;
		}
		if (!(shown = display_name(ctx, sys, opts->demangle)))
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		s = strcmp(shown, name) == 0 ? f->name
		                             : pp_profile_intern(p, shown);
		pp_free(ctx, shown);
		if (s == PP_NONE)
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		f->name = s;
	}
	return 0;
}
