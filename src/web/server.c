/*
 * The HTTP side of the web UI: libmicrohttpd on a thread of its own per
 * listening socket (one, or two for an empty host: 127.0.0.1 and ::1), the
 * routes, and the safety checks every request passes. Each daemon answers
 * its requests one at a time; a lock makes the views, their cache and the
 * saved configurations one thread's at a time.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "assets.h"
#include "configs.h"
#include "mhd_loader.h"
#include "query.h"
#include "views.h"
#include "web.h"

extern char **environ;

/* Scripts, styles and data from this server only; nothing inline, no
 * frames, no plugins. */
#define CSP                                                           \
	"default-src 'none'; script-src 'self'; style-src 'self'; "   \
	"img-src 'self' data:; connect-src 'self'; base-uri 'none'; " \
	"form-action 'self'; frame-ancestors 'none'"

struct server {
	/* The views and the saved configurations are used by one thread at
	 * a time: a daemon's, and first this one's, building the first page's
	 * data while the browser starts. */
	pthread_mutex_t lock;
	struct pp_web_views *views;
	char host[256]; /* as given (or "localhost"), for the Host check */
	unsigned port;
	char *settings; /* pprof's settings.json, or NULL */
	/* Requests being answered, and when the last one ended (ms,
	 * CLOCK_MONOTONIC): the whole flame tree waits for a quiet moment
	 * after the first page's requests. */
	atomic_uint busy;
	atomic_llong last_ms;
};

/* Split "[HOST]:PORT" ("[::1]:8080", "host:80", ":0"); an empty host is
 * localhost and an empty port 0 (any free one), as in pprof. */
/* Whether s has a '/'. A loop, not strchr: gcc 12 at -O3 with ASan takes
 * a pointer past a compared prefix for the end of the literal it was
 * compared with, and warns (-Wstringop-overread). */
static bool has_slash(const char *s)
{
	for (; *s; s++)
		if (*s == '/')
			return true;
	return false;
}

static int split_hostport(struct pp_ctx *ctx, const char *s, char *host,
                          size_t hostsize, char *port, size_t portsize,
                          bool *empty)
{
	const char *colon = strrchr(s, ':'), *h = s;
	size_t hlen;

	if (!colon)
		return pp_error(ctx, PP_EUSAGE,
		                "-http=%s: could not split http address: "
		                "missing port in address",
		                s);
	hlen = (size_t)(colon - s);
	if (hlen >= 2 && s[0] == '[' && colon[-1] == ']') {
		h = s + 1;
		hlen -= 2;
	} else if (memchr(s, ':', hlen)) {
		return pp_error(ctx, PP_EUSAGE,
		                "-http=%s: could not split http address: "
		                "too many colons in address",
		                s);
	}
	if (hlen >= hostsize || strlen(colon + 1) >= portsize)
		return pp_error(ctx, PP_EUSAGE, "-http=%s: address too long",
		                s);
	*empty = hlen == 0;
	if (hlen == 0)
		snprintf(host, hostsize, "localhost");
	else
		snprintf(host, hostsize, "%.*s", (int)hlen, h);
	snprintf(port, portsize, "%s", colon[1] ? colon + 1 : "0");
	for (const char *p = port; *p; p++)
		if (*p < '0' || *p > '9')
			return pp_error(ctx, PP_EUSAGE,
			                "-http=%s: invalid port number", s);
	return 0;
}

static bool is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 =
		        (const struct sockaddr_in6 *)sa;

		return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
	}
	return false;
}

/* Listen on host:port: IPv4 first where the name has both (as Go's
 * listener takes "localhost"). */
