/*
 * gzip. Whole buffers go through libdeflate (several times faster than
 * zlib); zlib is kept for streams and to name what is wrong with a stream
 * libdeflate rejects, since libdeflate reports only "bad data".
 */
#include <libdeflate.h>
#include <string.h>
#include <zlib.h>

#include "pprof/decode.h"
#include "pprof/source.h"

/* How much of the inflated start is looked at before inflating the rest:
 * a bomb of zeros (3 MB of gzip, gigabytes inflated) is refused after
 * these bytes instead of after all of it. */
#define SNIFF_SIZE 4096

static uint64_t cap_of(const struct pp_ctx *ctx)
{
	return ctx->max_size ? ctx->max_size : PP_DEFAULT_MAX_SIZE;
}

static int not_profile(struct pp_ctx *ctx, const char *name)
{
	return pp_error(ctx, PP_EFORMAT, "%s: unrecognized profile format",
	                name);
}

static int over_cap(struct pp_ctx *ctx, const char *name)
{
	return pp_error(ctx, PP_ELIMIT,
	                "%s: decompressed profile is larger than the "
	                "%llu-byte limit (--max-size)",
	                name, (unsigned long long)cap_of(ctx));
}

int pp_source_is_gzip(const uint8_t *data, size_t len)
{
	return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

uint64_t pp_source_gunzip_size_hint(const uint8_t *data, size_t len)
{
	uint32_t isize;

	if (len < 18 || !pp_source_is_gzip(data, len))
		return 0;
	memcpy(&isize, data + len - 4, 4);
	/* Deflate cannot expand more than ~1032:1. */
	return isize / 1032 <= len ? isize : 0;
}

struct pp_gunzip_stream {
	struct pp_ctx *ctx;
	const char *name;
	z_stream z;
	int z_live;
	int member_done; /* the last member ended cleanly */
	int sniffed;     /* the first SNIFF_SIZE bytes were looked at */
	uint8_t *out;
	size_t len, cap;
};

int pp_gunzip_stream_new(struct pp_ctx *ctx, const char *name,
                         struct pp_gunzip_stream **out)
{
	struct pp_gunzip_stream *s = pp_calloc(ctx, 1, sizeof(*s));

	*out = NULL;
	if (!s)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	s->ctx = ctx;
	s->name = name;
	/* 16 + MAX_WBITS: gzip framing only. */
	if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
		pp_free(ctx, s);
		return pp_error(ctx, PP_ENOMEM, "%s: cannot start inflate",
		                name);
	}
	s->z_live = 1;
	*out = s;
	return 0;
}

/* Room for 64 KiB more output, doubling, but never past one byte over
 * the cap (which is how going over it shows): memory stays under the cap
 * however much the stream would inflate to. */
static int grow_capped(struct pp_gunzip_stream *s, uint64_t cap)
{
	size_t want = s->cap ? s->cap : 65536;
	uint8_t *p;

	while (want - s->len < 65536 && want <= SIZE_MAX / 2)
		want *= 2;
	if (want > cap + 1)
		want = (size_t)cap + 1;
	if (!(p = pp_realloc(s->ctx, s->out, want)))
		return pp_error(s->ctx, PP_ENOMEM,
		                "%s: out of memory inflating %zu bytes",
		                s->name, want);
	s->out = p;
	s->cap = want;
	return 0;
}

int pp_gunzip_stream_push(struct pp_gunzip_stream *s, const uint8_t *data,
                          size_t len)
{
	uint64_t cap = cap_of(s->ctx);
	int err;

	s->z.next_in = (Bytef *)data;
	while (len > 0 || s->z.avail_in > 0) {
		size_t chunk = len > (1u << 30) ? (1u << 30) : len;
		int zr;

		if (s->z.avail_in == 0) {
			s->z.next_in = (Bytef *)data;
			s->z.avail_in = (uInt)chunk;
			data += chunk;
			len -= chunk;
		}
		if (s->member_done) {
			/* Concatenated gzip members form one stream. */
			if (inflateReset(&s->z) != Z_OK)
				return pp_error(s->ctx, PP_EFORMAT,
				                "%s: corrupt gzip data",
				                s->name);
			s->member_done = 0;
		}
		if (s->cap - s->len < 65536 && s->cap <= cap) {
			if ((err = grow_capped(s, cap)) < 0)
				return err;
		}
		s->z.next_out = s->out + s->len;
		s->z.avail_out = (uInt)((s->cap - s->len) > (1u << 30)
		                                ? (1u << 30)
		                                : (s->cap - s->len));
		{
			uInt before = s->z.avail_out;

			zr = inflate(&s->z, Z_NO_FLUSH);
			s->len += before - s->z.avail_out;
		}
		if (s->len > cap)
			return over_cap(s->ctx, s->name);
		if (!s->sniffed && s->len >= SNIFF_SIZE) {
			s->sniffed = 1;
			if (!pp_decode_could_be_profile(s->out, SNIFF_SIZE))
				return not_profile(s->ctx, s->name);
		}
		if (zr == Z_STREAM_END) {
			s->member_done = 1;
			/* Trailing zero padding after the last member is
			 * tolerated, as gzip(1) does. */
			while (s->z.avail_in > 0 && *s->z.next_in == 0) {
				s->z.next_in++;
				s->z.avail_in--;
			}
			continue;
		}
		if (zr == Z_BUF_ERROR && s->z.avail_in == 0)
			continue;
		if (zr != Z_OK)
			return pp_error(s->ctx, PP_EFORMAT,
			                "%s: corrupt gzip data%s%s", s->name,
			                s->z.msg ? ": " : "",
			                s->z.msg ? s->z.msg : "");
	}
	return 0;
}

