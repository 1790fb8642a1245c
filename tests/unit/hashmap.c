/* The hash index (util/hashmap.h): finding, adding, growing, colliding
 * hashes, clearing, and every allocation failure. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "util/hashmap.h"

/* The records a caller keeps: keys in an array, found through the index. */
struct recs {
	uint64_t key[5000];
	uint32_t n;
	int err; /* of the last find_or_add */
};

/* The index of key, added when new (*added); PP_NONE on failure, with the
 * error in r->err. */
static uint32_t find_or_add(struct pp_hashmap *m, struct recs *r, uint64_t key,
                            uint32_t hash, bool *added)
{
	uint32_t pos, i;

	*added = false;
	r->err = 0;
	for (i = pp_hashmap_first(m, hash, &pos); i != PP_NONE;
	     i = pp_hashmap_next(m, hash, &pos))
		if (r->key[i] == key)
			return i;
	if ((r->err = pp_hashmap_add(m, hash, &pos, r->n)) < 0)
		return PP_NONE;
	*added = true;
	r->key[r->n] = key;
	return r->n++;
}

static void test_hashmap__find_and_grow(void **state)
{
	static struct recs r;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_hashmap m;
	uint32_t pos;
	bool added;

	(void)state;
	r.n = 0;
	pp_hashmap_init(&m, &ctx);
	/* Empty: nothing found, nothing allocated. */
	assert_int_equal(pp_hashmap_first(&m, 7, &pos), PP_NONE);
	assert_null(m.slots);
	for (uint64_t k = 0; k < 5000; k++) {
		uint64_t key = k * 1000003;

		assert_int_equal(
		        find_or_add(&m, &r, key, pp_hash_u64(key), &added), k);
		assert_true(added);
	}
	assert_int_equal(m.count, 5000);
	/* Never more than half full: 5000 entries need 16384 slots. */
	assert_int_equal(m.mask + 1, 16384);
	for (uint64_t k = 0; k < 5000; k++) {
		uint64_t key = k * 1000003;

		assert_int_equal(
		        find_or_add(&m, &r, key, pp_hash_u64(key), &added), k);
		assert_false(added);
	}
	assert_int_equal(r.n, 5000);
	pp_hashmap_release(&m);
	assert_null(m.slots);
	assert_int_equal(m.count, 0);
}

/* Every key with one hash: each is a candidate once, and the caller's
 * compare tells them apart. */
static void test_hashmap__same_hash(void **state)
{
	static struct recs r;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_hashmap m;
	uint32_t pos, i, seen = 0;
	bool added, found[40] = {false};

	(void)state;
	r.n = 0;
	pp_hashmap_init(&m, &ctx);
	for (uint64_t k = 0; k < 40; k++)
		assert_int_equal(find_or_add(&m, &r, k, 12345, &added), k);
	for (uint64_t k = 0; k < 40; k++) {
		assert_int_equal(find_or_add(&m, &r, k, 12345, &added), k);
		assert_false(added);
	}
	for (i = pp_hashmap_first(&m, 12345, &pos); i != PP_NONE;
	     i = pp_hashmap_next(&m, 12345, &pos)) {
		assert_true(i < 40);
		assert_false(found[i]);
		found[i] = true;
		seen++;
	}
	assert_int_equal(seen, 40);
	/* Another hash in the same home slot finds none of them. */
	assert_int_equal(pp_hashmap_first(&m, 12345 + (m.mask + 1), &pos),
	                 PP_NONE);
	pp_hashmap_release(&m);
}

static void test_hashmap__reserve_and_clear(void **state)
{
	static struct recs r;
	struct pp_ctx ctx = PP_CTX_INIT;
	struct pp_hashmap m;
	struct pp_hashmap_slot *slots;
	uint32_t pos;
	bool added;

	(void)state;
	r.n = 0;
	pp_hashmap_init(&m, &ctx);
	assert_int_equal(pp_hashmap_reserve(&m, 1000), 0);
	assert_int_equal(m.mask + 1, 2048);
	slots = m.slots;
	for (uint64_t k = 0; k < 1000; k++)
		find_or_add(&m, &r, k, pp_hash_u64(k), &added);
	/* Reserved room: no growth on the way. */
	assert_ptr_equal(m.slots, slots);
	assert_int_equal(m.count, 1000);
	/* A smaller reserve keeps the table. */
	assert_int_equal(pp_hashmap_reserve(&m, 10), 0);
	assert_ptr_equal(m.slots, slots);
	pp_hashmap_clear(&m);
	assert_int_equal(m.count, 0);
	assert_ptr_equal(m.slots, slots);
	assert_int_equal(pp_hashmap_first(&m, pp_hash_u64(3), &pos), PP_NONE);
	pp_hashmap_release(&m);
}

/* The hashes: fixed values, so a change to them is seen. */
static void test_hashmap__hashes(void **state)
{
	(void)state;
	assert_int_equal(pp_hash_u64(0), 0);
	assert_int_equal(pp_hash_u64(1), 0x9E3779B9u);
	assert_int_equal(pp_hash_pair(0, 1), 0x9E3779B9u);
	assert_int_equal(pp_hash_pair(1, 0),
	                 (uint32_t)((0x9E3779B97F4A7C15ull << 32) >> 32));
}

/* Every allocation failing in turn: PP_ENOMEM, the entries added so far
 * still found, and nothing leaked. */
static void test_hashmap__alloc_failure(void **state)
{
	static struct recs r;
	struct failing_alloc fa;
	long n;

	(void)state;
	for (n = 0;; n++) {
		struct pp_ctx ctx = PP_CTX_INIT;
		struct pp_hashmap m;
		uint32_t got = 0;
		bool added;

		failing_alloc_install(&ctx, &fa, n);
		r.n = 0;
		pp_hashmap_init(&m, &ctx);
		for (uint64_t k = 0; k < 100; k++) {
			if (find_or_add(&m, &r, k, pp_hash_u64(k), &added) ==
			    PP_NONE)
				break;
			got++;
		}
		if (!fa.failed) {
			assert_int_equal(got, 100);
			pp_hashmap_release(&m);
			break;
		}
		assert_int_equal(r.err, PP_ENOMEM);
		assert_int_equal(m.count, got);
		for (uint64_t k = 0; k < got; k++)
			assert_int_equal(
			        find_or_add(&m, &r, k, pp_hash_u64(k), &added),
			        k);
		pp_hashmap_release(&m);
	}
	/* 16, 32, 64, 128 and 256 slots: five allocations. */
	assert_int_equal(n, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	        cmocka_unit_test(test_hashmap__find_and_grow),
	        cmocka_unit_test(test_hashmap__same_hash),
	        cmocka_unit_test(test_hashmap__reserve_and_clear),
	        cmocka_unit_test(test_hashmap__hashes),
	        cmocka_unit_test(test_hashmap__alloc_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
