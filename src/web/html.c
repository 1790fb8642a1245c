#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "assets.h"
#include "html.h"

/* How many of the heaviest functions the source view lists, and the
 * narrowest frame kept, as a share of the whole graph (the page zooms
 * into what it holds; it cannot ask for more). */
#define SOURCE_FUNCTIONS 10
#define MIN_FRAME_SHARE (1.0 / 4000)

/* The page allows nothing from outside itself. */
#define FILE_CSP                                           \
	"default-src 'none'; script-src 'unsafe-inline'; " \
	"style-src 'unsafe-inline'; img-src data:"

/* A report's JSON as a string (free()), or NULL with rc set. */
static char *report_json(struct pp_report *r, int which, const char *arg,
                         int *rc)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct pp_flame_json_opts o = {0, MIN_FRAME_SHARE};

	if (!f) {
		*rc = PP_ENOMEM;
		return NULL;
	}
	if (which == 0)
		*rc = pp_report_top_json(r, f);
	else if (which == 1)
		*rc = pp_report_flame_json(r, &o, f);
	else
		*rc = pp_report_list(r, arg, f);
	if (fclose(f) != 0 && *rc >= 0)
		*rc = PP_ENOMEM;
	if (*rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* "^(?:a|b)$" for the first n row names of top's JSON, each quoted for
 * the regex; NULL when there are none. */
static char *top_names_regex(const char *top_json, size_t n)
{
	json_object *d = json_tokener_parse(top_json), *rows;
	char *text = NULL;
	size_t size = 0, len;
	FILE *f;

	if (!d || !json_object_object_get_ex(d, "rows", &rows) ||
	    (len = json_object_array_length(rows)) == 0 ||
	    !(f = open_memstream(&text, &size))) {
		json_object_put(d);
		return NULL;
	}
	fputs("^(?:", f);
	for (size_t i = 0; i < len && i < n; i++) {
		json_object *row = json_object_array_get_idx(rows, i), *name;

		if (!json_object_object_get_ex(row, "name", &name))
			continue;
		if (i)
			fputc('|', f);
		for (const char *s = json_object_get_string(name); *s; s++) {
			if (strchr("\\^$.|?*+()[]{}", *s))
				fputc('\\', f);
			fputc(*s, f);
		}
	}
	fputs(")$", f);
	json_object_put(d);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* index.html's text from `from` up to `to` (both found), written out. */
static const char *copy_until(FILE *out, const char *from, const char *to)
{
	const char *end = strstr(from, to);

	if (!end)
		return NULL;
	fwrite(from, 1, (size_t)(end - from), out);
	return end + strlen(to);
}

int pp_web_html(struct pp_report *r, FILE *out)
{
	const struct pp_web_asset *page = pp_web_asset_find("index.html");
	const struct pp_web_asset *css = pp_web_asset_find("app.css");
	const struct pp_web_asset *js = pp_web_asset_find("app.js");
	char *top = NULL, *flame = NULL, *source = NULL, *regex = NULL;
	const char *p = (const char *)page->data;
	int rc = 0;

	if (!(top = report_json(r, 0, NULL, &rc)) ||
	    !(flame = report_json(r, 1, NULL, &rc)))
		goto done;
	regex = top_names_regex(top, SOURCE_FUNCTIONS);
	if (regex && !(source = report_json(r, 2, regex, &rc))) {
		/* No function to list is no source view, not a failure. */
		if (rc != PP_ENOTFOUND)
			goto done;
		rc = 0;
	}
	/* The server's page with its links to /static/ replaced by the
	 * files themselves and the data before the script. */
	if (!(p = copy_until(out, p, "<link rel=\"icon\"")) ||
	    !(p = strchr(p, '>')))
		goto broken;
	fprintf(out,
	        "<meta http-equiv=\"Content-Security-Policy\" "
	        "content=\"%s\">\n<style>\n",
	        FILE_CSP);
	fwrite(css->data, 1, css->size, out);
	fputs("</style>", out);
	if (!(p = strstr(p, "<script src=")) || !(p = strstr(p, "</script>")))
		goto broken;
	p += strlen("</script>");
	if (!(p = copy_until(out, p, "</body>")))
		goto broken;
	/* JSON's strings hold no '<' (json.c escapes it), so nothing in the
	 * data can close this element. */
	fputs("<script type=\"application/json\" id=\"pprof-data\">"
	      "{\"top\":",
	      out);
	fputs(top, out);
	fputs(",\"flame\":", out);
	fputs(flame, out);
	if (source) {
		fputs(",\"source\":{\"text\":", out);
		pp_report_put_json_string(out, source);
		fputc('}', out);
	}
	fputs("}</script>\n<script>\n", out);
	fwrite(js->data, 1, js->size, out);
	fputs("</script>\n</body>", out);
	fputs(p, out);
	goto done;
broken:
	rc = PP_EUNSUPPORTED;
done:
	free(top);
	free(flame);
	free(source);
	free(regex);
	return rc;
}
