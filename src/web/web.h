/*
 * The web UI: `pprof-c -http=[HOST]:PORT PROFILE...` serves the loaded
 * profile's views (flame graph, top, ...) at pprof's paths until SIGINT or
 * SIGTERM. Safe by default: loopback unless a host is given, the Host
 * header checked (DNS rebinding), a same-origin check on every request
 * that changes state, a Content-Security-Policy on every answer, and
 * nothing from the file system but the embedded assets and the profile.
 */
#ifndef PP_WEB_WEB_H
#define PP_WEB_WEB_H

#include <stdio.h>

#include "pprof/session.h"
#include "settings.h"

/*
 * Serve session's profile (borrowed) with cfg's options as defaults until
 * interrupted. Prints "Serving web UI on http://HOST:PORT" to status and,
 * unless cfg->no_browser, opens a browser there. 0 after a clean stop;
 * PP_EUSAGE for a malformed -http address, PP_EIO when it cannot listen, with
 * the reason in ctx.
 */
int pp_web_serve(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 struct pp_session *session, FILE *status);

#endif
