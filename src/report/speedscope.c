/*
 * speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): "sampled" profiles
 * whose samples are the distinct stacks of the calling-context tree, root
 * first, as indices into shared frames, with their values as weights.
 *
 * speedscope refuses a whole file in which one weight is negative
 * ("Samples must have positive weights") and skips zero weights. So a
 * profile with signed values is written as several profiles of positive
 * weights, which speedscope shows one at a time (its profile switcher):
 * with -diff_base, the new profile and the base, each with its own values;
 * with other negative stacks (-base), the positive stacks, then the
 * negative ones with their absolute values.
 */
#include <string.h>

#include "report/internal.h"
#include "util/path.h"

#ifndef PPROF_C_VERSION
#define PPROF_C_VERSION "0"
#endif

/* speedscope knows these units; anything else is "none" (counts). */
static const char *speedscope_unit(const char *unit)
{
	static const char *const known[] = {"nanoseconds", "microseconds",
	                                    "milliseconds", "seconds", "bytes"};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(unit, known[i]) == 0)
			return known[i];
	return "none";
}

static void put_frames(struct pp_report *r, const struct pp_tree *t,
                       const uint32_t *order, uint32_t nframes, FILE *out)
{
	const struct pp_profile *p = r->prof;

	fputs("\"shared\":{\"frames\":[", out);
	for (uint32_t i = 0; i < nframes; i++) {
		const struct pp_node *n = &t->graph->nodes[order[i]];

		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		pp_report_put_json_bytes(out, t->names + t->name_off[order[i]],
		                         pp_tree_frame_len(t, order[i]));
		if (n->info.file) {
			size_t len;
			const char *file =
			        pp_profile_strn(p, n->info.file, &len);

			fputs(",\"file\":", out);
			pp_report_put_json_bytes(out, file, len);
		}
		if (n->info.lineno > 0)
			fprintf(out, ",\"line\":%lld",
			        (long long)n->info.lineno);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

/* Which weights a written profile has. */
enum weights {
	W_POSITIVE, /* the stacks' values, where positive */
	W_NEW,      /* -diff_base: the new profile's own values */
	W_BASE,     /* -diff_base: the base's values, made positive */
	W_NEGATIVE, /* the absolute values of the negative stacks */
};

static int64_t weight_of(const struct pp_tree *t, uint32_t n, enum weights w)
{
	int64_t self = t->nodes[n].self, v;

	switch (w) {
	case W_NEW:
		v = (int64_t)((uint64_t)self + (uint64_t)t->base_self[n]);
		break;
	case W_BASE:
		v = t->base_self[n];
		break;
	case W_NEGATIVE:
		v = self < 0 && self != INT64_MIN ? -self : 0;
		break;
	default:
		v = self;
		break;
	}
	return v > 0 ? v : 0;
}

/* One "sampled" profile: its stacks with a positive weight. path has
 * room for max_depth + 1 frames. */
static void put_profile(struct pp_report *r, const struct pp_tree *t,
                        const uint32_t *frame_of, uint32_t *path,
                        enum weights w, const char *name,
                        struct pp_report__out *o)
{
	const struct pp_tree_node *nodes = t->nodes;
	uint64_t end = 0;
	uint32_t nstacks = 0;
	char unit[64];

	for (uint32_t n = 1; n < t->nnodes; n++)
		end += (uint64_t)weight_of(t, n, w);
	pp_report__out_str(o, "{\"type\":\"sampled\",\"name\":");
	pp_report__out_flush(o);
	pp_report_put_json_string(o->f, name);
	snprintf(unit, sizeof(unit), ",\"unit\":\"%s\",\"startValue\":0,",
	         speedscope_unit(r->sample_unit));
	pp_report__out_str(o, unit);
	pp_report__out_str(o, "\"endValue\":");
	pp_report__out_uint(o, end);
	pp_report__out_str(o, ",\n\"samples\":[");
	/* Depth-first (the tree's order): path[d] holds the frame of the
	 * current node at depth d, so each stack is written from the path,
	 * root first. */
	for (uint32_t n = 1; n < t->nnodes; n++) {
		uint32_t d = nodes[n].depth;

		path[d] = frame_of[nodes[n].frame];
		if (weight_of(t, n, w) == 0)
			continue;
		pp_report__out_str(o, nstacks++ ? ",\n[" : "\n[");
		for (uint32_t i = 1; i <= d; i++) {
			if (i > 1)
				pp_report__out_bytes(o, ",", 1);
			pp_report__out_uint(o, path[i]);
		}
		pp_report__out_bytes(o, "]", 1);
	}
	pp_report__out_str(o, "],\n\"weights\":[");
	nstacks = 0;
	for (uint32_t n = 1; n < t->nnodes; n++) {
		int64_t v = weight_of(t, n, w);

		if (v == 0)
			continue;
		if (nstacks)
			pp_report__out_str(o, nstacks % 16 ? "," : ",\n");
		else
			pp_report__out_bytes(o, "\n", 1);
		pp_report__out_int(o, v, 0);
		nstacks++;
	}
	pp_report__out_str(o, "]}");
}

int pp_report_speedscope(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	const struct pp_tree *t;
	const struct pp_tree_node *nodes;
	struct pp_report__out *o = NULL;
	uint32_t *frame_of = NULL, *order = NULL, *path = NULL, nframes = 0;
	bool negative = false;
	char name[512];
	int err;

	if ((err = pp_report__tree(r, &t)) < 0)
		return err;
	nodes = t->nodes;
	frame_of = pp_malloc(r->ctx, ((size_t)t->graph->nnodes + 1) *
	                                     sizeof(*frame_of));
	order = pp_malloc(r->ctx,
	                  ((size_t)t->graph->nnodes + 1) * sizeof(*order));
	path = pp_malloc(r->ctx, ((size_t)t->max_depth + 1) * sizeof(*path));
	o = pp_malloc(r->ctx, sizeof(*o));
	if (!frame_of || !order || !path || !o) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Number the frames in the order the stacks use them. */
	memset(frame_of, 0xff, (size_t)t->graph->nnodes * sizeof(*frame_of));
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t f = nodes[i].frame;

		if (frame_of[f] == PP_NONE) {
			frame_of[f] = nframes;
			order[nframes++] = f;
		}
		if (nodes[i].self < 0)
			negative = true;
	}
	fputs("{\"$schema\":"
	      "\"https://www.speedscope.app/file-format-schema.json\",\n",
	      out);
	put_frames(r, t, order, nframes, out);
	fputs("\"profiles\":[", out);
	fflush(out);
	o->f = out;
	o->n = 0;
	o->failed = false;
	if (t->has_base) {
		put_profile(r, t, frame_of, path, W_NEW, r->sample_type, o);
		snprintf(name, sizeof(name), "%s (base)", r->sample_type);
		pp_report__out_str(o, ",\n");
		put_profile(r, t, frame_of, path, W_BASE, name, o);
	} else {
		put_profile(r, t, frame_of, path, W_POSITIVE, r->sample_type,
		            o);
		if (negative) {
			snprintf(name, sizeof(name), "%s (negative)",
			         r->sample_type);
			pp_report__out_str(o, ",\n");
			put_profile(r, t, frame_of, path, W_NEGATIVE, name, o);
		}
	}
	pp_report__out_flush(o);
	fputs("],\n\"name\":", out);
	{
		/* "BINARY TYPE", the binary's name whole (NUL bytes too). */
		size_t len = 7, tl = strlen(r->sample_type);
		const char *base = "profile";
		char *text;

		if (p->nmappings && p->mappings[0].file)
			base = pp_path_base_n(
			        pp_profile_strn(p, p->mappings[0].file, &len),
			        &len);
		if (!(text = pp_malloc(r->ctx, len + tl + 2))) {
			err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		memcpy(text, base, len);
		text[len] = ' ';
		memcpy(text + len + 1, r->sample_type, tl);
		pp_report_put_json_bytes(out, text, len + 1 + tl);
		pp_free(r->ctx, text);
	}
	fputs(",\"activeProfileIndex\":0,\"exporter\":\"pprof-"
	      "c " PPROF_C_VERSION "\"}\n",
	      out);
	if (o->failed || ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_free(r->ctx, o);
	pp_free(r->ctx, frame_of);
	pp_free(r->ctx, order);
	pp_free(r->ctx, path);
	return err;
}
