/*
 * Fetching a URL with libcurl, the body inflated as it arrives, and saving
 * fetched profiles under pprof's names. Which sources are URLs, and how
 * they are adjusted, is url.c's.
 */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pprof/fetch.h"
#include "pprof/source.h"
#include "source/internal.h"

/* ---- fetching ---------------------------------------------------------- */

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static uint64_t cap_of(const struct pp_ctx *ctx)
{
	return ctx->max_size ? ctx->max_size : PP_DEFAULT_MAX_SIZE;
}

/* The length of the printable UTF-8 character at s (of n bytes), or 0 for
 * a control character (C0, DEL, C1) or a byte that starts none. */
static size_t char_len(const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	size_t len;
	unsigned cp;

	if (c >= 0x20 && c < 0x7f)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	if (len > n)
		return 0;
	cp = c & (0x3fu >> (len - 1));
	for (size_t k = 1; k < len; k++) {
		unsigned char d = (unsigned char)s[k];

		if ((d & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (d & 0x3fu);
	}
	if ((len == 2 && cp < 0xa0) ||
	    (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

/*
 * Copy the n bytes at s into out (size >= 4 bytes, NUL-terminated) for a
 * message: printable UTF-8 stays, anything else becomes '?', so a server
 * cannot write escape sequences to the terminal; cut with "..." when long.
 */
static void clean_text(char *out, size_t size, const char *s, size_t n)
{
	size_t w = 0, i = 0;

	while (i < n) {
		size_t len = char_len(s + i, n - i), put = len ? len : 1;

		if (w + put > size - 4) {
			memcpy(out + w, "...", 3);
			w += 3;
			break;
		}
		if (len)
			memcpy(out + w, s + i, len);
		else
			out[w] = '?';
		w += put;
		i += put;
	}
	out[w] = '\0';
}

struct fetch {
	struct pp_ctx *ctx;
	CURL *curl;
	const char *name; /* the URL shown */
	uint64_t cap, received;
	/* When the transfer must have ended (CLOCK_MONOTONIC, ms): checked
	 * by the write callback too, as libcurl's own timeout is not while
	 * it hands over buffered data that inflates a thousandfold. */
	int64_t deadline;
	long status;
	char reason[96];
	/* A 200's body: inflated as it comes when gzip'd, else kept raw (the
	 * first bytes are kept until two say which). */
	struct pp_gunzip_stream *gz;
	uint8_t *raw;
	size_t raw_len, raw_cap;
	bool plain;
	/* The start of any other answer's body, for the message. */
	char body[512];
	size_t body_len;
	bool enough;       /* we stopped reading that body: no transfer error */
	bool headers_done; /* the blank line after the headers came */
	int err;           /* a failure of ours inside a callback, */
	char msg[sizeof(((struct pp_ctx *)0)->message)]; /* and its message */
	struct pp_fetch_url u;
	char errbuf[CURL_ERROR_SIZE];
	CURLcode rc; /* the transfer's result, once done */
};

static size_t header_cb(char *buf, size_t size, size_t n, void *data)
{
	struct fetch *f = data;
	size_t len = size * n;

	/* "HTTP/1.1 404 Not Found": a new answer (after a redirect or a
	 * 100 Continue); HTTP/2 has no reason phrase. */
	if (len > 5 && memcmp(buf, "HTTP/", 5) == 0) {
		const char *p = memchr(buf, ' ', len), *end = buf + len;

		f->reason[0] = '\0';
		f->headers_done = false;
		if (p && end - p > 4) {
			p += 4;
			while (p < end && *p == ' ')
				p++;
			while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
				end--;
			clean_text(f->reason, sizeof(f->reason), p,
			           (size_t)(end - p));
		}
	}
	if ((len == 2 && buf[0] == '\r') || (len == 1 && buf[0] == '\n'))
		f->headers_done = true;
	return len;
}

static int raw_add(struct fetch *f, const char *data, size_t len)
{
	if (f->raw_cap - f->raw_len < len) {
		size_t need, want = f->raw_cap ? f->raw_cap : 65536;
		uint8_t *p;

		if (pp_add_size(f->raw_len, len, &need) < 0)
			return pp_error(f->ctx, PP_ENOMEM, "out of memory");
		while (want < need && want <= SIZE_MAX / 2)
			want *= 2;
		/* Doubling, but not past the cap (the caller checked that
		 * need is under it). */
		if (want > f->cap)
			want = need > f->cap ? need : (size_t)f->cap;
		if (!(p = pp_realloc(f->ctx, f->raw, want)))
			return pp_error(f->ctx, PP_ENOMEM, "out of memory");
		f->raw = p;
		f->raw_cap = want;
	}
	memcpy(f->raw + f->raw_len, data, len);
	f->raw_len += len;
	return 0;
}

/* Stop the transfer on error err, keeping its message: other transfers
 * may record theirs before this one is reported. */
static size_t fail(struct fetch *f, int err)
{
	f->err = err;
	snprintf(f->msg, sizeof(f->msg), "%s", f->ctx->message);
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* "timed out after 6s": the whole transfer's limit, -timeout plus 5 s. */
static int timeout_error(struct fetch *f)
{
	long total = f->u.timeout_ms + 5000;

	if (total % 1000 == 0)
		return pp_error(f->ctx, PP_EFETCH, "%s: timed out after %lds",
		                f->name, total / 1000);
	return pp_error(f->ctx, PP_EFETCH, "%s: timed out after %.1fs", f->name,
	                (double)total / 1000);
}

/*
 * Inflate a gzip'd body's next bytes a kilobyte at a time, checking the
 * deadline in between: one callback's 16 KB of a body that inflates a
 * thousandfold is 16 MB of output, which on a slow machine (or under
 * valgrind) takes long enough to overrun -timeout by seconds.
 */
static int push_gzip(struct fetch *f, const uint8_t *data, size_t len)
{
	int err = 0;

	while (len > 0 && err >= 0) {
		size_t slice = len < 1024 ? len : 1024;

		if (now_ms() > f->deadline)
			return timeout_error(f);
		err = pp_gunzip_stream_push(f->gz, data, slice);
		data += slice;
		len -= slice;
	}
	return err;
}

static size_t write_cb(char *data, size_t size, size_t n, void *arg)
{
	struct fetch *f = arg;
	size_t len = size * n;
	int err;

	if (now_ms() > f->deadline)
		return fail(f, timeout_error(f));

	if (f->status == 0)
		curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &f->status);
	if (f->status != 200) {
		size_t room = sizeof(f->body) - f->body_len;

		memcpy(f->body + f->body_len, data, len < room ? len : room);
		f->body_len += len < room ? len : room;
		if (f->body_len < sizeof(f->body))
			return len;
		f->enough = true;
		return 0;
	}
	f->received += len;
	if (f->received > f->cap)
		return fail(f, pp_error(f->ctx, PP_ELIMIT,
		                        "%s: response is larger than the "
		                        "%llu-byte limit (--max-size)",
		                        f->name, (unsigned long long)f->cap));
	if (f->gz) {
		err = push_gzip(f, (const uint8_t *)data, len);
	} else if ((err = raw_add(f, data, len)) >= 0 && !f->plain &&
	           f->raw_len >= 2) {
		/* Two bytes in: gzip is inflated from now on. */
		if (!pp_source_is_gzip(f->raw, f->raw_len)) {
			f->plain = true;
		} else if ((err = pp_gunzip_stream_new(f->ctx, f->name,
		                                       &f->gz)) >= 0) {
			err = pp_gunzip_stream_push(f->gz, f->raw, f->raw_len);
			pp_free(f->ctx, f->raw);
			f->raw = NULL;
			f->raw_len = f->raw_cap = 0;
		}
	}
	if (err < 0)
		return fail(f, err);
	return len;
}

/* Go's http.StatusText, for answers without a reason phrase (HTTP/2). */
static const char *status_text(long code)
{
	static const struct {
		long code;
		const char *text;
	} texts[] = {
	        {200, "OK"},
	        {204, "No Content"},
	        {206, "Partial Content"},
	        {301, "Moved Permanently"},
	        {302, "Found"},
	        {303, "See Other"},
	        {304, "Not Modified"},
	        {307, "Temporary Redirect"},
	        {308, "Permanent Redirect"},
	        {400, "Bad Request"},
	        {401, "Unauthorized"},
	        {403, "Forbidden"},
	        {404, "Not Found"},
	        {405, "Method Not Allowed"},
	        {406, "Not Acceptable"},
	        {407, "Proxy Authentication Required"},
	        {408, "Request Timeout"},
	        {410, "Gone"},
	        {413, "Request Entity Too Large"},
	        {429, "Too Many Requests"},
	        {500, "Internal Server Error"},
	        {501, "Not Implemented"},
	        {502, "Bad Gateway"},
	        {503, "Service Unavailable"},
	        {504, "Gateway Timeout"},
	};

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (texts[i].code == code)
			return texts[i].text;
	return "";
}

/* "server response: 404 Not Found - Unknown profile": the status and the
 * first line of the body that has anything on it. */
static int status_error(struct fetch *f)
{
	const char *reason = f->reason[0] ? f->reason : status_text(f->status);
	const char *p = f->body, *end = f->body + f->body_len, *nl;
	char line[256];

	while (p < end && (*p == '\n' || *p == '\r' || *p == ' ' || *p == '\t'))
		p++;
	nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
	if (nl)
		end = nl;
	while (end > p &&
	       (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
		end--;
	clean_text(line, sizeof(line), p, (size_t)(end - p));
	return pp_error(f->ctx, PP_EFETCH, "%s: server response: %ld%s%s%s%s",
	                f->name, f->status, reason[0] ? " " : "", reason,
	                line[0] ? " - " : "", line);
}

/* The host of a shown URL, without the port, into out. */
static void host_of(const char *shown, char *out, size_t size)
{
	const char *p = strstr(shown, "://"), *end;
	size_t n;

	p = p ? p + 3 : shown;
	end = p + strcspn(p, "/?#");
	if (end > p && end[-1] != ']') {
		const char *q = end;

		while (q > p && is_digit((unsigned char)q[-1]))
			q--;
		if (q > p && q[-1] == ':')
			end = q - 1;
	}
	n = (size_t)(end - p);
	clean_text(out, size, p, n);
}

/* Take every copy of the URL's user:password out of msg. */
static void scrub(char *msg, const char *url)
{
	const char *p = strstr(url, "://"), *at, *slash;
	size_t n, mlen;
	char *hit;

	if (!p)
		return;
	p += 3;
	slash = p + strcspn(p, "/?#");
	at = NULL;
	for (const char *q = p; q < slash; q++)
		if (*q == '@')
			at = q;
	if (!at || at == p)
		return;
	n = (size_t)(at - p);
	mlen = strlen(msg);
	for (hit = msg; (size_t)(hit - msg) + n <= mlen;) {
		if (memcmp(hit, p, n) != 0) {
			hit++;
			continue;
		}
		memmove(hit, hit + n, mlen - (size_t)(hit - msg) - n + 1);
		mlen -= n;
	}
}

static int transfer_error(struct fetch *f, const struct pp_fetch_url *u,
                          CURLcode rc, char *errbuf)
{
	long os_errno = 0;
	char host[256];

	switch (rc) {
	case CURLE_COULDNT_RESOLVE_HOST:
		host_of(u->shown, host, sizeof(host));
		return pp_error(f->ctx, PP_EFETCH,
		                "%s: could not resolve host %s", f->name, host);
	case CURLE_COULDNT_CONNECT:
		curl_easy_getinfo(f->curl, CURLINFO_OS_ERRNO, &os_errno);
		if (os_errno == ECONNREFUSED)
			return pp_error(f->ctx, PP_EFETCH,
			                "%s: connection refused", f->name);
		if (os_errno)
			return pp_error(f->ctx, PP_EFETCH,
			                "%s: could not connect: %s", f->name,
			                strerror((int)os_errno));
		break;
	case CURLE_OPERATION_TIMEDOUT:
		return timeout_error(f);
	/* libcurl's own words say less than we know. */
	case CURLE_OUT_OF_MEMORY:
		/* libcurl 7.88 gives up on a header line over 100 KB so. */
		if (!f->headers_done)
			return pp_error(f->ctx, PP_EFETCH,
			                "%s: response header line too long "
			                "(libcurl takes 100 KB)",
			                f->name);
		break;
	case CURLE_RECV_ERROR:
		if (!f->headers_done && strstr(errbuf, "response headers"))
			return pp_error(f->ctx, PP_EFETCH,
			                "%s: response headers too large "
			                "(libcurl takes 300 KB)",
			                f->name);
		break;
	case CURLE_FILESIZE_EXCEEDED:
		return pp_error(f->ctx, PP_ELIMIT,
		                "%s: response is larger than the %llu-byte "
		                "limit (--max-size)",
		                f->name, (unsigned long long)f->cap);
	default:
		break;
	}
	if (!errbuf[0])
		snprintf(errbuf, CURL_ERROR_SIZE, "%s", curl_easy_strerror(rc));
	scrub(errbuf, u->url);
	if (errbuf[0] >= 'A' && errbuf[0] <= 'Z' &&
	    !(errbuf[1] >= 'A' && errbuf[1] <= 'Z'))
		errbuf[0] = (char)(errbuf[0] + 'a' - 'A');
	{
		char clean[CURL_ERROR_SIZE];

		clean_text(clean, sizeof(clean), errbuf, strlen(errbuf));
		return pp_error(f->ctx, PP_EFETCH, "%s: %s", f->name, clean);
	}
}

/* The body of a 200, inflated, named by the URL shown. */
static int take_body(struct fetch *f, struct pp_source_bytes *out)
{
	struct pp_bytes raw = {NULL, 0};
	int err;

	if (f->gz) {
		if ((err = pp_gunzip_stream_finish(f->gz, &raw)) < 0)
			return err;
	} else {
		if (f->raw_len == 0)
			return pp_error(f->ctx, PP_EFORMAT,
			                "%s: empty response body", f->name);
		raw.data = f->raw;
		raw.len = f->raw_len;
		f->raw = NULL;
		f->raw_len = f->raw_cap = 0;
	}
	out->bytes = raw;
	if (!(out->name = pp_strdup(f->ctx, f->name)))
		return pp_error(f->ctx, PP_ENOMEM, "out of memory");
	return 0;
}

/* Go's Duration.String for whole seconds: "30s", "1m30s", "2h0m0s". */
static void go_duration(char *buf, size_t size, int s)
{
	if (s < 60)
		snprintf(buf, size, "%ds", s);
	else if (s < 3600)
		snprintf(buf, size, "%dm%ds", s / 60, s % 60);
	else
		snprintf(buf, size, "%dh%dm%ds", s / 3600, s % 3600 / 60,
		         s % 60);
}

static bool has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool set(const char *s)
{
	return s && *s;
}

/* Can path be read? pprof reads the files before it connects. */
static int readable(struct pp_ctx *ctx, const char *what, const char *path)
{
	FILE *fp = fopen(path, "rb");

	if (!fp)
		return pp_error(ctx, PP_EUSAGE, "could not load %s: %s: %s",
		                what, path, strerror(errno));
	fclose(fp);
	return 0;
}

int pp_fetch_tls_check(struct pp_ctx *ctx, const struct pp_fetch_tls *tls)
{
	int err;

	if (set(tls->key) && !set(tls->cert))
		return pp_error(ctx, PP_EUSAGE,
		                "-tls_key is specified, so -tls_cert must also "
		                "be specified");
	if (set(tls->cert) && !set(tls->key))
		return pp_error(ctx, PP_EUSAGE,
		                "-tls_cert is specified, so -tls_key must also "
		                "be specified");
	if (set(tls->cert) &&
	    ((err = readable(ctx,
	                     "certificate/key pair specified by -tls_cert "
	                     "and -tls_key",
	                     tls->cert)) < 0 ||
	     (err = readable(ctx,
	                     "certificate/key pair specified by -tls_cert "
	                     "and -tls_key",
	                     tls->key)) < 0))
		return err;
	if (set(tls->ca) &&
	    (err = readable(ctx, "CA specified by -tls_ca", tls->ca)) < 0)
		return err;
	return 0;
}

/* The client certificate and CAs of tls on transfer c; false when
 * libcurl refuses one of the options. */
bool pp_fetch__set_tls(void *c, const struct pp_fetch_tls *tls)
{
	CURL *curl = c;

	return (!set(tls->cert) ||
	        (curl_easy_setopt(curl, CURLOPT_SSLCERT, tls->cert) ==
	                 CURLE_OK &&
	         curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM") ==
	                 CURLE_OK &&
	         curl_easy_setopt(curl, CURLOPT_SSLKEY, tls->key) == CURLE_OK &&
	         curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM") ==
	                 CURLE_OK)) &&
	       (!set(tls->ca) ||
	        curl_easy_setopt(curl, CURLOPT_CAINFO, tls->ca) == CURLE_OK);
}

/* Adjust source, announce it and set up its transfer in *f (zeroed). */
static int fetch_start(struct pp_ctx *ctx, const char *source,
                       const struct pp_fetch_opts *opts, struct fetch *f)
{
	struct pp_fetch_url *u = &f->u;
	char msg[1100];
	int err;

	f->ctx = ctx;
	f->cap = cap_of(ctx);
	if ((err = pp_fetch_adjust_url(ctx, source, opts->seconds,
	                               opts->timeout, u)) <= 0)
		return err < 0 ? err
		               : pp_error(ctx, PP_EUSAGE, "%s: not a URL",
		                          source);
	f->name = u->shown;
	f->deadline = now_ms() + u->timeout_ms + 5000;
	if (!has_prefix(u->shown, "http://") &&
	    !has_prefix(u->shown, "https://") && !u->insecure) {
		/* "ftp://host/x", or "//host/x" with no scheme at all. */
		int n = has_prefix(u->shown, "//")
		                ? 0
		                : (int)strcspn(u->shown, ":");

		return pp_error(ctx, PP_EFETCH,
		                "%s: unsupported protocol scheme \"%.*s\"",
		                u->shown, n, u->shown);
	}
	if (opts->progress) {
		snprintf(msg, sizeof(msg), "Fetching profile over HTTP from %s",
		         u->shown);
		opts->progress(opts->progress_data, msg);
		if (u->seconds > 0) {
			char d[32];

			go_duration(d, sizeof(d), u->seconds);
			snprintf(msg, sizeof(msg), "Please wait... (%s)", d);
			opts->progress(opts->progress_data, msg);
		}
	}
	if (!(f->curl = curl_easy_init()))
		return pp_error(ctx, PP_EFETCH, "%s: cannot start libcurl",
		                u->shown);
	/* CURLOPT_NOSIGNAL stays off: libcurl then ignores SIGPIPE while it
	 * writes (a server that resets the connection would kill us), and
	 * Debian's libcurl resolves names on a thread, with no SIGALRM. */
	if (curl_easy_setopt(f->curl, CURLOPT_URL, u->url) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_PRIVATE, f) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_PROTOCOLS_STR, "http,https") !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_REDIR_PROTOCOLS_STR,
	                     "http,https") != CURLE_OK ||
	    /* As Go's http.Client: up to 10 redirects, gzip accepted. */
	    curl_easy_setopt(f->curl, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_MAXREDIRS, 10L) != CURLE_OK ||
	    /* A Content-Length over the cap fails before the body. */
	    curl_easy_setopt(
	            f->curl, CURLOPT_MAXFILESIZE_LARGE,
	            (curl_off_t)(f->cap > INT64_MAX ? INT64_MAX : f->cap)) !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_ACCEPT_ENCODING, "gzip") !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_TIMEOUT_MS,
	                     u->timeout_ms + 5000) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_USERAGENT,
	                     "pprof-c/" PPROF_C_VERSION) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_ERRORBUFFER, f->errbuf) !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_HEADERFUNCTION, header_cb) !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_HEADERDATA, f) != CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_WRITEFUNCTION, write_cb) !=
	            CURLE_OK ||
	    curl_easy_setopt(f->curl, CURLOPT_WRITEDATA, f) != CURLE_OK ||
	    !pp_fetch__set_tls(f->curl, &opts->tls) ||
	    (u->insecure && (curl_easy_setopt(f->curl, CURLOPT_SSL_VERIFYPEER,
	                                      0L) != CURLE_OK ||
	                     curl_easy_setopt(f->curl, CURLOPT_SSL_VERIFYHOST,
	                                      0L) != CURLE_OK)))
		return pp_error(ctx, PP_EFETCH,
		                "%s: libcurl lacks an option pprof-c needs",
		                u->shown);
	return 0;
}

