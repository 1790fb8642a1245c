/*
 * Sources over HTTP, the parts that need no server: which sources are URLs
 * and how they are adjusted (against Go's own answers). tests/cli/http.sh
 * fetches; tests/unit/save.c tests where the CLI saves what it fetched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "pprof/fetch.h"
#include "pprof/source.h"

/*
 * What pprof's adjustURL (Go 1.19's cmd/pprof) returns for each source,
 * -seconds and -timeout: printed by Go itself, with a program that calls a
 * copy of adjustURL on this list. "" means "not a URL" (a file). The
 * timeout is in milliseconds.
 */
static const struct {
	const char *source;
	int seconds, timeout;
	const char *url;
	long timeout_ms;
} go_cases[] = {
        {"http://localhost:6060/debug/pprof/heap", 0, 0,
         "http://localhost:6060/debug/pprof/heap", 60000},
        {"localhost:6060", 0, 0, "http://localhost:6060/debug/pprof/profile",
         60000},
        {"localhost:6060/", 0, 0, "http://localhost:6060/debug/pprof/profile",
         60000},
        {"127.0.0.1:6060", 30, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=30", 45000},
        {"127.0.0.1:6060/debug/pprof/heap", 0, 0,
         "http://127.0.0.1:6060/debug/pprof/heap", 60000},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=10", 0, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=10", 15000},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=10", 5, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=5", 7500},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=10", 0, 3,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=10", 3000},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=x", 0, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=x", 60000},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=-4", 0, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=-4", 60000},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=3&seconds=7", 0, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=3&seconds=7", 4500},
        {"http://127.0.0.1:6060/debug/pprof/profile?seconds=3&seconds=7", 2, 0,
         "http://127.0.0.1:6060/debug/pprof/profile?seconds=2", 3000},
        {"http://h:1/x?debug=0&a=b%20c&z=1&b", 0, 0,
         "http://h:1/x?a=b+c&b=&debug=0&z=1", 60000},
        {"http://h:1/x?z=1&a=2&z=0&a=1", 0, 0, "http://h:1/x?a=2&a=1&z=1&z=0",
         60000},
        {"http://h:1/x?a=1;b=2&c=3", 0, 0, "http://h:1/x?c=3", 60000},
        {"http://h:1/x?a=%zz&c=%2F+x", 0, 0, "http://h:1/x?c=%2F+x", 60000},
        {"http://h:1/x?&&a&=b", 0, 0, "http://h:1/x?=b&a=", 60000},
        {"http://h:1/x?", 0, 0, "http://h:1/x?", 60000},
        {"http://h:1/x?", 4, 0, "http://h:1/x?seconds=4", 6000},
        {"http://h:1/x#frag", 0, 0, "http://h:1/x#frag", 60000},
        {"http://h:1/a b", 0, 0, "http://h:1/a%20b", 60000},
        {"http://h:1/a%20b", 0, 0, "http://h:1/a%20b", 60000},
        {"http://h:1/a%2Fb", 0, 0, "http://h:1/a%2Fb", 60000},
        {"http://h:1/%zz", 0, 0, "", 0},
        {"http://u:p@h:1/x", 0, 0, "http://u:p@h:1/x", 60000},
        {"u:p@h:1/x", 0, 0, "http://u:p@h:1/x", 60000},
        {"HTTPS://Host:443", 0, 0, "https://Host:443/debug/pprof/profile",
         60000},
        {"https+insecure://h:1/x", 0, 0, "https+insecure://h:1/x", 60000},
        {"ftp://h/x", 0, 0, "ftp://h/x", 60000},
        {"http://[::1]:6060", 0, 0, "http://[::1]:6060/debug/pprof/profile",
         60000},
        {":6060", 0, 0, "http://:6060/debug/pprof/profile", 60000},
        {"cpu.pb.gz", 0, 0, "", 0},
        {"testdata/go/cpu.pb.gz", 0, 0, "", 0},
        {"/tmp/x:1", 0, 0, "", 0},
        {"dir/a:1", 0, 0, "", 0},
        {"./a:1", 0, 0, "", 0},
        {"a:1", 0, 0, "http://a:1/debug/pprof/profile", 60000},
        {"my:profile", 0, 0, "", 0},
        {"-", 0, 0, "", 0},
        {"file:///tmp/cpu.pb.gz", 0, 0, "", 0},
        {"http://", 0, 0, "http://http://", 60000},
        {"http://h:x/", 0, 0, "http://http://h:x/", 60000},
        {"h:1 /x", 0, 0, "", 0},
        {"//h:1/x", 0, 0, "//h:1/x", 60000},
        {"http://h:1/x\x01", 0, 0, "", 0},
        {"", 0, 0, "", 0},
};

