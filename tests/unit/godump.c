/* Goroutine dumps (src/profile/godump.c): samples, locations and labels
 * with exact values, equal goroutines counted in one sample, and the
 * lines a dump holds besides goroutines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pprof/decode.h"

static const char dump[] =
        "panic: boom\n"
        "\n"
        "goroutine 1 [running]:\n"
        "main.explode(0x651740?)\n"
        "\t/src/main.go:220 +0x45\n"
        "main.main()\n"
        "\t/src/main.go:34 +0x13f\n"
        "\n"
        "goroutine 19 [chan receive, 5 minutes, locked to thread]:\n"
        "main.wait(0x0?, 0x0?)\n"
        "\t/src/main.go:150 +0x31\n"
        "created by main.park in goroutine 1\n"
        "\t/src/main.go:130 +0x1a5\n"
        "\n"
        "goroutine 20 [IO wait]:\n"
        "internal/poll.runtime_pollWait(0x7f, 0x72)\n"
        "\truntime/netpoll.go:305 +0x89 fp=0xc0 sp=0xc1 pc=0x4618c9\n"
        "...additional frames elided...\n"
        "created by main.park\n"
        "\t/src/main.go:131 +0x1b0\n"
        "\n"
        "goroutine 21 [chan receive, 5 minutes, locked to thread]:\n"
        "main.wait(0x0?, 0x0?)\n"
        "\t/src/main.go:150 +0x31\n"
        "created by main.park in goroutine 1\n"
        "\t/src/main.go:130 +0x1a5\n"
        "\n"
        "rax    0x0\n"
        "exit status 2\n";

static const char *str(const struct pp_profile *p, pp_str s)
{
	return pp_profile_str(p, s);
}

static const char *frame(const struct pp_profile *p, uint32_t sample,
                         uint32_t k, int64_t *line)
{
	const struct pp_location *l = &p->locations[pp_profile_loc(
	        p, p->samples[sample].loc_first + k)];
	const struct pp_line *ln = &p->lines[l->line_first];

	*line = ln->line;
	return str(p, p->functions[ln->function].name);
}

static const char *label(const struct pp_profile *p, uint32_t sample,
                         const char *key, int64_t *num)
{
	uint32_t n;
	const struct pp_label *labels = pp_sample_labels(p, sample, &n);

	for (uint32_t i = 0; i < n; i++) {
		const struct pp_label *l = &labels[i];

		if (strcmp(str(p, l->key), key) == 0) {
			*num = l->num;
			return str(p, l->str);
		}
	}
	return NULL;
}

static void test_godump__samples_and_labels(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;
	int64_t n, line;

	(void)state;
	assert_int_equal(pp_decode(&ctx, "d.txt", (const uint8_t *)dump,
	                           strlen(dump), &p),
	                 0);
	assert_string_equal(str(p, p->sample_types[0].type), "goroutine");
	assert_string_equal(str(p, p->sample_types[0].unit), "count");
	assert_int_equal(p->period, 1);
	/* goroutines 19 and 21 are one sample of 2 */
	assert_int_equal(p->nsamples, 3);
	assert_int_equal(pp_profile_sample_values(p, 0)[0], 1);
	assert_int_equal(pp_profile_sample_values(p, 1)[0], 2);
	assert_int_equal(pp_profile_sample_values(p, 2)[0], 1);

	assert_int_equal(p->samples[0].loc_count, 2);
	assert_string_equal(frame(p, 0, 0, &line), "main.explode");
	assert_int_equal(line, 220);
	assert_string_equal(frame(p, 0, 1, &line), "main.main");
	assert_int_equal(line, 34);
	assert_string_equal(label(p, 0, "state", &n), "running");
	assert_null(label(p, 0, "created_by", &n));

	assert_int_equal(p->samples[1].loc_count, 1);
	assert_string_equal(frame(p, 1, 0, &line), "main.wait");
	assert_string_equal(
	        str(p,
	            p->functions
	                    [p->lines[p
	                                      ->locations[pp_profile_loc(
	                                              p,
	                                              p->samples[1].loc_first)]
	                                      .line_first]
	                             .function]
	                            .filename),
	        "/src/main.go");
	assert_string_equal(label(p, 1, "state", &n), "chan receive");
	assert_non_null(label(p, 1, "wait", &n));
	assert_int_equal(n, 5);
	assert_string_equal(label(p, 1, "locked", &n), "true");
	assert_string_equal(label(p, 1, "created_by", &n), "main.park");

	/* the elided frames end the stack; the offsets and fp= go */
	assert_int_equal(p->samples[2].loc_count, 1);
	assert_string_equal(frame(p, 2, 0, &line),
	                    "internal/poll.runtime_pollWait");
	assert_int_equal(line, 305);
	assert_string_equal(label(p, 2, "state", &n), "IO wait");
	assert_null(label(p, 2, "locked", &n));
	assert_string_equal(label(p, 2, "created_by", &n), "main.park");
	assert_int_equal(p->nmappings, 0);
	pp_profile_free(p);
}

/* Text with a goroutine-looking line but no frames is no dump. */
static void test_godump__not_a_dump(void **state)
{
	static const char text[] = "goroutine 1 [running]:\nnothing here\n";
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_profile *p = NULL;

	(void)state;
	assert_int_equal(pp_decode(&ctx, "t.txt", (const uint8_t *)text,
	                           strlen(text), &p),
	                 PP_EFORMAT);
	assert_string_equal(ctx.message, "t.txt: unrecognized profile format");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_godump__samples_and_labels),
	        cmocka_unit_test(test_godump__not_a_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
