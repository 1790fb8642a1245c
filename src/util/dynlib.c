/*
 * Libraries opened on first use (pprof/dynlib.h): dlopen, dlsym, and the
 * reason kept when either fails.
 *
 * Each library is loaded once, under its own mutex, with an atomic flag
 * read first so that every later call takes no lock. pthread_once would
 * do the same, but its routine takes no argument: every library would
 * need a function of its own to call this one.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "pprof/dynlib.h"

/* What the copy in load needs, and POSIX (dlsym) promises. */
_Static_assert(sizeof(pp_dynlib_fn) == sizeof(void *),
               "function and object pointers differ in size");

/* Keep dlerror's reason, naming soname first: dlopen's own message for a
 * missing file already starts with it; others may name a path or nothing. */
static void set_error(struct pp_dynlib *lib, const char *soname,
                      const char *why)
{
	size_t n = strlen(soname);

	if (!why)
		why = "cannot be loaded";
	/* A reason too long for the buffer is cut, and says so. */
	if (strncmp(why, soname, n) == 0 && why[n] == ':')
		n = (size_t)snprintf(lib->error, sizeof(lib->error), "%s", why);
	else
		n = (size_t)snprintf(lib->error, sizeof(lib->error), "%s: %s",
		                     soname, why);
	if (n >= sizeof(lib->error))
		memcpy(lib->error + sizeof(lib->error) - 4, "...", 4);
}

static void load(struct pp_dynlib *lib)
{
	const char *first_why = NULL;
	char why[sizeof(lib->error)];
	void *h = NULL;
	size_t i;

	for (i = 0; lib->sonames[i]; i++) {
		if ((h = dlopen(lib->sonames[i], RTLD_NOW | RTLD_LOCAL)))
			break;
		if (!first_why) {
			/* dlerror's text lives until the next dl call. */
			snprintf(why, sizeof(why), "%s", dlerror());
			first_why = why;
		}
	}
	if (!h) {
		set_error(lib, lib->sonames[0], first_why);
		return;
	}
	for (size_t k = 0; lib->symbols[k]; k++) {
		void *sym = dlsym(h, lib->symbols[k]);

		if (!sym) {
			/* Our words, not dlerror's: it names the file's
			 * path, and a symbol found as NULL leaves none. */
			snprintf(why, sizeof(why), "undefined symbol: %s",
			         lib->symbols[k]);
			set_error(lib, lib->sonames[i], why);
			dlclose(h);
			return;
		}
		/* POSIX makes dlsym's void * convertible to a function
		 * pointer, which ISO C does not say: copy its bytes. */
		memcpy(&lib->fns[k], &sym, sizeof(lib->fns[k]));
	}
	lib->handle = h;
}

bool pp_dynlib_load(struct pp_dynlib *lib)
{
	if (!atomic_load_explicit(&lib->tried, memory_order_acquire)) {
		pthread_mutex_lock(&lib->lock);
		if (!atomic_load_explicit(&lib->tried, memory_order_relaxed)) {
			load(lib);
			atomic_store_explicit(&lib->tried, true,
			                      memory_order_release);
		}
		pthread_mutex_unlock(&lib->lock);
	}
	return lib->handle != NULL;
}

bool pp_dynlib_loaded(struct pp_dynlib *lib)
{
	return atomic_load_explicit(&lib->tried, memory_order_acquire) &&
	       lib->handle != NULL;
}

const char *pp_dynlib_error(struct pp_dynlib *lib)
{
	if (!atomic_load_explicit(&lib->tried, memory_order_acquire))
		return "";
	return lib->error;
}
