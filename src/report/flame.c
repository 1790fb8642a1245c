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

/* The width frames are laid out at; the script stretches them to the
 * window's width when the file is opened (width 100%). */
#define WIDTH 1200.0
#define PAD 10.0
#define FRAME_H 16
#define TOP 68
#define BOTTOM 34
#define MIN_WIDTH 0.1

enum palette {
	PAL_PACKAGE,
	PAL_HOT,
	PAL_MEM,
	PAL_IO,
	PAL_RED,
	PAL_GREEN,
	PAL_BLUE,
	PAL_YELLOW,
	PAL_PURPLE,
	PAL_AQUA,
	PAL_ORANGE,
	PAL_JAVA,
	PAL_JS,
	PAL_PERL,
};

/* -colors names, in enum palette's order. */
static const char *const palette_names[] = {
        "package", "hot",    "mem",  "io",     "red",  "green", "blue",
        "yellow",  "purple", "aqua", "orange", "java", "js",    "perl",
};

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
	double width;     /* of the picture, pixels */
	double minwidth;  /* narrower frames are merged */
	enum palette palette;
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
static size_t package_len(const char *name, size_t len)
{
	const char *sp = memchr(name, ' ', len);
	const char *end = sp ? sp : name + len;
	const char *slash = NULL, *p;

	for (p = name; p < end; p++)
		if (*p == '/')
			slash = p;
	for (p = slash ? slash : name; p < end; p++) {
		if (*p == '.' || (*p == ':' && p + 1 < end && p[1] == ':'))
			return (size_t)(p - name);
		if (*p == '(' || *p == '<')
			break;
	}
	return (size_t)(end - name);
}

/* Does name (n bytes) end with suffix? */
static bool ends_with(const char *name, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(name + n - k, suffix, k) == 0;
}

/* Does name (n bytes) hold needle anywhere? Searched with the length:
 * a name may hold NUL bytes, and the bytes after one are still its own. */
static bool contains(const char *name, size_t n, const char *needle)
{
	size_t k = strlen(needle);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(name + i, needle, k) == 0)
			return true;
	return false;
}

/* flamegraph.pl's kinds of frame for java, js and perl, as the palette
 * a frame takes: JIT-compiled and the language's own code green, inlined
 * aqua, kernel orange, C++ yellow, the rest (native) red. */
static enum palette frame_kind(enum palette p, const char *name, size_t len)
{
	static const char *const java_pkgs[] = {"java", "javax", "jdk", "net",
	                                        "org",  "com",   "io",  "sun"};

	if (ends_with(name, len, "_[k]"))
		return PAL_ORANGE;
	if (ends_with(name, len, "_[i]"))
		return PAL_AQUA;
	if (ends_with(name, len, "_[j]"))
		return PAL_GREEN;
	switch (p) {
	case PAL_JAVA:
		for (size_t i = 0; i < sizeof(java_pkgs) / sizeof(*java_pkgs);
		     i++) {
			size_t n = strlen(java_pkgs[i]), skip;
			const char *s;

			skip = len > 0 && name[0] == 'L';
			s = name + skip;
			if (len - skip > n && memcmp(s, java_pkgs[i], n) == 0 &&
			    (s[n] == '/' || s[n] == '.'))
				return PAL_GREEN;
		}
		break;
	case PAL_JS:
		if (contains(name, len, ".js") || contains(name, len, ".ts") ||
		    memchr(name, '/', len))
			return PAL_GREEN;
		break;
	case PAL_PERL:
		if (contains(name, len, "Perl") || contains(name, len, ".pl"))
			return PAL_GREEN;
		break;
	default:
		break;
	}
	for (size_t i = 0; i + 1 < len; i++)
		if (name[i] == ':' && name[i + 1] == ':')
			return PAL_YELLOW;
	return PAL_RED;
}

/* A colour of palette p for a frame named name: three numbers in [0, 1]
 * from a hash of the name, so a function has one colour in every graph
 * and run. The ranges are flamegraph.pl's. */
