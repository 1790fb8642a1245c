#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "html.h"

static int run_html(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_web_html(r, out);
}

static const char *const kcachegrind[] = {"kcachegrind", NULL};
/* pprof's viewers, with the desktop's own (xdg-open) when they are
 * missing. */
static const char *const browser[] = {"$BROWSER", "xdg-open", NULL};
static const char *const eog[] = {"eog", "xdg-open", NULL};
static const char *const evince[] = {"evince", "xdg-open", NULL};
static const char *const gv[] = {"gv --noantialias", "xdg-open", NULL};

const struct pp_command pp_commands[] = {
        {.name = "top",
         .kind = PP_REPORT_TOP,
         .help = "the functions with the largest flat (or, with -cum, cum) "
                 "values"},
        {.name = "text", .kind = PP_REPORT_TOP, .help = "the same as top"},
        {.name = "check",
         .kind = PP_REPORT_CHECK,
         .help = "CI gate: -diff_base OLD and -max_growth/-max_share rules; "
                 "exit 3 when one breaks"},
        {.name = "tree",
         .kind = PP_REPORT_TREE,
         .help = "the call tree: each function with its callers and callees"},
        {.name = "peek",
         .wants_regex = true,
         .kind = PP_REPORT_PEEK,
         .help = "callers and callees of the functions matching REGEX"},
        {.name = "list",
         .wants_regex = true,
         .kind = PP_REPORT_LIST,
         .help = "annotated source of the functions matching REGEX"},
        {.name = "disasm",
         .wants_regex = true,
         .kind = PP_REPORT_DISASM,
         .help = "annotated disassembly of the functions matching REGEX"},
        {.name = "weblist",
         .wants_regex = true,
         .viewers = browser,
         .ext = "html",
         .kind = PP_REPORT_WEBLIST,
         .help = "annotated source with each line's instructions, as HTML "
                 "opened in a browser (or -output FILE)"},
        {.name = "proto",
         .binary = true,
         .kind = PP_REPORT_PROTO,
         .ext = "pb.gz",
         .help = "the profile as gzip'd profile.proto (merged, filtered)"},
        {.name = "topproto",
         .binary = true,
         .kind = PP_REPORT_TOPPROTO,
         .help = "top's table as gzip'd profile.proto (cum and flat)",
         .ext = "pb.gz"},
        {.name = "traces",
         .kind = PP_REPORT_TRACES,
         .help = "every sample's stack with its value and labels"},
        {.name = "tags",
         .kind = PP_REPORT_TAGS,
         .help = "the label values with their totals and shares"},
        {.name = "raw",
         .kind = PP_REPORT_RAW,
         .help = "a plain dump of the profile's samples, locations, mappings"},
        {.name = "comments",
         .kind = PP_REPORT_COMMENTS,
         .help = "the profile's comments"},
        {.name = "dot",
         .kind = PP_REPORT_DOT,
         .help = "the call graph in Graphviz's DOT language"},
        {.name = "svg",
         .ext = "svg",
         .kind = PP_REPORT_SVG,
         .help = "the call graph drawn as SVG (pan and zoom in a browser)"},
        {.name = "gif",
         .binary = true,
         .kind = PP_REPORT_GIF,
         .help = "the call graph drawn as GIF"},
        {.name = "ps",
         .binary = true,
         .kind = PP_REPORT_PS,
         .help = "the call graph drawn as PostScript"},
        {.name = "web",
         .kind = PP_REPORT_SVG,
         .help = "the call graph as SVG, opened in the browser",
         .viewers = browser,
         .ext = "svg"},
        {.name = "webflame",
         .kind = PP_REPORT_FLAME,
         .help = "the flame graph, opened in the browser",
         .viewers = browser,
         .ext = "svg"},
        {.name = "eog",
         .kind = PP_REPORT_SVG,
         .help = "the call graph as SVG, opened with eog",
         .viewers = eog,
         .ext = "svg"},
        {.name = "evince",
         .kind = PP_REPORT_PDF,
         .help = "the call graph as PDF, opened with evince",
         .viewers = evince,
         .ext = "pdf"},
        {.name = "gv",
         .kind = PP_REPORT_PS,
         .help = "the call graph as PostScript, opened with gv",
         .viewers = gv,
         .ext = "ps"},
        {.name = "png",
         .binary = true,
         .kind = PP_REPORT_PNG,
         .help = "the call graph drawn as PNG"},
        {.name = "pdf",
         .binary = true,
         .kind = PP_REPORT_PDF,
         .help = "the call graph drawn as PDF"},
        {.name = "flame",
         .ext = "svg",
         .kind = PP_REPORT_FLAME,
         .help = "an interactive flame graph, as a self-contained SVG"},
        {.name = "html",
         .ext = "html",
         .help = "the web UI's flame graph, top and source in one "
                 "self-contained HTML file",
         .run = run_html},
        {.name = "speedscope",
         .ext = "json",
         .kind = PP_REPORT_SPEEDSCOPE,
         .help = "a speedscope JSON file (speedscope.app opens it)"},
        {.name = "callgrind",
         .binary = true,
         .kind = PP_REPORT_CALLGRIND,
         .help = "the call graph in callgrind format (kcachegrind, "
                 "callgrind_annotate)",
         .ext = "callgraph.out"},
        {.name = "kcachegrind",
         .kind = PP_REPORT_CALLGRIND,
         .help = "the callgrind file opened with kcachegrind",
         .viewers = kcachegrind,
         .ext = "grind"},
        {.name = "folded",
         .kind = PP_REPORT_FOLDED,
         .help = "collapsed stacks, one \"root;...;leaf value\" line each"},
};

const size_t pp_ncommands = sizeof(pp_commands) / sizeof(pp_commands[0]);

const struct pp_command *pp_command_find(const char *name, int *count)
{
	*count = -1;
	for (size_t i = 0; i < pp_ncommands; i++) {
		size_t n = strlen(pp_commands[i].name);

		if (strcmp(name, pp_commands[i].name) == 0)
			return &pp_commands[i];
		/* topN, as pprof's shell accepts it. */
		if (strcmp(pp_commands[i].name, "top") == 0 &&
		    strncmp(name, "top", n) == 0 && name[n] >= '0' &&
		    name[n] <= '9') {
			char *end;
			long v = strtol(name + n, &end, 10);

			if (*end == '\0' && v >= 0 && v < 1000000000) {
				*count = (int)v;
				return &pp_commands[i];
			}
		}
	}
	return NULL;
}
