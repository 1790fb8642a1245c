/* Tab completion's candidates, from the command and settings tables and
 * the profile (sample types, function names). No terminal here: the
 * candidates go to a callback, so this is testable without libedit. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "pprof/graph.h"
#include "shell.h"
#include "tokenize.h"

struct sink {
	const char *prefix; /* what is typed of the word */
	size_t len;
	void (*add)(void *data, const char *word);
	void *data;
};

static void offer(const struct sink *k, const char *before, const char *word,
                  const char *after)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "%s%s%s", before, word, after);
	if (strncmp(buf, k->prefix, k->len) == 0)
		k->add(k->data, buf);
}

/* A function name, offered when what is typed (after `before`) starts it
 * or starts one of its dot-separated suffixes, as people type names:
 * "LoggingM" and "main.Lo" both offer main.LoggingMiddleware, and
 * "Add" offers main.(*Hasher).Add. */
static void offer_function(const struct sink *k, const char *before,
                           const char *name)
{
	size_t blen = strlen(before);
	const char *typed = k->prefix + blen;
	size_t tlen = k->len - blen;

	if (k->len < blen || strncmp(k->prefix, before, blen) != 0)
		return;
	for (const char *suffix = name; suffix;) {
		if (strncmp(suffix, typed, tlen) == 0) {
			char buf[1024];

			snprintf(buf, sizeof(buf), "%s%s", before, name);
			k->add(k->data, buf);
			return;
		}
		suffix = strchr(suffix, '.');
		if (suffix)
			suffix++;
	}
}

static bool takes_value(const struct pp_setting *s)
{
	return !pp_setting_is_flag(s);
}

/* NAME= for settings with values, NAME for flags. */
static void offer_settings(const struct sink *k, const char *dash)
{
	for (size_t i = 0; i < pp_nsettings; i++)
		offer(k, dash, pp_settings[i].name,
		      takes_value(&pp_settings[i]) ? "=" : "");
}

static void offer_commands(const struct sink *k)
{
	for (size_t i = 0; i < pp_ncommands; i++)
		offer(k, "", pp_commands[i].name, "");
	for (size_t i = 0; i < pp_shell_nbuiltins; i++)
		offer(k, "", pp_shell_builtins[i].name, "");
}

/* The values setting s may take, each written after `before`. */
static void offer_values(const struct pp_shell *sh, const struct sink *k,
                         const struct pp_setting *s, const char *before)
{
	const struct pp_profile *p = pp_shell__profile(sh);

	switch (s->kind) {
	case PP_SET_BOOL:
		offer(k, before, "true", "");
		offer(k, before, "false", "");
		return;
	case PP_SET_GRANULARITY:
		for (int g = PP_GRAN_FUNCTIONS; g <= PP_GRAN_ADDRESSES; g++)
			offer(k, before,
			      pp_granularity_name((enum pp_granularity)g), "");
		return;
	case PP_SET_SORT_NAME:
		offer(k, before, "flat", "");
		offer(k, before, "cum", "");
		return;
	default:
		break;
	}
	if (strcmp(s->name, "sample_index") == 0) {
		for (uint32_t i = 0; i < p->nsample_types; i++)
			offer(k, before,
			      pp_profile_str(p, p->sample_types[i].type), "");
		return;
	}
	if (s->arg && strcmp(s->arg, "REGEX") == 0)
		for (uint32_t i = 0; i < p->nfunctions; i++)
			offer_function(k, before,
			               pp_profile_str(p, p->functions[i].name));
}

void pp_shell_complete(const struct pp_shell *sh, const char *line,
                       size_t start, size_t end,
                       void (*add)(void *data, const char *word), void *data)
{
	const struct pp_profile *p = pp_shell__profile(sh);
	struct pp_tokens t = {0};
	struct sink k;
	char word[1024], *head = NULL, err[64];
	const struct pp_setting *s;
	const char *eq;

	if (end < start || end - start >= sizeof(word))
		return;
	memcpy(word, line + start, end - start);
	word[end - start] = '\0';
	k.prefix = word;
	k.len = end - start;
	k.add = add;
	k.data = data;
	/* The words before this one decide what it can be. */
	if (!(head = malloc(start + 1)))
		return;
	memcpy(head, line, start);
	head[start] = '\0';
	if (pp_tokenize(head, &t, err, sizeof(err)) == -2)
		goto done;
	eq = strchr(word, '=');
	if (t.n == 0) {
		char name[128];

		if (!eq) {
			offer_commands(&k);
			offer_settings(&k, "");
			goto done;
		}
		/* name=partial value */
		snprintf(name, sizeof(name), "%.*s", (int)(eq - word), word);
		if ((s = pp_setting_find(name))) {
			snprintf(name, sizeof(name), "%.*s",
			         (int)(eq - word + 1), word);
			offer_values(sh, &k, s, name);
		}
		goto done;
	}
	if (t.redirect[t.n - 1])
		goto done; /* a file name: nothing of ours to offer */
	if (strcmp(t.v[0], "help") == 0) {
		offer_commands(&k);
		offer_settings(&k, "");
		goto done;
	}
	if ((s = pp_setting_find(t.v[0]))) { /* `name value` */
		offer_values(sh, &k, s, "");
		goto done;
	}
	if (word[0] == '-') {
		char name[128];

		if (eq) {
			snprintf(name, sizeof(name), "%.*s",
			         (int)(eq - word - 1), word + 1);
			if ((s = pp_setting_find(name))) {
				snprintf(name, sizeof(name), "%.*s",
				         (int)(eq - word + 1), word);
				offer_values(sh, &k, s, name);
			}
			goto done;
		}
		offer_settings(&k, "-");
		goto done;
	}
	/* A report's regex or focus: function names. */
	for (uint32_t i = 0; i < p->nfunctions; i++)
		offer_function(&k, "", pp_profile_str(p, p->functions[i].name));
done:
	pp_tokens_release(&t);
	free(head);
}