static void palette_colour(enum palette p, const char *name, size_t len,
                           int rgb[3])
{
	uint32_t h = fnv1a(name, len);
	double v1 = (h & 0xff) / 255.0, v2 = (h >> 8 & 0xff) / 255.0,
	       v3 = (h >> 16 & 0xff) / 255.0;
	int r, g, b;

	if (p == PAL_JAVA || p == PAL_JS || p == PAL_PERL)
		p = frame_kind(p, name, len);
	switch (p) {
	case PAL_MEM:
		r = 0, g = 190 + (int)(50 * v2), b = (int)(210 * v1);
		break;
	case PAL_IO:
		r = g = 80 + (int)(60 * v1), b = 190 + (int)(55 * v2);
		break;
	case PAL_RED:
		r = 200 + (int)(55 * v1), g = b = 50 + (int)(80 * v1);
		break;
	case PAL_GREEN:
		g = 200 + (int)(55 * v1), r = b = 50 + (int)(60 * v1);
		break;
	case PAL_BLUE:
		r = g = 80 + (int)(60 * v1), b = 205 + (int)(50 * v1);
		break;
	case PAL_YELLOW:
		r = g = 175 + (int)(55 * v1), b = 50 + (int)(20 * v1);
		break;
	case PAL_PURPLE:
		r = b = 190 + (int)(65 * v1), g = 80 + (int)(60 * v1);
		break;
	case PAL_AQUA:
		r = 50 + (int)(60 * v1), g = b = 165 + (int)(55 * v1);
		break;
	case PAL_ORANGE:
		r = 190 + (int)(65 * v1), g = 90 + (int)(65 * v1), b = 0;
		break;
	default: /* hot */
		r = 205 + (int)(50 * v3), g = (int)(230 * v1),
		b = (int)(55 * v2);
		break;
	}
	rgb[0] = r;
	rgb[1] = g;
	rgb[2] = b;
}

/* The colour of a frame named by the len bytes at name: hashed whole, so
 * names that differ after a NUL byte take their own colours. */
static void frame_colour(const struct flame *f, const struct pp_tree_node *n,
                         const char *name, size_t len, int rgb[3])
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

		rgb[0] = delta < 0 ? v : delta > 0 ? 255 : 250;
		rgb[1] = delta ? v : 250;
		rgb[2] = delta > 0 ? v : delta < 0 ? 255 : 250;
		return;
	}
	if (f->palette != PAL_PACKAGE) {
		palette_colour(f->palette, name, len, rgb);
		return;
	}
	{
		/* The "hot" palette, picked by a stable hash of the package so
		 * that one package has one colour in every graph. */
		uint32_t h = fnv1a(name, package_len(name, len));

		rgb[0] = (int)(205 + h % 50);
		rgb[1] = (int)((h >> 8) % 230);
		rgb[2] = (int)((h >> 20) % 55);
	}
}

static double linear(int c)
{
	double v = c / 255.0;

	return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

/* Does white text read better than black on this colour? By WCAG's
 * contrast of relative luminances: a diff's saturated blue takes white. */
static bool wants_white_text(const int rgb[3])
{
	double l = 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) +
	           0.0722 * linear(rgb[2]);

	return 1.05 / (l + 0.05) > (l + 0.05) / 0.05;
}

/* v in the flame graph's unit, escaped; the profile's unit is compared
 * whole, and a unit -unit names is printed whole at any length. */
static void put_label(const struct flame *f, int64_t v)
{
	char num[PP_LABEL_NUM_MAX];
	const char *unit;
	size_t n, unit_len;

	n = pp_scaled_label_parts(v, f->r->sample_unit, f->r->sample_unit_len,
	                          f->unit, strlen(f->unit), num, sizeof(num),
	                          &unit, &unit_len);
	pp_report__put_xml_n(f->out, num, n);
	pp_report__put_xml_n(f->out, unit, unit_len);
}

static void put_value(const struct flame *f, int64_t v)
{
	char pct[32];
	const char *p = pct;

	put_label(f, v);
	pp_percentage(v, f->root, pct, sizeof(pct));
	while (*p == ' ')
		p++;
	fprintf(f->out, ", %s", p);
}

