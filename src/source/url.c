/*
 * Which sources are URLs, and the URL fetched: pprof's adjustURL, with Go's
 * net/url parsing and printing as far as pprof's behaviour depends on them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pprof/fetch.h"
#include "util/strbuf.h"

/* ---- escapes ----------------------------------------------------------- */

static void sb_hex(struct pp_strbuf *b, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char e[3] = {'%', hex[c >> 4], hex[c & 15]};

	pp_strbuf_add(b, e, 3);
}

/* ---- Go's net/url, the parts adjustURL depends on ---------------------- */

struct span {
	const char *p;
	size_t n;
};

struct url {
	struct span scheme, user, host, path, query, frag;
	bool has_user, has_query, force_query, has_frag;
};

static bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static int unhex(int c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool span_eq(struct span s, const char *lit)
{
	return s.n == strlen(lit) && memcmp(s.p, lit, s.n) == 0;
}

/* Schemes compare without case: Go lowercases them. */
static bool scheme_is(const struct url *u, const char *lit)
{
	if (u->scheme.n != strlen(lit))
		return false;
	for (size_t i = 0; i < u->scheme.n; i++) {
		int c = (unsigned char)u->scheme.p[i];

		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		if (c != lit[i])
			return false;
	}
	return true;
}

static const char *span_chr(struct span s, char c)
{
	return s.n ? memchr(s.p, c, s.n) : NULL;
}

/* Every '%' starts a two-digit hex escape (Go's unescape). */
static bool valid_escapes(struct span s)
{
	for (size_t i = 0; i < s.n; i++)
		if (s.p[i] == '%' &&
		    (i + 2 >= s.n || unhex((unsigned char)s.p[i + 1]) < 0 ||
		     unhex((unsigned char)s.p[i + 2]) < 0))
			return false;
	return true;
}

enum esc_mode { ESC_PATH, ESC_FRAGMENT, ESC_QUERY };

/* Go's shouldEscape for the modes we print. */
static bool should_escape(unsigned char c, enum esc_mode mode)
{
	if (is_alpha(c) || is_digit(c))
		return false;
	switch (c) {
	case '-':
	case '_':
	case '.':
	case '~':
		return false;
	case '$':
	case '&':
	case '+':
	case ',':
	case '/':
	case ':':
	case ';':
	case '=':
	case '?':
	case '@':
		if (mode == ESC_PATH)
			return c == '?';
		return mode == ESC_QUERY;
	default:
		break;
	}
	if (mode == ESC_FRAGMENT &&
	    (c == '!' || c == '(' || c == ')' || c == '*'))
		return false;
	return true;
}

/* Go's validEncoded: s may be printed as it is. */
static bool valid_encoded(struct span s, enum esc_mode mode)
{
	for (size_t i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (strchr("!$&'()*+,;=:@[]%", c) && c != '\0')
			continue;
		if (should_escape(c, mode))
			return false;
	}
	return true;
}

/* Append s (escapes already valid) as Go prints a path or fragment: as
 * given when that is a valid encoding, else unescaped and escaped again. */
static void sb_escaped(struct pp_strbuf *b, struct span s, enum esc_mode mode)
{
	if (valid_encoded(s, mode)) {
		pp_strbuf_add(b, s.p, s.n);
		return;
	}
	for (size_t i = 0; i < s.n; i++) {
		unsigned char c = (unsigned char)s.p[i];

		if (c == '%') {
			c = (unsigned char)(unhex((unsigned char)s.p[i + 1]) *
			                            16 +
			                    unhex((unsigned char)s.p[i + 2]));
			i += 2;
		}
		if (should_escape(c, mode))
			sb_hex(b, c);
		else
			pp_strbuf_addch(b, (char)c);
	}
}

/* Characters Go accepts in a host (shouldEscape is false in encodeHost
 * mode); bytes >= 0x80 pass too. '%' (zone ids, escaped UTF-8) is refused
 * here, which Go would accept: no profile server needs it. */
static bool host_char(unsigned char c)
{
	return c >= 0x80 || is_alpha(c) || is_digit(c) ||
	       (c && strchr("-_.~!$&'()*+,;=:[]<>\"", c));
}

static bool valid_port(struct span s)
{
	if (s.n == 0)
		return true;
	if (s.p[0] != ':')
		return false;
	for (size_t i = 1; i < s.n; i++)
		if (!is_digit((unsigned char)s.p[i]))
			return false;
	return true;
}

static int parse_host(struct span h)
{
	const char *colon = NULL;

	if (h.n > 0 && h.p[0] == '[') {
		const char *close = NULL;

		for (size_t i = h.n; i-- > 0;)
			if (h.p[i] == ']') {
				close = h.p + i;
				break;
			}
		if (!close)
			return -1;
		if (!valid_port((struct span){close + 1,
		                              (size_t)(h.p + h.n - close - 1)}))
			return -1;
	} else {
		for (size_t i = h.n; i-- > 0;)
			if (h.p[i] == ':') {
				colon = h.p + i;
				break;
			}
		if (colon && !valid_port((struct span){
		                     colon, (size_t)(h.p + h.n - colon)}))
			return -1;
	}
	for (size_t i = 0; i < h.n; i++)
		if (!host_char((unsigned char)h.p[i]))
			return -1;
	return 0;
}

static bool userinfo_char(unsigned char c)
{
	return is_alpha(c) || is_digit(c) ||
	       (c && strchr("-._:~!$&'()*+,;=%@", c));
}

/* Go's url.Parse, as far as adjustURL looks: 0, or -1 where Go fails. */
static int url_parse(const char *s, size_t n, struct url *u)
{
	struct span rest;
	const char *hash, *q;

	memset(u, 0, sizeof(*u));
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return -1;
	if ((hash = memchr(s, '#', n))) {
		u->has_frag = true;
		u->frag = (struct span){hash + 1, (size_t)(s + n - hash - 1)};
		if (!valid_escapes(u->frag))
			return -1;
		n = (size_t)(hash - s);
	}
	/* getScheme */
	rest = (struct span){s, n};
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (is_alpha(c))
			continue;
		if (is_digit(c) || c == '+' || c == '-' || c == '.') {
			if (i == 0)
				break;
			continue;
		}
		if (c == ':') {
			if (i == 0)
				return -1; /* missing protocol scheme */
			u->scheme = (struct span){s, i};
			rest = (struct span){s + i + 1, n - i - 1};
		}
		break;
	}
	/* The query: a lone trailing '?' is kept (ForceQuery). */
	if ((q = span_chr(rest, '?'))) {
		size_t at = (size_t)(q - rest.p);

		if (at == rest.n - 1) {
			u->force_query = true;
		} else {
			u->has_query = true;
			u->query = (struct span){q + 1, rest.n - at - 1};
		}
		rest.n = at;
	}
	if (rest.n == 0 || rest.p[0] != '/') {
		const char *slash = span_chr(rest, '/');
		struct span first = {rest.p,
		                     slash ? (size_t)(slash - rest.p) : rest.n};

		if (u->scheme.n)
			return 0; /* opaque: no host */
		if (span_chr(first, ':'))
			return -1; /* first path segment cannot contain colon */
		u->path = rest;
		return valid_escapes(rest) ? 0 : -1;
	}
	if ((u->scheme.n || !(rest.n >= 3 && memcmp(rest.p, "///", 3) == 0)) &&
	    rest.n >= 2 && memcmp(rest.p, "//", 2) == 0) {
		struct span auth = {rest.p + 2, rest.n - 2};
		const char *slash = span_chr(auth, '/'), *at = NULL;

		if (slash)
			auth.n = (size_t)(slash - auth.p);
		rest = (struct span){
		        auth.p + auth.n,
		        (size_t)(rest.p + rest.n - auth.p - auth.n)};
		for (size_t i = auth.n; i-- > 0;)
			if (auth.p[i] == '@') {
				at = auth.p + i;
				break;
			}
		if (at) {
			u->has_user = true;
			u->user = (struct span){auth.p, (size_t)(at - auth.p)};
			for (size_t i = 0; i < u->user.n; i++)
				if (!userinfo_char((unsigned char)u->user.p[i]))
					return -1;
			if (!valid_escapes(u->user))
				return -1;
			auth = (struct span){
			        at + 1, (size_t)(auth.p + auth.n - at - 1)};
		}
		if (parse_host(auth) < 0)
			return -1;
		u->host = auth;
	}
	u->path = rest;
	return valid_escapes(rest) ? 0 : -1;
}

