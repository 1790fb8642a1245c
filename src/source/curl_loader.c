/*
 * libcurl, loaded on first use.
 *
 * Linking libcurl makes every run load it and the thirty-odd libraries it
 * needs (TLS, HTTP/2, LDAP, Kerberos...): about 9 ms before main, which is
 * most of a `pprof-c --version` and is paid by every file-only run. So
 * pprof-c is not linked with libcurl; this file defines the libcurl entry
 * points that the fetcher (http.c) calls, and the first call that needs
 * the library opens it with dlopen and forwards to it. Calls that need no
 * library when none was ever loaded (cleanup of nothing) do nothing.
 *
 * The fetcher is compiled against libcurl's headers as usual; only the
 * binding moves from the dynamic linker's start-up to the first fetch
 * (pprof/dynlib.h, which also keeps the table of loaded functions).
 */
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "pprof/dynlib.h"

/* Every libcurl function pprof-c may call: name, return type, parameters.
 * A function missing here fails the link, not a fetch. */
#define PP_CURL_FUNCTIONS(X)                                                 \
	X(curl_global_init, CURLcode, (long flags))                          \
	X(curl_global_cleanup, void, (void))                                 \
	X(curl_easy_init, CURL *, (void))                                    \
	X(curl_easy_cleanup, void, (CURL * curl))                            \
	X(curl_easy_setopt, CURLcode, (CURL * curl, CURLoption option, ...)) \
	X(curl_easy_getinfo, CURLcode, (CURL * curl, CURLINFO info, ...))    \
	X(curl_easy_perform, CURLcode, (CURL * curl))                        \
	X(curl_easy_pause, CURLcode, (CURL * curl, int bitmask))             \
	X(curl_easy_strerror, const char *, (CURLcode code))                 \
	X(curl_multi_init, CURLM *, (void))                                  \
	X(curl_multi_cleanup, CURLMcode, (CURLM * multi))                    \
	X(curl_multi_setopt, CURLMcode, (CURLM * multi, CURLMoption o, ...)) \
	X(curl_multi_add_handle, CURLMcode, (CURLM * multi, CURL * curl))    \
	X(curl_multi_remove_handle, CURLMcode, (CURLM * multi, CURL * curl)) \
	X(curl_multi_perform, CURLMcode, (CURLM * multi, int *running))      \
	X(curl_multi_poll, CURLMcode,                                        \
	  (CURLM * multi, struct curl_waitfd * extra, unsigned int n,        \
	   int timeout_ms, int *ret))                                        \
	X(curl_multi_wait, CURLMcode,                                        \
	  (CURLM * multi, struct curl_waitfd * extra, unsigned int n,        \
	   int timeout_ms, int *ret))                                        \
	X(curl_multi_info_read, CURLMsg *, (CURLM * multi, int *left))       \
	X(curl_multi_strerror, const char *, (CURLMcode code))               \
	X(curl_slist_append, struct curl_slist *,                            \
	  (struct curl_slist * list, const char *s))                         \
	X(curl_slist_free_all, void, (struct curl_slist * list))

enum { PP_CURL_FUNCTIONS(PP_DYNLIB_INDEX) CURL_COUNT };
PP_CURL_FUNCTIONS(PP_DYNLIB_TYPEDEF)

/* The sonames of Debian's libcurl builds: OpenSSL's (what pprof-c is
 * built against), then GnuTLS's, which has the same ABI. */
static const char *const curl_sonames[] = {"libcurl.so.4",
                                           "libcurl-gnutls.so.4", NULL};
static const char *const curl_names[] = {PP_CURL_FUNCTIONS(PP_DYNLIB_NAME)
                                                 NULL};
/* The process-wide table, filled once (pprof/dynlib.h). */
static pp_dynlib_fn curl_fns[CURL_COUNT];
static struct pp_dynlib curl_lib =
        PP_DYNLIB_INIT(curl_sonames, curl_names, curl_fns);
/* Set once curl_global_init went through, so that a cleanup at exit of a
 * run that fetched nothing loads nothing. */
static atomic_bool curl_initialized;

/* Whether libcurl is loaded (loading it the first time). */
static bool curl(void)
{
	return pp_dynlib_load(&curl_lib);
}

#define CALL(name) PP_DYNLIB_CALL(curl_fns, name)

/* ---- the entry points ---------------------------------------------------- */

CURLcode curl_global_init(long flags)
{
	CURLcode rc;

	if (!curl())
		return CURLE_FAILED_INIT;
	rc = CALL(curl_global_init)(flags);
	if (rc == CURLE_OK)
		atomic_store(&curl_initialized, true);
	return rc;
}

void curl_global_cleanup(void)
{
	if (atomic_exchange(&curl_initialized, false))
		CALL(curl_global_cleanup)();
}

const char *curl_easy_strerror(CURLcode code)
{
	/* Without the library, the one failure there is says why. */
	return curl() ? CALL(curl_easy_strerror)(code)
	              : pp_dynlib_error(&curl_lib);
}

