/*
 * Saving a fetched profile as pprof does (the CLI's job, not the
 * library's: the source stage only reads; fetch.c picks the directory).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pprof/encode.h"
#include "pprof/outfile.h"
#include "save.h"

/* Longest prefix: room for "NNNN.pb.gz" and atomicfile's temporary suffix
 * within NAME_MAX (255). */
#define SAVE_PREFIX_MAX 200

struct name {
	char s[SAVE_PREFIX_MAX + 1];
	size_t len;
	bool full;
};

/* Append n bytes of s and a '.', '/' and control characters as '_'; stop
 * at SAVE_PREFIX_MAX, not inside a UTF-8 character. */
static void name_add(struct name *b, const char *s, size_t n)
{
	for (size_t i = 0; i <= n && !b->full; i++) {
		unsigned char c = i < n ? (unsigned char)s[i] : '.';

		if (b->len == SAVE_PREFIX_MAX) {
			/* c continues a character: drop its start. */
			if ((c & 0xc0) == 0x80) {
				while (b->len > 0 &&
				       ((unsigned char)b->s[b->len - 1] &
				        0xc0) == 0x80)
					b->len--;
				if (b->len > 0)
					b->len--;
			}
			b->full = true;
			break;
		}
		b->s[b->len++] =
		        c == '/' || c < 0x20 || c == 0x7f ? '_' : (char)c;
	}
	b->s[b->len] = '\0';
}

int pp_cli_save_prefix(struct pp_ctx *ctx, const struct pp_profile *p,
                       char **out)
{
	struct name b = {"pprof.", 6, false};
	const char *file =
	        p->nmappings > 0 ? pp_profile_str(p, p->mappings[0].file) : "";

	if (file && *file) {
		/* filepath.Base: trailing slashes go; "/" stays "/". */
		size_t end = strlen(file), start;

		while (end > 1 && file[end - 1] == '/')
			end--;
		start = end;
		while (start > 0 && file[start - 1] != '/')
			start--;
		if (start == end)
			start = end - 1;
		name_add(&b, file + start, end - start);
	}
	for (uint32_t i = 0; i < p->nsample_types; i++) {
		const char *t = pp_profile_str(p, p->sample_types[i].type);

		name_add(&b, t ? t : "", t ? strlen(t) : 0);
	}
	if (!(*out = pp_strdup(ctx, b.s)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	return 0;
}

int pp_cli_save(struct pp_ctx *ctx, const struct pp_profile *p, const char *dir,
                char **path_out)
{
	struct pp_atomic_file af = {0};
	char *prefix = NULL, *base = NULL;
	uint8_t *data = NULL;
	size_t len = 0, dlen = strlen(dir), size;
	int err;

	*path_out = NULL;
	if ((err = pp_cli_save_prefix(ctx, p, &prefix)) < 0)
		goto done;
	size = dlen + strlen(prefix) + 2;
	if (!(base = pp_malloc(ctx, size))) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	snprintf(base, size, "%s%s%s", dir,
	         dlen > 0 && dir[dlen - 1] != '/' ? "/" : "", prefix);
	if ((err = pp_encode_proto_gzip(ctx, p, NULL, &data, &len)) < 0)
		goto done;
	if ((err = pp_atomic_open(ctx, base, &af)) < 0) {
		/* "BASE: reason" is about the directory: name it. */
		char reason[256];
		size_t blen = strlen(base);

		if (strncmp(ctx->message, base, blen) == 0 &&
		    strncmp(ctx->message + blen, ": ", 2) == 0) {
			snprintf(reason, sizeof(reason), "%s",
			         ctx->message + blen + 2);
			err = pp_error(ctx, err, "%s: %s", dir, reason);
		}
		goto done;
	}
	if (fwrite(data, 1, len, af.fp) != len) {
		err = pp_error(ctx, PP_EIO, "%s: %s", base,
		               strerror(errno ? errno : EIO));
		goto done;
	}
	err = pp_atomic_commit_numbered(ctx, &af, ".pb.gz", path_out);
done:
	if (af.fp)
		pp_atomic_abort(ctx, &af);
	pp_free(ctx, data);
	pp_free(ctx, prefix);
	pp_free(ctx, base);
	return err;
}