/* ---- the query, as url.Values ------------------------------------------ */

struct qpair {
	char *key, *val; /* unescaped; may hold NULs */
	size_t klen, vlen;
	size_t order;
};

/* Go's QueryUnescape: '+' is a space. NULL on a bad escape (or no memory:
 * *nomem). */
static char *query_unescape(struct pp_ctx *ctx, const char *s, size_t n,
                            size_t *len, bool *nomem)
{
	char *out = pp_malloc(ctx, n + 1);
	size_t w = 0;

	if (!out) {
		*nomem = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '+') {
			out[w++] = ' ';
		} else if (s[i] == '%') {
			int hi, lo;

			if (i + 2 >= n) {
				pp_free(ctx, out);
				return NULL;
			}
			hi = unhex((unsigned char)s[i + 1]);
			lo = unhex((unsigned char)s[i + 2]);
			if (hi < 0 || lo < 0) {
				pp_free(ctx, out);
				return NULL;
			}
			out[w++] = (char)(hi * 16 + lo);
			i += 2;
		} else {
			out[w++] = s[i];
		}
	}
	out[w] = '\0';
	*len = w;
	return out;
}

static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	if (c)
		return c;
	return an < bn ? -1 : an > bn;
}

static int qpair_cmp(const void *x, const void *y)
{
	const struct qpair *a = x, *b = y;
	int c = bytes_cmp(a->key, a->klen, b->key, b->klen);

	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

static void sb_query_escaped(struct pp_strbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == ' ')
			pp_strbuf_addch(b, '+');
		else if (should_escape(c, ESC_QUERY))
			sb_hex(b, c);
		else
			pp_strbuf_addch(b, (char)c);
	}
}

