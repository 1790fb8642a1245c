#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "configs.h"
#include "pprof/outfile.h"
#include "pprof/report.h"

enum kind { STR, INT, FLOAT, BOOL };

/* pprof's saved config fields (its config.go), in its order, with the URL
 * parameter of each and its default; fields without a parameter are kept
 * in the file but never set from a view. */
static const struct field {
	const char *json, *param;
	enum kind kind;
	const char *def;
} fields[] = {
        {"call_tree", "calltree", BOOL, "false"},
        {"relative_percentages", "rel", BOOL, "false"},
        {"unit", "unit", STR, "minimum"},
        {"compact_labels", "compact", BOOL, "false"},
        {"intel_syntax", "intel", BOOL, "false"},
        {"mean", "mean", BOOL, "false"},
        {"normalize", "norm", BOOL, "false"},
        {"sort", "sort", STR, "flat"},
        {"tagroot", NULL, STR, ""},
        {"tagleaf", NULL, STR, ""},
        {"drop_negative", "dropneg", BOOL, "false"},
        {"nodecount", "n", INT, "-1"},
        {"nodefraction", "nf", FLOAT, "0.005"},
        {"edgefraction", "ef", FLOAT, "0.001"},
        {"trim", "trim", BOOL, "true"},
        {"focus", "f", STR, ""},
        {"ignore", "i", STR, ""},
        {"prune_from", "prunefrom", STR, ""},
        {"hide", "h", STR, ""},
        {"show", "s", STR, ""},
        {"show_from", "sf", STR, ""},
        {"tagfocus", "tf", STR, ""},
        {"tagignore", "ti", STR, ""},
        {"tagshow", "ts", STR, ""},
        {"taghide", "th", STR, ""},
        {"noinlines", "noinlines", BOOL, "false"},
        {"columns", "columns", BOOL, "false"},
        {"granularity", "g", STR, "functions"},
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

char *pp_web_settings_path(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path;
	size_t n;

	/* As Go's os.UserConfigDir: an XDG_CONFIG_HOME that is not
	 * absolute is ignored. */
	if (xdg && xdg[0] != '/')
		xdg = NULL;
	if (!xdg && (!home || !*home))
		return NULL;
	n = strlen(xdg ? xdg : home) + 32;
	if (!(path = malloc(n)))
		return NULL;
	snprintf(path, n, "%s%s/pprof/settings.json", xdg ? xdg : home,
	         xdg ? "" : "/.config");
	return path;
}

/* The file's settings object; a missing file is an empty one. */
static json_object *read_settings(const char *path, char *err, size_t errsize)
{
	json_object *s, *configs;
	struct stat st;

	if (stat(path, &st) != 0 && errno == ENOENT)
		return json_object_new_object();
	s = json_object_from_file(path);
	if (!s || !json_object_is_type(s, json_type_object)) {
		snprintf(err, errsize, "could not parse settings: %s: %s", path,
		         json_util_get_last_err() ? json_util_get_last_err()
		                                  : "not a JSON object");
		json_object_put(s);
		return NULL;
	}
	if (json_object_object_get_ex(s, "configs", &configs) &&
	    !json_object_is_type(configs, json_type_array)) {
		snprintf(err, errsize,
		         "could not parse settings: %s: configs is not a list",
		         path);
		json_object_put(s);
		return NULL;
	}
	return s;
}

static json_object *configs_of(json_object *s)
{
	json_object *configs;

	if (!json_object_object_get_ex(s, "configs", &configs)) {
		configs = json_object_new_array();
		json_object_object_add(s, "configs", configs);
	}
	return configs;
}

/* A field's value as pprof's URL carries it: "" for the default, "t"/"f"
 * for booleans. */
static void url_value(const struct field *f, json_object *v, char *buf,
                      size_t size)
{
	switch (f->kind) {
	case BOOL:
		snprintf(buf, size, "%s",
		         json_object_get_boolean(v) ? "true" : "false");
		break;
	case INT:
		snprintf(buf, size, "%lld",
		         (long long)json_object_get_int64(v));
		break;
	case FLOAT:
		snprintf(buf, size, "%g", json_object_get_double(v));
		break;
	case STR:
		snprintf(buf, size, "%s", v ? json_object_get_string(v) : "");
		break;
	}
	if (!v || strcmp(buf, f->def) == 0)
		buf[0] = '\0';
	else if (f->kind == BOOL)
		buf[1] = '\0';
}

static void put_entry(FILE *out, const char *name, bool user, json_object *c)
{
	bool first = true;

	fputs("{\"name\":", out);
	pp_report_put_json_string(out, name);
	fprintf(out, ",\"user\":%s,\"params\":{", user ? "true" : "false");
	for (size_t i = 0; i < NFIELDS; i++) {
		json_object *v = NULL;
		char buf[4096];

		if (!fields[i].param)
			continue;
		if (c)
			json_object_object_get_ex(c, fields[i].json, &v);
		url_value(&fields[i], v, buf, sizeof(buf));
		if (!first)
			fputc(',', out);
		first = false;
		pp_report_put_json_string(out, fields[i].param);
		fputc(':', out);
		pp_report_put_json_string(out, buf);
	}
	fputs("}}", out);
}

int pp_web_configs_list(const char *path, FILE *out, char *err, size_t errsize)
{
	json_object *s = path ? read_settings(path, err, errsize)
	                      : json_object_new_object();
	json_object *configs;

	if (!s)
		return -1;
	configs = configs_of(s);
	fputs("{\"configs\":[", out);
	put_entry(out, "Default", false, NULL);
	for (size_t i = 0; i < json_object_array_length(configs); i++) {
		json_object *c = json_object_array_get_idx(configs, i), *name;

		if (!json_object_is_type(c, json_type_object) ||
		    !json_object_object_get_ex(c, "name", &name))
			continue;
		fputc(',', out);
		put_entry(out, json_object_get_string(name), true, c);
	}
	fputs("]}\n", out);
	json_object_put(s);
	return 0;
}

static int write_settings(const char *path, json_object *s, char *err,
                          size_t errsize)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_atomic_file af = {0};
	char *dir = strdup(path), *slash;

	if (!dir) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	/* pprof makes its directory (os.MkdirAll, 0755). */
	for (slash = strchr(dir + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755); /* EEXIST is fine; a failure shows below */
		*slash = '/';
	}
	free(dir);
	if (pp_atomic_open(&ctx, path, &af) < 0) {
		snprintf(err, errsize, "failed to write settings: %s",
		         ctx.message);
		return -1;
	}
	fputs(json_object_to_json_string_ext(
	              s, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
	                         JSON_C_TO_STRING_NOSLASHESCAPE),
	      af.fp);
	if (pp_atomic_commit(&ctx, &af) < 0) {
		snprintf(err, errsize, "failed to write settings: %s",
		         ctx.message);
		return -1;
	}
	return 0;
}

