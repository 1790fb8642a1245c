/*
 * Build-time tool: writes pprof-c's shell completion for bash, zsh or fish
 * from the command and settings tables, so a new command or option is
 * completed without anyone editing a completion script.
 *
 *   gen_completions bash|zsh|fish OUTPUT
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "pprof/graph.h"
#include "settings.h"

/* Values of -sample_index the tables know: the types pprof's legacy flags
 * stand for (-alloc_space, -contentions, ...), and the two of Go's CPU
 * profiles, which have no flag. */
static void sample_types(FILE *out, const char *sep)
{
	const char *seen[32];
	size_t nseen = 0;

	fprintf(out, "samples%scpu", sep);
	for (size_t i = 0; i < pp_nsettings; i++) {
		const char *t = pp_setting_sample_type(&pp_settings[i]);
		bool dup = false;

		if (!t)
			continue;
		for (size_t j = 0; j < nseen; j++)
			dup = dup || strcmp(seen[j], t) == 0;
		if (dup || nseen == sizeof(seen) / sizeof(seen[0]))
			continue;
		seen[nseen++] = t;
		fprintf(out, "%s%s", sep, t);
	}
}

static void granularities(FILE *out, const char *sep)
{
	for (int g = PP_GRAN_FUNCTIONS; g <= PP_GRAN_ADDRESSES; g++)
		fprintf(out, "%s%s", g == PP_GRAN_FUNCTIONS ? "" : sep,
		        pp_granularity_name((enum pp_granularity)g));
}

/* What kind of value an option takes, for the shells' value completion. */
enum value_kind { V_NONE, V_BOOL, V_SAMPLE, V_GRAN, V_FILE, V_DIR, V_OTHER };

static enum value_kind value_kind(const struct pp_setting *s)
{
	if (pp_setting_is_flag(s))
		return s->kind == PP_SET_BOOL ? V_BOOL : V_NONE;
	if (strcmp(s->name, "sample_index") == 0)
		return V_SAMPLE;
	if (s->kind == PP_SET_GRANULARITY)
		return V_GRAN;
	if (s->arg && strcmp(s->arg, "FILE") == 0)
		return V_FILE;
	if (s->arg && strcmp(s->arg, "DIR") == 0)
		return V_DIR;
	return V_OTHER;
}

/* Text safe inside a single-quoted shell word, a zsh spec or a fish
 * description: quotes and brackets become harmless, and for zsh (colon
 true) colons, which separate a spec's fields. */
