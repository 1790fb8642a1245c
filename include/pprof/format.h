/*
 * Numbers as pprof prints them: values scaled to units (ns/us/ms/s/hrs,
 * B/kB/MB/GB/TB/PB, plain counts), "%.2f" with a trailing ".00" dropped, and
 * percentages with at least two significant digits.
 */
#ifndef PPROF_FORMAT_H
#define PPROF_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Scale value from from_unit to to_unit ("minimum" and "auto" pick the
 * largest unit that keeps the value >= 1). *unit_out is the printed unit
 * ("" for counts), a static string.
 */
double pp_scale(int64_t value, const char *from_unit, const char *to_unit,
                const char **unit_out);

/* The same for units given with their lengths: a profile's unit may hold
 * NUL bytes, and an unknown one is printed whole, as pprof prints it
 * (*unit_out is then to_unit; *unit_len counts its bytes). */
double pp_scale_n(int64_t value, const char *from_unit, size_t from_len,
                  const char *to_unit, size_t to_len, const char **unit_out,
                  size_t *unit_len);

/* Are from_unit and to_unit units of one kind (both times, both sizes,
 * ...)? If so, *ratio is what one from_unit is in to_unit (pprof's
 * Scale(1, from, to): 1000 from "us" to "ns"), as pprof's ScaleProfiles
 * finds units it can bring to a common one. Lengths given: a profile's
 * units may hold NUL bytes. */
bool pp_unit_ratio(const char *from_unit, size_t from_len, const char *to_unit,
                   size_t to_len, double *ratio);

/* The printed form of value in to_unit, e.g. "1.50s", "512kB", "42". */
void pp_scaled_label(int64_t value, const char *from_unit, const char *to_unit,
                     char *buf, size_t size);
/* The same with the units' lengths; returns the label's length, which
 * counts any NUL bytes of the unit (cut to fit size, NUL-terminated). */
size_t pp_scaled_label_n(int64_t value, const char *from_unit, size_t from_len,
                         const char *to_unit, size_t to_len, char *buf,
                         size_t size);

/* Room for the number of any label, NUL included: "%.2f" of an int64
 * scaled by at most 1e24 (P*GCU in n*GCU) is 43 digits, a sign and ".00". */
#define PP_LABEL_NUM_MAX 64

/* The same label in two parts, for a unit of any length: the number
 * into num (size bytes, PP_LABEL_NUM_MAX hold any; NUL-terminated; its
 * length returned), and the unit, borrowed (*unit_out, *unit_len bytes:
 * a known unit's static name, or to_unit's or from_unit's own bytes; ""
 * for a count or a zero). The label is the number then the unit. */
size_t pp_scaled_label_parts(int64_t value, const char *from_unit,
                             size_t from_len, const char *to_unit,
                             size_t to_len, char *num, size_t size,
                             const char **unit_out, size_t *unit_len);

/* value/total as pprof prints it: "  100%", "12.34%", " 0.05%". */
void pp_percentage(int64_t value, int64_t total, char *buf, size_t size);

/* True if unit names a known unit or a unit-less keyword (for -unit). */
int pp_unit_known(const char *unit);

#endif