/* Did a transfer that is done bring a 200? */
static bool fetch_ok(struct fetch *f)
{
	if (f->err < 0 || f->rc != CURLE_OK)
		return false;
	curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &f->status);
	return f->status == 200;
}

/* The error of a transfer that is done, or 0 when it brought a 200. */
static int fetch_error(struct fetch *f)
{
	if (f->err < 0)
		return pp_error(f->ctx, f->err, "%s", f->msg);
	if (f->rc != CURLE_OK && !(f->rc == CURLE_WRITE_ERROR && f->enough))
		return transfer_error(f, &f->u, f->rc, f->errbuf);
	curl_easy_getinfo(f->curl, CURLINFO_RESPONSE_CODE, &f->status);
	if (f->status != 200)
		return status_error(f);
	return 0;
}

static void fetch_release(struct fetch *f)
{
	if (f->curl)
		curl_easy_cleanup(f->curl);
	pp_gunzip_stream_free(f->gz);
	pp_free(f->ctx, f->raw);
	if (f->ctx)
		pp_fetch_url_release(f->ctx, &f->u);
}

/* Progress: the bytes received of all the transfers, of the total their
 * servers announced (0 when one did not). */
static void fetch_progress(struct pp_ctx *ctx, const struct fetch *fs, size_t n)
{
	curl_off_t got = 0, total = 0;
	char what[320];

	if (!ctx->progress)
		return;
	for (size_t i = 0; i < n; i++) {
		curl_off_t d = 0, t = -1;

		curl_easy_getinfo(fs[i].curl, CURLINFO_SIZE_DOWNLOAD_T, &d);
		curl_easy_getinfo(fs[i].curl,
		                  CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &t);
		got += d > 0 ? d : 0;
		total = t > 0 && total >= 0 ? total + t : -1;
	}
	if (n == 1)
		snprintf(what, sizeof(what), "fetching %s", fs[0].name);
	else
		snprintf(what, sizeof(what), "fetching %zu profiles", n);
	pp_progress(ctx, what, "bytes", (uint64_t)got,
	            total > 0 ? (uint64_t)total : 0);
}

