/*
 * Go's integer arithmetic where pprof's results depend on it, without C's
 * undefined behaviour. pprof converts float64 results to int64 (Go on
 * amd64 gives the minimum int64 for NaN and out-of-range values) and
 * negates int64 values (wrapping, so the minimum stays itself); hostile or
 * extreme inputs reach both, and the fuzzers found them.
 */
#ifndef PP_UTIL_GOINT_H
#define PP_UTIL_GOINT_H

#include <stdint.h>

/* int64(v) as Go computes it on amd64. */
static inline int64_t pp_go_int64(double v)
{
	if (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
		return (int64_t)v;
	return INT64_MIN;
}

/* v as an int64_t, clamped to the type's range (NaN: 0): not Go's
 * conversion but ours, for thresholds computed as a share of a value,
 * where "more than any value" must stay that. */
static inline int64_t pp_int64_clamped(double v)
{
	if (v >= 9223372036854775808.0) /* 2^63, exact in a double */
		return INT64_MAX;
	if (v < -9223372036854775808.0)
		return INT64_MIN;
	return v == v ? (int64_t)v : 0;
}

/* |v| in Go's wrapping int64 arithmetic. */
static inline int64_t pp_go_abs64(int64_t v)
{
	return v < 0 ? (int64_t)(0 - (uint64_t)v) : v;
}

/* -1, 0 or 1 as |a| is greater than, equal to or less than |b| (Go's
 * wrapping abs): pprof's "larger magnitude first" order. */
static inline int pp_go_abs_cmp_desc(int64_t a, int64_t b)
{
	int64_t x = pp_go_abs64(a), y = pp_go_abs64(b);

	return x > y ? -1 : x < y;
}

#endif