static bool is_key(const struct qpair *q, const char *key)
{
	return q->klen == strlen(key) && memcmp(q->key, key, q->klen) == 0;
}

/* Go's ParseInt(s, 10, 32). */
static bool parse_int32(const char *s, size_t n, long *out)
{
	size_t i = 0;
	bool neg = false;
	long v = 0;

	if (n > 0 && (s[0] == '+' || s[0] == '-')) {
		neg = s[0] == '-';
		i = 1;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (!is_digit((unsigned char)s[i]))
			return false;
		v = v * 10 + (s[i] - '0');
		if (v > 2147483648L)
			return false;
	}
	if (neg)
		v = -v;
	if (v > 2147483647L || v < -2147483648L)
		return false;
	*out = v;
	return true;
}

/*
 * The query of u re-encoded as url.Values.Encode does, with "seconds" set
 * to seconds when it is > 0; *url_seconds gets the URL's own "seconds"
 * otherwise (0 when none or not a number).
 */
static int adjust_query(struct pp_ctx *ctx, const struct url *u, int seconds,
                        struct pp_strbuf *out, long *url_seconds)
{
	struct qpair *pairs = NULL;
	size_t npairs = 0, cap = 0;
	struct span rest = u->query;
	int err = 0;
	bool nomem = false;

