#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "settings.h"

#define OFF(field) offsetof(struct pp_cli_config, field)

/*
 * pprof's legacy sample flags, in the order pprof resolves them: an explicit
 * -sample_index wins, else the first flag set here; the rest are ignored
 * with a warning. -mean_delay also turns on -mean.
 */
static const struct {
	const char *flag, *type;
	bool mean;
} legacy_samples[] = {
        {"total_delay", "delay", false},
        {"mean_delay", "delay", true},
        {"contentions", "contentions", false},
        {"inuse_space", "inuse_space", false},
        {"inuse_objects", "inuse_objects", false},
        {"alloc_space", "alloc_space", false},
        {"alloc_objects", "alloc_objects", false},
};

const struct pp_setting pp_settings[] = {
        {"sample_index", PP_SET_STRING, OFF(sample_index), 0, "NAME|N",
         "sample value to report (type name or 0-based index)", false},
        {"mean", PP_SET_BOOL, OFF(report.mean), 0, NULL,
         "average sample value over the first value (count)", false},
        {"granularity", PP_SET_GRANULARITY, OFF(report.granularity), 0, "G",
         "functions, filefunctions, files, lines or addresses", false},
        {"functions", PP_SET_ALIAS_GRANULARITY, OFF(report.granularity),
         PP_GRAN_FUNCTIONS, NULL, "granularity=functions (the default)", false},
        {"filefunctions", PP_SET_ALIAS_GRANULARITY, OFF(report.granularity),
         PP_GRAN_FILEFUNCTIONS, NULL, "granularity=filefunctions", false},
        {"files", PP_SET_ALIAS_GRANULARITY, OFF(report.granularity),
         PP_GRAN_FILES, NULL, "granularity=files", false},
        {"lines", PP_SET_ALIAS_GRANULARITY, OFF(report.granularity),
         PP_GRAN_LINES, NULL, "granularity=lines", false},
        {"addresses", PP_SET_ALIAS_GRANULARITY, OFF(report.granularity),
         PP_GRAN_ADDRESSES, NULL, "granularity=addresses", false},
        {"noinlines", PP_SET_BOOL, OFF(report.noinlines), 0, NULL,
         "attribute inlined calls to their callers", false},
        {"call_tree", PP_SET_BOOL, OFF(report.call_tree), 0, NULL,
         "dot, svg, callgrind...: a node per call path, not function", false},
        {"showcolumns", PP_SET_BOOL, OFF(report.showcolumns), 0, NULL,
         "lines: show column numbers (file.go:12:5)", false},
        {"cum", PP_SET_SORT, OFF(report.cum_sort), 1, NULL,
         "sort by cumulative value", false},
        {"flat", PP_SET_SORT, OFF(report.cum_sort), 0, NULL,
         "sort by flat value (the default)", false},
        {"sort", PP_SET_SORT_NAME, OFF(report.cum_sort), 0, "flat|cum",
         "sort order by name, as pprof's shell (flat)", false},
        {"nodecount", PP_SET_INT, OFF(nodecount), 0, "N",
         "show at most N nodes (top: all; graphs: 80)", false},
        {"nodefraction", PP_SET_FLOAT, OFF(nodefraction), 0, "F",
         "hide nodes below F of the total (0.005)", false},
        {"edgefraction", PP_SET_FLOAT, OFF(edgefraction), 0, "F",
         "hide edges below F of the total (0.001)", false},
        {"trim", PP_SET_BOOL, OFF(trim), 0, NULL,
         "honour nodecount/nodefraction/edgefraction (true)", false},
        {"unit", PP_SET_STRING, OFF(unit), 0, "UNIT",
         "print values in UNIT (minimum, auto, ns, ms, s, B, kB, MB, ...)",
         false},
        {"divide_by", PP_SET_FLOAT, OFF(divide_by), 0, "X",
         "divide every value by X", false},
        {"compact_labels", PP_SET_BOOL, OFF(report.compact_labels), 0, NULL,
         "leave the profile's header lines out", false},
        {"drop_negative", PP_SET_BOOL, OFF(report.drop_negative), 0, NULL,
         "leave out nodes with negative values", false},
        {"inverted", PP_SET_BOOL, OFF(report.inverted), 0, NULL,
         "flame: draw an icicle graph, the root on top", false},
        {"reverse", PP_SET_BOOL, OFF(report.flame.reverse), 0, NULL,
         "flame: stacks merged by leaf (flamegraph.pl's --reverse)", false},
        {"title", PP_SET_STRING, OFF(flame_title), 0, "TEXT",
         "flame: the title (Flame Graph)", false},
        {"width", PP_SET_INT, OFF(report.flame.width), 0, "PX",
         "flame: the picture's width in pixels (1200)", false},
        {"minwidth", PP_SET_FLOAT, OFF(flame_minwidth), 0, "PX",
         "flame: merge frames narrower than PX pixels (0.1; 0: none)", false},
        {"colors", PP_SET_STRING, OFF(flame_colors), 0, "PALETTE",
         "flame: package, hot, mem, io, java, js, perl, red, green, ...",
         false},
        {"source_path", PP_SET_STRING, OFF(source_path), 0, "DIRS",
         "list: look for source files under DIRS (':'-separated; cwd)", false},
        {"trim_path", PP_SET_STRING, OFF(trim_path), 0, "PREFIXES",
         "list: cut PREFIXES (':'-separated) off source file names", false},
        {"max_source_size", PP_SET_SIZE, OFF(report.max_source_size), 0,
         "BYTES", "list: read source files up to BYTES (64M); k/M/G ok", false},
        {"intel_syntax", PP_SET_BOOL, OFF(report.intel_syntax), 0, NULL,
         "disasm, weblist: Intel's assembly syntax, not AT&T's", false},
        {"focus", PP_SET_STRING, OFF(focus), 0, "REGEX",
         "only samples with a frame matching REGEX (function or file)", false},
        {"ignore", PP_SET_STRING, OFF(ignore), 0, "REGEX",
         "leave out samples with a frame matching REGEX", false},
        {"hide", PP_SET_STRING, OFF(hide), 0, "REGEX",
         "leave out the frames matching REGEX", false},
        {"show", PP_SET_STRING, OFF(show), 0, "REGEX",
         "keep only the frames matching REGEX", false},
        {"show_from", PP_SET_STRING, OFF(show_from), 0, "REGEX",
         "drop the callers of the outermost frame matching REGEX", false},
        {"prune_from", PP_SET_STRING, OFF(prune_from), 0, "REGEX",
         "drop the callees of the frames matching REGEX", false},
        {"tagfocus", PP_SET_STRING, OFF(tagfocus), 0, "FILTER",
         "only samples with matching labels (REGEX, KEY=REGEX, 1mb:, ...)",
         false},
        {"tagignore", PP_SET_STRING, OFF(tagignore), 0, "FILTER",
         "leave out samples with matching labels", false},
        {"tagshow", PP_SET_STRING, OFF(tagshow), 0, "REGEX",
         "keep only the label keys matching REGEX", false},
        {"taghide", PP_SET_STRING, OFF(taghide), 0, "REGEX",
         "leave out the label keys matching REGEX", false},
        {"tagroot", PP_SET_STRING, OFF(tagroot), 0, "KEYS",
         "labels KEYS (comma-separated) as frames at the stacks' root", false},
        {"tagleaf", PP_SET_STRING, OFF(tagleaf), 0, "KEYS",
         "labels KEYS (comma-separated) as frames at the stacks' leaf", false},
        {"relative_percentages", PP_SET_BOOL, OFF(relative_percentages), 0,
         NULL, "percentages of the filtered total, not of all samples", false},
        {"base", PP_SET_STRING_LIST, OFF(base), 0, "FILE",
         "subtract the profile FILE (values become profile - base); "
         "repeatable: the bases are merged",
         true},
        {"diff_base", PP_SET_STRING_LIST, OFF(diff_base), 0, "FILE",
         "show the difference to FILE, percentages of FILE's total; "
         "repeatable",
         true},
        {"normalize", PP_SET_BOOL, OFF(normalize), 0, NULL,
         "with -base/-diff_base: scale the profile to the base's total", true},
        {"output", PP_SET_STRING, OFF(output), 0, "FILE",
         "write the report to FILE (atomically) instead of stdout", false},
        {"symbolize", PP_SET_STRING, OFF(symbolize), 0, "MODE",
         "local, fastlocal, remote, none, force, demangle=MODE; "
         "':'-joined (default: local, then remote)",
         true},
        {"max_growth", PP_SET_CHECK_RULE, OFF(rules), 1, "REGEX=POINTS",
         "check: fail when a matching function's cum share grows by more "
         "than POINTS (repeatable)",
         false},
        {"max_share", PP_SET_CHECK_RULE, OFF(rules), 0, "REGEX=PCT",
         "check: fail when a matching function's cum share exceeds PCT "
         "(repeatable)",
         false},
        {"seconds", PP_SET_INT, OFF(seconds), 0, "N",
         "URLs: collect the profile for N seconds (sets ?seconds=N)", true},
        {"timeout", PP_SET_INT, OFF(timeout), 0, "N",
         "URLs: give up after N+5 seconds (1.5 x seconds, or 60)", true},
        {"add_comment", PP_SET_STRING, OFF(add_comment), 0, "TEXT",
         "add TEXT to the profile's comments (see comments)", true},
        {"all_frames", PP_SET_BOOL, OFF(all_frames), 0, NULL,
         "keep every frame: ignore the profile's drop_frames/keep_frames",
         true},
        {"buildid", PP_SET_STRING, OFF(buildid), 0, "ID",
         "build-id of the main binary when the profile has none", true},
        {"tls_cert", PP_SET_STRING, OFF(tls_cert), 0, "FILE",
         "URLs: TLS client certificate (PEM; with -tls_key)", true},
        {"tls_key", PP_SET_STRING, OFF(tls_key), 0, "FILE",
         "URLs: the client certificate's private key (PEM)", true},
        {"tls_ca", PP_SET_STRING, OFF(tls_ca), 0, "FILE",
         "URLs: trust only the CA certificates in FILE (PEM)", true},
        {"folded_type", PP_SET_STRING, OFF(folded_type), 0, "TYPE[/UNIT]",
         "sample type of folded-stack input (samples/count)", true},
        {"max-size", PP_SET_SIZE, OFF(max_size), 0, "BYTES",
         "refuse profiles larger than BYTES decompressed (4G); k/M/G ok", true},
        {"http", PP_SET_STRING, OFF(http), 0, "[HOST]:PORT",
         "serve the web UI there (localhost when HOST is empty; :0 any "
         "free port)",
         false},
        {"no_browser", PP_SET_BOOL, OFF(no_browser), 0, NULL,
         "-http: do not open a browser", false},
        {"json", PP_SET_BOOL, OFF(json), 0, NULL,
         "top, tree, peek, traces, tags, flame: print JSON instead", false},
        {"total_delay", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 0, NULL,
         "sample_index=delay (pprof's legacy flag)", false},
        {"mean_delay", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 1, NULL,
         "sample_index=delay with -mean", false},
        {"contentions", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 2, NULL,
         "sample_index=contentions", false},
        {"inuse_space", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 3, NULL,
         "sample_index=inuse_space", false},
        {"inuse_objects", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 4,
         NULL, "sample_index=inuse_objects", false},
        {"alloc_space", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 5, NULL,
         "sample_index=alloc_space", false},
        {"alloc_objects", PP_SET_ALIAS_SAMPLE_INDEX, OFF(legacy_samples), 6,
         NULL, "sample_index=alloc_objects", false},
};

