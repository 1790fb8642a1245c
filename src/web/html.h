/*
 * `pprof-c html`: the web UI's flame graph, top table and source view as
 * one self-contained HTML file, the data embedded: it opens from disk with
 * no server and loads nothing from anywhere.
 */
#ifndef PP_WEB_HTML_H
#define PP_WEB_HTML_H

#include <stdio.h>

#include "pprof/report.h"

/* Write the page for r to out. */
int pp_web_html(struct pp_report *r, FILE *out);

#endif
