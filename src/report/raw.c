/* The `raw` and `comments` reports: the profile as pprof's Profile.String
 * prints it, and its free-form comments. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report/internal.h"

/* Go's time.Time.String(): "2006-01-02 15:04:05.999999999 -0700 MST" in
 * local time, trailing zeros of the fraction dropped. */
static void print_time(FILE *out, int64_t nanos)
{
	time_t secs = (time_t)(nanos / 1000000000);
	int64_t frac = nanos % 1000000000;
	struct tm tm;
	char date[64], zone[64], fs[16] = "";

	if (frac < 0) {
		frac += 1000000000;
		secs--;
	}
	if (!localtime_r(&secs, &tm) ||
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm) == 0 ||
	    strftime(zone, sizeof(zone), "%z %Z", &tm) == 0)
		return;
	if (frac) {
		int len = snprintf(fs, sizeof(fs), ".%09lld", (long long)frac);

		while (len > 1 && fs[len - 1] == '0')
			fs[--len] = '\0';
	}
	fprintf(out, "Time: %s%s %s\n", date, fs, zone);
}

/* Go's time.Duration.String(), e.g. "3.366249507s", "1.5ms", "0s". */
static void go_duration(int64_t d, char *buf, size_t size)
{
	uint64_t u = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
	const char *sign = d < 0 ? "-" : "";
	static const struct {
		uint64_t div;
		const char *unit;
	} small[] = {{1, "ns"}, {1000, "\xc2\xb5s"}, {1000000, "ms"}};
	char frac[32];
	int len;

	if (u == 0) {
		snprintf(buf, size, "0s");
		return;
	}
	if (u < 1000000000) {
		int i = u < 1000 ? 0 : u < 1000000 ? 1 : 2;
		uint64_t f = u % small[i].div;
		int digits = i * 3;

		len = snprintf(frac, sizeof(frac), ".%0*llu", digits,
		               (unsigned long long)f);
		while (len > 1 && frac[len - 1] == '0')
			frac[--len] = '\0';
		if (len == 1)
			frac[0] = '\0';
		snprintf(buf, size, "%s%llu%s%s", sign,
		         (unsigned long long)(u / small[i].div), frac,
		         small[i].unit);
		return;
	}
	{
		uint64_t secs = u / 1000000000, f = u % 1000000000;
		char rest[128];

		len = snprintf(frac, sizeof(frac), ".%09llu",
		               (unsigned long long)f);
		while (len > 1 && frac[len - 1] == '0')
			frac[--len] = '\0';
		if (len == 1)
			frac[0] = '\0';
		if (secs >= 3600)
			snprintf(rest, sizeof(rest), "%lluh%llum%llu%ss",
			         (unsigned long long)(secs / 3600),
			         (unsigned long long)(secs / 60 % 60),
			         (unsigned long long)(secs % 60), frac);
		else if (secs >= 60)
			snprintf(rest, sizeof(rest), "%llum%llu%ss",
			         (unsigned long long)(secs / 60),
			         (unsigned long long)(secs % 60), frac);
		else
			snprintf(rest, sizeof(rest), "%llu%ss",
			         (unsigned long long)secs, frac);
		snprintf(buf, size, "%s%s", sign, rest);
	}
}

/* The first n UTF-8 characters of s, as Go's "%.4v" cuts a string. */
static void print_runes(FILE *out, const char *s, int n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (u[i] && n > 0) {
		i++;
		while ((u[i] & 0xC0) == 0x80)
			i++;
		n--;
	}
	fwrite(s, 1, i, out);
}

static void print_hex(FILE *out, uint64_t v)
{
	fprintf(out, "0x%llx", (unsigned long long)v);
}

static void print_sample_types(const struct pp_profile *p, FILE *out)
{
	for (uint32_t i = 0; i < p->nsample_types; i++) {
		if (i)
			fputc(' ', out);
		pp_report__put_str(p, p->sample_types[i].type, out);
		fputc('/', out);
		pp_report__put_str(p, p->sample_types[i].unit, out);
		if (p->sample_types[i].type == p->default_sample_type)
			fputs("[dflt]", out);
	}
	fprintf(out, "\n");
}

