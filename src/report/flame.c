/*
 * The flame graph: one self-contained SVG (no network, no external script)
 * laid out here from the calling-context tree, made interactive by the
 * small script in flame_script.c (hover details, click to zoom, search).
 *
 * Frames narrower than MIN_WIDTH pixels are not drawn one by one: the tiny
 * children of a frame are merged into one grey frame at the right end of
 * their parent, as flamegraph.pl leaves such frames out, so the file of a
 * big profile stays small enough to open and zoom.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/internal.h"
#include "util/goint.h"
#include "util/path.h"

#define WIDTH 1200.0
#define PAD 10.0
#define FRAME_H 16
#define TOP 68
#define BOTTOM 34
#define MIN_WIDTH 0.1

struct flame {
	struct pp_report *r;
	const struct pp_tree *t;
	FILE *out;
	bool diff;
	bool inverted;
	double scale;     /* pixels per unit of value */
	int64_t root;     /* the value of the whole graph */
	int64_t maxdelta; /* largest |new - base| of a frame, for colours */
	uint32_t height;
	const char *unit; /* -unit for the labels */
};

/* The width a frame gets: the new profile's value in a diff, where the
 * base's samples are negated and carried apart (pprof/tree.h). */
static int64_t frame_value(const struct flame *f, uint32_t n)
{
	int64_t v = f->t->nodes[n].total;

	if (f->diff)
		v += f->t->base_total[n];
	return v < 0 ? 0 : v;
}

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The package or module of a frame's name, the unit of its colour:
 * "compress/flate.(*compressor).write" -> "compress/flate",
 * "ns::Class::f" -> "ns", "main.f file.go:3" -> "main". */
static size_t package_len(const char *name)
{
	const char *end = name + strcspn(name, " ");
	const char *slash = NULL, *p;

	for (p = name; p < end; p++)
		if (*p == '/')
			slash = p;
	for (p = slash ? slash : name; p < end; p++) {
		if (*p == '.' || (*p == ':' && p[1] == ':'))
			return (size_t)(p - name);
		if (*p == '(' || *p == '<')
			break;
	}
	return (size_t)(end - name);
}

static void frame_colour(const struct flame *f, const struct pp_tree_node *n,
                         const char *name, char *buf, size_t size)
{
	if (f->diff) {
		/* flamegraph.pl's difffolded colours: red grew, blue shrank,
		 * the deeper the more. */
		int64_t delta = n->total;
		/* In double and clamped: a hostile profile's minimum int64
		 * has no positive absolute value. */
		double d = f->maxdelta ? 210.0 *
		                                 ((double)f->maxdelta -
		                                  (double)pp_go_abs64(delta)) /
		                                 (double)f->maxdelta
		                       : 210.0;
		int v = d > 0 ? (d < 210 ? (int)d : 210) : 0;

		if (delta > 0)
			snprintf(buf, size, "rgb(255,%d,%d)", v, v);
		else if (delta < 0)
			snprintf(buf, size, "rgb(%d,%d,255)", v, v);
		else
			snprintf(buf, size, "rgb(250,250,250)");
		return;
	}
	{
		/* The "hot" palette, picked by a stable hash of the package so
		 * that one package has one colour in every graph. */
		uint32_t h = fnv1a(name, package_len(name));

		snprintf(buf, size, "rgb(%u,%u,%u)", 205 + h % 50,
		         (h >> 8) % 230, (h >> 20) % 55);
	}
}

static void put_value(const struct flame *f, int64_t v)
{
	char buf[64], pct[32];
	const char *p = pct;

	pp_scaled_label(v, f->r->sample_unit, f->unit, buf, sizeof(buf));
	pp_percentage(v, f->root, pct, sizeof(pct));
	while (*p == ' ')
		p++;
	fprintf(f->out, "%s, %s", buf, p);
}

static double frame_y(const struct flame *f, uint32_t depth)
{
	if (f->inverted)
		return TOP + (double)depth * FRAME_H;
	return f->height - BOTTOM - (double)(depth + 1) * FRAME_H;
}