static int listen_on(struct pp_ctx *ctx, const char *host, const char *port,
                     int *fd_out, unsigned *port_out, bool *loopback,
                     bool *ipv6)
{
	struct addrinfo hints, *res = NULL;
	int rc, fd = -1, saved = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if ((rc = getaddrinfo(host, port, &hints, &res)) != 0)
		return pp_error(ctx, PP_EIO, "-http: %s: %s", host,
		                gai_strerror(rc));
	for (int pass = 0; pass < 2 && fd < 0; pass++) {
		for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
			int one = 1;

			if ((a->ai_family == AF_INET) != (pass == 0))
				continue;
			fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			            a->ai_protocol);
			if (fd < 0) {
				saved = errno;
				continue;
			}
			setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one,
			           sizeof(one));
			if (bind(fd, a->ai_addr, a->ai_addrlen) < 0 ||
			    listen(fd, 128) < 0) {
				saved = errno;
				close(fd);
				fd = -1;
				continue;
			}
			*loopback = is_loopback(a->ai_addr);
			*ipv6 = a->ai_family == AF_INET6;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		return pp_error(ctx, PP_EIO,
		                "-http: cannot listen on %s:%s: %s", host, port,
		                strerror(saved ? saved : EINVAL));
	{
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);

		getsockname(fd, (struct sockaddr *)&ss, &len);
		*port_out =
		        ntohs(ss.ss_family == AF_INET6
		                      ? ((struct sockaddr_in6 *)&ss)->sin6_port
		                      : ((struct sockaddr_in *)&ss)->sin_port);
	}
	*fd_out = fd;
	return 0;
}

/* A second listener on ::1 at port, for an empty host: clients that
 * resolve localhost to ::1 first (Node, curl on some systems) reach the
 * server too. -1 when the machine has no IPv6 loopback or the port is
 * taken there; the server then serves on 127.0.0.1 alone. */
