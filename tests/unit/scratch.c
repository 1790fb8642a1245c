/* The scratch arena protobuf-c unpacks into: alignment, overflow to the
 * heap when the block is full, and reset. */
#include <setjmp.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/scratch.h"

static void test_scratch__alignment_and_reset(void **state)
{
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_scratch s;
	void *a, *b, *c;

	(void)state;
	assert_int_equal(pp_scratch_init(&s, &ctx, 256), 0);
	a = s.pbc.alloc(s.pbc.allocator_data, 3);
	b = s.pbc.alloc(s.pbc.allocator_data, 8);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal((uintptr_t)b % alignof(max_align_t), 0);
	memset(a, 1, 3);
	memset(b, 2, 8);
	/* Larger than the block: served from the heap, still usable. */
	c = s.pbc.alloc(s.pbc.allocator_data, 4096);
	assert_non_null(c);
	memset(c, 3, 4096);
	s.pbc.free(s.pbc.allocator_data, c); /* a no-op until reset */
	pp_scratch_reset(&s);
	assert_int_equal(s.used, 0);
	assert_int_equal(s.noverflow, 0);
#ifndef PP_ARENA_DEBUG
	/* After a reset the block is reused from its start. */
	assert_ptr_equal(s.pbc.alloc(s.pbc.allocator_data, 3), a);
#endif
	pp_scratch_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_scratch__alignment_and_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
