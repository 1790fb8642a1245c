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
static bool looks_like_cxx(const char *s)
{
	if (strstr(s, ".<") || strstr(s, "])."))
		return false;
	return strpbrk(s, "<>[]") != NULL || strstr(s, "::") != NULL;
}

/* Remove each outermost open...close group in place. On a close without
 * its open, stop and keep what has been removed so far (pprof does the
 * same); an unclosed open is left as it is. */
static void remove_matching(char *s, char open, char close)
{
	size_t first = 0, cur = 0;
	int depth = 0;

	while (s[cur]) {
		if (s[cur] == open) {
			if (++depth == 1)
				first = cur;
		} else if (s[cur] == close) {
			if (--depth < 0)
				return;
			if (depth == 0) {
				memmove(s + first, s + cur + 1,
				        strlen(s + cur + 1) + 1);
				cur = first;
				continue;
			}
		}
		cur++;
	}
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
	if (looks_like_cxx(dm)) {
		if (mode == PP_DEMANGLE_DEFAULT ||
		    mode == PP_DEMANGLE_TEMPLATES)
			remove_matching(dm, '(', ')');
		if (mode == PP_DEMANGLE_DEFAULT)
			remove_matching(dm, '<', '>');
	}
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
		const char *name = pp_profile_str(p, f->name);
		const char *sys = pp_profile_str(p, f->system_name);
		char *shown;
		pp_str s;

		if (i >= local_first && i < local_end)
			continue; /* named from a binary, for opts already */

		if (force && *name && *sys) {
			f->name = f->system_name;
			name = sys;
		}
		if (*name && f->name != f->system_name &&
		    strcmp(name, sys) != 0)
			continue; /* demangled by its producer or by us */
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