static void emit(const struct flame *f, const struct pp_tree_node *n,
                 const char *name, uint32_t depth, double x, double w,
                 int64_t value, uint32_t merged)
{
	char fill[32];

	if (merged)
		snprintf(fill, sizeof(fill), "rgb(200,200,200)");
	else
		frame_colour(f, n, name, fill, sizeof(fill));
	fprintf(f->out, "<g class=\"f\"%s><title>",
	        merged ? " data-m=\"1\"" : "");
	if (merged)
		fprintf(f->out, "%u small frames", merged);
	else
		pp_report__put_xml(f->out, name);
	fputs(" (", f->out);
	put_value(f, value);
	if (f->diff && !merged) {
		char d[64];

		pp_scaled_label(pp_go_abs64(n->total), f->r->sample_unit,
		                f->unit, d, sizeof(d));
		fprintf(f->out, "; %s%s vs base", n->total < 0 ? "-" : "+", d);
	}
	fprintf(f->out,
	        ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
	        "height=\"%d\" fill=\"%s\" rx=\"2\" ry=\"2\"/><text x=\"%.1f\" "
	        "y=\"%.0f\">",
	        x, frame_y(f, depth), w, FRAME_H - 1, fill, x + 3,
	        frame_y(f, depth) + FRAME_H - 4);
	if (merged)
		fputs("\xe2\x80\xa6", f->out); /* "…" */
	else
		pp_report__put_xml(f->out, name);
	fputs("</text></g>\n", f->out);
}

static void header(const struct flame *f)
{
	const struct pp_report *r = f->r;
	const struct pp_profile *p = r->prof;
	const char *title = f->inverted ? "Icicle Graph" : "Flame Graph";
	char total[64];

	pp_scaled_label(f->root, r->sample_unit, f->unit, total, sizeof(total));
	fprintf(f->out,
	        "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	        "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
	        "width=\"%.0f\" height=\"%u\" viewBox=\"0 0 %.0f %u\" "
	        "data-inverted=\"%d\" data-diff=\"%d\" data-total=\"%lld\">\n",
	        WIDTH, f->height, WIDTH, f->height, f->inverted ? 1 : 0,
	        f->diff ? 1 : 0, (long long)f->root);
	pp_report__put_lines(f->out, pp_report__flame_style);
	fprintf(f->out,
	        "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
	        "fill=\"#f8f8f8\"/>\n"
	        "<text id=\"title\" x=\"%.0f\" y=\"22\" "
	        "text-anchor=\"middle\">%s%s</text>\n",
	        WIDTH / 2, f->diff ? "Differential " : "", title);
	fputs("<text id=\"subtitle\" x=\"600\" y=\"40\" "
	      "text-anchor=\"middle\">",
	      f->out);
	if (p->nmappings > 0 && p->mappings[0].file) {
		fputs("File: ", f->out);
		pp_report__put_xml(f->out, pp_path_base(pp_profile_str(
		                                   p, p->mappings[0].file)));
		fputs(" \xc2\xb7 ", f->out);
	}
	fputs("Type: ", f->out);
	pp_report__put_xml(f->out, r->sample_type);
	fprintf(f->out, " \xc2\xb7 Total: %s", total);
	if (f->diff)
		fputs(" \xc2\xb7 red grew, blue shrank against the base",
		      f->out);
	fputs("</text>\n", f->out);
	fprintf(f->out,
	        "<text id=\"unzoom\" class=\"button hide\" x=\"%.0f\" "
	        "y=\"22\">Reset Zoom</text>\n"
	        "<text id=\"search\" class=\"button\" x=\"%.0f\" y=\"22\" "
	        "text-anchor=\"end\">Search</text>\n"
	        "<text id=\"matched\" x=\"%.0f\" y=\"%u\" "
	        "text-anchor=\"end\"></text>\n"
	        "<text id=\"details\" x=\"%.0f\" y=\"%u\"> </text>\n"
	        "<g id=\"frames\">\n",
	        PAD, WIDTH - PAD, WIDTH - PAD, f->height - 12, PAD,
	        f->height - 12);
}