/* url without "user:password@" (what pp_fetch_url.shown must be). */
static void without_userinfo(const char *url, char *out, size_t size)
{
	const char *p = strstr(url, "://"), *at, *slash;

	snprintf(out, size, "%s", url);
	if (!p)
		return;
	p += 3;
	slash = p + strcspn(p, "/?#");
	at = memchr(p, '@', (size_t)(slash - p));
	if (at)
		snprintf(out, size, "%.*s%s", (int)(p - url), url, at + 1);
}

static void test_fetch__adjust_url_as_go(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(go_cases) / sizeof(go_cases[0]); i++) {
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_fetch_url u;
		char shown[256];
		int rc = pp_fetch_adjust_url(&ctx, go_cases[i].source,
		                             go_cases[i].seconds,
		                             go_cases[i].timeout, &u);

		if (!go_cases[i].url[0]) {
			if (rc != 0 || pp_fetch_is_url(go_cases[i].source))
				fail_msg("\"%s\" taken for a URL (%s)",
				         go_cases[i].source, u.shown);
			assert_null(u.url);
			continue;
		}
		if (rc != 1 || !pp_fetch_is_url(go_cases[i].source))
			fail_msg("\"%s\" not taken for a URL",
			         go_cases[i].source);
		without_userinfo(go_cases[i].url, shown, sizeof(shown));
		if (strcmp(u.shown, shown) != 0)
			fail_msg("\"%s\": shown \"%s\", go prints \"%s\"",
			         go_cases[i].source, u.shown, shown);
		if (u.timeout_ms != go_cases[i].timeout_ms)
			fail_msg("\"%s\": timeout %ld ms, go's %ld ms",
			         go_cases[i].source, u.timeout_ms,
			         go_cases[i].timeout_ms);
		assert_int_equal(u.seconds, go_cases[i].seconds);
		/* What is fetched is Go's URL, credentials and all, without
		 * the fragment, but for the two cases below. */
		if (!strstr(go_cases[i].source, "insecure") &&
		    go_cases[i].source[0] != ':' &&
		    (strlen(u.url) != strcspn(go_cases[i].url, "#") ||
		     strncmp(u.url, go_cases[i].url, strlen(u.url)) != 0))
			fail_msg("\"%s\": fetches \"%s\", go \"%s\"",
			         go_cases[i].source, u.url, go_cases[i].url);
		pp_fetch_url_release(&ctx, &u);
	}
}

static void test_fetch__credentials_never_shown(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_fetch_url u;

	(void)state;
	assert_int_equal(pp_fetch_adjust_url(&ctx,
	                                     "https://admin:s3cr%40t@prod:8443/"
	                                     "debug/pprof/heap",
	                                     0, 0, &u),
	                 1);
	assert_string_equal(
	        u.url, "https://admin:s3cr%40t@prod:8443/debug/pprof/heap");
	assert_string_equal(u.shown, "https://prod:8443/debug/pprof/heap");
	pp_fetch_url_release(&ctx, &u);
}

