#include <stdlib.h>
#include <string.h>

#include "query.h"

/* pprof's URL parameter for each setting (its config.go), in one order
 * that also makes the cache key. "sort" is handled apart (its value names
 * the setting). */
static const struct {
	const char *param, *setting;
	bool filter; /* the URL's alone, never the command line's */
} params[] = {
        {"si", "sample_index", false},
        {"f", "focus", true},
        {"i", "ignore", true},
        {"h", "hide", true},
        {"s", "show", true},
        {"sf", "show_from", true},
        {"prunefrom", "prune_from", true},
        {"tf", "tagfocus", true},
        {"ti", "tagignore", true},
        {"ts", "tagshow", true},
        {"th", "taghide", true},
        {"g", "granularity", false},
        {"granularity", "granularity", false},
        {"mean", "mean", false},
        {"unit", "unit", false},
        {"n", "nodecount", false},
        {"nf", "nodefraction", false},
        {"ef", "edgefraction", false},
        {"trim", "trim", false},
        {"rel", "relative_percentages", false},
        {"dropneg", "drop_negative", false},
        {"noinlines", "noinlines", false},
        {"showcolumns", "showcolumns", false},
        {"calltree", "call_tree", false},
        {"compact", "compact_labels", false},
        {"intel", "intel_syntax", false},
        /* Not "norm": pprof normalizes by the base when it loads the
         * profiles, so in its URLs that parameter changes nothing. */
};

#define NPARAMS (sizeof(params) / sizeof(params[0]))

static void clear_filters(struct pp_cli_config *c)
{
	char **fields[] = {&c->focus,    &c->ignore,    &c->hide,
	                   &c->show,     &c->show_from, &c->prune_from,
	                   &c->tagfocus, &c->tagignore, &c->tagshow,
	                   &c->taghide};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		free(*fields[i]);
		*fields[i] = NULL;
	}
}

int pp_web_query_config(const struct pp_cli_config *base, pp_web_get_fn get,
                        void *data, struct pp_cli_config *out, char **key,
                        char *err, size_t errsize)
{
	char *text = NULL;
	size_t size = 0;
	FILE *k;
	const char *sort;

	*key = NULL;
	if (pp_cli_config_copy(out, base) < 0) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	clear_filters(out);
	k = open_memstream(&text, &size);
	if (!k) {
		pp_cli_config_release(out);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < NPARAMS; i++) {
		const char *v = get(data, params[i].param);

		/* pprof skips empty values: the default stands. */
		if (!v || !*v)
			continue;
		if (pp_setting_apply(pp_setting_find(params[i].setting), out, v,
		                     err, errsize) < 0)
			goto fail;
		/* Length-prefixed, so no value can forge another's entry. */
		fprintf(k, "%s=%zu:%s;", params[i].param, strlen(v), v);
	}
	sort = get(data, "sort");
	if (sort && *sort) {
		if (strcmp(sort, "cum") != 0 && strcmp(sort, "flat") != 0) {
			snprintf(err, errsize, "invalid \"sort\" value \"%s\"",
			         sort);
			goto fail;
		}
		pp_setting_apply(pp_setting_find(sort), out, NULL, err,
		                 errsize);
		fprintf(k, "sort=%s;", sort);
	}
	if (fclose(k) != 0) {
		k = NULL;
		snprintf(err, errsize, "out of memory");
		goto fail;
	}
	*key = text;
	return 0;
fail:
	if (k)
		fclose(k);
	free(text);
	pp_cli_config_release(out);
	return -1;
}

void pp_web_put_encoded(FILE *out, const char *s, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '-' || c == '.' ||
		    c == '_' || c == '~')
			fputc(c, out);
		else
			fprintf(out, "%%%c%c", hex[c >> 4], hex[c & 15]);
	}
}

char *pp_web_query_initial(const struct pp_cli_config *cfg)
{
	const struct {
		const char *param, *value;
	} initial[] = {
	        {"si", cfg->sample_index},
	        {"f", cfg->focus},
	        {"i", cfg->ignore},
	        {"h", cfg->hide},
	        {"s", cfg->show},
	        {"sf", cfg->show_from},
	        {"tf", cfg->tagfocus},
	        {"ti", cfg->tagignore},
	        {"ts", cfg->tagshow},
	        {"th", cfg->taghide},
	        {"prunefrom", cfg->prune_from},
	};
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);
	bool first = true;

	if (!out)
		return NULL;
	for (size_t i = 0; i < sizeof(initial) / sizeof(initial[0]); i++) {
		if (!initial[i].value || !*initial[i].value)
			continue;
		fprintf(out, "%c%s=", first ? '?' : '&', initial[i].param);
		pp_web_put_encoded(out, initial[i].value,
		                   strlen(initial[i].value));
		first = false;
	}
	if (fclose(out) != 0) {
		free(text);
		return NULL;
	}
	return text;
}
