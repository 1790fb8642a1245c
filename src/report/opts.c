/*
 * The report options whose zero means "default" (pprof/report.h), turned
 * into the values reports use. The defaults are pprof's and live here
 * only, so that a zero-initialised struct pp_report_opts asks for them.
 */
#include "internal.h"

/* pprof's -nodefraction and -edgefraction defaults. */
#define DEFAULT_NODEFRACTION 0.005
#define DEFAULT_EDGEFRACTION 0.001

static double fraction(double f, double dflt)
{
	if (f == 0)
		return dflt;
	return f < 0 ? 0 : f; /* PP_FRACTION_NONE */
}

double pp_report__nodefraction(const struct pp_report_opts *o)
{
	return fraction(o->nodefraction, DEFAULT_NODEFRACTION);
}

double pp_report__edgefraction(const struct pp_report_opts *o)
{
	return fraction(o->edgefraction, DEFAULT_EDGEFRACTION);
}

int pp_report__nodecount(const struct pp_report_opts *o, int dflt)
{
	if (o->nodecount == 0)
		return dflt;
	return o->nodecount < 0 ? 0 : o->nodecount; /* PP_NODECOUNT_ALL */
}

double pp_report__divide_by(const struct pp_report_opts *o)
{
	return o->divide_by == 0 ? 1 : o->divide_by;
}