static double frame_y(const struct flame *f, uint32_t depth)
{
	if (f->inverted)
		return TOP + (double)depth * FRAME_H;
	return f->height - BOTTOM - (double)(depth + 1) * FRAME_H;
}

static void emit(const struct flame *f, const struct pp_tree_node *n,
                 const char *name, size_t name_len, uint32_t depth, double x,
                 double w, int64_t value, uint32_t merged)
{
	int rgb[3] = {200, 200, 200};

	if (!merged)
		frame_colour(f, n, name, name_len, rgb);
	fprintf(f->out, "<g class=\"f\"%s><title>",
	        merged ? " data-m=\"1\"" : "");
	if (merged)
		fprintf(f->out, "%u small frames", merged);
	else
		pp_report__put_xml_n(f->out, name, name_len);
	fputs(" (", f->out);
	put_value(f, value);
	if (f->diff && !merged) {
		fprintf(f->out, "; %s", n->total < 0 ? "-" : "+");
		put_label(f, pp_go_abs64(n->total));
		fputs(" vs base", f->out);
	}
	fprintf(f->out,
	        ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" "
	        "height=\"%d\" fill=\"rgb(%d,%d,%d)\" rx=\"2\" ry=\"2\"/>"
	        "<text%s x=\"%.1f\" y=\"%.0f\">",
	        x, frame_y(f, depth), w, FRAME_H - 1, rgb[0], rgb[1], rgb[2],
	        wants_white_text(rgb) ? " class=\"w\"" : "", x + 3,
	        frame_y(f, depth) + FRAME_H - 4);
	if (merged)
		fputs("\xe2\x80\xa6", f->out); /* "…" */
	else
		pp_report__put_xml_n(f->out, name, name_len);
	fputs("</text></g>\n", f->out);
}

static void header(const struct flame *f)
{
	const struct pp_report *r = f->r;
	const struct pp_profile *p = r->prof;
	const char *title = f->inverted ? "Icicle Graph" : "Flame Graph";

	if (r->opts.flame.reverse)
		title = f->inverted ? "Reversed Icicle Graph"
		                    : "Reversed Flame Graph";
	char width[32];

	/* As wide as the window, unless -width names the pixels. */
	if (r->opts.flame.width)
		snprintf(width, sizeof(width), "%.0f", f->width);
	else
		snprintf(width, sizeof(width), "100%%");

	fprintf(f->out,
	        "<?xml version=\"1.0\" standalone=\"no\"?>\n"
	        "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
	        "width=\"%s\" height=\"%u\" viewBox=\"0 0 %.0f %u\" "
	        "data-inverted=\"%d\" data-diff=\"%d\" data-total=\"%lld\">\n",
	        width, f->height, f->width, f->height, f->inverted ? 1 : 0,
	        f->diff ? 1 : 0, (long long)f->root);
	pp_report__put_lines(f->out, pp_report__flame_style);
	fprintf(f->out,
	        "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
	        "fill=\"#f8f8f8\"/>\n"
	        "<text id=\"title\" x=\"%.0f\" y=\"22\" "
	        "text-anchor=\"middle\">",
	        f->width / 2);
	if (r->opts.flame.title) {
		pp_report__put_xml(f->out, r->opts.flame.title);
	} else {
		fputs(f->diff ? "Differential " : "", f->out);
		fputs(title, f->out);
	}
	fprintf(f->out,
	        "</text>\n<text id=\"subtitle\" x=\"%.0f\" y=\"40\" "
	        "text-anchor=\"middle\">",
	        f->width / 2);
	if (p->nmappings > 0 && p->mappings[0].file) {
		fputs("File: ", f->out);
		size_t len;
		const char *base = pp_path_base_n(
		        pp_profile_strn(p, p->mappings[0].file, &len), &len);

		pp_report__put_xml_n(f->out, base, len);
		fputs(" \xc2\xb7 ", f->out);
	}
	fputs("Type: ", f->out);
	pp_report__put_xml(f->out, r->sample_type);
	fputs(" \xc2\xb7 Total: ", f->out);
	put_label(f, f->root);
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
	        PAD, f->width - PAD, f->width - PAD, f->height - 12, PAD,
	        f->height - 12);
}