const size_t pp_nsettings = sizeof(pp_settings) / sizeof(pp_settings[0]);

const char *pp_setting_sample_type(const struct pp_setting *s)
{
	if (s->kind != PP_SET_ALIAS_SAMPLE_INDEX || s->alias_value < 0 ||
	    (size_t)s->alias_value >=
	            sizeof(legacy_samples) / sizeof(legacy_samples[0]))
		return NULL;
	return legacy_samples[s->alias_value].type;
}

void pp_cli_config_init(struct pp_cli_config *c)
{
	memset(c, 0, sizeof(*c));
	c->nodecount = -1;
	c->nodefraction = 0.005;
	c->edgefraction = 0.001;
	c->divide_by = 1;
	c->trim = true;
	c->flame_minwidth = 0.1;
}

static void strlist_release(struct pp_strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int strlist_add(struct pp_strlist *l, const char *v)
{
	char **grown = realloc(l->v, (l->n + 1) * sizeof(*grown));

	if (!grown)
		return -1;
	l->v = grown;
	if (!(l->v[l->n] = strdup(v)))
		return -1;
	l->n++;
	return 0;
}

void pp_cli_config_release(struct pp_cli_config *c)
{
	for (size_t i = 0; i < c->nrules; i++)
		free((char *)c->rules[i].regex);
	free(c->rules);
	c->rules = NULL;
	c->nrules = 0;
	free(c->sample_index);
	free(c->unit);
	free(c->output);
	free(c->source_path);
	free(c->trim_path);
	free(c->symbolize);
	free(c->folded_type);
	c->folded_type = NULL;
	free(c->add_comment);
	free(c->buildid);
	c->add_comment = c->buildid = NULL;
	free(c->tagroot);
	free(c->tagleaf);
	c->tagroot = c->tagleaf = NULL;
	free(c->tls_cert);
	free(c->tls_key);
	free(c->tls_ca);
	c->tls_cert = c->tls_key = c->tls_ca = NULL;
	free(c->http);
	c->http = NULL;
	free(c->flame_title);
	free(c->flame_colors);
	c->flame_title = c->flame_colors = NULL;
	c->source_path = c->trim_path = c->symbolize = NULL;
	free(c->focus);
	free(c->ignore);
	free(c->hide);
	free(c->show);
	free(c->show_from);
	free(c->prune_from);
	free(c->tagfocus);
	free(c->tagignore);
	free(c->tagshow);
	free(c->taghide);
	strlist_release(&c->base);
	strlist_release(&c->diff_base);
	c->focus = c->ignore = c->hide = c->show = c->show_from = NULL;
	c->prune_from = c->tagfocus = c->tagignore = c->tagshow = NULL;
	c->taghide = NULL;
	c->sample_index = c->unit = c->output = NULL;
}

int pp_cli_config_copy(struct pp_cli_config *dst,
                       const struct pp_cli_config *src)
{
	int err = 0;

	*dst = *src;
	/* Unshare first, so that a failure half way leaves nothing that
	 * release would free twice. */
	dst->rules = NULL;
	dst->nrules = 0;
	for (size_t i = 0; i < pp_nsettings; i++) {
		char *field = (char *)dst + pp_settings[i].offset;

		if (pp_settings[i].kind == PP_SET_STRING)
			*(char **)field = NULL;
		else if (pp_settings[i].kind == PP_SET_STRING_LIST)
			memset(field, 0, sizeof(struct pp_strlist));
	}
	for (size_t i = 0; i < pp_nsettings && err == 0; i++) {
		const struct pp_setting *s = &pp_settings[i];
		const char *from = (const char *)src + s->offset;
		char *to = (char *)dst + s->offset;

		if (s->kind == PP_SET_STRING) {
			const char *v = *(char *const *)from;

			if (v && !*(char **)to && !(*(char **)to = strdup(v)))
				err = -1;
		} else if (s->kind == PP_SET_STRING_LIST) {
			const struct pp_strlist *l =
			        (const struct pp_strlist *)from;
			struct pp_strlist *copy = (struct pp_strlist *)to;

			if (copy->n)
				continue; /* a list two settings share */
			for (size_t k = 0; k < l->n && err == 0; k++)
				err = strlist_add(copy, l->v[k]);
		}
	}
	if (err == 0 && src->nrules) {
		dst->rules = calloc(src->nrules, sizeof(*dst->rules));
		if (!dst->rules)
			err = -1;
		for (size_t i = 0; err == 0 && i < src->nrules; i++) {
			dst->rules[i] = src->rules[i];
			if (!(dst->rules[i].regex =
			              strdup(src->rules[i].regex)))
				err = -1;
			dst->nrules = i + 1;
		}
	}
	if (err < 0)
		pp_cli_config_release(dst);
	return err;
}

void pp_setting_format(const struct pp_setting *s,
                       const struct pp_cli_config *c, char *buf, size_t size)
{
	const char *field = (const char *)c + s->offset;

	switch (s->kind) {
	case PP_SET_BOOL:
		snprintf(buf, size, "%s",
		         *(const bool *)field ? "true" : "false");
		return;
	case PP_SET_INT:
		snprintf(buf, size, "%d", *(const int *)field);
		return;
	case PP_SET_FLOAT:
		snprintf(buf, size, "%g", *(const double *)field);
		return;
	case PP_SET_STRING: {
		const char *v = *(char *const *)field;

		snprintf(buf, size, "%s", v ? v : "");
		return;
	}
	case PP_SET_STRING_LIST: {
		const struct pp_strlist *l = (const struct pp_strlist *)field;
		size_t used = 0;

		buf[0] = '\0';
		for (size_t i = 0; i < l->n && used < size; i++) {
			int n = snprintf(buf + used, size - used, "%s%s",
			                 i ? " " : "", l->v[i]);

			if (n < 0)
				break;
			used += (size_t)n;
		}
		return;
	}
	case PP_SET_CHECK_RULE: {
		size_t used = 0;

		buf[0] = '\0';
		for (size_t i = 0; i < c->nrules && used < size; i++) {
			int n;

			if (c->rules[i].growth != (s->alias_value != 0))
				continue;
			n = snprintf(buf + used, size - used, "%s%s=%g",
			             used ? " " : "", c->rules[i].regex,
			             c->rules[i].limit);
			if (n < 0)
				break;
			used += (size_t)n;
		}
		return;
	}
	case PP_SET_GRANULARITY:
		snprintf(buf, size, "%s",
		         pp_granularity_name(
		                 *(const enum pp_granularity *)field));
		return;
	case PP_SET_SIZE:
		snprintf(buf, size, "%llu",
		         (unsigned long long)*(const uint64_t *)field);
		return;
	case PP_SET_ALIAS_GRANULARITY:
		snprintf(buf, size, "%s",
		         *(const enum pp_granularity *)field ==
		                         (enum pp_granularity)s->alias_value
		                 ? "true"
		                 : "false");
		return;
	case PP_SET_ALIAS_SAMPLE_INDEX:
		snprintf(buf, size, "%s",
		         *(const unsigned *)field & (1u << s->alias_value)
		                 ? "true"
		                 : "false");
		return;
	case PP_SET_SORT:
		snprintf(buf, size, "%s",
		         *(const bool *)field == (s->alias_value != 0)
		                 ? "true"
		                 : "false");
		return;
	case PP_SET_SORT_NAME:
		snprintf(buf, size, "%s",
		         *(const bool *)field ? "cum" : "flat");
		return;
	default:
		break;
	}
	snprintf(buf, size, "?");
}

const struct pp_setting *pp_setting_find(const char *name)
{
	for (size_t i = 0; i < pp_nsettings; i++)
		if (strcmp(pp_settings[i].name, name) == 0)
			return &pp_settings[i];
	return NULL;
}

bool pp_setting_is_flag(const struct pp_setting *s)
{
	switch (s->kind) {
	case PP_SET_BOOL:
	case PP_SET_ALIAS_GRANULARITY:
	case PP_SET_ALIAS_SAMPLE_INDEX:
	case PP_SET_SORT:
		return true;
	default:
		return false;
	}
}

static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = {"1",    "t",    "T",
	                                  "true", "TRUE", "True"};
	static const char *const no[] = {"0",     "f",     "F",
	                                 "false", "FALSE", "False"};

	for (size_t i = 0; i < 6; i++) {
		if (strcmp(v, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(v, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int parse_size(const char *v, uint64_t *out)
{
	char *end;
	unsigned long long n;
	uint64_t mult = 1;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (end == v || errno || v[0] == '-')
		return -1;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mult = 1ull << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1ull << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1ull << 30;
		end++;
		break;
	default:
		return -1;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || n == 0 || n > UINT64_MAX / mult)
		return -1;
	*out = n * mult;
	return 0;
}

static int set_string(char **slot, const char *v)
{
	char *copy = strdup(v);

	if (!copy)
		return -1;
	free(*slot);
	*slot = copy;
	return 0;
}

int pp_setting_apply(const struct pp_setting *s, struct pp_cli_config *c,
                     const char *value, char *err, size_t errsize)
{
	char *field = (char *)c + s->offset;
	char *end;
	bool b;

	if (pp_setting_is_flag(s) && s->kind != PP_SET_BOOL && value) {
		/* -lines=true is accepted, -lines=false means "not this". */
		if (parse_bool(value, &b) < 0)
			goto bad;
		if (!b)
			return 0;
		value = NULL;
	}
	switch (s->kind) {
	case PP_SET_BOOL:
		if (!value) {
			*(bool *)field = true;
			return 0;
		}
		if (parse_bool(value, (bool *)field) < 0)
			goto bad;
		return 0;
	case PP_SET_SORT:
		*(bool *)field = s->alias_value != 0;
		return 0;
	case PP_SET_SORT_NAME:
		if (!value)
			goto missing;
		if (strcmp(value, "cum") != 0 && strcmp(value, "flat") != 0) {
			snprintf(err, errsize,
			         "invalid sort \"%s\": want flat or cum",
			         value);
			return -1;
		}
		*(bool *)field = value[0] == 'c';
		return 0;
	case PP_SET_INT: {
		long v;

		if (!value)
			goto missing;
		errno = 0;
		v = strtol(value, &end, 10);
		if (end == value || *end || errno || v < INT32_MIN ||
		    v > INT32_MAX)
			goto bad;
		*(int *)field = (int)v;
		return 0;
	}
	case PP_SET_FLOAT: {
		double v;

		if (!value)
			goto missing;
		errno = 0;
		v = strtod(value, &end);
		if (end == value || *end || errno || !isfinite(v))
			goto bad;
		*(double *)field = v;
		return 0;
	}
	case PP_SET_STRING:
		if (!value)
			goto missing;
		if (set_string((char **)field, value) < 0)
			goto nomem;
		return 0;
	case PP_SET_STRING_LIST:
		if (!value)
			goto missing;
		if (*value &&
		    strlist_add((struct pp_strlist *)field, value) < 0)
			goto nomem;
		return 0;
	case PP_SET_GRANULARITY:
		if (!value)
			goto missing;
		if (pp_granularity_parse(value, (enum pp_granularity *)field) <
		    0) {
			snprintf(err, errsize,
			         "invalid granularity \"%s\": want functions, "
			         "filefunctions, files, lines or addresses",
			         value);
			return -1;
		}
		return 0;
	case PP_SET_ALIAS_GRANULARITY:
		*(enum pp_granularity *)field =
		        (enum pp_granularity)s->alias_value;
		return 0;
	case PP_SET_ALIAS_SAMPLE_INDEX:
		*(unsigned *)field |= 1u << s->alias_value;
		return 0;
	case PP_SET_CHECK_RULE: {
		const char *eq = value ? strrchr(value, '=') : NULL;
		struct pp_check_rule *rules;
		double limit;

		if (!value)
			goto missing;
		if (!eq || eq == value)
			goto bad;
		errno = 0;
		limit = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || errno || !isfinite(limit))
			goto bad;
		rules = realloc(c->rules, (c->nrules + 1) * sizeof(*rules));
		if (!rules)
			goto nomem;
		c->rules = rules;
		rules[c->nrules].regex = strndup(value, (size_t)(eq - value));
		if (!rules[c->nrules].regex)
			goto nomem;
		rules[c->nrules].limit = limit;
		rules[c->nrules].growth = s->alias_value != 0;
		c->nrules++;
		return 0;
	}
	case PP_SET_SIZE:
		if (!value)
			goto missing;
		if (parse_size(value, (uint64_t *)field) < 0)
			goto bad;
		return 0;
	}
bad:
	snprintf(err, errsize, "invalid value \"%s\" for -%s",
	         value ? value : "", s->name);
	return -1;
missing:
	snprintf(err, errsize, "option -%s needs a value", s->name);
	return -1;
nomem:
	snprintf(err, errsize, "out of memory");
	return -1;
}

void pp_settings_print_help(FILE *out)
{
	for (size_t i = 0; i < pp_nsettings; i++) {
		const struct pp_setting *s = &pp_settings[i];
		char left[48];

		snprintf(left, sizeof(left), "-%s%s%s", s->name,
		         s->arg ? "=" : "", s->arg ? s->arg : "");
		fprintf(out, "  %-26s %s\n", left, s->help);
	}
}

int pp_cli_config_resolve(struct pp_cli_config *c, pp_cli_warn_fn warn,
                          void *data)
{
	char msg[128];

	for (size_t i = 0;
	     i < sizeof(legacy_samples) / sizeof(legacy_samples[0]); i++) {
		if (!(c->legacy_samples & (1u << i)))
			continue;
		/* -mean_delay means the mean even when its sample type is
		 * ignored for another (pprof's cfg.Mean). */
		if (legacy_samples[i].mean)
			c->report.mean = true;
		if (c->sample_index) {
			snprintf(msg, sizeof(msg),
			         "Multiple value selections, ignoring -%s",
			         legacy_samples[i].flag);
			if (warn)
				warn(data, msg);
			continue;
		}
		if (set_string(&c->sample_index, legacy_samples[i].type) < 0)
			return -1;
	}
	c->legacy_samples = 0;
	return 0;
}
