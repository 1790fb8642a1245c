/*
 * Fetching profiles over HTTP(S), as `go tool pprof URL` does, with
 * libcurl: the bytes of each body, as source.h's files. (Saving a fetched
 * profile under pprof's name is the CLI's: src/cli/save.c.)
 *
 * A source is a URL when pprof would take it for one (its adjustURL): it
 * parses as a URL with a host, as is or with "http://" put in front, so
 * `http://host:6060/debug/pprof/heap`, `host:6060` and `host:6060/path`
 * are URLs and `cpu.pb.gz` or `dir/a:b` are not. Then, as pprof:
 *
 *   - an empty path (or "/") becomes /debug/pprof/profile, Go's CPU
 *     profile handler;
 *   - seconds > 0 sets the query's `seconds` (net/http/pprof's duration of
 *     a CPU profile or trace, and of a delta heap, allocs, goroutine,
 *     mutex, block or threadcreate profile); otherwise the URL's own
 *     `seconds`, if any, only sizes the timeout;
 *   - the query is re-encoded in Go's order (keys sorted, values escaped);
 *   - the timeout is the one given, else 1.5 x the duration, else 60 s, and
 *     the whole fetch may take 5 s more than it.
 *
 * `https+insecure://` fetches over HTTPS without checking the server's
 * certificate, as Go's pprof. Credentials in a URL (`user:password@host`)
 * are sent, but never appear in a message, a progress line or a file name:
 * every URL shown is pp_fetch_url.shown, which leaves them out.
 *
 * Errors name the URL (shown) and what went wrong in one line:
 * "connection refused", "could not resolve host example.invalid",
 * "timed out after 65 s", "server response: 404 Not Found - Unknown
 * profile" (the status and the first line of the body), "unrecognized
 * profile format" (a body whose first kilobytes no format could begin),
 * "truncated gzip stream". The body is capped at ctx->max_size,
 * compressed and decompressed.
 */
#ifndef PPROF_FETCH_H
#define PPROF_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "pprof/profile.h"
#include "pprof/source.h"

/* A source that is a URL, adjusted as pprof adjusts it. */
struct pp_fetch_url {
	char *url;       /* what is fetched, credentials included (owned) */
	char *shown;     /* the same without user:password@ (owned) */
	int seconds;     /* the duration asked with -seconds; 0: none */
	bool insecure;   /* https+insecure: the certificate is not checked */
	long timeout_ms; /* pprof's timeout; the fetch may take 5 s more */
};

/*
 * If source is a URL (see above), fill *out (release with
 * pp_fetch_url_release) and return 1; if it is not, return 0 with *out
 * zeroed. seconds and timeout are pprof's -seconds and -timeout (0 or less:
 * not given). Fails only with PP_ENOMEM.
 */
int pp_fetch_adjust_url(struct pp_ctx *ctx, const char *source, int seconds,
                        int timeout, struct pp_fetch_url *out);
void pp_fetch_url_release(struct pp_ctx *ctx, struct pp_fetch_url *u);

/* True if pp_fetch_adjust_url would take source for a URL. */
bool pp_fetch_is_url(const char *source);

/* True if source starts as a URL (http://, https://, https+insecure://),
 * whether or not it is a valid one. */
bool pp_fetch_looks_like_url(const char *source);

/* A copy of text (pp_free) with the userinfo of every URL in it
 * ("user:password@" after "://") left out, for messages; NULL when memory
 * runs out. */
char *pp_fetch_redact(struct pp_ctx *ctx, const char *text);

/* Progress lines, without a newline. */
typedef void (*pp_fetch_progress_fn)(void *data, const char *msg);

/*
 * pprof's -tls_cert, -tls_key and -tls_ca (PEM files; NULL or "": unset):
 * a client certificate and its key, given both or neither (else PP_EUSAGE
 * with pprof's message), and the CA certificates that then alone are
 * trusted for the server's. Each file must be readable when a fetch
 * starts (PP_EUSAGE naming it, as pprof's "could not load ...").
 */
struct pp_fetch_tls {
	const char *cert, *key, *ca;
};

/* Check tls as a fetch would before anything is sent: 0 or PP_EUSAGE. */
int pp_fetch_tls_check(struct pp_ctx *ctx, const struct pp_fetch_tls *tls);

