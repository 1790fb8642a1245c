/*
 * speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json): one "sampled" profile
 * whose samples are the distinct stacks of the calling-context tree, root
 * first, as indices into shared frames, with their values as weights.
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
		pp_report__put_json(out, t->names + t->name_off[order[i]]);
		if (n->info.file) {
			fputs(",\"file\":", out);
			pp_report__put_json(out,
			                    pp_profile_str(p, n->info.file));
		}
		if (n->info.lineno > 0)
			fprintf(out, ",\"line\":%lld",
			        (long long)n->info.lineno);
		fputc('}', out);
	}
	fputs("]},\n", out);
}

int pp_report_speedscope(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	const struct pp_tree *t;
	const struct pp_tree_node *nodes;
	struct pp_report__out *o = NULL;
	uint32_t *frame_of = NULL, *order = NULL, *path = NULL, nframes = 0;
	uint32_t n, nstacks = 0;
	int64_t end = 0;
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
	/* Number the frames in the order stacks first use them. */
	memset(frame_of, 0xff, (size_t)t->graph->nnodes * sizeof(*frame_of));
	for (uint32_t i = 1; i < t->nnodes; i++) {
		uint32_t f = nodes[i].frame;

		if (frame_of[f] == PP_NONE) {
			frame_of[f] = nframes;
			order[nframes++] = f;
		}
		if (nodes[i].self > 0) {
			nstacks++;
			end += nodes[i].self;
		}
	}
	fputs("{\"$schema\":"
	      "\"https://www.speedscope.app/file-format-schema.json\",\n",
	      out);
	put_frames(r, t, order, nframes, out);
	fputs("\"profiles\":[{\"type\":\"sampled\",\"name\":", out);
	pp_report__put_json(out, r->sample_type);
	fprintf(out,
	        ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%lld,\n"
	        "\"samples\":[",
	        speedscope_unit(r->sample_unit), (long long)end);
	/* Depth-first (the tree's order): path[d] holds the frame of the
	 * current node at depth d, so each stack is written from the path,
	 * root first. Weights must not be negative, so a diff's shrunk
	 * stacks are left out. */
	fflush(out);
	o->f = out;
	o->n = 0;
	o->failed = false;
	nstacks = 0;
	for (n = 1; n < t->nnodes; n++) {
		uint32_t d = nodes[n].depth;

		path[d] = frame_of[nodes[n].frame];
		if (nodes[n].self > 0) {
			if (nstacks++)
				pp_report__out_bytes(o, ",\n[", 3);
			else
				pp_report__out_bytes(o, "\n[", 2);
			for (uint32_t i = 1; i <= d; i++) {
				if (i > 1)
					pp_report__out_bytes(o, ",", 1);
				pp_report__out_uint(o, path[i]);
			}
			pp_report__out_bytes(o, "]", 1);
		}
	}
	pp_report__out_str(o, "],\n\"weights\":[");
	nstacks = 0;
	for (n = 1; n < t->nnodes; n++) {
		if (nodes[n].self <= 0)
			continue;
		if (nstacks)
			pp_report__out_str(o, nstacks % 16 ? "," : ",\n");
		else
			pp_report__out_bytes(o, "\n", 1);
		pp_report__out_int(o, nodes[n].self, 0);
		nstacks++;
	}
	pp_report__out_flush(o);
	fputs("]}],\n\"name\":", out);
	{
		char name[512];

		snprintf(name, sizeof(name), "%s %s",
		         p->nmappings && p->mappings[0].file
		                 ? pp_path_base(pp_profile_str(
		                           p, p->mappings[0].file))
		                 : "profile",
		         r->sample_type);
		pp_report__put_json(out, name);
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