	*url_seconds = 0;
	while (u->has_query) {
		const char *amp = span_chr(rest, '&'), *eq;
		struct span seg = {rest.p,
		                   amp ? (size_t)(amp - rest.p) : rest.n};
		struct qpair q = {NULL, NULL, 0, 0, npairs};

		if (seg.n > 0 && !span_chr(seg, ';')) {
			eq = span_chr(seg, '=');
			q.key = query_unescape(
			        ctx, seg.p, eq ? (size_t)(eq - seg.p) : seg.n,
			        &q.klen, &nomem);
			if (q.key && eq)
				q.val = query_unescape(
				        ctx, eq + 1,
				        (size_t)(seg.p + seg.n - eq - 1),
				        &q.vlen, &nomem);
			else if (q.key)
				q.val = query_unescape(ctx, "", 0, &q.vlen,
				                       &nomem);
			if (nomem) {
				pp_free(ctx, q.key);
				pp_free(ctx, q.val);
				err = pp_error(ctx, PP_ENOMEM, "out of memory");
				goto done;
			}
			if (q.key && q.val) {
				if ((err = pp_grow(ctx, (void **)&pairs, &cap,
				                   npairs + 1,
				                   sizeof(*pairs))) < 0) {
					pp_free(ctx, q.key);
					pp_free(ctx, q.val);
					goto done;
				}
				pairs[npairs++] = q;
			} else {
				pp_free(ctx, q.key);
				pp_free(ctx, q.val);
			}
		}
		if (!amp)
			break;
		rest = (struct span){amp + 1,
		                     (size_t)(rest.p + rest.n - amp - 1)};
	}
	if (seconds > 0) {
		/* values.Set: every "seconds" goes, one comes. */
		char num[16];
		size_t w = 0;
		struct qpair q = {NULL, NULL, 7, 0, npairs};

		for (size_t i = 0; i < npairs; i++) {
			if (is_key(&pairs[i], "seconds")) {
				pp_free(ctx, pairs[i].key);
				pp_free(ctx, pairs[i].val);
			} else {
				pairs[w++] = pairs[i];
			}
		}
		npairs = w;
		snprintf(num, sizeof(num), "%d", seconds);
		q.key = pp_strdup(ctx, "seconds");
		q.val = pp_strdup(ctx, num);
		q.vlen = strlen(num);
		if (!q.key || !q.val ||
		    pp_grow(ctx, (void **)&pairs, &cap, npairs + 1,
		            sizeof(*pairs)) < 0) {
			pp_free(ctx, q.key);
			pp_free(ctx, q.val);
			err = pp_error(ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		pairs[npairs++] = q;
	} else {
		for (size_t i = 0; i < npairs; i++) {
			long v;

			if (is_key(&pairs[i], "seconds")) {
				if (parse_int32(pairs[i].val, pairs[i].vlen,
				                &v))
					*url_seconds = v;
				break;
			}
		}
	}
	/* Keys sorted, each key's values in their order. */
	if (npairs > 1)
		qsort(pairs, npairs, sizeof(*pairs), qpair_cmp);
	for (size_t i = 0; i < npairs; i++) {
		if (i > 0)
			pp_strbuf_addch(out, '&');
		sb_query_escaped(out, pairs[i].key, pairs[i].klen);
		pp_strbuf_addch(out, '=');
		sb_query_escaped(out, pairs[i].val, pairs[i].vlen);
	}
done:
	for (size_t i = 0; i < npairs; i++) {
		pp_free(ctx, pairs[i].key);
		pp_free(ctx, pairs[i].val);
	}
	pp_free(ctx, pairs);
	return err;
}

/* ---- adjustURL --------------------------------------------------------- */

/* Parse source as adjustURL does: as it is, else with "http://" before
 * it. *buf (to pp_free) holds the text u points into. 1 URL, 0 not. */
static int parse_source(struct pp_ctx *ctx, const char *source, struct url *u,
                        char **buf)
{
	size_t n = strlen(source);
	int rc = url_parse(source, n, u);

	*buf = NULL;
	if (rc < 0 ||
	    (u->host.n == 0 && u->scheme.n != 0 && !scheme_is(u, "file"))) {
		static const char http[] = "http://";

		*buf = pp_malloc(ctx, n + sizeof(http));
		if (!*buf)
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		memcpy(*buf, http, sizeof(http) - 1);
		memcpy(*buf + sizeof(http) - 1, source, n + 1);
		rc = url_parse(*buf, n + sizeof(http) - 1, u);
	}
	return rc == 0 && u->host.n > 0;
}

int pp_fetch_adjust_url(struct pp_ctx *ctx, const char *source, int seconds,
                        int timeout, struct pp_fetch_url *out)
{
	static const char cpu_handler[] = "/debug/pprof/profile";
	struct pp_strbuf url, shown, query;
	struct url u;
	char *buf = NULL;
	long url_seconds = 0, duration;
	int rc;

	memset(out, 0, sizeof(*out));
	pp_strbuf_init(&url, ctx);
	pp_strbuf_init(&shown, ctx);
	pp_strbuf_init(&query, ctx);
	if ((rc = parse_source(ctx, source, &u, &buf)) <= 0)
		goto done;
	if ((rc = adjust_query(ctx, &u, seconds, &query, &url_seconds)) < 0)
		goto done;
	duration = seconds > 0 ? seconds : url_seconds;
	out->insecure = scheme_is(&u, "https+insecure");
	for (size_t i = 0; i < u.scheme.n; i++) {
		char c = u.scheme.p[i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 'a' - 'A');
		pp_strbuf_addch(&shown, c);
	}
	pp_strbuf_addstr(&url, out->insecure ? "https"
	                       : shown.s     ? shown.s
	                                     : "");
	pp_strbuf_addstr(&shown, u.scheme.n ? "://" : "//");
	pp_strbuf_addstr(&url, u.scheme.n ? "://" : "//");
	if (u.has_user) {
		pp_strbuf_add(&url, u.user.p, u.user.n);
		pp_strbuf_addch(&url, '@');
	}
	/* Go dials ":6060" on the local host; curl needs a name. */
	if (u.host.p[0] == ':')
		pp_strbuf_addstr(&url, "localhost");
	pp_strbuf_add(&url, u.host.p, u.host.n);
	for (size_t i = 0; i < u.host.n; i++) {
		unsigned char c = (unsigned char)u.host.p[i];

		if (c >= 0x80)
			sb_hex(&shown, c);
		else
			pp_strbuf_addch(&shown, (char)c);
	}
	if (u.path.n == 0 || span_eq(u.path, "/")) {
		pp_strbuf_addstr(&url, cpu_handler);
		pp_strbuf_addstr(&shown, cpu_handler);
	} else {
		sb_escaped(&url, u.path, ESC_PATH);
		sb_escaped(&shown, u.path, ESC_PATH);
	}
	if (query.len > 0 || u.force_query) {
		pp_strbuf_addch(&url, '?');
		pp_strbuf_addch(&shown, '?');
		if (query.len > 0) {
			pp_strbuf_addstr(&url, query.s);
			pp_strbuf_addstr(&shown, query.s);
		}
	}
	if (u.has_frag && u.frag.n > 0) {
		pp_strbuf_addch(&shown, '#');
		sb_escaped(&shown, u.frag, ESC_FRAGMENT);
	}
	if ((rc = url.err) < 0 || (rc = shown.err) < 0 || (rc = query.err) < 0)
		goto done;
	/* Credentials are never shown, even where pprof's reading of a
	 * malformed URL leaves them in the path (http://http://u:p@h/). */
	if (!(out->shown = pp_fetch_redact(ctx, shown.s))) {
		rc = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((rc = pp_strbuf_detach(&url, &out->url, NULL)) < 0)
		goto done;
	out->seconds = seconds > 0 ? seconds : 0;
	if (timeout > 0)
		out->timeout_ms = timeout * 1000L;
	else if (duration > 0)
		out->timeout_ms = duration * 1000 + duration * 500;
	else
		out->timeout_ms = 60000;
	rc = 1;
done:
	pp_strbuf_release(&url);
	pp_strbuf_release(&shown);
	pp_strbuf_release(&query);
	pp_free(ctx, buf);
	return rc;
}

char *pp_fetch_redact(struct pp_ctx *ctx, const char *text)
{
	size_t n = strlen(text), o = 0;
	char *out = pp_malloc(ctx, n + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t end, at = SIZE_MAX;

		out[o++] = text[i++];
		if (i < 3 || memcmp(text + i - 3, "://", 3) != 0)
			continue;
		/* An authority's userinfo ends at its last '@'. */
		for (end = i; end < n && !strchr("/?#", text[end]) &&
		              !isspace((unsigned char)text[end]);
		     end++)
			if (text[end] == '@')
				at = end;
		if (at != SIZE_MAX)
			i = at + 1;
	}
	out[o] = '\0';
	return out;
}

bool pp_fetch_looks_like_url(const char *source)
{
	static const char *const schemes[] = {"http://", "https://",
	                                      "https+insecure://"};

	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (strncasecmp(source, schemes[i], strlen(schemes[i])) == 0)
			return true;
	return false;
}

void pp_fetch_url_release(struct pp_ctx *ctx, struct pp_fetch_url *u)
{
	pp_free(ctx, u->url);
	pp_free(ctx, u->shown);
	memset(u, 0, sizeof(*u));
}

bool pp_fetch_is_url(const char *source)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct url u;
	char *buf;
	int rc = parse_source(&ctx, source, &u, &buf);

	pp_free(&ctx, buf);
	return rc > 0;
}
