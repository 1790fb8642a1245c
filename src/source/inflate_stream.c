/*
 * gzip inflated on a second thread while the calling thread consumes the
 * output (decodes it), so that on two cores reading a profile takes about
 * as long as the longer of the two instead of their sum. ISA-L's igzip
 * inflates in streaming mode at libdeflate's speed (libdeflate cannot
 * stream), and through a small ring of reused chunks its output never
 * faults in fresh pages nor leaves the cache before it is read:
 * bench/RESULTS.md has the figures. Without ISA-L this says "not this
 * way" and the caller inflates the whole buffer with libdeflate.
 */
#include "pprof/source.h"
#include "util/pages.h"

#ifdef PP_HAVE_ISAL

#include <isa-l/igzip_lib.h>
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

/* 256 KiB chunks fit the caches; eight let the inflater run ahead. */
#define CHUNK (256u << 10)
#define NCHUNKS 8
/* How much inflated input is returned to the system at a time: the
 * peak memory of a decode comes at its end, when the rest of the input
 * would still be resident. */
#define RELEASE_EVERY (1u << 20)
/* isal_inflate counts its input in 32 bits. */
#define MAX_FEED (1u << 30)

struct ring {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *chunk[NCHUNKS];
	size_t len[NCHUNKS];
	size_t made, used; /* chunks inflated and consumed, ever */
	size_t in_read;    /* input bytes read when the last chunk was made */
	bool done;         /* the last member ended; nothing follows */
	bool failed;       /* not inflatable here: the caller's inflate says */
	bool stop;         /* the consumer wants no more */
	bool released;     /* input pages were returned to the system */

	/* The inflating thread's alone. */
	struct inflate_state st;
	const uint8_t *in_begin, *in, *in_end;
	const uint8_t *unreleased; /* input from here on is still resident */
	bool release;              /* the input is ours to discard */
	uint64_t out_total, cap;
};

/* Feed the input to isal in pieces its 32-bit counter can hold. */
static void feed(struct ring *r)
{
	size_t left = (size_t)(r->in_end - r->in);
	uint32_t n = left > MAX_FEED ? MAX_FEED : (uint32_t)left;

	r->st.next_in = (uint8_t *)(uintptr_t)r->in;
	r->st.avail_in = n;
	r->in += n;
}

/* Bytes of input not yet handed to isal or not yet read by it. */
static size_t input_left(const struct ring *r)
{
	return (size_t)(r->in_end - r->in) + r->st.avail_in;
}

/*
 * The next member, after a member ended: zero padding after the last one
 * is fine, as gzip(1) and pp_source_gunzip take it. 1: done, 0: another
 * member starts, -1: something else follows.
 */
static int next_member(struct ring *r)
{
	for (;;) {
		while (r->st.avail_in > 0 && r->st.next_in[0] == 0) {
			r->st.next_in++;
			r->st.avail_in--;
		}
		if (r->st.avail_in > 0 || r->in == r->in_end)
			break;
		feed(r);
	}
	if (r->st.avail_in == 0)
		return 1;
	/* A member's magic split over two feeds is left to the caller. */
	if (r->st.avail_in < 2 || r->st.next_in[0] != 0x1f ||
	    r->st.next_in[1] != 0x8b)
		return -1;
	{
		uint8_t *next_in = r->st.next_in;
		uint32_t avail_in = r->st.avail_in;

		isal_inflate_reset(&r->st);
		r->st.crc_flag = ISAL_GZIP;
		r->st.next_in = next_in;
		r->st.avail_in = avail_in;
	}
	return 0;
}

/* Fill one chunk. 1: the stream ended in it, 0: more to come, -1: not
 * inflatable here. */
static int fill(struct ring *r, uint8_t *out, size_t *len)
{
	r->st.next_out = out;
	r->st.avail_out = CHUNK;
	while (r->st.avail_out > 0) {
		uint32_t before_in, before_out;
		int m;

		if (r->st.block_state == ISAL_BLOCK_FINISH) {
			if ((m = next_member(r)) != 0) {
				*len = CHUNK - r->st.avail_out;
				return m;
			}
		}
		if (r->st.avail_in == 0 && r->in < r->in_end)
			feed(r);
		before_in = r->st.avail_in;
		before_out = r->st.avail_out;
		if (isal_inflate(&r->st) < 0)
			return -1;
		/* No progress with all input given: truncated. */
		if (r->st.avail_in == before_in &&
		    r->st.avail_out == before_out &&
		    r->st.block_state != ISAL_BLOCK_FINISH &&
		    input_left(r) == r->st.avail_in)
			return -1;
	}
	*len = CHUNK;
	return 0;
}

