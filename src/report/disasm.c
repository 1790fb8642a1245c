/*
 * The `disasm` report: pprof's printAssembly layout over the annotated
 * instructions of asm.c. Each instruction shows its flat and cum ("." for
 * zero), its address and text; where the source position changes, the
 * innermost frame ("mix cprog.c:23" inside hash_loop, as objdump -l names
 * inlined code) follows after a ';', on the same line for instructions
 * shorter than 40 characters, else on a line of its own above.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "pprof/format.h"
#include "report/asm.h"

static void value_or_dot(const struct pp_report *r, int64_t v,
                         struct pp_report__val *out)
{
	if (v != 0)
		pp_report__format(r, v, out);
	else
		pp_report__val_text(out, ".");
}

/* "%10s %10s " of the two values, whose unit may hold NUL bytes. */
static void put_values(FILE *out, const struct pp_report__val *fs,
                       const struct pp_report__val *cs)
{
	pp_report__put_val_padded(out, fs, 10);
	fputc(' ', out);
	pp_report__put_val_padded(out, cs, 10);
	fputc(' ', out);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void print_routine(const struct pp_report *r, const struct pp_asm *a,
                          const struct pp_asm_routine *rt, FILE *out)
{
	struct pp_report__val fs, cs;
	char pct[32];
	pp_str function = PP_NONE, file = PP_NONE;
	int64_t line = -1;

	fprintf(out, "ROUTINE ======================== %s\n",
	        pp_asm_str(a, rt->name));
	for (const char *k = pp_asm_str(a, rt->aka), *nl; *k; k = nl + 1) {
		nl = strchr(k, '\n');
		fprintf(out, "    AKA ======================== %.*s\n",
		        (int)(nl ? nl - k : (ptrdiff_t)strlen(k)), k);
		if (!nl)
			break;
	}
	pp_report__format(r, rt->flat, &fs);
	pp_report__format(r, rt->cum, &cs);
	pp_percentage(rt->cum, r->total, pct, sizeof(pct));
	put_values(out, &fs, &cs);
	fprintf(out, "(flat, cum) %s of Total\n", pct);
	for (uint32_t i = 0; i < rt->ninsns; i++) {
		const struct pp_asm_insn *in = &a->insns[rt->insn_first + i];
		const char *text = pp_asm_str(a, in->text);
		char loc[1024] = "";

		value_or_dot(r, in->flat, &fs);
		value_or_dot(r, in->cum, &cs);
		if (in->nframes > 0) {
			const struct pp_asm_frame *f =
			        &a->frames[in->frame_first];

			if (f->name != function || f->file != file ||
			    f->line != line) {
				const char *fn = pp_asm_str(a, f->name);
				const char *fl = pp_asm_str(a, f->file);
				size_t len = 0;

				function = f->name;
				file = f->file;
				line = f->line;
				if (fn[0])
					len = (size_t)snprintf(loc, sizeof(loc),
					                       "%s ", fn);
				if (fl[0] && len < sizeof(loc)) {
					len += (size_t)snprintf(
					        loc + len, sizeof(loc) - len,
					        "%s", base_name(fl));
					if (f->line != 0 && len < sizeof(loc))
						snprintf(loc + len,
						         sizeof(loc) - len,
						         ":%lld",
						         (long long)f->line);
				}
			}
		}
		if (loc[0] && strlen(text) >= 40)
			fprintf(out, "%74s;%s\n", "", loc);
		put_values(out, &fs, &cs);
		if (loc[0] && strlen(text) < 40)
			fprintf(out, "%10llx: %-40s;%s\n",
			        (unsigned long long)in->addr, text, loc);
		else
			fprintf(out, "%10llx: %s\n",
			        (unsigned long long)in->addr, text);
	}
}

int pp_report_disasm(struct pp_report *r, const char *symbol, FILE *out)
{
	return pp_report_disasm_max(r, symbol, -1, out);
}

int pp_report_disasm_max(struct pp_report *r, const char *symbol, int max_funcs,
                         FILE *out)
{
	struct pp_asm *a = NULL;
	struct pp_report__val tot;
	int err;

	if ((err = pp_report__asm(r, symbol, max_funcs, false, &a)) < 0)
		return err;
	fputs("Total: ", out);
	pp_report__format(r, r->total, &tot);
	pp_report__put_val(out, &tot);
	fputc('\n', out);
	for (size_t i = 0; i < a->nroutines; i++)
		print_routine(r, a, &a->routines[i], out);
	pp_report__asm_free(a);
	return 0;
}