/* A field's value from the view's parameter (or its default), in the
 * field's JSON type; NULL for a malformed value. */
static json_object *field_value(const struct field *f, const char *v)
{
	char *end;

	if (!v || !*v)
		v = f->def;
	switch (f->kind) {
	case STR:
		return json_object_new_string(v);
	case INT: {
		long long n = strtoll(v, &end, 10);

		return *end ? NULL : json_object_new_int64(n);
	}
	case FLOAT: {
		double d = strtod(v, &end);

		/* Keep the text: 0.005 stays 0.005, as Go writes it. */
		return *end ? NULL : json_object_new_double_s(d, v);
	}
	case BOOL:
		if (strchr("1tT", v[0]) && (!v[1] || !strcasecmp(v, "true")))
			return json_object_new_boolean(1);
		if (strchr("0fF", v[0]) && (!v[1] || !strcasecmp(v, "false")))
			return json_object_new_boolean(0);
		return NULL;
	}
	return NULL;
}

int pp_web_configs_save(const char *path, const char *name, pp_web_get_fn get,
                        void *data, char *err, size_t errsize)
{
	json_object *s, *configs, *c;
	int rc;

	if (!name || !*name) {
		snprintf(err, errsize, "invalid config name");
		return -1;
	}
	if (!(s = read_settings(path, err, errsize)))
		return -1;
	configs = configs_of(s);
	c = json_object_new_object();
	json_object_object_add(c, "name", json_object_new_string(name));
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &fields[i];
		json_object *v =
		        field_value(f, f->param ? get(data, f->param) : NULL);

		if (!v) {
			snprintf(err, errsize,
			         "error setting config field %s: invalid value",
			         f->json);
			json_object_put(c);
			json_object_put(s);
			return -1;
		}
		/* Go's omitempty: zero values are left out. */
		if ((f->kind == STR && !*json_object_get_string(v)) ||
		    (f->kind == BOOL && !json_object_get_boolean(v)) ||
		    (f->kind == INT && json_object_get_int64(v) == 0) ||
		    (f->kind == FLOAT && json_object_get_double(v) == 0)) {
			json_object_put(v);
			continue;
		}
		json_object_object_add(c, f->json, v);
	}
	{
		size_t n = json_object_array_length(configs), i;

		for (i = 0; i < n; i++) {
			json_object *old = json_object_array_get_idx(configs,
			                                             i),
			            *oname;

			if (json_object_object_get_ex(old, "name", &oname) &&
			    strcmp(json_object_get_string(oname), name) == 0)
				break;
		}
		if (i < n)
			json_object_array_put_idx(configs, i, c);
		else
			json_object_array_add(configs, c);
	}
	rc = write_settings(path, s, err, errsize);
	json_object_put(s);
	return rc;
}

int pp_web_configs_delete(const char *path, const char *name, char *err,
                          size_t errsize)
{
	json_object *s = read_settings(path, err, errsize), *configs;
	size_t n;
	int rc = -1;

	if (!s)
		return -1;
	configs = configs_of(s);
	n = json_object_array_length(configs);
	for (size_t i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(configs, i), *cname;

		if (json_object_object_get_ex(c, "name", &cname) &&
		    strcmp(json_object_get_string(cname), name) == 0) {
			json_object_array_del_idx(configs, i, 1);
			rc = write_settings(path, s, err, errsize);
			json_object_put(s);
			return rc;
		}
	}
	snprintf(err, errsize, "config %s not found", name);
	json_object_put(s);
	return rc;
}
