/* Libraries opened on first use (pprof/dynlib.h): the first soname that
 * opens, every function bound or none, the reason kept word for word,
 * loading tried once however many threads ask. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/dynlib.h"

/* A soname no system has, and a function libm has not. */
#define ABSENT "libpprof-c-test-absent.so.0"
#define NO_SUCH_FN "pp_dynlib_test_no_such_function"

#define LIBM_FUNCTIONS(X)          \
	X(cos, double, (double x)) \
	X(ldexp, double, (double x, int e))
enum { LIBM_FUNCTIONS(PP_DYNLIB_INDEX) LIBM_COUNT };
LIBM_FUNCTIONS(PP_DYNLIB_TYPEDEF)
static const char *const libm_names[] = {LIBM_FUNCTIONS(PP_DYNLIB_NAME) NULL};

static void test_dynlib__missing_soname(void **state)
{
	static const char *const sonames[] = {ABSENT, NULL};
	static pp_dynlib_fn fns[LIBM_COUNT];
	static struct pp_dynlib lib = PP_DYNLIB_INIT(sonames, libm_names, fns);
	const char *want = ABSENT ": cannot open shared object file: No such "
	                          "file or directory";

	(void)state;
	/* Nothing is tried before the first load. */
	assert_false(pp_dynlib_loaded(&lib));
	assert_string_equal(pp_dynlib_error(&lib), "");
	assert_false(pp_dynlib_load(&lib));
	assert_string_equal(pp_dynlib_error(&lib), want);
	assert_false(pp_dynlib_loaded(&lib));
	assert_null(fns[0]);
	/* Tried once: the same answer, the same words. */
	assert_false(pp_dynlib_load(&lib));
	assert_string_equal(pp_dynlib_error(&lib), want);
}

static void test_dynlib__missing_symbol(void **state)
{
	static const char *const sonames[] = {"libm.so.6", NULL};
	static const char *const names[] = {"cos", NO_SUCH_FN, "ldexp", NULL};
	static pp_dynlib_fn fns[3];
	static struct pp_dynlib lib = PP_DYNLIB_INIT(sonames, names, fns);

	(void)state;
	assert_false(pp_dynlib_load(&lib));
	assert_string_equal(pp_dynlib_error(&lib),
	                    "libm.so.6: undefined symbol: " NO_SUCH_FN);
	assert_false(pp_dynlib_loaded(&lib));
	assert_null(lib.handle);
}

/* A symbol name too long for the reason's 256 bytes: cut, and ending in
 * "..." to say so. */
static void test_dynlib__long_reason_cut(void **state)
{
	static char long_name[400];
	static const char *const sonames[] = {"libm.so.6", NULL};
	static const char *names[] = {long_name, NULL};
	static pp_dynlib_fn fns[1];
	static struct pp_dynlib lib = PP_DYNLIB_INIT(sonames, names, fns);
	const char *err;
	size_t len;

	(void)state;
	memset(long_name, 'x', sizeof(long_name) - 1);
	assert_false(pp_dynlib_load(&lib));
	err = pp_dynlib_error(&lib);
	len = strlen(err);
	assert_int_equal(len, sizeof(lib.error) - 1);
	assert_memory_equal(err, "libm.so.6: undefined symbol: xxx", 32);
	assert_string_equal(err + len - 4, "x...");
}

/* The first soname missing, the second used; its functions called with
 * their own types. */
static void test_dynlib__second_soname(void **state)
{
	static const char *const sonames[] = {ABSENT, "libm.so.6", NULL};
	static pp_dynlib_fn fns[LIBM_COUNT];
	static struct pp_dynlib lib = PP_DYNLIB_INIT(sonames, libm_names, fns);

	(void)state;
	assert_false(pp_dynlib_loaded(&lib));
	assert_true(pp_dynlib_load(&lib));
	assert_true(pp_dynlib_loaded(&lib));
	assert_string_equal(pp_dynlib_error(&lib), "");
	assert_true(PP_DYNLIB_CALL(fns, cos)(0.0) == 1.0);
	assert_true(PP_DYNLIB_CALL(fns, ldexp)(3.0, 4) == 48.0);
}

/* Many threads asking at once: one load, every one sees it whole. */
static pp_dynlib_fn race_fns[LIBM_COUNT];
static const char *const race_sonames[] = {"libm.so.6", NULL};
static struct pp_dynlib race_lib =
        PP_DYNLIB_INIT(race_sonames, libm_names, race_fns);

static void *race(void *arg)
{
	(void)arg;
	if (!pp_dynlib_load(&race_lib))
		return NULL;
	return PP_DYNLIB_CALL(race_fns, ldexp)(1.0, 3) == 8.0 ? &race_lib
	                                                      : NULL;
}

static void test_dynlib__threads(void **state)
{
	pthread_t t[8];
	void *got;

	(void)state;
	for (size_t i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, race, NULL), 0);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(pthread_join(t[i], &got), 0);
		assert_ptr_equal(got, &race_lib);
	}
	assert_true(pp_dynlib_loaded(&race_lib));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_dynlib__missing_soname),
	        cmocka_unit_test(test_dynlib__missing_symbol),
	        cmocka_unit_test(test_dynlib__long_reason_cut),
	        cmocka_unit_test(test_dynlib__second_soname),
	        cmocka_unit_test(test_dynlib__threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