/* With noinlines, only the location's outermost (last) line; with
 * drop_columns, every column printed as 0 (pp_report__raw_noinlines). */
static void print_location(const struct pp_profile *p, uint32_t l,
                           bool noinlines, bool drop_columns, FILE *out)
{
	const struct pp_location *loc = &p->locations[l];
	uint32_t first = noinlines && loc->line_count ? loc->line_count - 1 : 0;
	char head[96];
	int len;

	len = snprintf(head, sizeof(head), "%6llu: 0x%llx ",
	               (unsigned long long)loc->id,
	               (unsigned long long)loc->address);
	if (loc->mapping != PP_NONE)
		len += snprintf(
		        head + len, sizeof(head) - (size_t)len, "M=%llu ",
		        (unsigned long long)p->mappings[loc->mapping].id);
	if (loc->is_folded)
		snprintf(head + len, sizeof(head) - (size_t)len, "[F] ");
	if (loc->line_count == 0)
		fprintf(out, "%s\n", head);
	for (uint32_t i = first; i < loc->line_count; i++) {
		const struct pp_line *ln = &p->lines[loc->line_first + i];

		fprintf(out, "%s", i == first ? head : "             ");
		if (ln->function == PP_NONE) {
			fprintf(out, "??\n");
			continue;
		}
		{
			const struct pp_function *f =
			        &p->functions[ln->function];

			pp_report__put_str(p, f->name, out);
			fputc(' ', out);
			pp_report__put_str(p, f->filename, out);
			fprintf(out, ":%lld:%lld s=%lld", (long long)ln->line,
			        drop_columns ? 0LL : (long long)ln->column,
			        (long long)f->start_line);
			if (f->name != f->system_name) {
				fputc('(', out);
				pp_report__put_str(p, f->system_name, out);
				fputc(')', out);
			}
			fprintf(out, "\n");
		}
	}
}

static void print_mapping(const struct pp_profile *p, uint32_t i,
                          bool noinlines, FILE *out)
{
	const struct pp_mapping *m = &p->mappings[i];

	fprintf(out, "%llu: ", (unsigned long long)m->id);
	print_hex(out, m->start);
	fprintf(out, "/");
	print_hex(out, m->limit);
	fprintf(out, "/");
	print_hex(out, m->offset);
	fputc(' ', out);
	pp_report__put_str(p, m->file, out);
	fputc(' ', out);
	pp_report__put_str(p, m->build_id, out);
	fprintf(out, " %s%s%s%s\n", m->has_functions ? "[FN]" : "",
	        m->has_filenames ? "[FL]" : "",
	        m->has_line_numbers ? "[LN]" : "",
	        m->has_inline_frames && !noinlines ? "[IN]" : "");
}

#define IDS_MAX (1u << 22)