const char *curl_multi_strerror(CURLMcode code)
{
	return curl() ? CALL(curl_multi_strerror)(code)
	              : pp_dynlib_error(&curl_lib);
}

CURL *curl_easy_init(void)
{
	return curl() ? CALL(curl_easy_init)() : NULL;
}

CURLM *curl_multi_init(void)
{
	return curl() ? CALL(curl_multi_init)() : NULL;
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *s)
{
	return curl() ? CALL(curl_slist_append)(list, s) : NULL;
}

/* The rest take something only a loaded libcurl made (a handle, a list),
 * or nothing at all (NULL, which libcurl accepts). */

void curl_slist_free_all(struct curl_slist *list)
{
	if (list && curl())
		CALL(curl_slist_free_all)(list);
}

void curl_easy_cleanup(CURL *curl_handle)
{
	if (curl_handle && curl())
		CALL(curl_easy_cleanup)(curl_handle);
}

CURLMcode curl_multi_cleanup(CURLM *multi)
{
	return multi && curl() ? CALL(curl_multi_cleanup)(multi)
	                       : CURLM_BAD_HANDLE;
}

#define NEED_HANDLE(h, bad)          \
	do {                         \
		if (!(h) || !curl()) \
			return bad;  \
	} while (0)

CURLcode curl_easy_perform(CURL *h)
{
	NEED_HANDLE(h, CURLE_BAD_FUNCTION_ARGUMENT);
	return CALL(curl_easy_perform)(h);
}

CURLcode curl_easy_pause(CURL *h, int bitmask)
{
	NEED_HANDLE(h, CURLE_BAD_FUNCTION_ARGUMENT);
	return CALL(curl_easy_pause)(h, bitmask);
}

CURLMcode curl_multi_add_handle(CURLM *m, CURL *h)
{
	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	return CALL(curl_multi_add_handle)(m, h);
}

CURLMcode curl_multi_remove_handle(CURLM *m, CURL *h)
{
	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	return CALL(curl_multi_remove_handle)(m, h);
}

CURLMcode curl_multi_perform(CURLM *m, int *running)
{
	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	return CALL(curl_multi_perform)(m, running);
}

CURLMcode curl_multi_poll(CURLM *m, struct curl_waitfd *extra, unsigned int n,
                          int timeout_ms, int *ret)
{
	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	return CALL(curl_multi_poll)(m, extra, n, timeout_ms, ret);
}

CURLMcode curl_multi_wait(CURLM *m, struct curl_waitfd *extra, unsigned int n,
                          int timeout_ms, int *ret)
{
	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	return CALL(curl_multi_wait)(m, extra, n, timeout_ms, ret);
}

CURLMsg *curl_multi_info_read(CURLM *m, int *left)
{
	NEED_HANDLE(m, NULL);
	return CALL(curl_multi_info_read)(m, left);
}

/*
 * The variadic three. libcurl reads the one argument after the option by
 * the option's type, which its number encodes (curl.h's CURLOPTTYPE_*):
 * read it the same way and pass it on as that type.
 */
typedef void (*curl_any_fn)(void);

CURLcode curl_easy_setopt(CURL *h, CURLoption option, ...)
{
	va_list ap;
	CURLcode rc;

	NEED_HANDLE(h, CURLE_BAD_FUNCTION_ARGUMENT);
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = CALL(curl_easy_setopt)(h, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = CALL(curl_easy_setopt)(h, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = CALL(curl_easy_setopt)(h, option, va_arg(ap, curl_any_fn));
	else if (option < CURLOPTTYPE_BLOB)
		rc = CALL(curl_easy_setopt)(h, option, va_arg(ap, curl_off_t));
	else
		rc = CALL(curl_easy_setopt)(h, option, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

CURLMcode curl_multi_setopt(CURLM *m, CURLMoption option, ...)
{
	va_list ap;
	CURLMcode rc;

	NEED_HANDLE(m, CURLM_BAD_HANDLE);
	va_start(ap, option);
	if (option < CURLOPTTYPE_OBJECTPOINT)
		rc = CALL(curl_multi_setopt)(m, option, va_arg(ap, long));
	else if (option < CURLOPTTYPE_FUNCTIONPOINT)
		rc = CALL(curl_multi_setopt)(m, option, va_arg(ap, void *));
	else if (option < CURLOPTTYPE_OFF_T)
		rc = CALL(curl_multi_setopt)(m, option,
		                             va_arg(ap, curl_any_fn));
	else
		rc = CALL(curl_multi_setopt)(m, option, va_arg(ap, curl_off_t));
	va_end(ap);
	return rc;
}

/* Every CURLINFO takes a pointer to where the answer goes. */
CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
	va_list ap;
	CURLcode rc;

	NEED_HANDLE(h, CURLE_BAD_FUNCTION_ARGUMENT);
	va_start(ap, info);
	rc = CALL(curl_easy_getinfo)(h, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}