struct pp_fetch_opts {
	int seconds; /* pprof's -seconds; 0: the URL's own */
	int timeout; /* pprof's -timeout, in seconds; 0: pprof's default */
	struct pp_fetch_tls tls; /* none */
	/* Called with pprof's lines "Fetching profile over HTTP from URL"
	 * and, when seconds > 0, "Please wait... (30s)". NULL: silent. */
	pp_fetch_progress_fn progress;
	void *progress_data;
};

/*
 * Fetch the profile at URL source over HTTP(S): *out is its body,
 * inflated as it arrives when gzip'd, named by the URL as shown (decoding
 * it is the session's). source must be a URL (pp_fetch_is_url);
 * PP_EUSAGE if not. Errors: PP_EFETCH for the transfer and the server's
 * answer, PP_ELIMIT over ctx->max_size, PP_EFORMAT for an empty body or
 * one that surely is no profile, PP_ENOMEM.
 */
int pp_fetch_profile(struct pp_ctx *ctx, const char *source,
                     const struct pp_fetch_opts *opts,
                     struct pp_source_bytes *out);

/*
 * Given, in pp_fetch_profiles, each body in turn (i: its index in
 * sources), to take over: what it leaves in *b is released after. A
 * negative return stops the fetch and is its error.
 */
typedef int (*pp_fetch_take_fn)(void *arg, size_t i, struct pp_source_bytes *b);

/*
 * The same for n URLs at once: the transfers run together, as pprof's
 * fetches do, so two 30-second CPU profiles take 30 seconds, not 60. All
 * are announced first, in order. The first transfer to fail stops the
 * others and is the error. Then the bodies are handed to take(arg, i, b)
 * in order, each as soon as its inflate is finished, so that a taker that
 * decodes it meets a body's decoding error before a later body's
 * inflating error.
 */
int pp_fetch_profiles(struct pp_ctx *ctx, const char *const *sources, size_t n,
                      const struct pp_fetch_opts *opts, pp_fetch_take_fn take,
                      void *arg);

/* ---- remote symbolization: pprof's symbolz protocol --------------------- */

/* Where a mapping of a fetched profile came from, as pprof records it: its
 * key (the mapping's build-id, else its file, else the URL itself, which
 * the loader then puts in the mapping's file until symbolization is done),
 * the URL as fetched, and the mapping's start in that profile. */
struct pp_symbolz_source {
	const char *key;
	const char *url;
	uint64_t start;
};

struct pp_symbolz_opts {
	bool force;              /* also mappings that have functions */
	struct pp_fetch_tls tls; /* as for fetching */
};

/*
 * The symbolz URL beside a profile's URL (*out: pp_free), as pprof's:
 * PATH/../symbol for net/http/pprof and gperftools paths (PATH holds
 * "/debug/pprof/" or ends in /pprof/heap, growth, profile, pmuprofile,
 * contention), else PATH/../symbolz, the query dropped. *out NULL when
 * source has no host (a file). PP_ENOMEM only.
 */
int pp_symbolz_url(struct pp_ctx *ctx, const char *source, char **out);

/*
 * Symbolize p remotely, as pprof's -symbolize=remote (and its default,
 * after local symbolization): each mapping without functions (every one
 * with force) whose file or build-id is the key of a source with a
 * symbolz URL has the addresses of its locations without lines POSTed
 * there ("0x401000+0x4010a3", shifted by the mapping's start in that
 * profile); every answer line "0xADDR NAME" (only lines ending in a
 * newline) makes NAME the function of the locations at ADDR, with no file
 * or line. The mapping then has functions. A failed POST or a non-200
 * answer is the error (PP_EFETCH "http post URL: ..."), as pprof's.
 */
int pp_symbolz_symbolize(struct pp_ctx *ctx, struct pp_profile *p,
                         const struct pp_symbolz_source *sources, size_t n,
                         const struct pp_symbolz_opts *o);

/*
 * libcurl's process-wide setup and teardown: call init once before the
 * first fetch while no other thread runs (it loads TLS), and cleanup once
 * at the end (it accepts an init that never happened). PP_EFETCH if libcurl
 * cannot start.
 */
int pp_fetch_global_init(struct pp_ctx *ctx);
void pp_fetch_global_cleanup(void);

#endif
