/* Unit scaling and number formatting, matching pprof's measurement rules
 * (pprof/format.h). In util, below transform and report, which both print
 * numbers. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pprof/format.h"

struct unit {
	const char *name;
	const char *aliases[4];
	double factor;
};

struct unit_type {
	const struct unit *units;
	size_t nunits;
	struct unit deflt;
};

static const struct unit bytes_units[] = {
        {"B", {"b", "byte"}, 1},
        {"kB", {"kb", "kbyte", "kilobyte"}, 1024.0},
        {"MB", {"mb", "mbyte", "megabyte"}, 1048576.0},
        {"GB", {"gb", "gbyte", "gigabyte"}, 1073741824.0},
        {"TB", {"tb", "tbyte", "terabyte"}, 1099511627776.0},
        {"PB", {"pb", "pbyte", "petabyte"}, 1125899906842624.0},
};

static const struct unit time_units[] = {
        {"ns", {"ns", "nanosecond"}, 1},
        {"us", {"\xce\xbcs", "us", "microsecond"}, 1e3},
        {"ms", {"ms", "millisecond"}, 1e6},
        {"s", {"s", "sec", "second"}, 1e9},
        {"hrs", {"hour", "hr"}, 3600e9},
};

static const struct unit gcu_units[] = {
        {"n*GCU", {"nanogcu"}, 1e-9},  {"u*GCU", {"microgcu"}, 1e-6},
        {"m*GCU", {"milligcu"}, 1e-3}, {"GCU", {"gcu"}, 1},
        {"k*GCU", {"kilogcu"}, 1e3},   {"M*GCU", {"megagcu"}, 1e6},
        {"G*GCU", {"gigagcu"}, 1e9},   {"T*GCU", {"teragcu"}, 1e12},
        {"P*GCU", {"petagcu"}, 1e15},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct unit_type unit_types[] = {
        {bytes_units, N(bytes_units), {"B", {"b", "byte"}, 1}},
        {time_units, N(time_units), {"s", {NULL}, 1e9}},
        {gcu_units, N(gcu_units), {"GCU", {NULL}, 1}},
};

/* Numbers and units as pprof prints them (pprof/format.h): in util, below
 * transform and report, which both print them.
 * Lower-case the unit and drop a plural "s", as pprof does before looking
 * a unit up. */
static const struct unit *sniff(const struct unit_type *ut, const char *name)
{
	char buf[64];
	size_t len = strlen(name);

	if (len >= sizeof(buf))
		return NULL;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	buf[len] = '\0';
	if (len > 2 && buf[len - 1] == 's')
		buf[--len] = '\0';
	for (size_t u = 0; u < ut->nunits; u++)
		for (size_t a = 0;
		     a < N(ut->units[u].aliases) && ut->units[u].aliases[a];
		     a++)
			if (strcmp(buf, ut->units[u].aliases[a]) == 0)
				return &ut->units[u];
	return NULL;
}

static int convert(const struct unit_type *ut, int64_t value, const char *from,
                   const char *to, double *out, const char **unit_out)
{
	const struct unit *fu = sniff(ut, from), *tu;
	double v;

	if (!fu)
		return 0;
	v = (double)value * fu->factor;
	if (strcmp(to, "minimum") == 0 || strcmp(to, "auto") == 0) {
		double f = 0;
		const char *name = NULL;

		for (size_t u = 0; u < ut->nunits; u++) {
			if (ut->units[u].factor >= f &&
			    v / ut->units[u].factor >= 1.0) {
				f = ut->units[u].factor;
				name = ut->units[u].name;
			}
		}
		if (f != 0) {
			*out = v / f;
			*unit_out = name;
			return 1;
		}
		*out = v / ut->deflt.factor;
		*unit_out = ut->deflt.name;
		return 1;
	}
	tu = sniff(ut, to);
	if (!tu) {
		*out = v / ut->deflt.factor;
		*unit_out = ut->deflt.name;
		return 1;
	}
	*out = v / tu->factor;
	*unit_out = tu->name;
	return 1;
}

double pp_scale(int64_t value, const char *from_unit, const char *to_unit,
                const char **unit_out)
{
	double v;

	if (value < 0 && -value > 0) {
		v = pp_scale(-value, from_unit, to_unit, unit_out);
		return -v;
	}
	for (size_t i = 0; i < N(unit_types); i++)
		if (convert(&unit_types[i], value, from_unit, to_unit, &v,
		            unit_out))
			return v;
	if (strcmp(to_unit, "count") == 0 || strcmp(to_unit, "sample") == 0 ||
	    strcmp(to_unit, "unit") == 0 || strcmp(to_unit, "minimum") == 0 ||
	    strcmp(to_unit, "auto") == 0)
		*unit_out = "";
	else
		*unit_out = to_unit;
	return (double)value;
}

void pp_scaled_label(int64_t value, const char *from_unit, const char *to_unit,
                     char *buf, size_t size)
{
	const char *unit;
	double v = pp_scale(value, from_unit, to_unit, &unit);
	char num[64];
	size_t len;

	snprintf(num, sizeof(num), "%.2f", v);
	len = strlen(num);
	if (len > 3 && strcmp(num + len - 3, ".00") == 0)
		num[len - 3] = '\0';
	if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0) {
		snprintf(buf, size, "0");
		return;
	}
	snprintf(buf, size, "%s%s", num, unit);
}

void pp_percentage(int64_t value, int64_t total, char *buf, size_t size)
{
	double ratio = 0;

	if (total != 0)
		ratio = fabs((double)value / (double)total) * 100;
	if (ratio >= 99.95 && ratio <= 100.05)
		snprintf(buf, size, "  100%%");
	else if (ratio >= 1.0)
		snprintf(buf, size, "%5.2f%%", ratio);
	else
		snprintf(buf, size, "%5.2g%%", ratio);
}

int pp_unit_known(const char *unit)
{
	static const char *const keywords[] = {"minimum", "auto", "count",
	                                       "sample", "unit"};

	for (size_t i = 0; i < N(keywords); i++)
		if (strcmp(unit, keywords[i]) == 0)
			return 1;
	for (size_t i = 0; i < N(unit_types); i++)
		if (sniff(&unit_types[i], unit))
			return 1;
	return 0;
}
