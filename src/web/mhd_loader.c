/*
 * libmicrohttpd, loaded by the web UI when it starts (pprof/dynlib.h).
 *
 * Linked, libmicrohttpd brings GnuTLS and its chain (p11-kit, nettle,
 * hogweed, gmp, libunistring, libtasn1, libidn2, libffi): 2.4 MB of
 * resident memory that every run paid before main, for a server only
 * -http starts. So pprof-c is compiled against microhttpd.h but not
 * linked with it: this file defines the functions server.c calls, and
 * forwards them to the library, opened when the server starts
 * (pp_web_mhd_load, which server.c calls first so that a missing library
 * is a clear error, not a server that does not start).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <microhttpd.h>

#include "mhd_loader.h"
#include "pprof/dynlib.h"

/* Every libmicrohttpd function pprof-c calls: name, return type,
 * parameters. One missing here fails the link.
 *
 * MHD_start_daemon is variadic (its options, ending in MHD_OPTION_END),
 * and C cannot pass on "..." as it came: the wrapper below takes it as a
 * va_list and calls the library's MHD_start_daemon_va, which is what the
 * library's own MHD_start_daemon does. So server.c passes its options as
 * it would to the library, whatever their number and types; no wrapper
 * needs to know them. */
#define PP_MHD_FUNCTIONS(X)                                                 \
	X(MHD_start_daemon_va, struct MHD_Daemon *,                         \
	  (unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback apc, \
	   void *apc_cls, MHD_AccessHandlerCallback dh, void *dh_cls,       \
	   va_list ap))                                                     \
	X(MHD_stop_daemon, void, (struct MHD_Daemon * daemon))              \
	X(MHD_create_response_from_buffer, struct MHD_Response *,           \
	  (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode))    \
	X(MHD_add_response_header, enum MHD_Result,                         \
	  (struct MHD_Response * response, const char *header,              \
	   const char *content))                                            \
	X(MHD_destroy_response, void, (struct MHD_Response * response))     \
	X(MHD_queue_response, enum MHD_Result,                              \
	  (struct MHD_Connection * connection, unsigned int status_code,    \
	   struct MHD_Response *response))                                  \
	X(MHD_lookup_connection_value, const char *,                        \
	  (struct MHD_Connection * connection, enum MHD_ValueKind kind,     \
	   const char *key))                                                \
	X(MHD_lookup_connection_value_n, enum MHD_Result,                   \
	  (struct MHD_Connection * connection, enum MHD_ValueKind kind,     \
	   const char *key, size_t key_size, const char **value_ptr,        \
	   size_t *value_size_ptr))                                         \
	X(MHD_get_connection_values_n, int,                                 \
	  (struct MHD_Connection * connection, enum MHD_ValueKind kind,     \
	   MHD_KeyValueIteratorN iterator, void *iterator_cls))

enum { PP_MHD_FUNCTIONS(PP_DYNLIB_INDEX) MHD_COUNT };
PP_MHD_FUNCTIONS(PP_DYNLIB_TYPEDEF)

/* Debian 12's libmicrohttpd12 (0.9.75). */
static const char *const mhd_sonames[] = {"libmicrohttpd.so.12", NULL};
static const char *const mhd_names[] = {PP_MHD_FUNCTIONS(PP_DYNLIB_NAME) NULL};
/* The process-wide table, filled once. */
static pp_dynlib_fn mhd_fns[MHD_COUNT];
static struct pp_dynlib mhd_lib =
        PP_DYNLIB_INIT(mhd_sonames, mhd_names, mhd_fns);

#define CALL(name) PP_DYNLIB_CALL(mhd_fns, name)

const char *pp_web_mhd_load(void)
{
	return pp_dynlib_load(&mhd_lib) ? NULL : pp_dynlib_error(&mhd_lib);
}

/* ---- the entry points ----------------------------------------------------
 * Each makes sure the library is loaded (after the first call, one atomic
 * load) and without it fails as libmicrohttpd fails, with NULL or MHD_NO. */

struct MHD_Daemon *MHD_start_daemon(unsigned int flags, uint16_t port,
                                    MHD_AcceptPolicyCallback apc, void *apc_cls,
                                    MHD_AccessHandlerCallback dh, void *dh_cls,
                                    ...)
{
	struct MHD_Daemon *d;
	va_list ap;

	if (!pp_dynlib_load(&mhd_lib))
		return NULL;
	va_start(ap, dh_cls);
	d = CALL(MHD_start_daemon_va)(flags, port, apc, apc_cls, dh, dh_cls,
	                              ap);
	va_end(ap);
	return d;
}

void MHD_stop_daemon(struct MHD_Daemon *daemon)
{
	if (daemon && pp_dynlib_load(&mhd_lib))
		CALL(MHD_stop_daemon)(daemon);
}

struct MHD_Response *
MHD_create_response_from_buffer(size_t size, void *buffer,
                                enum MHD_ResponseMemoryMode mode)
{
	if (!pp_dynlib_load(&mhd_lib))
		return NULL;
	return CALL(MHD_create_response_from_buffer)(size, buffer, mode);
}

enum MHD_Result MHD_add_response_header(struct MHD_Response *response,
                                        const char *header, const char *content)
{
	if (!pp_dynlib_load(&mhd_lib))
		return MHD_NO;
	return CALL(MHD_add_response_header)(response, header, content);
}

void MHD_destroy_response(struct MHD_Response *response)
{
	if (response && pp_dynlib_load(&mhd_lib))
		CALL(MHD_destroy_response)(response);
}

enum MHD_Result MHD_queue_response(struct MHD_Connection *connection,
                                   unsigned int status_code,
                                   struct MHD_Response *response)
{
	if (!pp_dynlib_load(&mhd_lib))
		return MHD_NO;
	return CALL(MHD_queue_response)(connection, status_code, response);
}

const char *MHD_lookup_connection_value(struct MHD_Connection *connection,
                                        enum MHD_ValueKind kind,
                                        const char *key)
{
	if (!pp_dynlib_load(&mhd_lib))
		return NULL;
	return CALL(MHD_lookup_connection_value)(connection, kind, key);
}

enum MHD_Result MHD_lookup_connection_value_n(struct MHD_Connection *connection,
                                              enum MHD_ValueKind kind,
                                              const char *key, size_t key_size,
                                              const char **value_ptr,
                                              size_t *value_size_ptr)
{
	if (!pp_dynlib_load(&mhd_lib))
		return MHD_NO;
	return CALL(MHD_lookup_connection_value_n)(
	        connection, kind, key, key_size, value_ptr, value_size_ptr);
}

int MHD_get_connection_values_n(struct MHD_Connection *connection,
                                enum MHD_ValueKind kind,
                                MHD_KeyValueIteratorN iterator,
                                void *iterator_cls)
{
	if (!pp_dynlib_load(&mhd_lib))
		return -1;
	return CALL(MHD_get_connection_values_n)(connection, kind, iterator,
	                                         iterator_cls);
}
