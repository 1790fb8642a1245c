/*
 * The names and files the CLI saves fetched profiles under (src/cli/save.c),
 * pprof's. tests/cli/http.sh and fetch_signal.sh save through the tool.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pprof/encode.h"
#include "pprof/outfile.h"
#include "pprof/session.h"
#include "save.h"

/* A profile with the given main binary (NULL: no mapping) and types. */
static struct pp_profile *named_profile(struct pp_ctx *ctx, const char *binary,
                                        const char *const *types, size_t ntypes)
{
	struct pp_profile *p = pp_profile_new(ctx);

	assert_non_null(p);
	for (size_t i = 0; i < ntypes; i++)
		assert_int_equal(pp_profile_add_sample_type(
		                         p, pp_profile_intern(p, types[i]),
		                         pp_profile_intern(p, "count")),
		                 0);
	if (binary) {
		struct pp_mapping m;

		memset(&m, 0, sizeof(m));
		m.id = 1;
		m.limit = 0x1000;
		m.file = pp_profile_intern(p, binary);
		assert_int_equal(pp_profile_add_mapping(p, &m, NULL), 0);
	}
	return p;
}

static void expect_prefix(const char *binary, const char *const *types,
                          size_t ntypes, const char *want)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = named_profile(&ctx, binary, types, ntypes);
	char *prefix = NULL;

	assert_int_equal(pp_cli_save_prefix(&ctx, p, &prefix), 0);
	if (strcmp(prefix, want) != 0)
		fail_msg("binary \"%s\": prefix \"%s\", want \"%s\"",
		         binary ? binary : "(none)", prefix, want);
	pp_free(&ctx, prefix);
	pp_profile_free(p);
}

static void test_save__prefix(void **state)
{
	static const char *const cpu[] = {"samples", "cpu"};
	static const char *const heap[] = {"alloc_objects", "alloc_space",
	                                   "inuse_objects", "inuse_space"};
	static const char *const goroutine[] = {"goroutine"};
	static const char *const hostile[] = {"../../etc/passwd", "a\nb"};
	char longbin[400], want[256];

	(void)state;
	/* pprof's own names, as `go tool pprof URL` saved them. */
	expect_prefix("/tmp/pprof-c/httpserver", cpu, 2,
	              "pprof.httpserver.samples.cpu.");
	expect_prefix("/srv/bin/httpserver", heap, 4,
	              "pprof.httpserver.alloc_objects.alloc_space."
	              "inuse_objects.inuse_space.");
	expect_prefix("httpserver", goroutine, 1,
	              "pprof.httpserver.goroutine.");
	/* No mapping, or one without a file: no binary in the name. */
	expect_prefix(NULL, cpu, 2, "pprof.samples.cpu.");
	expect_prefix("", cpu, 2, "pprof.samples.cpu.");
	/* filepath.Base: trailing slashes go. */
	expect_prefix("/a/b/", goroutine, 1, "pprof.b.goroutine.");
	/* What a hostile server sends cannot leave the directory. */
	expect_prefix("/", goroutine, 1, "pprof._.goroutine.");
	expect_prefix("x", hostile, 2, "pprof.x..._.._etc_passwd.a_b.");
	/* Long names are cut to leave room for the number and suffix, not
	 * inside a UTF-8 character ("é" is two bytes). */
	memset(longbin, 'b', sizeof(longbin));
	longbin[sizeof(longbin) - 1] = '\0';
	snprintf(want, sizeof(want), "pprof.%.194s", longbin);
	expect_prefix(longbin, cpu, 2, want);
	memcpy(longbin + 193, "\xc3\xa9", 2);
	snprintf(want, sizeof(want), "pprof.%.193s", longbin);
	expect_prefix(longbin, cpu, 2, want);
}

/* The files in dir, sorted, space-separated. */
static void list_dir(const char *dir, char *out, size_t size)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort);
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i]->d_name, ".") != 0 &&
		    strcmp(names[i]->d_name, "..") != 0)
			len += (size_t)snprintf(out + len, size - len, "%s%s",
			                        len ? " " : "",
			                        names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

static void test_save__file(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL, *back = NULL;
	char dir[] = "/tmp/pprof-c-test-fetch-XXXXXX", sub[128], files[512];
	char *path = NULL, *path2 = NULL, taken[256];
	uint8_t *a = NULL, *b = NULL;
	size_t alen, blen;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(
	        pp_session_decode_file(&ctx, "testdata/go/cpu.pb.gz", &p), 0);
	/* Missing directories are made (as PPROF_TMPDIR is by pprof). */
	snprintf(sub, sizeof(sub), "%s/x/y", dir);
	assert_int_equal(pp_path_mkdir_all(sub, 0755), 0);
	assert_int_equal(pp_path_mkdir_all(sub, 0755), 0);
	/* The first free number, an existing file left alone. */
	snprintf(taken, sizeof(taken), "%s/pprof.goprog.samples.cpu.001.pb.gz",
	         sub);
	fp = fopen(taken, "w");
	assert_non_null(fp);
	fputs("precious", fp);
	fclose(fp);
	assert_int_equal(pp_cli_save(&ctx, p, sub, &path), 0);
	snprintf(taken, sizeof(taken), "%s/pprof.goprog.samples.cpu.002.pb.gz",
	         sub);
	assert_string_equal(path, taken);
	assert_int_equal(pp_cli_save(&ctx, p, sub, &path2), 0);
	list_dir(sub, files, sizeof(files));
	assert_string_equal(files, "pprof.goprog.samples.cpu.001.pb.gz "
	                           "pprof.goprog.samples.cpu.002.pb.gz "
	                           "pprof.goprog.samples.cpu.003.pb.gz");
	/* The saved file is the profile. */
	assert_int_equal(pp_session_decode_file(&ctx, path, &back), 0);
	assert_int_equal(pp_encode_proto(&ctx, p, NULL, &a, &alen), 0);
	assert_int_equal(pp_encode_proto(&ctx, back, NULL, &b, &blen), 0);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	/* A directory that is not one: an error naming it. */
	snprintf(taken, sizeof(taken), "%s/pprof.goprog.samples.cpu.001.pb.gz",
	         sub);
	assert_int_equal(pp_path_mkdir_all(taken, 0755), -1);
	pp_free(&ctx, path);
	path = NULL;
	assert_int_equal(pp_cli_save(&ctx, p, taken, &path), PP_EIO);
	assert_null(path);
	assert_non_null(strstr(ctx.message, "Not a directory"));

	pp_free(&ctx, a);
	pp_free(&ctx, b);
	pp_free(&ctx, path2);
	pp_profile_free(p);
	pp_profile_free(back);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_save__prefix),
	        cmocka_unit_test(test_save__file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