static int listen_ipv6_loopback(unsigned port, int *err_out)
{
	struct sockaddr_in6 a;
	int fd, one = 1;

	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_addr = in6addr_loopback;
	a.sin6_port = htons((uint16_t)port);
	if ((fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		*err_out = errno;
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    listen(fd, 128) < 0) {
		*err_out = errno;
		close(fd);
		return -1;
	}
	return fd;
}

/* An empty host (`-http=:8080`) is localhost on both loopbacks: 127.0.0.1
 * and, where the machine has it, ::1 at the same port. With port 0 a few
 * ports are tried until one is free on both. */
static int listen_loopbacks(struct pp_ctx *ctx, const char *port, int fds[2],
                            unsigned *port_out)
{
	bool loopback, ipv6;
	int err;

	for (int attempt = 0;; attempt++) {
		int why = 0;

		if ((err = listen_on(ctx, "127.0.0.1", port, &fds[0], port_out,
		                     &loopback, &ipv6)) < 0)
			return err;
		fds[1] = listen_ipv6_loopback(*port_out, &why);
		if (fds[1] >= 0 || why != EADDRINUSE ||
		    strcmp(port, "0") != 0 || attempt == 9)
			return 0;
		close(fds[0]); /* that port is someone else's on ::1 */
		fds[0] = -1;
	}
}

/* The Host header names this server: a localhost name or the host it was
 * started with, and its port. Anything else may be a DNS-rebinding page
 * reaching a loopback server through a name it controls. */
static bool host_allowed(const struct server *s, const char *hdr)
{
	static const char *const local[] = {"localhost", "127.0.0.1", "[::1]"};
	const char *colon;
	char want[300];
	size_t hlen;

	if (!hdr)
		return false;
	colon = strrchr(hdr, ':');
	if (colon && strchr(colon, ']'))
		colon = NULL; /* "[::1]" without a port */
	hlen = colon ? (size_t)(colon - hdr) : strlen(hdr);
	if (colon ? (unsigned)strtoul(colon + 1, NULL, 10) != s->port ||
	                    colon[1] == '\0' ||
	                    strspn(colon + 1, "0123456789") != strlen(colon + 1)
	          : s->port != 80)
		return false;
	for (size_t i = 0; i < sizeof(local) / sizeof(local[0]); i++)
		if (strlen(local[i]) == hlen &&
		    strncasecmp(hdr, local[i], hlen) == 0)
			return true;
	snprintf(want, sizeof(want), strchr(s->host, ':') ? "[%s]" : "%s",
	         s->host);
	return strlen(want) == hlen && strncasecmp(hdr, want, hlen) == 0;
}

static enum MHD_Result send_answer(struct MHD_Connection *conn, int status,
                                   const char *type, char *body, size_t size,
                                   bool owned, const char *disposition)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
	        size, body,
	        owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!resp) {
		if (owned)
			free(body);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", type);
	MHD_add_response_header(resp, "Content-Security-Policy", CSP);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "X-Frame-Options", "DENY");
	MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	if (disposition)
		MHD_add_response_header(resp, "Content-Disposition",
		                        disposition);
	ret = MHD_queue_response(conn, (unsigned)status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result send_text(struct MHD_Connection *conn, int status,
                                 const char *text)
{
	return send_answer(conn, status, "text/plain; charset=utf-8",
	                   (char *)text, strlen(text), false, NULL);
}

/* One query argument, "?k=v" or "&k=v", onto the FILE in cls. */
static enum MHD_Result put_argument(void *cls, enum MHD_ValueKind kind,
                                    const char *key, size_t key_size,
                                    const char *value, size_t value_size)
{
	FILE *out = cls;

	(void)kind;
	fputc(ftell(out) == 0 ? '?' : '&', out);
	pp_web_put_encoded(out, key, key_size);
	if (value) {
		fputc('=', out);
		pp_web_put_encoded(out, value, value_size);
	}
	return MHD_YES;
}

/* Send the client to the path to with the request's query, as pprof's
 * redirects keep it: a bookmark of http://HOST:PORT/?si=alloc_space (the
 * address pprof opens the browser at) still opens that view. */
static enum MHD_Result redirect(struct MHD_Connection *conn, const char *to,
                                unsigned status)
{
	struct MHD_Response *resp;
	enum MHD_Result ret;
	char *query = NULL, *location;
	size_t size = 0;
	FILE *q = open_memstream(&query, &size);

	if (!q)
		return MHD_NO;
	MHD_get_connection_values_n(conn, MHD_GET_ARGUMENT_KIND, put_argument,
	                            q);
	if (fclose(q) != 0 || !(location = malloc(strlen(to) + size + 1))) {
		free(query);
		return MHD_NO;
	}
	memcpy(location, to, strlen(to));
	memcpy(location + strlen(to), query, size + 1);
	free(query);
	resp = MHD_create_response_from_buffer(0, (void *)"",
	                                       MHD_RESPMEM_PERSISTENT);
	if (!resp) {
		free(location);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Location", location);
	MHD_add_response_header(resp, "Content-Security-Policy", CSP);
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	free(location);
	return ret;
}

static const char *get_arg(void *data, const char *name)
{
	return MHD_lookup_connection_value(data, MHD_GET_ARGUMENT_KIND, name);
}

/* The same with its length: a value may hold NUL bytes (%00). */
static const char *get_arg_n(void *data, const char *name, size_t *len)
{
	const char *v = NULL;
	size_t n = 0;

	if (MHD_lookup_connection_value_n(data, MHD_GET_ARGUMENT_KIND, name,
	                                  strlen(name), &v, &n) != MHD_YES)
		return NULL;
	*len = n;
	return v;
}

/* The views the page shell serves, at pprof's paths. */
static bool is_view(const char *url)
{
	static const char *const views[] = {
	        "/ui/",     "/ui/top",    "/ui/flamegraph",
	        "/ui/peek", "/ui/source", "/ui/disasm",
	};

	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++)
		if (strcmp(url, views[i]) == 0)
			return true;
	return false;
}

static enum MHD_Result
answer_data(struct server *s, struct MHD_Connection *conn, const char *what)
{
	struct pp_web_answer a;
	int rc;

	pthread_mutex_lock(&s->lock);
	rc = pp_web_views_answer(s->views, what, get_arg, get_arg_n, conn, &a);
	pthread_mutex_unlock(&s->lock);
	if (rc < 0)
		return send_text(conn, 500, "out of memory\n");
	return send_answer(conn, a.status, a.content_type, a.body, a.size, true,
	                   a.attachment && a.status == 200
	                           ? "attachment; filename=\"profile.pb.gz\""
	                           : NULL);
}

/* A request that changes state comes from our own pages: its Origin is
 * this server (the Host header is checked before). A cross-site form or
 * fetch carries another origin; a request with none (an old client) must
 * at least say it is same-origin. */
static bool same_origin(struct MHD_Connection *conn)
{
	const char *origin =
	        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Origin");
	const char *host =
	        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Host");
	const char *site;

	if (origin)
		return host && strncmp(origin, "http://", 7) == 0 &&
		       strcasecmp(origin + 7, host) == 0;
	site = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	                                   "Sec-Fetch-Site");
	return site && strcmp(site, "same-origin") == 0;
}

