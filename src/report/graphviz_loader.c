/*
 * graphviz's cgraph and gvc, loaded on the first picture (pprof/dynlib.h).
 *
 * Linked, libgvc and libcgraph and what they need (libcdt, libpathplan,
 * libexpat, libltdl) cost every run 0.54 MB of resident memory and their
 * relocation before main, and only svg, png, pdf, gif and ps (render.c)
 * use them. So pprof-c is compiled against graphviz's headers but not
 * linked with it: this file defines the graphviz functions render.c calls,
 * and forwards them to the libraries, opened by the first picture
 * (pp_report__graphviz_load, which render.c calls first so that a missing
 * library is a clear error). graphviz's own plugins (layout, the SVG and
 * cairo renderers) are opened by graphviz itself, as before.
 */
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>
#include <stddef.h>

#include "pprof/dynlib.h"
#include "report/internal.h"

/* Every cgraph and gvc function pprof-c calls: name, return type,
 * parameters. One missing here fails the link. */
#define PP_CGRAPH_FUNCTIONS(X)                        \
	X(agmemread, Agraph_t *, (const char *cp))    \
	X(agclose, int, (Agraph_t * g))               \
	X(agseterr, agerrlevel_t, (agerrlevel_t lvl)) \
	X(aglasterr, char *, (void))
#define PP_GVC_FUNCTIONS(X)                                              \
	X(gvContext, GVC_t *, (void))                                    \
	X(gvFreeContext, int, (GVC_t * gvc))                             \
	X(gvLayout, int, (GVC_t * gvc, graph_t * g, const char *engine)) \
	X(gvFreeLayout, int, (GVC_t * gvc, graph_t * g))                 \
	X(gvRenderData, int,                                             \
	  (GVC_t * gvc, graph_t * g, const char *format, char **result,  \
	   unsigned int *length))                                        \
	X(gvFreeRenderData, void, (char *data))

enum { PP_CGRAPH_FUNCTIONS(PP_DYNLIB_INDEX) CGRAPH_COUNT };
enum { PP_GVC_FUNCTIONS(PP_DYNLIB_INDEX) GVC_COUNT };
PP_CGRAPH_FUNCTIONS(PP_DYNLIB_TYPEDEF)
PP_GVC_FUNCTIONS(PP_DYNLIB_TYPEDEF)

/* Debian 12's libcgraph6 and libgvc6 (graphviz 2.42). */
static const char *const cgraph_sonames[] = {"libcgraph.so.6", NULL};
static const char *const gvc_sonames[] = {"libgvc.so.6", NULL};
static const char *const cgraph_names[] = {PP_CGRAPH_FUNCTIONS(PP_DYNLIB_NAME)
                                                   NULL};
static const char *const gvc_names[] = {PP_GVC_FUNCTIONS(PP_DYNLIB_NAME) NULL};
/* The process-wide tables, filled once. */
static pp_dynlib_fn cgraph_fns[CGRAPH_COUNT];
static pp_dynlib_fn gvc_fns[GVC_COUNT];
static struct pp_dynlib cgraph_lib =
        PP_DYNLIB_INIT(cgraph_sonames, cgraph_names, cgraph_fns);
static struct pp_dynlib gvc_lib =
        PP_DYNLIB_INIT(gvc_sonames, gvc_names, gvc_fns);

#define AG(name) PP_DYNLIB_CALL(cgraph_fns, name)
#define GV(name) PP_DYNLIB_CALL(gvc_fns, name)

const char *pp_report__graphviz_load(void)
{
	/* cgraph first: gvc needs it (and would name it when missing). */
	if (!pp_dynlib_load(&cgraph_lib))
		return pp_dynlib_error(&cgraph_lib);
	if (!pp_dynlib_load(&gvc_lib))
		return pp_dynlib_error(&gvc_lib);
	return NULL;
}

static bool cgraph(void)
{
	return pp_dynlib_load(&cgraph_lib);
}

static bool gvc(void)
{
	return pp_dynlib_load(&gvc_lib);
}

/* ---- the entry points ----------------------------------------------------
 * Each makes sure its library is loaded (after the first call, one atomic
 * load) and without it fails as graphviz fails, with NULL or -1. */

Agraph_t *agmemread(const char *cp)
{
	return cgraph() ? AG(agmemread)(cp) : NULL;
}

int agclose(Agraph_t *g)
{
	return g && cgraph() ? AG(agclose)(g) : -1;
}

agerrlevel_t agseterr(agerrlevel_t lvl)
{
	return cgraph() ? AG(agseterr)(lvl) : lvl;
}

char *aglasterr(void)
{
	return cgraph() ? AG(aglasterr)() : NULL;
}

GVC_t *gvContext(void)
{
	return gvc() ? GV(gvContext)() : NULL;
}

int gvFreeContext(GVC_t *gvc_ctx)
{
	return gvc_ctx && gvc() ? GV(gvFreeContext)(gvc_ctx) : -1;
}

int gvLayout(GVC_t *gvc_ctx, graph_t *g, const char *engine)
{
	return gvc() ? GV(gvLayout)(gvc_ctx, g, engine) : -1;
}

int gvFreeLayout(GVC_t *gvc_ctx, graph_t *g)
{
	return gvc() ? GV(gvFreeLayout)(gvc_ctx, g) : -1;
}

int gvRenderData(GVC_t *gvc_ctx, graph_t *g, const char *format, char **result,
                 unsigned int *length)
{
	return gvc() ? GV(gvRenderData)(gvc_ctx, g, format, result, length)
	             : -1;
}

void gvFreeRenderData(char *data)
{
	if (data && gvc())
		GV(gvFreeRenderData)(data);
}