static void footer(const struct flame *f)
{
	fputs("</g>\n", f->out);
	pp_report__put_lines(f->out, pp_report__flame_script);
	fputs("</svg>\n", f->out);
}

/* Over the tree in its depth-first order, skipping the subtrees of frames
 * not drawn. pos[d] is where the next frame at depth d starts; tiny[d] and
 * ntiny[d] collect the frames at depth d too narrow to draw, flushed as one
 * when their parent ends. */
static int layout(struct flame *f)
{
	const struct pp_tree *t = f->t;
	const struct pp_tree_node *nodes = t->nodes;
	size_t levels = (size_t)t->max_depth + 2;
	double *pos = NULL;
	int64_t *tiny = NULL;
	uint32_t *ntiny = NULL;
	uint32_t n;
	int err = 0;

	pos = pp_calloc(f->r->ctx, levels, sizeof(*pos));
	tiny = pp_calloc(f->r->ctx, levels, sizeof(*tiny));
	ntiny = pp_calloc(f->r->ctx, levels, sizeof(*ntiny));
	if (!pos || !tiny || !ntiny) {
		err = pp_error(f->r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	emit(f, &nodes[0], "all", 0, PAD, (double)f->root * f->scale, f->root,
	     0);
	pos[1] = PAD;
	n = 1;
	while (n < t->nnodes) {
		uint32_t d = nodes[n].depth, next = nodes[n].end, dnext;
		int64_t v = frame_value(f, n);
		double w = (double)v * f->scale;

		if (v > 0 && w < MIN_WIDTH) {
			tiny[d] += v;
			ntiny[d]++;
		} else if (v > 0) {
			emit(f, &nodes[n], pp_tree_name(t, n), d, pos[d], w, v,
			     0);
			pos[d + 1] = pos[d];
			tiny[d + 1] = 0;
			ntiny[d + 1] = 0;
			pos[d] += w;
			next = n + 1; /* its children, if any */
		}
		/* The frames between here and the next one drawn end: flush
		 * their levels' small frames, deepest first. */
		dnext = next < t->nnodes ? nodes[next].depth : 0;
		for (uint32_t level = d; level > dnext; level--) {
			double tw = (double)tiny[level] * f->scale;

			if (ntiny[level] && tw >= MIN_WIDTH)
				emit(f, NULL, "", level, pos[level], tw,
				     tiny[level], ntiny[level]);
			tiny[level] = 0;
			ntiny[level] = 0;
		}
		n = next;
	}
done:
	pp_free(f->r->ctx, pos);
	pp_free(f->r->ctx, tiny);
	pp_free(f->r->ctx, ntiny);
	return err;
}

int pp_report_flame(struct pp_report *r, FILE *out)
{
	struct flame f;
	int err;

	memset(&f, 0, sizeof(f));
	f.r = r;
	f.out = out;
	f.inverted = r->opts.inverted;
	f.unit = strcmp(r->opts.unit, "minimum") == 0 ? "auto" : r->opts.unit;
	if ((err = pp_report__tree(r, &f.t)) < 0)
		return err;
	f.diff = f.t->has_base;
	f.root = frame_value(&f, 0);
	for (uint32_t i = 1; f.diff && i < f.t->nnodes; i++)
		if (pp_go_abs64(f.t->nodes[i].total) > f.maxdelta)
			f.maxdelta = pp_go_abs64(f.t->nodes[i].total);
	f.scale = f.root > 0 ? (WIDTH - 2 * PAD) / (double)f.root : 0;
	f.height = TOP + BOTTOM + (f.t->max_depth + 1) * FRAME_H;
	header(&f);
	if ((err = layout(&f)) < 0)
		return err;
	footer(&f);
	return ferror(out) ? pp_error(r->ctx, PP_EIO, "write error") : 0;
}