static void footer(const struct flame *f)
{
	fputs("</g>\n", f->out);
	pp_report__put_lines(f->out, pp_report__flame_script);
	fputs("</svg>\n", f->out);
}

/* Where layout is: per depth d, where the next frame at d starts
 * (pos), the frames at d too narrow to draw so far (tiny, ntiny: flushed
 * as one when their parent ends) and the last frame drawn at d (drawn:
 * the parent of the frames at d + 1). */
struct levels {
	double *pos;
	int64_t *tiny;
	uint32_t *ntiny;
	uint32_t *drawn;
};

/* The frames at depth level end: their small ones as one, with those a
 * cut tree left out under the same parent. */
static void flush_level(struct flame *f, struct levels *lv, uint32_t level)
{
	const struct pp_tree *t = f->t;
	int64_t v = lv->tiny[level];
	uint32_t count = lv->ntiny[level];
	double w;

	if (t->cut_value) {
		v += t->cut_value[lv->drawn[level - 1]];
		count += t->cut_count[lv->drawn[level - 1]];
	}
	w = (double)v * f->scale;
	if (count && w >= f->minwidth)
		emit(f, NULL, "", 0, level, lv->pos[level], w, v, count);
	lv->tiny[level] = 0;
	lv->ntiny[level] = 0;
}

/* Over the tree in its depth-first order, skipping the subtrees of frames
 * not drawn. */
