/*
 * Remote symbolization, pprof's symbolz protocol (its internal/symbolz):
 * the addresses of a mapping's unsymbolized locations are POSTed, as
 * "0x401000+0x4010a3", to the symbol handler beside the URL its profile
 * came from (/debug/pprof/symbol for net/http/pprof and gperftools paths,
 * else .../symbolz), and each answer line "0xADDR NAME" names the
 * function at that address.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/fetch.h"
#include "source/internal.h"
#include "util/path.h"
#include "util/strbuf.h"

#define BODY_MAX (64u << 20) /* a symbol answer larger than this is junk */

static bool ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

int pp_symbolz_url(struct pp_ctx *ctx, const char *source, char **result)
{
	static const char *const gperftools[] = {
	        "/pprof/heap", "/pprof/growth", "/pprof/profile",
	        "/pprof/pmuprofile", "/pprof/contention"};
	const char *scheme_end = strstr(source, "://"), *host, *path, *end;
	const char *last;
	size_t plen;
	char *joined = NULL, *clean = NULL, *out = NULL;
	bool pprof_path = false;

	*result = NULL;
	if (!scheme_end)
		return 0;
	host = scheme_end + 3;
	path = host + strcspn(host, "/?#");
	if (path == host)
		return 0; /* no host */
	end = path + strcspn(path, "?#");
	plen = (size_t)(end - path);
	for (const char *p = path; p + 13 <= end; p++)
		if (memcmp(p, "/debug/pprof/", 13) == 0)
			pprof_path = true;
	for (size_t i = 0; i < sizeof(gperftools) / sizeof(*gperftools); i++)
		if (ends_with(path, plen, gperftools[i]))
			pprof_path = true;
	last = pprof_path ? "/../symbol" : "/../symbolz";
	/* path.Clean(path + "/../symbol"), the query dropped. */
	joined = pp_malloc(ctx, plen + strlen(last) + 2);
	clean = pp_malloc(ctx, plen + strlen(last) + 4);
	if (!joined || !clean)
		goto done;
	snprintf(joined, plen + strlen(last) + 2, "%.*s%s", (int)plen, path,
	         last);
	if (joined[0] != '/') { /* a URL path is rooted */
		memmove(joined + 1, joined, strlen(joined) + 1);
		joined[0] = '/';
	}
	pp_path_clean(joined, clean);
	{
		size_t n = (size_t)(path - source) + strlen(clean) + 1;

		if ((out = pp_malloc(ctx, n)))
			snprintf(out, n, "%.*s%s", (int)(path - source), source,
			         clean);
	}
done:
	pp_free(ctx, joined);
	pp_free(ctx, clean);
	if (!out)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	*result = out;
	return 0;
}

struct body {
	struct pp_strbuf text;
	bool too_big;
};

static size_t write_cb(char *ptr, size_t size, size_t n, void *data)
{
	struct body *b = data;
	size_t add = size * n;

	if (b->text.len + add > BODY_MAX) {
		b->too_big = true;
		return 0;
	}
	return pp_strbuf_add(&b->text, ptr, add) < 0 ? 0 : add;
}

