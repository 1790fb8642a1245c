/*
 * Folded stacks, flamegraph.pl's collapsed format, which no pprof reads:
 *
 *   main;serve;parse 42
 *   main;serve;write 7
 *
 * one line per stack, root first, frames separated by ';', then a space
 * and the count. Each line is one sample of one value (samples/count, or
 * the type the caller names); each distinct frame is a function and a
 * location with no address, file or line. Every line must have this
 * shape, blank lines aside, or the text is not taken for folded stacks.
 */
#include <string.h>

#include "profile/folded.h"
#include "profile/textscan.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "STACK COUNT": the stack and the count's digits. */
static bool split_line(struct pp_span line, struct pp_span *stack,
                       struct pp_span *count)
{
	const char *d = line.e;

	while (d > line.s && is_digit(d[-1]))
		d--;
	if (d == line.e || d - line.s < 2 || d[-1] != ' ')
		return false;
	*stack = (struct pp_span){line.s, d - 1};
	*count = (struct pp_span){d, line.e};
	return true;
}

bool pp_folded__is_folded(const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line, stack, count;
	size_t n = 0;

	pp_lines__init(&ls, data, len < 65536 ? len : 65536);
	while (pp_lines__next(&ls, &line)) {
		if (pp_span__empty(pp_span__trim(line)))
			continue;
		/* A line cut by the 64 KiB window proves nothing. */
		if (ls.p == ls.end && len > 65536)
			break;
		if (!split_line(line, &stack, &count))
			return false;
		n++;
	}
	return n > 0;
}

struct reader {
	struct pp_ctx *ctx;
	const char *name;
	struct pp_profile *p;
	uint32_t *loc_of; /* by frame string: location + 1 */
	size_t cap_loc_of;
	uint32_t *stack;
	size_t cap_stack;
};

static int frame_location(struct reader *r, struct pp_span f, uint32_t *out)
{
	pp_str s = pp_strtab_intern(r->p->strings, f.s, (size_t)(f.e - f.s));
	size_t old = r->cap_loc_of;
	int err;

	if (s == PP_NONE)
		return pp_error(r->ctx, PP_ENOMEM, "out of memory");
	if (s >= old) {
		if ((err = pp_grow(r->ctx, (void **)&r->loc_of, &r->cap_loc_of,
		                   (size_t)s + 1, sizeof(*r->loc_of))) < 0)
			return err;
		memset(r->loc_of + old, 0,
		       (r->cap_loc_of - old) * sizeof(*r->loc_of));
	}
	if (!r->loc_of[s]) {
		struct pp_function fn = {r->p->nfunctions + 1, s, s, 0, 0};
		struct pp_location loc;
		struct pp_line ln = {r->p->nfunctions, 0, 0};

		memset(&loc, 0, sizeof(loc));
		loc.id = (uint64_t)r->p->nlocations + 1;
		loc.mapping = PP_NONE;
		if ((err = pp_profile_add_function(r->p, &fn, NULL)) < 0 ||
		    (err = pp_profile_add_location(r->p, &loc, &ln, 1, NULL)) <
		            0)
			return err;
		r->loc_of[s] = r->p->nlocations;
	}
	*out = r->loc_of[s] - 1;
	return 0;
}

static int read_stacks(struct reader *r, const uint8_t *data, size_t len)
{
	struct pp_lines ls;
	struct pp_span line;
	int err;

	pp_lines__init(&ls, data, len);
	while (pp_lines__next(&ls, &line)) {
		struct pp_span stack, count;
		size_t n = 0;
		int64_t v;
		const char *f;

		if (pp_span__empty(pp_span__trim(line)))
			continue;
		if (!split_line(line, &stack, &count))
			return pp_error(r->ctx, PP_EFORMAT,
			                "%s:%zu: not a folded stack "
			                "(\"frame;frame;... count\")",
			                r->name, ls.lineno);
		if (!pp_text__parse_int(count, 10, &v))
			return pp_error(r->ctx, PP_EFORMAT,
			                "%s:%zu: count out of range", r->name,
			                ls.lineno);
		/* Frames root first in the file, leaf first in the model. */
		for (f = stack.s; f <= stack.e; n++) {
			const char *semi =
			        memchr(f, ';', (size_t)(stack.e - f));

			f = semi ? semi + 1 : stack.e + 1;
		}
		if ((err = pp_grow(r->ctx, (void **)&r->stack, &r->cap_stack, n,
		                   sizeof(*r->stack))) < 0)
			return err;
		f = stack.s;
		for (size_t k = n; k > 0; k--) {
			const char *semi =
			        memchr(f, ';', (size_t)(stack.e - f));
			const char *e = semi ? semi : stack.e;

			if ((err = frame_location(r, (struct pp_span){f, e},
			                          &r->stack[k - 1])) < 0)
				return err;
			f = e + 1;
		}
		if ((err = pp_profile_add_sample(r->p, r->stack, n, &v, NULL,
		                                 0)) < 0)
			return err;
	}
	return 0;
}

int pp_folded__decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                      size_t len, struct pp_profile **out)
{
	struct reader r;
	const char *spec = ctx->folded_type ? ctx->folded_type : "samples";
	const char *slash = strchr(spec, '/');
	pp_str type, unit;
	int err;

	*out = NULL;
	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.name = name;
	if (!(r.p = pp_profile_new(ctx)))
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	type = pp_strtab_intern(r.p->strings, spec,
	                        slash ? (size_t)(slash - spec) : strlen(spec));
	unit = pp_profile_intern(r.p, slash ? slash + 1 : "count");
	if (type == PP_NONE || unit == PP_NONE) {
		err = pp_error(ctx, PP_ENOMEM, "out of memory");
		goto done;
	}
	if ((err = pp_profile_add_sample_type(r.p, type, unit)) < 0 ||
	    (err = read_stacks(&r, data, len)) < 0)
		goto done;
	*out = r.p;
	r.p = NULL;
done:
	pp_free(ctx, r.loc_of);
	pp_free(ctx, r.stack);
	pp_profile_free(r.p);
	return err;
}
