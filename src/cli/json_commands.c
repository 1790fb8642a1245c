/* -json: the commands that print the web UI's JSON (docs/web-api.md)
 * instead of their text, for scripts that would parse the text. */
#include <string.h>

#include "commands.h"

static int top_json(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_top_json(r, out);
}

static int tree_json(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_tree_json(r, NULL, out);
}

static int peek_json(struct pp_report *r, const char *arg, FILE *out)
{
	return pp_report_tree_json(r, arg, out);
}

static int flame_json(struct pp_report *r, const char *arg, FILE *out)
{
	/* Every frame: a script wants the whole tree, not a screenful. */
	struct pp_flame_json_opts o = {0, 0};

	(void)arg;
	return pp_report_flame_json(r, &o, out);
}

static int traces_json(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_traces_json(r, out);
}

static int tags_json(struct pp_report *r, const char *arg, FILE *out)
{
	(void)arg;
	return pp_report_tags_json(r, out);
}

static const struct {
	const char *command;
	pp_command_run_fn run;
} json_runs[] = {
        {"top", top_json},   {"text", top_json},    {"tree", tree_json},
        {"peek", peek_json}, {"flame", flame_json}, {"traces", traces_json},
        {"tags", tags_json},
};

pp_command_run_fn pp_command_json_run(const struct pp_command *c)
{
	for (size_t i = 0; i < sizeof(json_runs) / sizeof(json_runs[0]); i++)
		if (strcmp(json_runs[i].command, c->name) == 0)
			return json_runs[i].run;
	return NULL;
}