int pp_report_raw(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;
	struct pp_report__lines str = {0}, num = {0};
	struct pp_report__out *o = NULL;
	char *ids = NULL;
	size_t *id_at = NULL;
	int err;

	if ((err = pp_report__num_units(r)) < 0)
		return err;
	for (uint32_t i = 0; i < p->ncomments; i++) {
		fputs("Comment: ", out);
		pp_report__put_str(p, p->comments[i], out);
		fputc('\n', out);
	}
	if (p->doc_url) {
		fputs("Doc: ", out);
		pp_report__put_str(p, p->doc_url, out);
		fputc('\n', out);
	}
	if (p->has_period_type || p->period_type.type || p->period_type.unit) {
		fputs("PeriodType: ", out);
		pp_report__put_str(p, p->period_type.type, out);
		fputc(' ', out);
		pp_report__put_str(p, p->period_type.unit, out);
		fputc('\n', out);
	}
	fprintf(out, "Period: %lld\n", (long long)p->period);
	if (p->time_nanos != 0)
		print_time(out, p->time_nanos);
	if (p->duration_nanos != 0) {
		char d[160];

		go_duration(p->duration_nanos, d, sizeof(d));
		fprintf(out, "Duration: ");
		print_runes(out, d, 4);
		fprintf(out, "\n");
	}
	fprintf(out, "Samples:\n");
	print_sample_types(p, out);
	o = pp_malloc(r->ctx, sizeof(*o));
	if (!o) {
		err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	/* Each location's "ID " once: a big profile prints tens of millions
	 * of them. (Past IDS_MAX locations, digit by digit.) */
	if (p->nlocations <= IDS_MAX) {
		id_at = pp_malloc(r->ctx,
		                  ((size_t)p->nlocations + 1) * sizeof(*id_at));
		ids = pp_malloc(r->ctx, (size_t)p->nlocations * 21 + 1);
		if (!id_at || !ids) {
			err = pp_error(r->ctx, PP_ENOMEM, "out of memory");
			goto done;
		}
		id_at[0] = 0;
		for (uint32_t l = 0; l < p->nlocations; l++) {
			int n = snprintf(
			        ids + id_at[l], 22, "%llu ",
			        (unsigned long long)p->locations[l].id);

			id_at[l + 1] = id_at[l] + (size_t)n;
		}
	}
	o->f = out;
	o->n = 0;
	o->failed = false;
	for (uint32_t s = 0; s < p->nsamples; s++) {
		const struct pp_sample *smp = &p->samples[s];
		const int64_t *v = pp_profile_sample_values(p, s);

		if ((s & 0x3ff) == 0 && pp_interrupted(r->ctx)) {
			err = pp_error_interrupted(r->ctx);
			goto done;
		}
		for (uint32_t i = 0; i < p->nsample_types; i++) {
			pp_report__out_bytes(o, " ", 1);
			pp_report__out_int(o, v[i], 10);
		}
		pp_report__out_bytes(o, ": ", 2);
		for (uint32_t k = 0; k < smp->loc_count; k++) {
			uint32_t l = pp_sample_loc(p, smp, k);

			if (ids) {
				pp_report__out_bytes(o, ids + id_at[l],
				                     id_at[l + 1] - id_at[l]);
				continue;
			}
			pp_report__out_uint(o, p->locations[l].id);
			pp_report__out_bytes(o, " ", 1);
		}
		pp_report__out_bytes(o, "\n", 1);
		if (pp_sample_label_range(p, s).count == 0)
			continue;
		if ((err = pp_report__label_lines(r, s, false, PP_LABELS_RAW,
		                                  &str)) < 0 ||
		    (err = pp_report__label_lines(r, s, true, PP_LABELS_RAW,
		                                  &num)) < 0)
			goto done;
		for (int pass = 0; pass < 2; pass++) {
			const struct pp_report__lines *l = pass ? &num : &str;

			if (l->n == 0)
				continue;
			pp_report__out_str(o, "                ");
			for (size_t i = 0; i < l->n; i++) {
				if (i)
					pp_report__out_bytes(o, " ", 1);
				pp_report__out_bytes(o, l->v[i].s, l->v[i].n);
			}
			pp_report__out_bytes(o, "\n", 1);
		}
	}
	pp_report__out_flush(o);
	if (o->failed) {
		err = pp_error(r->ctx, PP_EIO, "write error");
		goto done;
	}
	fprintf(out, "Locations\n");
	for (uint32_t l = 0; l < p->nlocations; l++)
		print_location(p, l, pp_report__raw_noinlines(r),
		               pp_report__raw_drop_columns(r), out);
	fprintf(out, "Mappings\n");
	for (uint32_t m = 0; m < p->nmappings; m++)
		print_mapping(p, m, pp_report__raw_noinlines(r), out);
done:
	pp_report__lines_release(r, &str);
	pp_report__lines_release(r, &num);
	pp_free(r->ctx, ids);
	pp_free(r->ctx, id_at);
	pp_free(r->ctx, o);
	return err;
}

int pp_report_comments(struct pp_report *r, FILE *out)
{
	const struct pp_profile *p = r->prof;

	for (uint32_t i = 0; i < p->ncomments; i++) {
		pp_report__put_str(p, p->comments[i], out);
		fputc('\n', out);
	}
	return 0;
}