static void put_help(FILE *out, const char *s, bool colon)
{
	for (; *s; s++) {
		switch (*s) {
		case '\'':
			fputc('`', out);
			break;
		case '[':
			fputc('(', out);
			break;
		case ']':
			fputc(')', out);
			break;
		case ':':
			fputs(colon ? "\\:" : ":", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

static void bash(FILE *out)
{
	fputs("# bash completion for pprof-c; generated from its command and\n"
	      "# settings tables at build time (src/cli/gen_completions.c).\n"
	      "_pprof_c() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=\n"
	      "\t[ \"$COMP_CWORD\" -gt 0 ] && "
	      "prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\tlocal commands='",
	      out);
	for (size_t i = 0; i < pp_ncommands; i++)
		fprintf(out, "%s%s", i ? " " : "", pp_commands[i].name);
	fputs("'\n\tlocal flags='--help --version", out);
	for (size_t i = 0; i < pp_nsettings; i++)
		if (pp_setting_is_flag(&pp_settings[i]))
			fprintf(out, " -%s", pp_settings[i].name);
	fputs("'\n\tlocal valued='", out);
	for (size_t i = 0, n = 0; i < pp_nsettings; i++)
		if (!pp_setting_is_flag(&pp_settings[i]))
			fprintf(out, "%s-%s=", n++ ? " " : "",
			        pp_settings[i].name);
	fputs("'\n\tlocal opt=$cur val=\n"
	      "\t# COMP_WORDBREAKS may split -name=value at the '='.\n"
	      "\tif [ \"$cur\" = = ]; then opt=$prev=; cur=;\n"
	      "\telif [ \"$prev\" = = ] && [ \"$COMP_CWORD\" -gt 1 ]; then\n"
	      "\t\topt=${COMP_WORDS[COMP_CWORD-2]}=\n"
	      "\telif [[ $cur == -*=* ]]; then opt=${cur%%=*}=; cur=${cur#*=}; "
	      "val=$opt\n"
	      "\t# -name VALUE, as two words\n"
	      "\telif [[ $cur != -* && \" $valued \" == *\" $prev= \"* ]]; "
	      "then "
	      "opt=$prev=; fi\n"
	      "\tcase $opt in\n"
	      "\t-sample_index= | --sample_index=)\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$val\" -W '",
	      out);
	sample_types(out, " ");
	fputs("' -- \"$cur\")); return ;;\n"
	      "\t-granularity= | --granularity=)\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$val\" -W '",
	      out);
	granularities(out, " ");
	fputs("' -- \"$cur\")); return ;;\n", out);
	for (size_t i = 0; i < pp_nsettings; i++) {
		enum value_kind k = value_kind(&pp_settings[i]);

		if (k == V_FILE || k == V_DIR)
			fprintf(out,
			        "\t-%s= | --%s=)\n\t\tCOMPREPLY=($(compgen -P "
			        "\"$val\" -%c -- \"$cur\")); return ;;\n",
			        pp_settings[i].name, pp_settings[i].name,
			        k == V_FILE ? 'f' : 'd');
	}
	fputs("\tesac\n"
	      "\tcase $cur in\n"
	      "\t-*)\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$flags $valued\" -- \"$cur\"))\n"
	      "\t\t[[ ${COMPREPLY[0]} == *= ]] && compopt -o nospace\n"
	      "\t\t;;\n"
	      "\t*)\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$commands\" -- \"$cur\") "
	      "$(compgen -f -- \"$cur\"))\n"
	      "\t\t;;\n"
	      "\tesac\n"
	      "}\n"
	      "complete -o filenames -F _pprof_c pprof-c\n",
	      out);
}

static void zsh(FILE *out)
{
	fputs("#compdef pprof-c\n"
	      "# zsh completion for pprof-c; generated from its command and\n"
	      "# settings tables at build time (src/cli/gen_completions.c).\n"
	      "local -a commands\n"
	      "commands=(\n",
	      out);
	for (size_t i = 0; i < pp_ncommands; i++) {
		fprintf(out, "\t'%s:", pp_commands[i].name);
		put_help(out, pp_commands[i].help, true);
		fputs("'\n", out);
	}
	fputs(")\n"
	      "_arguments -S \\\n"
	      "\t'(- *)--help[print the commands and options]' \\\n"
	      "\t'(- *)--version[print the version]' \\\n",
	      out);
	for (size_t i = 0; i < pp_nsettings; i++) {
		const struct pp_setting *s = &pp_settings[i];
		enum value_kind k = value_kind(s);

		fprintf(out, "\t'-%s%s[", s->name,
		        k == V_NONE || k == V_BOOL ? "" : "=");
		put_help(out, s->help, true);
		fputc(']', out);
		switch (k) {
		case V_NONE:
		case V_BOOL:
			break;
		case V_SAMPLE:
			fputs(":sample type:(", out);
			sample_types(out, " ");
			fputc(')', out);
			break;
		case V_GRAN:
			fputs(":granularity:(", out);
			granularities(out, " ");
			fputc(')', out);
			break;
		case V_FILE:
			fputs(":file:_files", out);
			break;
		case V_DIR:
			fputs(":directory:_files -/", out);
			break;
		case V_OTHER:
			fprintf(out, ":%s: ", s->arg ? s->arg : "value");
			break;
		}
		fputs("' \\\n", out);
	}
	fputs("\t'*:: :->args'\n"
	      "[[ $state == args ]] && _alternative \\\n"
	      "\t'commands:command:{_describe command commands}' \\\n"
	      "\t'files:profile:_files'\n",
	      out);
}

static void fish(FILE *out)
{
	fputs("# fish completion for pprof-c; generated from its command and\n"
	      "# settings tables at build time (src/cli/gen_completions.c).\n"
	      "complete -c pprof-c -l help -d 'print the commands and "
	      "options'\n"
	      "complete -c pprof-c -l version -d 'print the version'\n",
	      out);
	for (size_t i = 0; i < pp_ncommands; i++) {
		fprintf(out, "complete -c pprof-c -a %s -d '",
		        pp_commands[i].name);
		put_help(out, pp_commands[i].help, false);
		fputs("'\n", out);
	}
	for (size_t i = 0; i < pp_nsettings; i++) {
		const struct pp_setting *s = &pp_settings[i];
		enum value_kind k = value_kind(s);

		fprintf(out, "complete -c pprof-c -o %s", s->name);
		switch (k) {
		case V_NONE:
		case V_BOOL:
			break;
		case V_SAMPLE:
			fputs(" -x -a '", out);
			sample_types(out, " ");
			fputc('\'', out);
			break;
		case V_GRAN:
			fputs(" -x -a '", out);
			granularities(out, " ");
			fputc('\'', out);
			break;
		case V_FILE:
		case V_DIR:
			fputs(" -r -F", out);
			break;
		case V_OTHER:
			fputs(" -x", out);
			break;
		}
		fputs(" -d '", out);
		put_help(out, s->help, false);
		fputs("'\n", out);
	}
}

int main(int argc, char **argv)
{
	FILE *out;
	int rc;

	if (argc != 3) {
		fprintf(stderr,
		        "usage: gen_completions bash|zsh|fish OUTPUT\n");
		return 2;
	}
	out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	if (strcmp(argv[1], "bash") == 0)
		bash(out);
	else if (strcmp(argv[1], "zsh") == 0)
		zsh(out);
	else if (strcmp(argv[1], "fish") == 0)
		fish(out);
	else {
		fprintf(stderr, "gen_completions: %s: not bash, zsh or fish\n",
		        argv[1]);
		fclose(out);
		return 2;
	}
	rc = ferror(out) ? 1 : 0;
	if (fclose(out) != 0)
		rc = 1;
	return rc;
}
