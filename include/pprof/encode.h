/*
 * Profile to bytes: the profile.proto writer, the inverse of decode.h.
 *
 * Every record is written with the ids it holds (pp_location.id and so on,
 * which the decoder and pp_profile_merge keep unique and non-zero), and the
 * whole string table in index order, so pp_decode of the output gives
 * back an equal profile: the same records in the same order with the same
 * strings. Repeated numbers (location ids, values, comments) are packed, as
 * Go's writer packs them.
 */
#ifndef PPROF_ENCODE_H
#define PPROF_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

struct pp_encode_opts {
	/* Leave out samples without locations, as pprof's -proto output
	 * does (its name filter, which always runs, never keeps them).
	 * false: every sample. */
	bool drop_stackless;
	/* pprof's Aggregate without inline frames, which its -proto applies
	 * under -noinlines: each location keeps only its outermost line, and
	 * no mapping claims inline frames. false: the lines as they are. */
	bool noinlines;
	/* Every line's column written as 0 (that Aggregate drops them unless
	 * -showcolumns). false: as they are. */
	bool drop_columns;
	/* Each sample value written times ratio, converted to an integer as
	 * Go converts (pprof's -proto applies 1 / -divide_by so). 0 or 1:
	 * the values as they are. */
	double ratio;
};

/*
 * Encode p as an uncompressed profile.proto message into *out (allocated
 * with pp_malloc; free with pp_free) of *len bytes. opts may be NULL for
 * the defaults. Fails only with PP_ENOMEM.
 */
int pp_encode_proto(struct pp_ctx *ctx, const struct pp_profile *p,
                    const struct pp_encode_opts *opts, uint8_t **out,
                    size_t *len);

/*
 * The same, gzip-compressed: what pprof's -proto writes and every pprof
 * reader accepts. Compressed at level 1 for speed (pprof uses 6: its
 * files are about a sixth smaller).
 */
int pp_encode_proto_gzip(struct pp_ctx *ctx, const struct pp_profile *p,
                         const struct pp_encode_opts *opts, uint8_t **out,
                         size_t *len);

#endif
