/*
 * Finding the binary of a mapping. In order: the executable named on the
 * command line (main mapping only), then in each PPROF_BINARY_PATH
 * directory the layouts pprof knows (BUILDID/BASENAME, FILE/BUILDID,
 * BASENAME, FILE) and the .build-id/ab/cdef....debug layout, then the
 * mapping's own path, then distribution debug directories by build-id.
 * A file whose build-id differs from the profile's is passed over.
 * Separate debug files of a found binary (.gnu_debuglink, build-id) are
 * libdwfl's to find, through the search path the symbolizer gives it.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "symbolize/internal.h"
#include "util/path.h"

struct search {
	struct pp_symbolizer *s;
	const char *build_id;
	/* The build id as a path element: only a hex one ("" otherwise), so
	 * a hostile "../../x" never walks out of a search directory. */
	const char *lookup_id;
	char first_problem[700];
	struct pp_symfile *found;
};

static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Try one candidate path; true when the search is over. */
static bool try_path(struct search *q, const char *path)
{
	struct pp_symfile *f;

	if (!is_file(path))
		return false;
	f = pp_symbolize__open(q->s, path);
	if (!f) {
		q->s->why[0] = '\0';
		return true; /* out of memory */
	}
	if (f->failure) {
		if (!q->first_problem[0])
			snprintf(q->first_problem, sizeof(q->first_problem),
			         "%s: %s", path, f->failure);
		return false;
	}
	if (q->build_id[0] && f->build_id[0] &&
	    strcmp(q->build_id, f->build_id) != 0) {
		if (!q->first_problem[0])
			snprintf(q->first_problem, sizeof(q->first_problem),
			         "%s: build-id mismatch (profile %s, file %s)",
			         path, q->build_id, f->build_id);
		return false;
	}
	q->found = f;
	return true;
}

static bool try_join(struct search *q, const char *dir, size_t dlen,
                     const char *a, const char *b, const char *c)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%.*s/%s%s%s", (int)dlen, dir, a,
	                 b ? b : "", c ? c : "");

	return n > 0 && (size_t)n < sizeof(path) && try_path(q, path);
}

/* DIR/.build-id/ab/cdef....debug */
static bool try_build_id_layout(struct search *q, const char *dir, size_t dlen)
{
	char rest[160];

	if (strlen(q->lookup_id) < 3)
		return false;
	snprintf(rest, sizeof(rest), ".build-id/%.2s/%s.debug", q->lookup_id,
	         q->lookup_id + 2);
	return try_join(q, dir, dlen, rest, NULL, NULL);
}

/* Each ':'-separated directory of list, with fn. */
static bool each_dir(struct search *q, const char *list, const char *file,
                     bool pprof_layouts)
{
	const char *base = file[0] ? pp_path_base(file) : "";

	while (list && *list) {
		const char *colon = strchr(list, ':');
		size_t dlen = colon ? (size_t)(colon - list) : strlen(list);

		if (dlen > 0) {
			if (q->lookup_id[0] && pprof_layouts &&
			    ((base[0] && try_join(q, list, dlen, q->lookup_id,
			                          "/", base)) ||
			     (file[0] && try_join(q, list, dlen, file, "/",
			                          q->lookup_id))))
				return true;
			if (q->lookup_id[0] &&
			    try_build_id_layout(q, list, dlen))
				return true;
			if (pprof_layouts && file[0] &&
			    (try_join(q, list, dlen, base, NULL, NULL) ||
			     try_join(q, list, dlen, file, NULL, NULL)))
				return true;
		}
		list = colon ? colon + 1 : NULL;
	}
	return false;
}

static bool is_hex(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F')))
			return false;
	return true;
}

struct pp_symfile *pp_symbolize__find(struct pp_symbolizer *s, const char *file,
                                      const char *build_id, bool is_main)
{
	struct search q;
	const struct pp_symbolize_opts *o = &s->opts;
	bool done;

	memset(&q, 0, sizeof(q));
	q.s = s;
	q.build_id = build_id ? build_id : "";
	q.lookup_id = is_hex(q.build_id) ? q.build_id : "";
	file = file ? file : "";
	s->why[0] = '\0';
	done = (is_main && o->executable && try_path(&q, o->executable)) ||
	       each_dir(&q, o->binary_path, file, true) ||
	       (file[0] && file[0] != '[' && try_path(&q, file)) ||
	       each_dir(&q, o->debug_dirs ? o->debug_dirs : "/usr/lib/debug",
	                file, false);
	if (q.found)
		return q.found;
	if (done)
		return NULL; /* out of memory */
	if (q.first_problem[0])
		snprintf(s->why, sizeof(s->why), "%s", q.first_problem);
	else if (is_main && o->executable)
		snprintf(s->why, sizeof(s->why), "%s: no such file",
		         o->executable);
	else
		snprintf(s->why, sizeof(s->why),
		         "binary not found (looked for %s in PPROF_BINARY_PATH "
		         "and at its own path)",
		         file[0] ? pp_path_base(file) : "it");
	return NULL;
}