static int layout(struct flame *f)
{
	const struct pp_tree *t = f->t;
	const struct pp_tree_node *nodes = t->nodes;
	size_t levels = (size_t)(t->cut ? t->whole_depth : t->max_depth) + 2;
	struct levels lv;
	uint32_t n;
	size_t turn = 0;
	int err = 0;

	lv.pos = pp_calloc(f->r->ctx, levels, sizeof(*lv.pos));
	lv.tiny = pp_calloc(f->r->ctx, levels, sizeof(*lv.tiny));
	lv.ntiny = pp_calloc(f->r->ctx, levels, sizeof(*lv.ntiny));
	lv.drawn = pp_calloc(f->r->ctx, levels, sizeof(*lv.drawn));
	if (!lv.pos || !lv.tiny || !lv.ntiny || !lv.drawn) {
		err = pp_error(f->r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	emit(f, &nodes[0], "all", 3, 0, PAD, (double)f->root * f->scale,
	     f->root, 0);
	lv.pos[1] = PAD;
	n = 1;
	while (n < t->nnodes) {
		uint32_t d = nodes[n].depth, next = nodes[n].end, dnext;
		uint32_t ending = d; /* the deepest level that may end here */
		int64_t v = frame_value(f, n);
		double w = (double)v * f->scale;

		if ((err = pp_interrupt_poll(f->r->ctx, ++turn)) < 0)
			goto done;
		if (v > 0 && w < f->minwidth) {
			lv.tiny[d] += v;
			lv.ntiny[d]++;
		} else if (v > 0) {
			emit(f, &nodes[n], pp_tree_name(t, n),
			     pp_tree_name_len(t, n), d, lv.pos[d], w, v, 0);
			lv.pos[d + 1] = lv.pos[d];
			lv.tiny[d + 1] = 0;
			lv.ntiny[d + 1] = 0;
			lv.drawn[d] = n;
			lv.pos[d] += w;
			next = n + 1; /* its children, if any */
			/* Without children built, those a cut tree left
			 * out end with it. */
			ending = d + 1;
		}
		/* The frames between here and the next one drawn end: flush
		 * their levels' small frames, deepest first. */
		dnext = next < t->nnodes ? nodes[next].depth : 0;
		for (uint32_t level = ending; level > dnext; level--)
			flush_level(f, &lv, level);
		n = next;
	}
	/* A cut tree of the root alone: its children were all left out. */
	if (t->nnodes == 1)
		flush_level(f, &lv, 1);
done:
	pp_free(f->r->ctx, lv.pos);
	pp_free(f->r->ctx, lv.tiny);
	pp_free(f->r->ctx, lv.ntiny);
	pp_free(f->r->ctx, lv.drawn);
	return err;
}

/*
 * The tree to draw. Unless the whole tree is built already, only its top:
 * subtrees under half the width a frame needs to be drawn are left out
 * (pp_tree_new_cut), as every frame in them would be merged into its
 * level's "small frames" box, whose value and count the cut tree keeps
 * per parent. On the large bench profile the whole tree has 8.8 M nodes,
 * a few thousand of which are drawn.
 */
static int flame_tree(struct flame *f, const struct pp_tree **out)
{
	struct pp_report *r = f->r;
	double share = f->minwidth / (f->width - 2 * PAD) / 2;
	int err;

	if (!r->agg->tree && share > 0) {
		if (!r->agg->cut && (err = pp_report_flame_cut(r, share)) < 0)
			return err;
		if (r->agg->cut && r->agg->cut_share <= share) {
			*out = r->agg->cut;
			return 0;
		}
	}
	return pp_report__tree(r, out);
}

/* The flame options checked and made pixels and a palette. */
static int flame_opts(struct flame *f)
{
	const struct pp_flame_opts *o = &f->r->opts.flame;
	size_t i, n = sizeof(palette_names) / sizeof(*palette_names);

	f->width = o->width ? o->width : WIDTH;
	if (o->width && (o->width < 100 || o->width > 100000))
		return pp_error(f->r->ctx, PP_EUSAGE,
		                "-width=%d: a flame graph is 100 to 100000 "
		                "pixels wide",
		                o->width);
	f->minwidth = o->minwidth > 0 ? o->minwidth
	                              : (o->minwidth < 0 ? 0 : MIN_WIDTH);
	f->palette = PAL_PACKAGE;
	if (o->colors && o->colors[0]) {
		for (i = 0; i < n && strcmp(o->colors, palette_names[i]); i++)
			;
		if (i == n)
			return pp_error(
			        f->r->ctx, PP_EUSAGE,
			        "-colors=%s: no such palette (package, "
			        "hot, mem, io, red, green, blue, yellow, "
			        "purple, aqua, orange, java, js, perl)",
			        o->colors);
		f->palette = (enum palette)i;
	}
	return 0;
}

int pp_report_flame(struct pp_report *r, FILE *out)
{
	struct flame f;
	struct pp_tree *own = NULL;
	int err;

	memset(&f, 0, sizeof(f));
	f.r = r;
	f.out = out;
	f.inverted = r->opts.inverted;
	f.unit = strcmp(r->opts.unit, "minimum") == 0 ? "auto" : r->opts.unit;
	if ((err = flame_opts(&f)) < 0)
		return err;
	if (r->opts.flame.reverse) {
		/* A tree of its own, read leaf first; not cached, as no
		 * other report wants it. */
		struct pp_graph_opts go = {0};

		go.sample_index = r->sample_index;
		go.granularity = r->opts.granularity;
		go.noinlines = r->opts.noinlines;
		r->agg->builds++;
		if ((err = pp_tree_new_reversed(r->ctx, r->prof, &go, &own)) <
		    0)
			return err;
		f.t = own;
	} else if ((err = flame_tree(&f, &f.t)) < 0) {
		return err;
	}
	f.diff = f.t->has_base;
	f.root = frame_value(&f, 0);
	for (uint32_t i = 1; f.diff && i < f.t->nnodes; i++)
		if (pp_go_abs64(f.t->nodes[i].total) > f.maxdelta)
			f.maxdelta = pp_go_abs64(f.t->nodes[i].total);
	f.scale = f.root > 0 ? (f.width - 2 * PAD) / (double)f.root : 0;
	f.height =
	        TOP + BOTTOM +
	        ((f.t->cut ? f.t->whole_depth : f.t->max_depth) + 1) * FRAME_H;
	header(&f);
	if ((err = layout(&f)) < 0)
		goto done;
	footer(&f);
	if (ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_tree_free(own);
	return err;
}