int pp_gunzip_stream_finish(struct pp_gunzip_stream *s, struct pp_bytes *out)
{
	if (!s->member_done)
		return pp_error(s->ctx, PP_EFORMAT, "%s: truncated gzip stream",
		                s->name);
	out->data = s->out;
	out->len = s->len;
	s->out = NULL;
	s->len = s->cap = 0;
	return 0;
}

void pp_gunzip_stream_free(struct pp_gunzip_stream *s)
{
	if (!s)
		return;
	if (s->z_live)
		inflateEnd(&s->z);
	pp_free(s->ctx, s->out);
	pp_free(s->ctx, s);
}

/* Run zlib over the buffer: either it succeeds where libdeflate did not, or
 * it says precisely what is wrong. */
static int gunzip_zlib(struct pp_ctx *ctx, const char *name,
                       const uint8_t *data, size_t len, struct pp_bytes *out)
{
	struct pp_gunzip_stream *s;
	int err;

	if ((err = pp_gunzip_stream_new(ctx, name, &s)) < 0)
		return err;
	if ((err = pp_gunzip_stream_push(s, data, len)) >= 0)
		err = pp_gunzip_stream_finish(s, out);
	pp_gunzip_stream_free(s);
	return err;
}

/* Inflate the start of data with zlib (a few microseconds) and refuse
 * what cannot be a profile before libdeflate inflates all of it. */
static int sniff(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                 size_t len)
{
	uint8_t head[SNIFF_SIZE];
	z_stream z;
	int zr;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0; /* the real inflate will say */
	z.next_in = (Bytef *)data;
	z.avail_in = len > (1u << 30) ? (1u << 30) : (uInt)len;
	z.next_out = head;
	z.avail_out = sizeof(head);
	do
		zr = inflate(&z, Z_NO_FLUSH);
	while (zr == Z_OK && z.avail_out > 0 && z.avail_in > 0);
	inflateEnd(&z);
	if (z.avail_out == 0 && !pp_decode_could_be_profile(head, sizeof(head)))
		return not_profile(ctx, name);
	return 0;
}

int pp_source_gunzip(struct pp_ctx *ctx, const char *name, const uint8_t *data,
                     size_t len, struct pp_bytes *out)
{
	uint64_t cap = cap_of(ctx);
	struct libdeflate_decompressor *dec = NULL;
	uint8_t *buf = NULL;
	size_t size = 0, used = 0, in_pos = 0;
	int err = 0;

	out->data = NULL;
	out->len = 0;
	if (len < 18)
		return pp_error(ctx, PP_EFORMAT, "%s: truncated gzip stream",
		                name);
	if ((err = sniff(ctx, name, data, len)) < 0)
		return err;
	dec = libdeflate_alloc_decompressor();
	if (!dec)
		return pp_error(ctx, PP_ENOMEM, "out of memory");
	while (in_pos < len) {
		const uint8_t *member = data + in_pos;
		size_t avail = len - in_pos, in_used = 0, out_used = 0;
		/* The trailer's ISIZE is the member's size mod 2^32: a good
		 * first guess that may lie for huge or hostile input. */
		uint32_t isize = 0;
		size_t guess;
		enum libdeflate_result r;

		if (avail >= 2 && !(member[0] == 0x1f && member[1] == 0x8b)) {
			/* Zero padding after the last member is fine. */
			size_t i = 0;

			while (i < avail && member[i] == 0)
				i++;
			if (i == avail)
				break;
			err = gunzip_zlib(ctx, name, data, len, out);
			goto done;
		}
		if (in_pos == 0 && avail >= 4)
			memcpy(&isize, data + len - 4, 4);
		/* Deflate cannot expand more than ~1032:1, so a larger ISIZE
		 * is a lie (a truncated or hostile file): start small. */
		guess = isize && isize / 1032 <= avail ? isize : avail * 4;
		if (guess < 4096)
			guess = 4096;
		for (;;) {
			if (guess > cap - used)
				guess = (size_t)(cap - used);
			if ((err = pp_grow(ctx, (void **)&buf, &size,
			                   used + guess + 1, 1)) < 0)
				goto done;
			r = libdeflate_gzip_decompress_ex(
			        dec, member, avail, buf + used, size - used,
			        &in_used, &out_used);
			if (r != LIBDEFLATE_INSUFFICIENT_SPACE)
				break;
			if (size - used >= cap - used) {
				err = over_cap(ctx, name);
				goto done;
			}
			guess = (size - used) * 2;
		}
		if (r != LIBDEFLATE_SUCCESS) {
			/* Let zlib name the problem (or read what libdeflate
			 * would not). */
			pp_free(ctx, buf);
			buf = NULL;
			err = gunzip_zlib(ctx, name, data, len, out);
			goto done;
		}
		used += out_used;
		in_pos += in_used;
		if (used > cap) {
			err = over_cap(ctx, name);
			goto done;
		}
	}
	out->data = buf;
	out->len = used;
	buf = NULL;
done:
	pp_free(ctx, buf);
	libdeflate_free_decompressor(dec);
	return err;
}
