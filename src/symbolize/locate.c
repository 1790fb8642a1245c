/*
 * pprof's locateBinaries, the part that renames: before anything is
 * symbolized, a mapping whose binary is found under PPROF_BINARY_PATH
 * takes the found file's path as its name, whatever the symbolization
 * mode. Reports then name the local copy, as go tool pprof's do.
 *
 * Only mappings without a build-id are renamed. go tool pprof checks a
 * found file's build-id against the mapping's, and the object reader of
 * the Go distribution reports none, so a mapping with a build-id never
 * matches there; the symbolizer (binpath.c) still finds such binaries by
 * build-id for its own use, without renaming the mapping.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "pprof/symbolize.h"
#include "util/path.h"

/* Is path a regular file that starts as an ELF object does? */
static bool is_elf(const char *path)
{
	unsigned char magic[4];
	struct stat st;
	FILE *fp;
	bool yes;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	if (!(fp = fopen(path, "rb")))
		return false;
	yes = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "\177ELF", 4) == 0;
	fclose(fp);
	return yes;
}

/* Room for a search directory and a candidate under it. */
enum { TAIL_CAP = 4096, PATH_CAP = 2 * TAIL_CAP + 16 };

/* Is DIR/TAIL (DIR the dlen bytes at dir; "" leaves TAIL alone), cleaned
 * as filepath.Join cleans, an ELF file? Its path is left in found. */
static bool try_candidate(const char *dir, size_t dlen, const char *tail,
                          char found[PATH_CAP])
{
	char raw[PATH_CAP];
	int n = dlen ? snprintf(raw, sizeof(raw), "%.*s/%s", (int)dlen, dir,
	                        tail)
	             : snprintf(raw, sizeof(raw), "%s", tail);

	if (n < 0 || (size_t)n + 2 > sizeof(raw))
		return false;
	pp_path_clean(raw, found);
	return is_elf(found);
}

/*
 * Whether one search directory holds the binary of file, trying pprof's
 * candidates in its order: DIR/BASE, DIR/FILE, DIR/FILE.debug,
 * DIR/FILEDIR/.debug/BASE.debug, DIR/usr/lib/debug/FILEDIR/BASE.debug.
 * The first found is left in found.
 */
static bool find_in(const char *dir, size_t dlen, const char *file,
                    char found[PATH_CAP])
{
	const char *base = pp_path_base(file);
	int dirlen = (int)(base - file);
	/* filepath.Dir: what precedes the last element ("." if nothing). */
	const char *filedir = dirlen ? file : ".";
	char tail[TAIL_CAP];
	int n;

	if (dirlen == 0)
		dirlen = 1;
	for (int k = 0; k < 5; k++) {
		switch (k) {
		case 0:
			n = snprintf(tail, sizeof(tail), "%s", base);
			break;
		case 1:
			n = snprintf(tail, sizeof(tail), "%s", file);
			break;
		case 2:
			n = snprintf(tail, sizeof(tail), "%s.debug", file);
			break;
		case 3:
			n = snprintf(tail, sizeof(tail), "%.*s/.debug/%s.debug",
			             dirlen, filedir, base);
			break;
		default:
			n = snprintf(tail, sizeof(tail),
			             "usr/lib/debug/%.*s/%s.debug", dirlen,
			             filedir, base);
			break;
		}
		if (n >= 0 && (size_t)n < sizeof(tail) &&
		    try_candidate(dir, dlen, tail, found))
			return true;
	}
	return false;
}

int pp_symbolize_locate(struct pp_profile *p, const char *binary_path)
{
	char found[PATH_CAP];

	if (!binary_path || !*binary_path)
		return 0;
	for (uint32_t i = 0; i < p->nmappings; i++) {
		struct pp_mapping *m = &p->mappings[i];
		size_t flen, blen;
		const char *file = pp_profile_strn(p, m->file, &flen);
		const char *dir = binary_path;

		pp_profile_strn(p, m->build_id, &blen);
		/* A name with a NUL byte names no file. */
		if (flen == 0 || blen != 0 || strlen(file) != flen)
			continue;
		for (;;) {
			const char *colon = strchr(dir, ':');
			size_t dlen =
			        colon ? (size_t)(colon - dir) : strlen(dir);

			if (find_in(dir, dlen, file, found)) {
				pp_str s = pp_profile_intern(p, found);

				if (s == PP_NONE)
					return pp_error(p->ctx, PP_ENOMEM,
					                "out of memory");
				m->file = s;
				break;
			}
			if (!colon)
				break;
			dir = colon + 1;
		}
	}
	return 0;
}
