#include <stdlib.h>
#include <string.h>

#include "pprof/report.h"
#include "views.h"

struct pp_web_views {
	struct pp_ctx *ctx;
	const struct pp_cli_config *base;
	struct pp_session *session;
	bool flame_served;
};

int pp_web_views_new(struct pp_ctx *ctx, const struct pp_cli_config *base,
                     struct pp_session *session, struct pp_web_views **out)
{
	struct pp_web_views *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	v->ctx = ctx;
	v->base = base;
	v->session = session;
	*out = v;
	return 0;
}

void pp_web_views_free(struct pp_web_views *v)
{
	free(v);
}

/* The ctx's message (or rc's text) into err, whole; its length. */
static size_t copy_message(const struct pp_ctx *ctx, int rc, char *err,
                           size_t errsize)
{
	const char *m = ctx->message[0] ? ctx->message : pp_strerror(rc);
	size_t n = ctx->message[0] ? pp_ctx_message_len(ctx) : strlen(m);

	if (n > errsize - 1)
		n = errsize - 1;
	memcpy(err, m, n);
	err[n] = '\0';
	return n;
}

/* The report for the request's parameters, from the session's cache
 * (borrowed until the next request). tree_only: the answer is made from
 * the report's tree alone (the flame graph and its pivot), which a refine
 * by focus, ignore, hide, show or show_from then makes from the whole
 * profile's tree instead of filtering the profile. On error, err holds the
 * message. */
static struct pp_report *report_for(struct pp_web_views *v, pp_web_get_fn get,
                                    void *data, bool tree_only, char *err,
                                    size_t errsize, size_t *errlen, int *status)
{
	struct pp_cli_config cfg;
	struct pp_view_opts view;
	struct pp_report *r = NULL;
	char *key;
	int rc;

	*status = 400;
	if (pp_web_query_config(v->base, get, data, &cfg, &key, err, errsize) <
	    0) {
		*errlen = strlen(err);
		return NULL;
	}
	free(key);
	v->ctx->message[0] = '\0';
	/* The session copies what it keeps of the options. */
	if ((rc = pp_cli_view_opts(v->ctx, &cfg, &view)) >= 0)
		rc = tree_only
		             ? pp_session_get_tree_report(v->session, &view, &r)
		             : pp_session_get_report(v->session, &view, &r);
	pp_cli_config_release(&cfg);
	if (rc < 0) {
		*errlen = copy_message(v->ctx, rc, err, errsize);
		if (rc == PP_ENOMEM)
			*status = 500;
		return NULL;
	}
	return r;
}

/* {"error": msg}, the n bytes at msg (a profile's names whole). */
static int error_answer(const char *msg, size_t n, int status,
                        struct pp_web_answer *out)
{
	FILE *f = open_memstream(&out->body, &out->size);

	if (!f)
		return -1;
	fputs("{\"error\":", f);
	pp_report_put_json_bytes(f, msg, n);
	fputs("}\n", f);
	if (fclose(f) != 0)
		return -1;
	out->status = status;
	out->content_type = "application/json";
	return 0;
}

/* An unsigned number parameter, or def when absent or malformed. */
static double number_param(pp_web_get_fn get, void *data, const char *name,
                           double def)
{
	const char *s = get(data, name);
	char *end;
	double d;

	if (!s || !*s)
		return def;
	d = strtod(s, &end);
	return *end || !(d >= 0) ? def : d;
}

/* A text report as {"text": "..."}: peek, disasm and source (list), which
 * pprof's web UI shows as text too. */
static int text_json(struct pp_report *r, const char *what, const char *regex,
                     FILE *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	int rc;

	if (!mem)
		return PP_ENOMEM;
	if (strcmp(what, "peek") == 0)
		rc = pp_report_tree(r, regex, mem);
	else if (strcmp(what, "disasm") == 0)
		rc = pp_report_disasm_max(r, regex, 50, mem); /* as pprof's */
	else
		rc = pp_report_list(r, regex, mem);
	if (fclose(mem) != 0 && rc >= 0)
		rc = PP_ENOMEM;
	if (rc >= 0) {
		fputs("{\"text\":", f);
		pp_report_put_json_string(f, text);
		fputs("}\n", f);
	}
	free(text);
	return rc;
}

/* The source view: weblist's listing (source lines with their
 * instructions, or where a binary cannot be read the calls inlined below
 * them), as pprof's /ui/source; `list`'s text only when weblist fails. */
static int source_json(struct pp_report *r, const char *regex, FILE *f)
{
	char *text = NULL;
	size_t size = 0;
	FILE *mem = open_memstream(&text, &size);
	int rc;

	if (!mem)
		return PP_ENOMEM;
	/* As pprof's web UI, the heaviest functions only. */
	rc = pp_report_weblist_json(r, regex, 50, mem);
	if (fclose(mem) != 0 && rc >= 0)
		rc = PP_ENOMEM;
	if (rc >= 0) {
		fputs("{\"weblist\":", f);
		fwrite(text, 1, size, f);
		fputs("}\n", f);
	}
	free(text);
	if (rc >= 0 || rc == PP_ENOMEM)
		return rc;
	return text_json(r, "source", regex, f);
}

/* No parameter: the options the server was started with. */
static const char *warm_param(void *data, const char *name)
{
	(void)data;
	(void)name;
	return NULL;
}

void pp_web_views_warm(struct pp_web_views *v)
{
	struct pp_report *r;
	char err[1100];
	size_t errlen = 0;
	int status;

	if ((r = report_for(v, warm_param, NULL, true, err, sizeof(err),
	                    &errlen, &status)))
		(void)pp_report_flame_cut(r, 1.0 / PP_WEB_CUT_WIDTH);
}