static enum MHD_Result answer_configs(struct server *s,
                                      struct MHD_Connection *conn,
                                      const char *url, bool get)
{
	char err[1100], *body = NULL;
	size_t size = 0;
	FILE *f;
	int rc;

	if (!s->settings)
		return send_text(conn, 500, "no user config directory\n");
	if (strcmp(url, "/api/configs") == 0) {
		if (!get)
			return send_text(conn, 405, "method not allowed\n");
		if (!(f = open_memstream(&body, &size)))
			return send_text(conn, 500, "out of memory\n");
		rc = pp_web_configs_list(s->settings, f, err, sizeof(err));
		if (fclose(f) != 0 || rc < 0) {
			free(body);
			return send_text(conn, 500,
			                 rc < 0 ? err : "out of memory\n");
		}
		return send_answer(conn, 200, "application/json", body, size,
		                   true, NULL);
	}
	if (get)
		return send_text(conn, 405, "method not allowed\n");
	if (!same_origin(conn))
		return send_text(conn, 403,
		                 "forbidden: cross-origin request\n");
	if (strcmp(url, "/saveconfig") == 0)
		rc = pp_web_configs_save(s->settings, get_arg(conn, "config"),
		                         get_arg, conn, err, sizeof(err));
	else
		rc = pp_web_configs_delete(
		        s->settings,
		        get_arg(conn, "config") ? get_arg(conn, "config") : "",
		        err, sizeof(err));
	if (rc < 0) {
		size_t n = strlen(err);

		if (n + 1 < sizeof(err))
			memcpy(err + n, "\n", 2);
		body = strdup(err);
		if (!body)
			return MHD_NO;
		return send_answer(conn, 400, "text/plain; charset=utf-8", body,
		                   strlen(body), true, NULL);
	}
	return send_text(conn, 200, "ok\n");
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
	struct server *s = cls;
	bool get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;

	(void)version;
	(void)upload;
	/* Answer once the whole request is in (a body is read and
	 * ignored: no route takes one). */
	if (!*state) {
		*state = s;
		return MHD_YES;
	}
	if (*upload_size) {
		*upload_size = 0;
		return MHD_YES;
	}
	if (!host_allowed(s, MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	                                                 "Host")))
		return send_text(
		        conn, 403,
		        "forbidden: the Host header does not name this "
		        "server\n");
	/* pprof serves these under /ui/ (its pages post to ./saveconfig and
	 * link ./download); the same answers at the root. */
	if (strncmp(url, "/ui/", 4) == 0 &&
	    (strcmp(url + 3, "/saveconfig") == 0 ||
	     strcmp(url + 3, "/deleteconfig") == 0 ||
	     strcmp(url + 3, "/download") == 0))
		url += 3;
	if (strcmp(url, "/api/configs") == 0 ||
	    strcmp(url, "/saveconfig") == 0 ||
	    strcmp(url, "/deleteconfig") == 0) {
		enum MHD_Result ret;

		pthread_mutex_lock(&s->lock);
		ret = answer_configs(s, conn, url, get);
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	if (!get)
		return send_text(conn, 405, "method not allowed\n");
	if (strcmp(url, "/") == 0)
		return redirect(conn, "/ui/flamegraph", MHD_HTTP_FOUND);
	if (strcmp(url, "/ui") == 0)
		return redirect(conn, "/ui/", MHD_HTTP_FOUND);
	/* Older pprofs' flame graph pages, which pprof sends on too. */
	if (strcmp(url, "/ui/flamegraph2") == 0 ||
	    strcmp(url, "/ui/flamegraphold") == 0)
		return redirect(conn, "/ui/flamegraph",
		                MHD_HTTP_MOVED_PERMANENTLY);
	if (is_view(url)) {
		const struct pp_web_asset *a = pp_web_asset_find("index.html");

		return send_answer(conn, 200, a->content_type, (char *)a->data,
		                   a->size, false, NULL);
	}
	if (strncmp(url, "/static/", 8) == 0) {
		const struct pp_web_asset *a = pp_web_asset_find(url + 8);

		if (a)
			return send_answer(conn, 200, a->content_type,
			                   (char *)a->data, a->size, false,
			                   NULL);
	}
	/* One name after /api/, no deeper path. */
	if (strncmp(url, "/api/", 5) == 0 && !has_slash(url + 5))
		return answer_data(s, conn, url + 5);
	if (strcmp(url, "/download") == 0)
		return answer_data(s, conn, "download");
	return send_text(conn, 404, "not found\n");
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Every request, counted for wait_first_page. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **state)
{
	struct server *s = cls;
	enum MHD_Result ret;

	atomic_fetch_add(&s->busy, 1);
	ret = answer(cls, conn, url, method, version, upload, upload_size,
	             state);
	atomic_store(&s->last_ms, now_ms());
	atomic_fetch_sub(&s->busy, 1);
	return ret;
}