static void test_fetch__credentials_never_shown_malformed(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_fetch_url u;
	static const char *const redacted[][2] = {
	        {"http://u:p@h/x", "http://h/x"},
	        {"http://http://u:p@[bad/x", "http://http://[bad/x"},
	        {"see https://a@b@h:1/?q=u@v and ftp://x:y@z",
	         "see https://h:1/?q=u@v and ftp://z"},
	        {"http://h/u:p@x", "http://h/u:p@x"},
	        {"no url u:p@h", "no url u:p@h"},
	        {"://@", "://"},
	        {"", ""},
	};
	char *r;

	(void)state;
	/* pprof's reading of a URL it cannot parse puts "http://" before it,
	 * which leaves the credentials in the path: still not shown. */
	assert_int_equal(pp_fetch_adjust_url(&ctx, "http://user:secret@[bad/x",
	                                     0, 0, &u),
	                 1);
	assert_non_null(strstr(u.url, "secret"));
	assert_null(strstr(u.shown, "secret"));
	pp_fetch_url_release(&ctx, &u);
	for (size_t i = 0; i < sizeof(redacted) / sizeof(redacted[0]); i++) {
		assert_non_null(r = pp_fetch_redact(&ctx, redacted[i][0]));
		assert_string_equal(r, redacted[i][1]);
		pp_free(&ctx, r);
	}
	assert_true(pp_fetch_looks_like_url("HTTPS://h%zz/"));
	assert_true(pp_fetch_looks_like_url("https+insecure://h/"));
	assert_false(pp_fetch_looks_like_url("httpx://h/"));
	assert_false(pp_fetch_looks_like_url("cpu.pb.gz"));
}

static void test_fetch__local_and_insecure(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_fetch_url u;

	(void)state;
	/* Go dials ":6060" on the local host; curl is told "localhost". */
	assert_int_equal(pp_fetch_adjust_url(&ctx, ":6060", 5, 0, &u), 1);
	assert_string_equal(u.url, "http://localhost:6060/debug/pprof/profile?"
	                           "seconds=5");
	assert_false(u.insecure);
	pp_fetch_url_release(&ctx, &u);
	assert_int_equal(
	        pp_fetch_adjust_url(&ctx, "https+insecure://h:1/x", 0, 0, &u),
	        1);
	assert_string_equal(u.url, "https://h:1/x");
	assert_string_equal(u.shown, "https+insecure://h:1/x");
	assert_true(u.insecure);
	pp_fetch_url_release(&ctx, &u);
}

/* An unsupported scheme fails before anything is fetched or printed. */
static void test_fetch__unsupported_scheme(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_source_bytes b = {{(uint8_t *)&ctx, 1}, (char *)&ctx};

	(void)state;
	assert_int_equal(pp_fetch_profile(&ctx, "ftp://u:pw@h/x", NULL, &b),
	                 PP_EFETCH);
	assert_null(b.bytes.data);
	assert_null(b.name);
	assert_string_equal(ctx.message,
	                    "ftp://h/x: unsupported protocol scheme \"ftp\"");
	assert_int_equal(pp_fetch_profile(&ctx, "cpu.pb.gz", NULL, &b),
	                 PP_EUSAGE);
}

static void test_fetch__adjust_url_allocation_failures(void **state)
{
	(void)state;
	for (long n = 0;; n++) {
		struct failing_alloc f;
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_fetch_url u;
		int rc;

		failing_alloc_install(&ctx, &f, n);
		rc = pp_fetch_adjust_url(&ctx, "u:p@h:1/x?z=1&a=%20&seconds=4",
		                         9, 0, &u);
		if (!f.failed) {
			assert_int_equal(rc, 1);
			assert_string_equal(u.shown,
			                    "http://h:1/x?a=+&seconds=9&z=1");
			pp_fetch_url_release(&ctx, &u);
			break;
		}
		assert_int_equal(rc, PP_ENOMEM);
		assert_null(u.url);
		assert_null(u.shown);
		assert_true(n < 1000);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_fetch__adjust_url_as_go),
	        cmocka_unit_test(test_fetch__credentials_never_shown),
	        cmocka_unit_test(test_fetch__credentials_never_shown_malformed),
	        cmocka_unit_test(test_fetch__local_and_insecure),
	        cmocka_unit_test(test_fetch__unsupported_scheme),
	        cmocka_unit_test(test_fetch__adjust_url_allocation_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