void pp_web_views_warm_whole(struct pp_web_views *v)
{
	struct pp_report *r;
	char err[1100];
	size_t errlen = 0;
	int status;

	if ((r = report_for(v, warm_param, NULL, true, err, sizeof(err),
	                    &errlen, &status)))
		(void)pp_report_build_tree(r);
}

bool pp_web_views_flame_served(const struct pp_web_views *v)
{
	return v->flame_served;
}

/* A hex digit's value, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The pivot's name, whole: pivotx (its bytes in hex, for names a URL made
 * from JSON text cannot spell: invalid UTF-8) or pivot (its value with its
 * length, so a NUL byte, %00, is part of the name). *buf: the decoded hex,
 * to free. NULL, with *len 0, when neither is given; NULL with *len 1
 * for malformed hex. */
static const char *pivot_name(pp_web_get_fn get, pp_web_get_n_fn get_n,
                              void *data, char **buf, size_t *len)
{
	const char *x = get(data, "pivotx"), *p;

	*buf = NULL;
	*len = 0;
	if (x && *x) {
		size_t n = strlen(x);

		if (n % 2 || !(*buf = malloc(n / 2 + 1))) {
			*len = 1;
			return NULL;
		}
		for (size_t i = 0; i < n; i += 2) {
			int hi = hex_digit(x[i]), lo = hex_digit(x[i + 1]);

			if (hi < 0 || lo < 0) {
				free(*buf);
				*buf = NULL;
				*len = 1;
				return NULL;
			}
			(*buf)[i / 2] = (char)(hi << 4 | lo);
		}
		*len = n / 2;
		return *buf;
	}
	p = get_n ? get_n(data, "pivot", len) : get(data, "pivot");
	if (p && !get_n)
		*len = strlen(p);
	if (!p || *len == 0) {
		*len = 0;
		return NULL;
	}
	return p;
}

int pp_web_views_answer(struct pp_web_views *v, const char *what,
                        pp_web_get_fn get, pp_web_get_n_fn get_n, void *data,
                        struct pp_web_answer *out)
{
	struct pp_report *r;
	char err[1100];
	size_t errlen = 0;
	FILE *f;
	int rc = 0, status;

	memset(out, 0, sizeof(*out));
	if (!(r = report_for(v, get, data, strcmp(what, "flame") == 0, err,
	                     sizeof(err), &errlen, &status)))
		return error_answer(err, errlen, status, out);
	if (!(f = open_memstream(&out->body, &out->size)))
		return -1;
	v->ctx->message[0] = '\0';
	out->status = 200;
	out->content_type = "application/json";
	if (strcmp(what, "top") == 0) {
		rc = pp_report_top_json(r, f);
	} else if (strcmp(what, "flame") == 0) {
		struct pp_flame_json_opts o = {0, 0};
		double width = number_param(get, data, "width", 0);

		char *buf;
		size_t plen;
		const char *pivot = pivot_name(get, get_n, data, &buf, &plen);
		const char *side = get(data, "side");

		o.root = (uint32_t)number_param(get, data, "root", 0);
		/* Only the frames at least a pixel wide. */
		o.min_share = width >= 1 ? 1.0 / width : 0;
		if (pivot) {
			rc = pp_report_pivot_json(
			        r, pivot, plen,
			        !side || strcmp(side, "callees") != 0,
			        o.min_share, f);
		} else if (plen) {
			rc = pp_error(v->ctx, PP_EUSAGE,
			              "pivotx: not a name's bytes in hex");
		} else {
			/* A page of a report whose tree is not made yet (a
			 * refine the whole profile's tree cannot make, so it
			 * filters the profile: show_from on an inlined call,
			 * a tag filter; another sample type) gets the top of
			 * the tree, as the first page does: what it draws,
			 * without the frames thinner than a pixel; its first
			 * zoom builds the whole tree. Nothing is built here
			 * when the report has a tree. */
			if (o.root == 0 &&
			    o.min_share >= 1.0 / PP_WEB_CUT_WIDTH)
				rc = pp_report_flame_cut(
				        r, 1.0 / PP_WEB_CUT_WIDTH);
			if (rc >= 0)
				rc = pp_report_flame_json(r, &o, f);
		}
		free(buf);
		v->flame_served = true;
	} else if (strcmp(what, "source") == 0) {
		const char *re = get(data, "f");

		rc = source_json(r, re && *re ? re : ".", f);
	} else if (strcmp(what, "peek") == 0 || strcmp(what, "disasm") == 0) {
		const char *re = get(data, "f");

		/* pprof's views list what the focus selects: f is both. */
		rc = text_json(r, what, re && *re ? re : ".", f);
	} else if (strcmp(what, "graph") == 0) {
		out->content_type = "image/svg+xml";
		rc = pp_report_render(r, "svg", f);
	} else if (strcmp(what, "download") == 0) {
		out->content_type = "application/octet-stream";
		out->attachment = true;
		rc = pp_report_proto(r, f);
	} else {
		rc = pp_error(v->ctx, PP_ENOTFOUND, "no such view: %s", what);
	}
	if (fclose(f) != 0 && rc >= 0)
		rc = PP_ENOMEM;
	if (rc < 0) {
		free(out->body);
		out->body = NULL;
		if (rc == PP_ENOMEM)
			return -1;
		errlen = copy_message(v->ctx, rc, err, sizeof(err));
		return error_answer(err, errlen, rc == PP_ENOTFOUND ? 404 : 400,
		                    out);
	}
	return 0;
}
