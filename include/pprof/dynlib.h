/*
 * Shared libraries opened on first use, not by the dynamic linker.
 *
 * A library pprof-c is linked with is mapped and relocated before main by
 * every run, whether the run calls it or not: libcapstone's relocated
 * tables alone are 3.25 MB of resident memory, libmicrohttpd and the TLS
 * chain it pulls 2.4 MB, graphviz 0.54 MB, libcurl's thirty-odd libraries
 * most of a `pprof-c --version`. So pprof-c is compiled against such a
 * library's headers but not linked with it: a small file of the module
 * that uses it defines the library's functions it calls, each one opening
 * the library here on the first call that needs it and forwarding to the
 * library's own function.
 *
 * A library is described by a struct pp_dynlib, defined once per library
 * (static storage, PP_DYNLIB_INIT) and filled once, by the first
 * pp_dynlib_load from any thread: its table of functions is process-wide
 * state, as the dynamic linker's own binding would be, and is never
 * emptied (the library stays loaded until the process exits).
 *
 * The functions of a library are listed once in an X-macro,
 * X(name, return type, (parameters)), which the helpers below turn into
 * the table's names, indices and typed calls:
 *
 *     #define CS_FUNCTIONS(X) X(cs_close, cs_err, (csh * handle)) ...
 *     enum { CS_FUNCTIONS(PP_DYNLIB_INDEX) CS_COUNT };
 *     CS_FUNCTIONS(PP_DYNLIB_TYPEDEF)
 *     static const char *const names[] = {CS_FUNCTIONS(PP_DYNLIB_NAME)
 *                                         NULL};
 *     static pp_dynlib_fn fns[CS_COUNT];
 *     ... PP_DYNLIB_CALL(fns, cs_close)(&h);
 */
#ifndef PPROF_DYNLIB_H
#define PPROF_DYNLIB_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

/* A function of a loaded library, as the table keeps it: converted back
 * to its own type (PP_DYNLIB_CALL) before it is called. */
typedef void (*pp_dynlib_fn)(void);

struct pp_dynlib {
	/* The library's sonames, tried in order, NULL-terminated: the first
	 * that opens is the library. Messages name the first when none
	 * opens. */
	const char *const *sonames;
	/* The functions to bind, NULL-terminated, and where they go: fns[i]
	 * gets symbols[i]. All must be found, or the library is not used. */
	const char *const *symbols;
	pp_dynlib_fn *fns;

	/* Filled by the first pp_dynlib_load, under lock. */
	pthread_mutex_t lock;
	atomic_bool tried; /* set once loading was tried, loaded or not */
	void *handle;      /* dlopen's, while loaded; else NULL */
	char error[256];   /* why it could not be loaded; "" when it was */
};

/* A struct pp_dynlib's initializer (for static storage). */
#define PP_DYNLIB_INIT(sonames_, symbols_, fns_)                             \
	{                                                                    \
		.sonames = (sonames_), .symbols = (symbols_), .fns = (fns_), \
		.lock = PTHREAD_MUTEX_INITIALIZER                            \
	}

/*
 * Open the library and bind its functions, the first time; later calls
 * (from any thread) return what the first one found, at the cost of one
 * atomic load. True when every function is bound; false when no soname
 * opens or the one that opens lacks a function, with the reason in
 * pp_dynlib_error.
 */
bool pp_dynlib_load(struct pp_dynlib *lib);

/* Whether the library was loaded already: loads nothing (for cleanups
 * that have nothing to clean when the library was never used). */
bool pp_dynlib_loaded(struct pp_dynlib *lib);

/*
 * Why pp_dynlib_load failed, naming the library first, as dlerror words
 * it ("libcapstone.so.4: cannot open shared object file: No such file or
 * directory", "libm.so.6: undefined symbol: cs_open"); "" when it did not
 * fail or was not tried. Borrowed from lib, and constant once set.
 */
const char *pp_dynlib_error(struct pp_dynlib *lib);

/* X-macro helpers: X(name, return type, (parameters)). */
#define PP_DYNLIB_INDEX(name, ret, params) PP_DYNLIB_I_##name,
#define PP_DYNLIB_TYPEDEF(name, ret, params) \
	typedef ret(*pp_dynlib_t_##name) params;
#define PP_DYNLIB_NAME(name, ret, params) #name,
/* The bound function name of table fns, with its own type. */
#define PP_DYNLIB_CALL(fns, name) \
	((pp_dynlib_t_##name)(fns)[PP_DYNLIB_I_##name])

#endif
