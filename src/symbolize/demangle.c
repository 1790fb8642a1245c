/*
 * C++ and Rust demangling through libiberty (binutils' and gcc's own
 * demangler, which knows the Itanium ABI and both Rust manglings), shaped
 * to pprof's modes: by default no parameters and no template arguments
 * (`pprofc::work::Accumulator::feed`), "templates" keeps the template
 * arguments, "full" keeps everything but gcc's clone suffixes.
 */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "pprof/symbolize.h"

/* True when s[0] == '<' belongs to an operator name (operator<, <<, <=,
 * <=>, ->, ->*), not to a template argument list. */
static bool is_operator_char(const char *start, const char *s)
{
	const char *p = s;

	while (p > start && (p[-1] == '<' || p[-1] == '-' || p[-1] == '>'))
		p--;
	return (size_t)(p - start) >= 8 && memcmp(p - 8, "operator", 8) == 0;
}

/* Remove balanced <...> lists in place, as pprof does for its default
 * mode; an unbalanced name is left alone. */
static void strip_templates(struct pp_ctx *ctx, char *s)
{
	char *out = s, *p, *src;
	int depth = 0;

	for (p = s; *p; p++) {
		if (*p == '<' && !is_operator_char(s, p))
			depth++;
		else if (*p == '>' && !is_operator_char(s, p) && --depth < 0)
			return;
	}
	/* Read from a copy: the operator test looks back at bytes that the
	 * compaction may already have overwritten. */
	if (depth != 0 || !(src = pp_strdup(ctx, s)))
		return;
	for (p = src; *p; p++) {
		if (*p == '<' && !is_operator_char(src, p))
			depth++;
		else if (*p == '>' && !is_operator_char(src, p))
			depth--;
		else if (depth == 0)
			*out++ = *p;
	}
	/* "operator< <char>" leaves a space behind */
	while (out > s && out[-1] == ' ')
		out--;
	*out = '\0';
	pp_free(ctx, src);
}

/* Drop gcc's " [clone .cold]" / " [clone .isra.0]" suffixes. */
static void strip_clones(char *s)
{
	char *c;

	while ((c = strstr(s, " [clone ")) != NULL) {
		char *e = strchr(c, ']');

		if (!e)
			break;
		memmove(c, e + 1, strlen(e + 1) + 1);
	}
}

/* keep_clones: gcc's clone suffixes stay (pprof's demangle=none of names
 * already in a profile, which its demangler prints in full). */
static char *demangle(struct pp_ctx *ctx, const char *name,
                      enum pp_demangle mode, bool keep_clones)
{
	char *plain = NULL, *lib = NULL, *out = NULL;
	const char *at;
	int flags = DMGL_ANSI;
	size_t len;

	if ((mode == PP_DEMANGLE_NONE && !keep_clones) || !name)
		return NULL;
	if (!(name[0] == '_' && (name[1] == 'Z' || name[1] == 'R')))
		return NULL;
	/* Versioned dynamic symbols (name@GLIBCXX_3.4) demangle without the
	 * version. */
	if ((at = strchr(name, '@')) != NULL) {
		plain = pp_malloc(ctx, (size_t)(at - name) + 1);
		if (!plain)
			return NULL;
		memcpy(plain, name, (size_t)(at - name));
		plain[at - name] = '\0';
		name = plain;
	}
	/* Pick the scheme rather than let libiberty try Rust then C++ on
	 * every name: _R is Rust v0; _ZN...17h<16 hex>E is Rust's legacy
	 * mangling (C++-shaped, with a hash), anything else _Z is C++. */
	len = strlen(name);
	if (name[1] == 'R' ||
	    (len > 20 && name[2] == 'N' && name[len - 1] == 'E' &&
	     memcmp(name + len - 20, "17h", 3) == 0))
		flags |= DMGL_RUST;
	else
		flags |= DMGL_GNU_V3;
	if (mode == PP_DEMANGLE_FULL || keep_clones)
		flags |= DMGL_PARAMS;
	lib = cplus_demangle(name, flags);
	if (lib) {
		if (mode == PP_DEMANGLE_DEFAULT)
			strip_templates(ctx, lib);
		if (!keep_clones)
			strip_clones(lib);
		out = pp_strdup(ctx, lib);
		free(lib); /* libiberty allocates with malloc */
	}
	pp_free(ctx, plain);
	return out;
}

char *pp_demangle(struct pp_ctx *ctx, const char *name, enum pp_demangle mode)
{
	return demangle(ctx, name, mode, false);
}

char *pp_demangle_verbatim(struct pp_ctx *ctx, const char *name)
{
	return demangle(ctx, name, PP_DEMANGLE_FULL, true);
}