/* Run the transfers together until all are done or one fails: the index
 * of the failed one, or n. */
static int run_all(struct pp_ctx *ctx, struct fetch *fs, size_t n,
                   size_t *failed)
{
	CURLM *multi = curl_multi_init();
	size_t added = 0;
	int running = 1, err = 0;

	*failed = n;
	if (!multi)
		return pp_error(ctx, PP_EFETCH, "%s%s: cannot start libcurl",
		                fs[0].name, n > 1 ? " and the other URLs" : "");
	for (; added < n; added++)
		if (curl_multi_add_handle(multi, fs[added].curl) != CURLM_OK) {
			err = pp_error(ctx, PP_EFETCH,
			               "%s: cannot start libcurl",
			               fs[added].name);
			goto done;
		}
	while (running && *failed == n) {
		CURLMsg *m;
		CURLMcode mc;
		int left;

		if ((mc = curl_multi_perform(multi, &running)) != CURLM_OK ||
		    (running && (mc = curl_multi_poll(multi, NULL, 0, 1000,
		                                      NULL)) != CURLM_OK)) {
			/* Every transfer stops: the first is named. */
			err = pp_error(ctx, PP_EFETCH,
			               "%s%s: libcurl failed: %s", fs[0].name,
			               n > 1 ? " and the other URLs" : "",
			               curl_multi_strerror(mc));
			goto done;
		}
		fetch_progress(ctx, fs, n);
		while ((m = curl_multi_info_read(multi, &left))) {
			struct fetch *f = NULL;

			if (m->msg != CURLMSG_DONE)
				continue;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE,
			                  (char **)&f);
			f->rc = m->data.result;
			/* The first failure ends them all: no need to wait
			 * out another's 30 seconds to report it. */
			if (*failed == n && !fetch_ok(f))
				*failed = (size_t)(f - fs);
		}
	}