/* POST post to url; the 200's body in *b. */
static int post(struct pp_ctx *ctx, const char *url, const char *post,
                const struct pp_fetch_tls *tls, struct body *b)
{
	char errbuf[CURL_ERROR_SIZE] = "", *shown = pp_fetch_redact(ctx, url);
	const char *plain = url;
	struct curl_slist *headers = NULL;
	char *fixed = NULL;
	bool insecure = strncmp(url, "https+insecure://", 17) == 0;
	CURL *c = NULL;
	CURLcode rc;
	long status = 0;
	int err = 0;

	if (!shown)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	if (insecure) {
		/* https+insecure://host/x is https://host/x, unchecked. */
		if (!(fixed = pp_malloc(ctx, strlen(url))))
			goto nomem;
		snprintf(fixed, strlen(url), "https%s", url + 14);
		plain = fixed;
	}
	if (!(c = curl_easy_init())) {
		err = pp_error(ctx, PP_EFETCH,
		               "http post %s: cannot start "
		               "libcurl",
		               shown);
		goto done;
	}
	headers = curl_slist_append(NULL,
	                            "Content-Type: application/octet-stream");
	if (!headers)
		goto nomem;
	if (curl_easy_setopt(c, CURLOPT_URL, plain) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https") !=
	            CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_POSTFIELDS, post) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_TIMEOUT, 60L) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_USERAGENT,
	                     "pprof-c/" PPROF_C_VERSION) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_cb) != CURLE_OK ||
	    curl_easy_setopt(c, CURLOPT_WRITEDATA, b) != CURLE_OK ||
	    !pp_fetch__set_tls(c, tls) ||
	    (insecure &&
	     (curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 0L) != CURLE_OK ||
	      curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 0L) != CURLE_OK))) {
		err = pp_error(ctx, PP_EFETCH,
		               "http post %s: libcurl lacks an option pprof-c "
		               "needs",
		               shown);
		goto done;
	}
	rc = curl_easy_perform(c);
	if (b->too_big) {
		err = pp_error(ctx, PP_ELIMIT,
		               "http post %s: answer larger than %u bytes",
		               shown, BODY_MAX);
		goto done;
	}
	if (rc != CURLE_OK) {
		err = pp_error(ctx, PP_EFETCH, "http post %s: %s", shown,
		               errbuf[0] ? errbuf : curl_easy_strerror(rc));
		goto done;
	}
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200)
		err = pp_error(ctx, PP_EFETCH,
		               "http post %s: server response: %ld", shown,
		               status);
	goto done;
nomem:
	err = pp_error(ctx, PP_ENOMEM, "out of memory");
done:
	if (c)
		curl_easy_cleanup(c);
	curl_slist_free_all(headers);
	pp_free(ctx, fixed);
	pp_free(ctx, shown);
	return err;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* pprof's `(0x[[:xdigit:]]+)\s+(.*)` on one line (with its '\n'): the
 * first such match; false when there is none. */
static bool parse_line(const char *s, size_t n, const char **hex,
                       size_t *hexlen, const char **name, size_t *namelen)
{
	for (size_t i = 0; i + 2 < n; i++) {
		size_t j = i + 2, k;

		if (s[i] != '0' || s[i + 1] != 'x' || !is_hex(s[j]))
			continue;
		while (j < n && is_hex(s[j]))
			j++;
		if (j >= n || !is_space(s[j]))
			continue;
		for (k = j; k < n && is_space(s[k]); k++)
			;
		*hex = s + i;
		*hexlen = j - i;
		*name = s + k;
		*namelen = 0;
		while (k + *namelen < n && s[k + *namelen] != '\n')
			(*namelen)++;
		return true;
	}
	return false;
}

/* addr + offset, false when it wraps, as pprof's adjust. */
static bool adjust(uint64_t addr, int64_t offset, uint64_t *out)
{
	uint64_t adj = (uint64_t)((int64_t)addr + offset);

	if (offset < 0 ? adj >= addr : adj < addr)
		return false;
	*out = adj;
	return true;
}

struct answer {
	uint64_t addr;
	uint32_t function;
	uint32_t seq; /* the answer's line: the last wins */
};

