#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "args.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* A word that names a file is a profile, not a command; a directory is
 * never a profile (so `proto` is the command even beside a proto/ dir). */
static bool file_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* Could word be meant as a command: a lowercase word of letters, digits
 * and '_', as every report's name is (never a path, a URL or host:port)? */
static bool command_like(const char *w)
{
	if (!(*w >= 'a' && *w <= 'z'))
		return false;
	for (; *w; w++)
		if (!((*w >= 'a' && *w <= 'z') || (*w >= '0' && *w <= '9') ||
		      *w == '_'))
			return false;
	return true;
}

/* Is there a word after argv[i] that is not an option? */
static bool more_words(int argc, char **argv, int i)
{
	for (i++; i < argc; i++)
		if (argv[i][0] != '-' || strcmp(argv[i], "-") == 0)
			return true;
	return false;
}

static int set_command(struct pp_cli_args *a, const struct pp_command *c,
                       int count, char *err, size_t errsize)
{
	if (a->command && a->command != c) {
		snprintf(err, errsize,
		         "more than one report requested (%s and %s)",
		         a->command->name, c->name);
		return -1;
	}
	a->command = c;
	if (count >= 0)
		a->config.nodecount = count;
	return 0;
}

/* pprof's granularity and sort are each one choice its flags spell
 * (-lines, -files, ...; -cum, -flat): which of each group's flags the
 * command line left true, one bit per alias value. */
struct choices {
	unsigned granularity, sort;
};

static void note_choice(struct choices *ch, const struct pp_setting *s,
                        const char *value)
{
	/* pp_setting_apply has checked the value: Go's boolean spellings
	 * that start with 1, t or T are true, the others false. */
	bool on =
	        !value || value[0] == '1' || value[0] == 't' || value[0] == 'T';
	unsigned *mask = s->kind == PP_SET_ALIAS_GRANULARITY ? &ch->granularity
	                 : s->kind == PP_SET_SORT            ? &ch->sort
	                                                     : NULL;

	if (!mask)
		return;
	if (on)
		*mask |= 1u << s->alias_value;
	else
		*mask &= ~(1u << s->alias_value);
}

/* More than one flag of a group true is pprof's usage error, where the
 * shell's name=value takes the last (so only the command line checks). */
static int check_choices(const struct choices *ch, char *err, size_t errsize)
{
	for (int g = 0; g < 2; g++) {
		enum pp_setting_kind kind =
		        g ? PP_SET_SORT : PP_SET_ALIAS_GRANULARITY;
		unsigned mask = g ? ch->sort : ch->granularity;
		const char *sep = "";
		size_t used;

		if ((mask & (mask - 1)) == 0)
			continue;
		/* pprof lists them in Go's map order; ours is the table's. */
		used = (size_t)snprintf(err, errsize,
		                        "conflicting options set: [");
		for (size_t i = 0; i < pp_nsettings && used < errsize; i++) {
			const struct pp_setting *s = &pp_settings[i];

			if (s->kind != kind || !(mask & (1u << s->alias_value)))
				continue;
			used += (size_t)snprintf(err + used, errsize - used,
			                         "%s%s", sep, s->name);
			sep = " ";
		}
		if (used < errsize)
			snprintf(err + used, errsize - used, "]");
		return -1;
	}
	return 0;
}

int pp_cli_parse(int argc, char **argv, struct pp_cli_args *a, char *err,
                 size_t errsize)
{
	bool options_done = false, want_regex = false, want_count = false;
	struct choices choices = {0, 0};

	memset(a, 0, sizeof(*a));
	pp_cli_config_init(&a->config);
	a->sources = calloc((size_t)argc + 1, sizeof(*a->sources));
	if (!a->sources) {
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!options_done && strcmp(arg, "--") == 0) {
			options_done = true;
			continue;
		}
		if (!options_done && arg[0] == '-' && arg[1] != '\0') {
			char name[128];
			const char *body = arg + (arg[1] == '-' ? 2 : 1);
			const char *eq = strchr(body, '=');
			const char *value = eq ? eq + 1 : NULL;
			size_t len = eq ? (size_t)(eq - body) : strlen(body);
			const struct pp_setting *s;
			const struct pp_command *c;
			int count;

			if (len == 0 || len >= sizeof(name)) {
				snprintf(err, errsize, "unknown option %s",
				         arg);
				return -1;
			}
			memcpy(name, body, len);
			name[len] = '\0';
			if (strcmp(name, "h") == 0 ||
			    strcmp(name, "help") == 0) {
				a->help = true;
				continue;
			}
			if (strcmp(name, "version") == 0) {
				a->version = true;
				continue;
			}
			if ((c = pp_command_find(name, &count))) {
				/* Go-style report flag: -top, -list=REGEX. */
				if (set_command(a, c, count, err, errsize) < 0)
					return -1;
				if (c->wants_regex) {
					if (value)
						a->regex = value;
					else if (i + 1 < argc)
						a->regex = argv[++i];
					else {
						snprintf(err, errsize,
						         "-%s needs a regular "
						         "expression",
						         name);
						return -1;
					}
				}
				continue;
			}
			s = pp_setting_find(name);
			if (!s) {
				snprintf(err, errsize, "unknown option -%s",
				         name);
				return -1;
			}
			if (!value && !pp_setting_is_flag(s)) {
				if (i + 1 >= argc) {
					snprintf(err, errsize,
					         "option -%s needs a value",
					         name);
					return -1;
				}
				value = argv[++i];
			}
			if (pp_setting_apply(s, &a->config, value, err,
			                     errsize) < 0)
				return -1;
			note_choice(&choices, s, value);
			continue;
		}
		/* A positional word. */
		if (want_regex) {
			a->regex = arg;
			want_regex = false;
			continue;
		}
		if (want_count) {
			want_count = false;
			if (all_digits(arg) && !file_exists(arg)) {
				a->config.nodecount = atoi(arg);
				continue;
			}
		}
		if (!a->command && a->nsources == 0) {
			int count;
			const struct pp_command *c =
			        pp_command_find(arg, &count);

			if (c && !file_exists(arg)) {
				if (set_command(a, c, count, err, errsize) < 0)
					return -1;
				want_regex = c->wants_regex && !a->regex;
				want_count = strcmp(c->name, "top") == 0 &&
				             count < 0;
				continue;
			}
			/* "pprof-c frob cpu.pb.gz": a word where the
			 * command goes, naming neither a command nor a
			 * file, is a mistyped command, not a missing
			 * profile. */
			if (!c && command_like(arg) && !file_exists(arg) &&
			    more_words(argc, argv, i)) {
				snprintf(err, errsize,
				         "unknown command \"%s\" (and no file "
				         "of that name)",
				         arg);
				return -1;
			}
		}
		a->sources[a->nsources++] = arg;
	}
	if (want_regex) {
		snprintf(err, errsize, "%s needs a regular expression",
		         a->command->name);
		return -1;
	}
	if (!a->help && !a->version &&
	    check_choices(&choices, err, errsize) < 0)
		return -1;
	return 0;
}

void pp_cli_args_release(struct pp_cli_args *a)
{
	pp_cli_config_release(&a->config);
	free(a->sources);
	a->sources = NULL;
}