/* $BROWSER or xdg-open on url, as pprof opens one; a failure is only a
 * message (the URL is printed anyway). */
static pid_t open_browser(const char *url, FILE *status)
{
	const char *browser = getenv("BROWSER");
	char *argv[3];
	posix_spawn_file_actions_t fa;
	pid_t pid = -1;

	argv[0] = (char *)(browser && *browser ? browser : "xdg-open");
	argv[1] = (char *)url;
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
	                                 O_WRONLY, 0);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) != 0) {
		fprintf(status, "pprof-c: could not start %s; open %s\n",
		        argv[0], url);
		pid = -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

/* How long the whole tree waits for the first page to get its data, and
 * how long no request must have been answered before it starts. */
#define FIRST_PAGE_WAIT_MS 10000
#define QUIET_MS 300

/*
 * Wait until the first flame graph has been answered (from the top of the
 * tree, pp_web_views_warm) and the page's other requests too (its saved
 * configurations), or FIRST_PAGE_WAIT_MS passed: the whole tree, built
 * under the lock, would hold them back. true when a stop signal came
 * instead (the CLI catches them into ctx's interrupt flag while the server
 * warms up; a signal also cuts the sleep short).
 */
static bool wait_first_page(struct server *s, struct pp_ctx *ctx)
{
	const struct timespec poll = {0, 20 * 1000 * 1000};

	for (int ms = 0; ms < FIRST_PAGE_WAIT_MS; ms += 20) {
		bool served;

		if (pp_interrupted(ctx))
			return true;
		nanosleep(&poll, NULL);
		pthread_mutex_lock(&s->lock);
		served = pp_web_views_flame_served(s->views);
		pthread_mutex_unlock(&s->lock);
		if (served && atomic_load(&s->busy) == 0 &&
		    now_ms() - atomic_load(&s->last_ms) >= QUIET_MS)
			break;
	}
	return pp_interrupted(ctx);
}

/* The signals of stop that were not blocked (old) and that something
 * handles rather than ignores. */
static void stop_signals_handled(const sigset_t *stop, const sigset_t *old,
                                 sigset_t *out)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

	sigemptyset(out);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction sa;

		if (sigismember(stop, sigs[i]) == 1 &&
		    sigismember(old, sigs[i]) == 0 &&
		    sigaction(sigs[i], NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_IGN)
			sigaddset(out, sigs[i]);
	}
}

int pp_web_serve(struct pp_ctx *ctx, const struct pp_cli_config *cfg,
                 struct pp_session *session, FILE *status)
{
	struct server s;
	char port[16], *initial = NULL, url[512];
	struct MHD_Daemon *d[2] = {NULL, NULL};
	const char *why;
	sigset_t stop, old, let_in;
	bool loopback = true, ipv6 = false, empty = false;
	int fd[2] = {-1, -1}, err, sig;
	pid_t browser = -1;

