/*
 * Which compile unit holds an address, for binaries without
 * .debug_aranges. Go's linker writes none, and libdw 0.188 finds a unit by
 * address only through that section: dwfl_module_addrdie and
 * dwfl_module_getsrc then fail for every address of a Go binary. Here each
 * unit's own ranges (DW_AT_low_pc/high_pc or DW_AT_ranges) are read once
 * into one table sorted by address.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/internal.h"

static int by_lo(const void *a, const void *b)
{
	const struct pp_unit_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static int add_range(struct pp_ctx *ctx, struct pp_unit_table *t, size_t *cap,
                     uint64_t lo, uint64_t hi, uint32_t unit)
{
	if (hi <= lo)
		return 0;
	if (pp_grow(ctx, (void **)&t->ranges, cap, t->nranges + 1,
	            sizeof(*t->ranges)) < 0)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	t->ranges[t->nranges++] = (struct pp_unit_range){lo, hi, unit};
	return 0;
}

static int load(struct pp_ctx *ctx, struct pp_symfile *f)
{
	struct pp_unit_table *t = &f->units;
	size_t cap_units = 0, cap_ranges = 0;
	Dwarf_Addr bias;
	Dwarf *dw = dwfl_module_getdwarf(f->mod, &bias);
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint8_t unit_type;
	int err;

	t->loaded = true;
	if (!dw)
		return 0;
	while (dwarf_get_units(dw, cu, &cu, NULL, &unit_type, &cudie, NULL) ==
	       0) {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;
		uint32_t unit = (uint32_t)t->nunits;

		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			continue;
		if (pp_grow(ctx, (void **)&t->units, &cap_units, t->nunits + 1,
		            sizeof(*t->units)) < 0)
			return pp_error(ctx, PP_ENOMEM, "out of memory");
		t->units[t->nunits++] = cudie;
		while ((off = dwarf_ranges(&cudie, off, &base, &start, &end)) >
		       0)
			if ((err = add_range(ctx, t, &cap_ranges, start + bias,
			                     end + bias, unit)) < 0)
				return err;
	}
	if (t->nranges)
		qsort(t->ranges, t->nranges, sizeof(*t->ranges), by_lo);
	return 0;
}

int pp_symbolize__unit_die(struct pp_ctx *ctx, struct pp_symfile *f,
                           uint64_t addr, Dwarf_Die **out)
{
	const struct pp_unit_table *t = &f->units;
	size_t lo = 0, hi;
	int err;

	*out = NULL;
	if (!t->loaded && (err = load(ctx, f)) < 0)
		return err;
	hi = t->nranges;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && addr < t->ranges[lo - 1].hi)
		*out = &t->units[t->ranges[lo - 1].unit];
	return 0;
}

void pp_symbolize__free_units(struct pp_ctx *ctx, struct pp_symfile *f)
{
	pp_free(ctx, f->units.units);
	pp_free(ctx, f->units.ranges);
	memset(&f->units, 0, sizeof(f->units));
}
