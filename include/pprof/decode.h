/*
 * Bytes to profile: the profile.proto reader (and, through the same entry
 * point, the legacy formats as they are added).
 *
 * The input is the uncompressed bytes of one profile; see source.h for files
 * and gzip. name is used only in error messages ("cpu.pb.gz").
 */
#ifndef PPROF_DECODE_H
#define PPROF_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pprof/profile.h"

/*
 * Decode any supported format, detected from the bytes (profile.proto, the
 * legacy formats pprof reads, and the text formats only we read), into a new
 * profile (*out, free with pp_profile_free). Every id and string index is
 * validated; on any error nothing is returned, the detail is in ctx, and
 * the code is PP_EFORMAT for bad input (unrecognised input: "NAME:
 * unrecognized profile format"), PP_ELIMIT for input over a limit,
 * PP_ENOMEM for memory.
 */
int pp_decode(struct pp_ctx *ctx, const char *name, const uint8_t *data,
              size_t len, struct pp_profile **out);

/*
 * Like pp_decode, but takes ownership of data (allocated with pp_malloc):
 * pages already read may be returned to the system while decoding, so a
 * big profile's raw bytes and its model are not both held in full, and data
 * is freed before returning, whatever the result.
 */
int pp_decode_owned(struct pp_ctx *ctx, const char *name, uint8_t *data,
                    size_t len, struct pp_profile **out);

/*
 * A profile.proto decoded while its bytes arrive (from an inflater on
 * another thread), so that decoding need not wait for the whole file.
 * Push the bytes in order, in pieces of any size (the first at least 4096
 * bytes, or the stream gives up), then finish. The profile is the one
 * pp_decode makes of the same bytes. push and finish return 0, or 1 when
 * this path gave up -- the input is not profile.proto, is malformed, or is
 * laid out in a way it does not take -- and the caller must then decode
 * the whole bytes with pp_decode, which names any error; nothing is left
 * in ctx. After 1, further pushes do nothing.
 */
struct pp_decode_stream;
int pp_decode_stream_new(struct pp_ctx *ctx, const char *name,
                         struct pp_decode_stream **out);
int pp_decode_stream_push(struct pp_decode_stream *s, const uint8_t *data,
                          size_t len);
int pp_decode_stream_finish(struct pp_decode_stream *s,
                            struct pp_profile **out);
void pp_decode_stream_free(struct pp_decode_stream *s);

/*
 * Say, before the first push, about how many bytes will be pushed in all
 * (a hint: 0 for unknown). The samples' arrays are then sized once for the
 * whole input, from how much of it the first samples took, rather than
 * doubled as they fill: a doubled array is moved at each step, and on
 * some virtual machines every page of a moved array is slow to touch
 * again.
 */
void pp_decode_stream_expect(struct pp_decode_stream *s, uint64_t bytes);

/*
 * Whether the first len bytes of a profile (a few kilobytes, from the
 * start) could begin some format pp_decode reads: false only for what is
 * surely none (zeros, binary that is no protobuf), so a decompression bomb
 * is refused after its first kilobytes instead of after all of it.
 */
bool pp_decode_could_be_profile(const uint8_t *data, size_t len);

#endif