	memset(&s, 0, sizeof(s));
	atomic_init(&s.busy, 0);
	atomic_init(&s.last_ms, 0);
	pthread_mutex_init(&s.lock, NULL);
	/* libmicrohttpd is opened here, by the only command that serves
	 * (mhd_loader.c). */
	if ((why = pp_web_mhd_load())) {
		err = pp_error(ctx, PP_EUNSUPPORTED, "-http needs %s", why);
		goto done;
	}
	if ((err = split_hostport(ctx, cfg->http, s.host, sizeof(s.host), port,
	                          sizeof(port), &empty)) < 0 ||
	    (err = pp_web_views_new(ctx, cfg, session, &s.views)) < 0)
		goto done;
	s.settings = pp_web_settings_path();
	if ((err = empty ? listen_loopbacks(ctx, port, fd, &s.port)
	                 : listen_on(ctx, s.host, port, &fd[0], &s.port,
	                             &loopback, &ipv6)) < 0)
		goto done;
	if (!loopback)
		fprintf(status,
		        "pprof-c: warning: serving on %s, which is not a "
		        "loopback address: anyone who can reach it can read "
		        "the profile\n",
		        s.host);
	/* The daemon's thread inherits these blocked; this thread waits for
	 * them. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	stop_signals_handled(&stop, &old, &let_in);
	/* One daemon per listening socket (the IPv4 and IPv6 loopbacks of
	 * an empty host); their threads share the views under s.lock. */
	for (int i = 0; i < 2 && fd[i] >= 0; i++) {
		d[i] = MHD_start_daemon(
		        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL |
		                (ipv6 || i == 1 ? MHD_USE_IPv6 : 0),
		        0, NULL, NULL, handle, &s, MHD_OPTION_LISTEN_SOCKET,
		        fd[i], MHD_OPTION_CONNECTION_LIMIT, (unsigned)256,
		        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
		        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
		        MHD_OPTION_END);
		if (!d[i]) {
			if (d[0])
				MHD_stop_daemon(d[0]);
			pthread_sigmask(SIG_SETMASK, &old, NULL);
			err = pp_error(ctx, PP_EIO,
			               "-http: cannot start the server");
			goto done;
		}
		fd[i] = -1; /* the daemon's now */
	}
	snprintf(url, sizeof(url),
	         strchr(s.host, ':') ? "http://[%s]:%u" : "http://%s:%u",
	         s.host, s.port);
	fprintf(status, "Serving web UI on %s\n", url);
	fflush(status);
	if (!cfg->no_browser) {
		char full[4096];

		initial = pp_web_query_initial(cfg);
		snprintf(full, sizeof(full), "%s/ui/flamegraph%s", url,
		         initial ? initial : "");
		browser = open_browser(full, status);
	}
	/* The first page is the flame graph: the top of its tree is built
	 * while the browser starts and fetches the page; the whole tree once
	 * the page has its data. Both can take seconds on a big profile, so
	 * this thread lets the stop signals in meanwhile (the daemons' threads
	 * keep them blocked): the CLI catches them into ctx's interrupt flag,
	 * which stops the tree being built. A signal its starter left
	 * ignored (SIGINT in a script's background job) stays blocked: let
	 * in, it would be lost, while blocked it waits for sigwait below,
	 * as before. */
	pthread_sigmask(SIG_UNBLOCK, &let_in, NULL);
	pthread_mutex_lock(&s.lock);
	pp_web_views_warm(s.views);
	pthread_mutex_unlock(&s.lock);
	if (!wait_first_page(&s, ctx)) {
		pthread_mutex_lock(&s.lock);
		pp_web_views_warm_whole(s.views);
		pthread_mutex_unlock(&s.lock);
	}
	/* Blocked again before the flag is read: a signal from now on waits
	 * for sigwait. */
	pthread_sigmask(SIG_BLOCK, &stop, NULL);
	if (!pp_interrupted(ctx))
		while (sigwait(&stop, &sig) != 0)
			;
	for (int i = 0; i < 2; i++)
		if (d[i])
			MHD_stop_daemon(d[i]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	err = 0;
done:
	if (browser > 0)
		waitpid(browser, NULL, WNOHANG);
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
	free(initial);
	free(s.settings);
	pp_web_views_free(s.views);
	pthread_mutex_destroy(&s.lock);
	return err;
}
