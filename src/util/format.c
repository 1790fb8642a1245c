/* Unit scaling and number formatting, matching pprof's measurement rules
 * (pprof/format.h). In util, below transform and report, which both print
 * numbers. */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
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
static const struct unit *sniff(const struct unit_type *ut, const char *name,
                                size_t len)
{
	char buf[64];

	if (len >= sizeof(buf))
		return NULL;
	for (size_t i = 0; i < len; i++)
		buf[i] = (char)tolower((unsigned char)name[i]);
	if (len > 2 && buf[len - 1] == 's')
		len--;
	/* Compared with their lengths: "ns\0x" is no "ns", as in Go. */
	for (size_t u = 0; u < ut->nunits; u++)
		for (size_t a = 0;
		     a < N(ut->units[u].aliases) && ut->units[u].aliases[a];
		     a++)
			if (strlen(ut->units[u].aliases[a]) == len &&
			    memcmp(buf, ut->units[u].aliases[a], len) == 0)
				return &ut->units[u];
	return NULL;
}

static bool is_word(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && memcmp(s, word, n) == 0;
}

static int convert(const struct unit_type *ut, int64_t value, const char *from,
                   size_t from_len, const char *to, size_t to_len, double *out,
                   const char **unit_out)
{
	const struct unit *fu = sniff(ut, from, from_len), *tu;
	double v;

	if (!fu)
		return 0;
	v = (double)value * fu->factor;
	if (is_word(to, to_len, "minimum") || is_word(to, to_len, "auto")) {
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
	tu = sniff(ut, to, to_len);
	if (!tu) {
		*out = v / ut->deflt.factor;
		*unit_out = ut->deflt.name;
		return 1;
	}
	*out = v / tu->factor;
	*unit_out = tu->name;
	return 1;
}

double pp_scale_n(int64_t value, const char *from_unit, size_t from_len,
                  const char *to_unit, size_t to_len, const char **unit_out,
                  size_t *unit_len)
{
	double v;

	if (value < 0 && -value > 0) {
		v = pp_scale_n(-value, from_unit, from_len, to_unit, to_len,
		               unit_out, unit_len);
		return -v;
	}
	for (size_t i = 0; i < N(unit_types); i++)
		if (convert(&unit_types[i], value, from_unit, from_len, to_unit,
		            to_len, &v, unit_out)) {
			*unit_len = strlen(*unit_out);
			return v;
		}
	if (is_word(to_unit, to_len, "count") ||
	    is_word(to_unit, to_len, "sample") ||
	    is_word(to_unit, to_len, "unit") ||
	    is_word(to_unit, to_len, "minimum") ||
	    is_word(to_unit, to_len, "auto")) {
		*unit_out = "";
		*unit_len = 0;
	} else {
		/* An unknown unit is printed whole, NUL bytes and all. */
		*unit_out = to_unit;
		*unit_len = to_len;
	}
	return (double)value;
}

bool pp_unit_ratio(const char *from_unit, size_t from_len, const char *to_unit,
                   size_t to_len, double *ratio)
{
	for (size_t i = 0; i < N(unit_types); i++) {
		const struct unit *f =
		        sniff(&unit_types[i], from_unit, from_len);
		const struct unit *t = sniff(&unit_types[i], to_unit, to_len);

		if (f && t) {
			*ratio = f->factor / t->factor;
			return true;
		}
	}
	return false;
}

double pp_scale(int64_t value, const char *from_unit, const char *to_unit,
                const char **unit_out)
{
	size_t n;

	return pp_scale_n(value, from_unit, strlen(from_unit), to_unit,
	                  strlen(to_unit), unit_out, &n);
}

size_t pp_scaled_label_parts(int64_t value, const char *from_unit,
                             size_t from_len, const char *to_unit,
                             size_t to_len, char *num, size_t size,
                             const char **unit_out, size_t *unit_len)
{
	double v = pp_scale_n(value, from_unit, from_len, to_unit, to_len,
	                      unit_out, unit_len);
	size_t len;

	if (size == 0)
		return 0;
	snprintf(num, size, "%.2f", v);
	len = strlen(num);
	if (len > 3 && strcmp(num + len - 3, ".00") == 0)
		num[len -= 3] = '\0';
	if (strcmp(num, "0") == 0 || strcmp(num, "-0") == 0) {
		snprintf(num, size, "0");
		*unit_out = "";
		*unit_len = 0;
		return strlen(num);
	}
	return len;
}

size_t pp_scaled_label_n(int64_t value, const char *from_unit, size_t from_len,
                         const char *to_unit, size_t to_len, char *buf,
                         size_t size)
{
	const char *unit;
	size_t unit_len;
	char num[PP_LABEL_NUM_MAX];
	size_t len;

	if (size == 0)
		return 0;
	len = pp_scaled_label_parts(value, from_unit, from_len, to_unit, to_len,
	                            num, sizeof(num), &unit, &unit_len);
	/* The unit copied with its length: it may hold NUL bytes. */
	if (len > size - 1)
		len = size - 1;
	memcpy(buf, num, len);
	if (unit_len > size - 1 - len)
		unit_len = size - 1 - len;
	memcpy(buf + len, unit, unit_len);
	buf[len + unit_len] = '\0';
	return len + unit_len;
}

void pp_scaled_label(int64_t value, const char *from_unit, const char *to_unit,
                     char *buf, size_t size)
{
	(void)pp_scaled_label_n(value, from_unit, strlen(from_unit), to_unit,
	                        strlen(to_unit), buf, size);
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
		if (sniff(&unit_types[i], unit, strlen(unit)))
			return 1;
	return 0;
}
