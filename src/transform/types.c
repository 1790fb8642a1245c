/*
 * Sample types and values across two profiles, as pprof's merge and its
 * -base/-normalize treat them (merge.c and base.c share these).
 */
#include <math.h>
#include <string.h>

#include "transform/internal.h"
#include "util/goint.h"

bool pp_transform__same_str(const struct pp_profile *a, pp_str sa,
                            const struct pp_profile *b, pp_str sb)
{
	size_t na, nb;
	const char *ta = pp_profile_strn(a, sa, &na);
	const char *tb = pp_profile_strn(b, sb, &nb);

	return na == nb && memcmp(ta, tb, na) == 0;
}

int pp_transform__find_type(const struct pp_profile *a, uint32_t i,
                            const struct pp_profile *b)
{
	for (uint32_t j = 0; j < b->nsample_types; j++)
		if (pp_transform__same_str(a, a->sample_types[i].type, b,
		                           b->sample_types[j].type))
			return (int)j;
	return -1;
}

bool pp_transform__scale_values(int64_t *d, const int64_t *v,
                                const double *ratios, uint32_t n)
{
	bool keep = false;

	for (uint32_t i = 0; i < n; i++) {
		d[i] = v[i];
		/* As Go converts: a value past int64's range, even by
		 * rounding, is its minimum, not C's undefined result. */
		if (ratios[i] != 1) {
			d[i] = pp_go_int64(round((double)v[i] * ratios[i]));
			keep = keep || d[i] != 0;
		}
	}
	return keep;
}