static void *inflate_run(void *arg)
{
	struct ring *r = arg;

	for (;;) {
		size_t slot, len = 0;
		int end;

		pthread_mutex_lock(&r->mu);
		while (r->made - r->used == NCHUNKS && !r->stop)
			pthread_cond_wait(&r->cv, &r->mu);
		slot = r->made % NCHUNKS;
		if (r->stop) {
			pthread_mutex_unlock(&r->mu);
			return NULL;
		}
		pthread_mutex_unlock(&r->mu);
		end = fill(r, r->chunk[slot], &len);
		r->out_total += len;
		if (r->release && end == 0 &&
		    (size_t)(r->st.next_in - r->unreleased) >= RELEASE_EVERY) {
			/* isal never reads behind next_in again. */
			pp_pages_release(
			        (void *)(uintptr_t)r->unreleased,
			        (size_t)(r->st.next_in - r->unreleased));
			r->unreleased = r->st.next_in;
			r->released = true;
		}
		if (r->out_total > r->cap)
			end = -1; /* the caller's inflate names the limit */
		pthread_mutex_lock(&r->mu);
		r->in_read = (size_t)(r->in_end - r->in_begin) - input_left(r);
		r->len[slot] = len;
		if (end >= 0)
			r->made++;
		r->done = end > 0;
		r->failed = end < 0;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (end != 0)
			return NULL;
	}
}

/* Hand the chunks to consume as they come. 0: all of them consumed. */
static int consume_all(struct ring *r, struct pp_ctx *ctx, const char *what,
                       size_t in_len,
                       int (*consume)(void *, const uint8_t *, size_t),
                       void *arg)
{
	uint64_t reported = 0, out_bytes = 0;
	size_t in_read;
	int result = 1;

	for (;;) {
		size_t slot, len;
		bool more;

		pthread_mutex_lock(&r->mu);
		while (r->used == r->made && !r->done && !r->failed)
			pthread_cond_wait(&r->cv, &r->mu);
		more = r->used < r->made;
		if (!more)
			result = r->done && !r->failed ? 0 : 1;
		slot = r->used % NCHUNKS;
		len = r->len[slot];
		pthread_mutex_unlock(&r->mu);
		if (!more)
			break;
		if (len > 0 && consume(arg, r->chunk[slot], len) != 0)
			break;
		out_bytes += len;
		pthread_mutex_lock(&r->mu);
		r->used++;
		/* Progress in compressed bytes, the size known ahead. */
		in_read = r->in_read;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (what && ctx->progress &&
		    out_bytes - reported >= (4u << 20)) {
			pp_progress(ctx, what, "bytes", in_read, in_len);
			reported = out_bytes;
		}
	}
	return result;
}

int pp_source_gunzip_each(struct pp_ctx *ctx, const char *what,
                          const uint8_t *data, size_t len, bool release_input,
                          int (*consume)(void *arg, const uint8_t *piece,
                                         size_t n),
                          void *arg)
{
	struct ring *r;
	pthread_t thread;
	int result = 1;

	if (len < 18 || !pp_source_is_gzip(data, len) ||
	    !(r = pp_calloc(ctx, 1, sizeof(*r))))
		return 1;
	for (int i = 0; i < NCHUNKS; i++)
		if (!(r->chunk[i] = pp_malloc(ctx, CHUNK)))
			goto out;
	r->in_begin = r->in = r->unreleased = data;
	r->release = release_input;
	r->in_end = data + len;
	r->cap = ctx->max_size ? ctx->max_size : PP_DEFAULT_MAX_SIZE;
	isal_inflate_init(&r->st);
	r->st.crc_flag = ISAL_GZIP;
	feed(r);
	if (pthread_mutex_init(&r->mu, NULL) != 0)
		goto out;
	if (pthread_cond_init(&r->cv, NULL) != 0) {
		pthread_mutex_destroy(&r->mu);
		goto out;
	}
	if (pthread_create(&thread, NULL, inflate_run, r) == 0) {
		result = consume_all(r, ctx, what, len, consume, arg);
		pthread_mutex_lock(&r->mu);
		r->stop = true;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		pthread_join(thread, NULL);
		if (result != 0 && r->released)
			result = 2;
	}
	pthread_cond_destroy(&r->cv);
	pthread_mutex_destroy(&r->mu);
out:
	for (int i = 0; i < NCHUNKS; i++)
		pp_free(ctx, r->chunk[i]);
	pp_free(ctx, r);
	return result;
}

#else

int pp_source_gunzip_each(struct pp_ctx *ctx, const char *what,
                          const uint8_t *data, size_t len, bool release_input,
                          int (*consume)(void *arg, const uint8_t *piece,
                                         size_t n),
                          void *arg)
{
	(void)ctx;
	(void)what;
	(void)data;
	(void)len;
	(void)release_input;
	(void)consume;
	(void)arg;
	return 1;
}

#endif