static int cmp_answer(const void *a, const void *b)
{
	const struct answer *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The function named s made by this answer (names: pp_str -> function,
 * open addressing over a power-of-two table), made when new. */
struct names {
	uint32_t *keys, *vals; /* keys: name + 1, 0 empty */
	size_t mask, n;
};

static int function_named(struct pp_profile *p, struct names *t, pp_str s,
                          uint32_t *out)
{
	size_t j;
	int err;

	if (!t->keys || (t->n + 1) * 2 > t->mask + 1) {
		size_t size = t->keys ? (t->mask + 1) * 2 : 256;
		uint32_t *keys = pp_calloc(p->ctx, size, sizeof(*keys));
		uint32_t *vals = pp_calloc(p->ctx, size, sizeof(*vals));

		if (!keys || !vals) {
			pp_free(p->ctx, keys);
			pp_free(p->ctx, vals);
			return pp_error(p->ctx, PP_ENOMEM, "out of memory");
		}
		for (size_t i = 0; t->keys && i <= t->mask; i++) {
			if (!t->keys[i])
				continue;
			j = (t->keys[i] * 2654435761u) & (size - 1);
			while (keys[j])
				j = (j + 1) & (size - 1);
			keys[j] = t->keys[i];
			vals[j] = t->vals[i];
		}
		pp_free(p->ctx, t->keys);
		pp_free(p->ctx, t->vals);
		t->keys = keys;
		t->vals = vals;
		t->mask = size - 1;
	}
	j = ((s + 1u) * 2654435761u) & t->mask;
	while (t->keys[j] && t->keys[j] != s + 1u)
		j = (j + 1) & t->mask;
	if (!t->keys[j]) {
		struct pp_function f = {0};

		f.id = (uint64_t)p->nfunctions + 1;
		f.name = f.system_name = s;
		if ((err = pp_profile_add_function(p, &f, &t->vals[j])) < 0)
			return err;
		t->keys[j] = s + 1u;
		t->n++;
	}
	*out = t->vals[j];
	return 0;
}

/* An answer, or the query for it, that cannot be used: pprof's words for
 * it after the handler's URL (without credentials). */
static int name_url(struct pp_ctx *ctx, const char *url, int err)
{
	char detail[sizeof(ctx->message)], *shown;

	memcpy(detail, ctx->message, sizeof(detail));
	if (!(shown = pp_fetch_redact(ctx, url)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	err = pp_error(ctx, err, "%s: %s", shown, detail);
	pp_free(ctx, shown);
	return err;
}

/* Symbolize mapping m from the symbolz handler at url. */
static int symbolize_mapping(struct pp_ctx *ctx, struct pp_profile *p,
                             uint32_t m, const char *url, int64_t offset,
                             const struct pp_fetch_tls *tls)
{
	struct body b = {.too_big = false};
	struct pp_strbuf query;
	struct answer *ans = NULL;
	struct names names = {0};
	size_t nans = 0, cap_ans = 0;
	int err = 0;

	pp_strbuf_init(&query, ctx);
	pp_strbuf_init(&b.text, ctx);

	for (uint32_t l = 0; l < p->nlocations; l++) {
		const struct pp_location *loc = &p->locations[l];
		uint64_t a;

		if (loc->mapping != m || loc->address == 0 || loc->line_count)
			continue;
		if (!adjust(loc->address, offset, &a)) {
			err = name_url(
			        ctx, url,
			        pp_error(ctx, PP_EFORMAT,
			                 "cannot adjust address %llu by %lld, "
			                 "it would overflow",
			                 (unsigned long long)loc->address,
			                 (long long)offset));
			goto done;
		}
		if ((err = pp_strbuf_addf(&query, "%s%#llx",
		                          query.len ? "+" : "",
		                          (unsigned long long)a)) < 0)
			goto done;
	}
	if (!query.len)
		return 0; /* nothing to ask (nothing allocated) */
	if ((err = post(ctx, url, query.s, tls, &b)) < 0)
		goto done;
	/* Only whole lines count: pprof stops at the first without '\n'. */
	for (size_t at = 0; b.text.s && at < b.text.len;) {
		const char *line = b.text.s + at, *nl;
		const char *hex, *name;
		size_t hexlen, namelen, n;
		char digits[40];
		uint64_t addr;
		char *end;
		uint32_t fn = PP_NONE;

		nl = memchr(line, '\n', b.text.len - at);
		if (!nl)
			break;
		n = (size_t)(nl - line) + 1;
		at += n;
		if (!parse_line(line, n, &hex, &hexlen, &name, &namelen))
			continue;
		if (hexlen >= sizeof(digits)) {
			err = pp_error(ctx, PP_EFORMAT,
			               "unexpected parse failure %.*s",
			               (int)hexlen, hex);
			goto bad_answer;
		}
		memcpy(digits, hex, hexlen);
		digits[hexlen] = '\0';
		addr = strtoull(digits, &end, 16);
		if (*end || hexlen > 18) {
			err = pp_error(ctx, PP_EFORMAT,
			               "unexpected parse failure %s", digits);
			goto bad_answer;
		}
		if (!adjust(addr, -offset, &addr)) {
			err = pp_error(ctx, PP_EFORMAT,
			               "cannot adjust symbolz address %llu by "
			               "%lld, it would overflow",
			               (unsigned long long)addr,
			               (long long)-offset);
			goto bad_answer;
		}
		/* One function per name in this answer, as pprof's. */
		{
			pp_str s = pp_strtab_intern(p->strings, name, namelen);

			if (s == PP_NONE)
				goto nomem;
			if ((err = function_named(p, &names, s, &fn)) < 0)
				goto done;
		}
		if ((err = pp_grow(ctx, (void **)&ans, &cap_ans, nans + 1,
		                   sizeof(*ans))) < 0)
			goto done;
		ans[nans].addr = addr;
		ans[nans].seq = (uint32_t)nans;
		ans[nans++].function = fn;
	}
	/* The last answer for an address wins, as in pprof's map. */
	if (nans > 1)
		qsort(ans, nans, sizeof(*ans), cmp_answer);
	for (uint32_t l = 0; l < p->nlocations; l++) {
		struct pp_location *loc = &p->locations[l];
		size_t lo = 0, hi = nans;

		if (loc->mapping != m)
			continue;
		while (lo < hi) { /* the last answer for the address */
			size_t mid = lo + (hi - lo) / 2;

			if (ans[mid].addr <= loc->address)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == 0 || ans[lo - 1].addr != loc->address)
			continue;
		if ((err = pp_profile_reserve_lines(p, 1)) < 0)
			goto done;
		memset(&p->lines[p->nlines], 0, sizeof(p->lines[0]));
		p->lines[p->nlines].function = ans[lo - 1].function;
		loc->line_first = (uint32_t)p->nlines++;
		loc->line_count = 1;
	}
	goto done;
bad_answer:
	err = name_url(ctx, url, err);
	goto done;
nomem:
	err = pp_error(ctx, PP_ENOMEM, "out of memory");
done:
	pp_strbuf_release(&query);
	pp_strbuf_release(&b.text);
	pp_free(ctx, ans);
	pp_free(ctx, names.keys);
	pp_free(ctx, names.vals);
	return err;
}

int pp_symbolz_symbolize(struct pp_ctx *ctx, struct pp_profile *p,
                         const struct pp_symbolz_source *sources, size_t n,
                         const struct pp_symbolz_opts *o)
{
	int err;

	for (uint32_t m = 0; m < p->nmappings; m++) {
		struct pp_mapping *map = &p->mappings[m];
		const char *file = pp_profile_str(p, map->file);
		const char *id = pp_profile_str(p, map->build_id);

		if (!o->force && map->has_functions)
			continue;
		/* The sources of its file, then of its build-id. */
		for (int pass = 0; pass < 2; pass++) {
			const char *key = pass == 0 ? file : id;
			size_t i;

			if (pass == 1 && !*id)
				break;
			for (i = 0; i < n; i++) {
				char *url;

				if (strcmp(sources[i].key, key) != 0)
					continue;
				if ((err = pp_symbolz_url(ctx, sources[i].url,
				                          &url)) < 0)
					return err;
				if (!url)
					continue;
				err = symbolize_mapping(
				        ctx, p, m, url,
				        (int64_t)(sources[i].start -
				                  map->start),
				        &o->tls);
				pp_free(ctx, url);
				if (err < 0)
					return err;
				map->has_functions = true;
				break;
			}
			if (i < n)
				break;
		}
	}
	return 0;
}
