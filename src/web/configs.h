/*
 * Named configurations, kept as pprof keeps them: its settings.json under
 * the user's config directory ($XDG_CONFIG_HOME, else ~/.config, then
 * pprof/settings.json), {"configs": [{"name": ..., "focus": ..., ...}]},
 * the fields named as in pprof's config. So configurations saved by either
 * tool show in the other's menu; fields we do not know are kept.
 */
#ifndef PP_WEB_CONFIGS_H
#define PP_WEB_CONFIGS_H

#include <stdio.h>

#include "query.h"

/* The settings file's path (free()), or NULL when there is no home. */
char *pp_web_settings_path(void);

/*
 * The menu: {"configs": [{"name", "user", "params": {URL parameter:
 * value, "" to remove it}}]}, "Default" first. A missing file is no user
 * configurations; an unreadable one is -1 with err set.
 */
int pp_web_configs_list(const char *path, FILE *out, char *err, size_t errsize);

/* Save the view's parameters (get) as configuration name, replacing one of
 * that name; -1 with err set on failure. */
int pp_web_configs_save(const char *path, const char *name, pp_web_get_fn get,
                        void *data, char *err, size_t errsize);

/* Remove configuration name; -1 with err set when it is not there. */
int pp_web_configs_delete(const char *path, const char *name, char *err,
                          size_t errsize);

#endif
