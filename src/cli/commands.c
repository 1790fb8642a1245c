#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "web/html.h"

static int run_top(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_top(r, out);
}

static int run_folded(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_folded(r, out);
}

static int run_flame(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_flame(r, out);
}

static int run_speedscope(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_speedscope(r, out);
}

static int run_tree(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_tree(r, NULL, out);
}

static int run_peek(struct pp_report *r, const char *arg, FILE *out)
{
	return pp_report_tree(r, arg, out);
}

static int run_list(struct pp_report *r, const char *arg, FILE *out)
{
	return pp_report_list(r, arg, out);
}

static int run_proto(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_proto(r, out);
}

static int run_traces(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_traces(r, out);
}

static int run_tags(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_tags(r, out);
}

static int run_raw(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_raw(r, out);
}

static int run_comments(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_comments(r, out);
}

static int run_dot(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_dot(r, out);
}

static int run_svg(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_render(r, "svg", out);
}

static int run_png(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_render(r, "png", out);
}

static int run_pdf(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_render(r, "pdf", out);
}

static int run_html(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_web_html(r, out);
}

const struct pp_command pp_commands[] = {
        {"top", false, false, false, run_top,
         "the functions with the largest flat (or, with -cum, cum) values"},
        {"text", false, false, false, run_top, "the same as top"},
        /* check compares two profiles: main runs it, not a report. */
        {"check", false, false, false, NULL,
         "CI gate: -diff_base OLD and -max_growth/-max_share rules; "
         "exit 3 when one breaks"},
        {"tree", false, false, false, run_tree,
         "the call tree: each function with its callers and callees"},
        {"peek", true, false, false, run_peek,
         "callers and callees of the functions matching REGEX"},
        {"list", true, false, false, run_list,
         "annotated source of the functions matching REGEX"},
        {"proto", false, true, false, run_proto,
         "the profile as gzip'd profile.proto (merged, filtered)"},
        {"traces", false, false, false, run_traces,
         "every sample's stack with its value and labels"},
        {"tags", false, false, false, run_tags,
         "the label values with their totals and shares"},
        {"raw", false, false, false, run_raw,
         "a plain dump of the profile's samples, locations, mappings"},
        {"comments", false, false, false, run_comments,
         "the profile's comments"},
        {"dot", false, false, false, run_dot,
         "the call graph in Graphviz's DOT language"},
        {"svg", false, false, false, run_svg,
         "the call graph drawn as SVG (pan and zoom in a browser)"},
        {"png", false, true, false, run_png, "the call graph drawn as PNG"},
        {"pdf", false, true, false, run_pdf, "the call graph drawn as PDF"},
        {"flame", false, false, false, run_flame,
         "an interactive flame graph, as a self-contained SVG"},
        {"html", false, false, false, run_html,
         "the web UI's flame graph, top and source in one self-contained "
         "HTML file"},
        {"speedscope", false, false, false, run_speedscope,
         "a speedscope JSON file (speedscope.app opens it)"},
        {"folded", false, false, false, run_folded,
         "collapsed stacks, one \"root;...;leaf value\" line each"},
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
