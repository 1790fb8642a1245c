/*
 * svg, png, pdf, gif and ps: the DOT call graph laid out and drawn in process
 * by graphviz's cgraph and gvc libraries, with no `dot` subprocess. The SVG
 * gets a small inline pan/zoom script (panzoom_script.c), its drawing
 * wrapped in a g#viewport that the script transforms, and a size of 100%
 * so it fills a browser window.
 */
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "report/internal.h"

/* Write graphviz's SVG with the viewport group and the script added. */
static void put_svg(const char *svg, size_t len, FILE *out)
{
	const char *open = strstr(svg, "<svg");
	const char *open_end = open ? strchr(open, '>') : NULL;
	const char *close = NULL;

	for (const char *p = svg; (p = strstr(p, "</svg>")); p++)
		close = p;
	if (!open || !open_end || !close || close < open_end) {
		fwrite(svg, 1, len, out);
		return;
	}
	fwrite(svg, 1, (size_t)(open - svg), out);
	/* The opening tag, with width and height made 100%: the viewBox
	 * keeps the drawing's proportions. */
	for (const char *p = open; p <= open_end;) {
		if ((strncmp(p, " width=\"", 8) == 0 ||
		     strncmp(p, " height=\"", 9) == 0)) {
			const char *q = strchr(p, '=') + 2;
			const char *end = strchr(q, '"');

			if (end && end < open_end) {
				fwrite(p, 1, (size_t)(q - p), out);
				fputs("100%\"", out);
				p = end + 1;
				continue;
			}
		}
		fputc(*p++, out);
	}
	fputs("\n<g id=\"viewport\">", out);
	fwrite(open_end + 1, 1, (size_t)(close - open_end - 1), out);
	fputs("</g>\n", out);
	pp_report__put_lines(out, pp_report__panzoom_script);
	fputs(close, out);
}

/*
 * Pictures drawn through one renderer share one graphviz context, made at
 * the first picture (starting graphviz loads its plugins: a run without
 * pictures does not pay for it) and kept until pp_renderer_free: graphviz
 * 2.42 cannot draw with a second context once one has been freed (its
 * pango plugin keeps, in a static variable, a pointer to the last font
 * name, which lives in the freed context: ASan's heap-use-after-free on the
 * second picture of a shell session).
 */
struct pp_renderer {
	struct pp_ctx *ctx;
	GVC_t *gvc; /* NULL until the first picture */
};

int pp_renderer_new(struct pp_ctx *ctx, struct pp_renderer **out)
{
	*out = pp_calloc(ctx, 1, sizeof(**out));
	if (!*out)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	(*out)->ctx = ctx;
	return 0;
}

void pp_renderer_free(struct pp_renderer *rd)
{
	if (!rd)
		return;
	if (rd->gvc)
		gvFreeContext(rd->gvc);
	pp_free(rd->ctx, rd);
}

static GVC_t *graphviz_context(struct pp_renderer *rd)
{
	if (!rd->gvc)
		rd->gvc = gvContext();
	return rd->gvc;
}

int pp_report_render(struct pp_report *r, const char *format, FILE *out)
{
	char *dot = NULL, *data = NULL;
	const char *why;
	size_t dot_len = 0;
	unsigned int len = 0;
	GVC_t *gvc = NULL;
	Agraph_t *g = NULL;
	bool laid_out = false;
	FILE *mem;
	int err;

	if (strcmp(format, "svg") != 0 && strcmp(format, "png") != 0 &&
	    strcmp(format, "pdf") != 0 && strcmp(format, "gif") != 0 &&
	    strcmp(format, "ps") != 0)
		return pp_error(r->ctx, PP_EUSAGE, "unknown picture format %s",
		                format);
	if (!r->ctx->renderer)
		return pp_error(r->ctx, PP_EUNSUPPORTED,
		                "graphviz: no renderer (pp_ctx.renderer)");
	/* graphviz is opened here, by the first picture of the run
	 * (graphviz_loader.c). */
	if ((why = pp_report__graphviz_load()))
		return pp_error(r->ctx, PP_EUNSUPPORTED, "%s needs %s", format,
		                why);
	/* graphviz's layout of a big graph takes seconds, in one call: the
	 * front end shows the time it takes. */
	pp_progress(r->ctx, "drawing the call graph", NULL, 0, 0);
	mem = open_memstream(&dot, &dot_len);
	if (!mem) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	err = pp_report_dot(r, mem);
	if (fclose(mem) != 0 && err >= 0)
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if (err < 0)
		goto done;
	/* graphviz reports errors on stderr unless told otherwise; we
	 * collect them as our own message instead. */
	agseterr(AGMAX);
	gvc = graphviz_context(r->ctx->renderer);
	if (!gvc) {
		err = pp_error(r->ctx, PP_ENOMEM, "graphviz: cannot start");
		goto done;
	}
	g = agmemread(dot);
	if (!g) {
		char *why = aglasterr();

		err = pp_error(r->ctx, PP_EFORMAT, "graphviz: %s",
		               why ? why : "cannot read the graph");
		free(why);
		goto done;
	}
	/* graphviz's layout is one call that cannot be interrupted: a
	 * Ctrl-C in the shell (pp_ctx.interrupt) stops the report only when
	 * it returns, before rendering. Its time grows with the node count
	 * (nodecount), not with the profile's size. */
	if (gvLayout(gvc, g, "dot") != 0) {
		err = pp_error(r->ctx, PP_EUNSUPPORTED,
		               "graphviz: no dot layout engine");
		goto done;
	}
	laid_out = true;
	if (pp_interrupted(r->ctx)) {
		err = pp_error_interrupted(r->ctx);
		goto done;
	}
	if (gvRenderData(gvc, g, format, &data, &len) != 0 || !data) {
		err = pp_error(r->ctx, PP_EUNSUPPORTED,
		               "graphviz: cannot render %s", format);
		goto done;
	}
	if (strcmp(format, "svg") == 0)
		put_svg(data, len, out);
	else
		fwrite(data, 1, len, out);
	if (ferror(out))
		err = pp_error(r->ctx, PP_EIO, "write error");
done:
	pp_progress_done(r->ctx);
	if (data)
		gvFreeRenderData(data);
	if (laid_out)
		gvFreeLayout(gvc, g);
	if (g)
		agclose(g);
	free(dot);
	return err;
}