done:
	for (size_t i = 0; i < added; i++)
		curl_multi_remove_handle(multi, fs[i].curl);
	curl_multi_cleanup(multi);
	return err;
}

int pp_fetch_profiles(struct pp_ctx *ctx, const char *const *sources, size_t n,
                      const struct pp_fetch_opts *opts, pp_fetch_take_fn take,
                      void *arg)
{
	static const struct pp_fetch_opts defaults = {0};
	struct pp_source_bytes b = {{NULL, 0}, NULL};
	struct fetch *fs;
	size_t failed = n, i;
	int err = 0;

	if (n == 0)
		return 0;
	if (!opts)
		opts = &defaults;
	if ((err = pp_fetch_tls_check(ctx, &opts->tls)) < 0)
		return err;
	if (!(fs = pp_calloc(ctx, n, sizeof(*fs))))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		if ((err = fetch_start(ctx, sources[i], opts, &fs[i])) < 0)
			goto done;
	if ((err = run_all(ctx, fs, n, &failed)) < 0)
		goto done;
	if (failed < n) {
		err = fetch_error(&fs[failed]);
		goto done;
	}
	/* Each body handed over before the next is inflated to its end:
	 * the first that fails, inflating or taken, is the error. */
	for (i = 0; i < n; i++) {
		if ((err = fetch_error(&fs[i])) < 0 ||
		    (err = take_body(&fs[i], &b)) < 0)
			goto done;
		/* Free each body's stream as soon as its bytes are out. */
		pp_gunzip_stream_free(fs[i].gz);
		fs[i].gz = NULL;
		err = take(arg, i, &b);
		pp_source_bytes_release(ctx, &b);
		if (err < 0)
			goto done;
	}
done:
	pp_source_bytes_release(ctx, &b);
	for (i = 0; i < n; i++)
		fetch_release(&fs[i]);
	pp_free(ctx, fs);
	return err;
}

/* pp_fetch_profile's taker: the one body, kept. */
static int keep_body(void *arg, size_t i, struct pp_source_bytes *b)
{
	struct pp_source_bytes *out = arg;

	(void)i;
	*out = *b;
	memset(b, 0, sizeof(*b));
	return 0;
}

int pp_fetch_profile(struct pp_ctx *ctx, const char *source,
                     const struct pp_fetch_opts *opts,
                     struct pp_source_bytes *out)
{
	memset(out, 0, sizeof(*out));
	return pp_fetch_profiles(ctx, &source, 1, opts, keep_body, out);
}

int pp_fetch_global_init(struct pp_ctx *ctx)
{
	CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);

	if (rc != CURLE_OK)
		return pp_error(ctx, PP_EFETCH, "cannot start libcurl: %s",
		                curl_easy_strerror(rc));
	return 0;
}

void pp_fetch_global_cleanup(void)
{
	curl_global_cleanup();
}
