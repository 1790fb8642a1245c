/*
 * Inflate a gzip'd profile.proto four ways and time each (issue 16's
 * "decode while the file inflates"):
 *
 *   libdeflate       whole-buffer inflate into one buffer (what pprof-c did)
 *   isal             ISA-L streaming inflate through one reused chunk
 *   libdeflate-walk  libdeflate, then a decoder's walks: one pass over the
 *                    top-level fields, then the sample fields' varints on
 *                    two threads split at the middle sample
 *   isal-walk        ISA-L inflating on one thread into a ring of chunks,
 *                    the same sample walk on the other as chunks arrive
 *
 * The walk stands in for decoding: it reads every top-level field and
 * every varint inside each sample, which is the bulk of the decoder's
 * reading. Prints CPU (user + sys) and wall seconds, the least of --runs.
 *
 *   cc -O2 -o inflate_stream bench/inflate_stream.c -ldeflate -lisal -lpthread
 *   ./inflate_stream --runs 5 bench/data/large.pb.gz
 */
#define _GNU_SOURCE
#include <isa-l/igzip_lib.h>
#include <libdeflate.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define CHUNK (256u << 10)
#define RING 8

static const uint8_t *varint(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (int s = 0; p < end && s < 64; s += 7) {
		uint8_t b = *p++;

		*v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return p;
	}
	return NULL;
}

/* One top-level field at p: its number, its payload, where it ends. NULL
 * when it does not end before end. */
static const uint8_t *field(const uint8_t *p, const uint8_t *end, int *num,
                            const uint8_t **data, size_t *len)
{
	uint64_t tag, v;

	if (!(p = varint(p, end, &tag)))
		return NULL;
	*num = (int)(tag >> 3);
	*data = p;
	*len = 0;
	switch (tag & 7) {
	case 0:
		return varint(p, end, &v);
	case 1:
		return end - p >= 8 ? p + 8 : NULL;
	case 5:
		return end - p >= 4 ? p + 4 : NULL;
	case 2:
		if (!(p = varint(p, end, &v)) || v > (uint64_t)(end - p))
			return NULL;
		*data = p;
		*len = v;
		return p + v;
	}
	return NULL;
}

/* The decoder's reading of one sample: every varint of its fields. */
static uint64_t walk_sample(const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len, *d;
	uint64_t sum = 0, v;
	size_t n;
	int num;

	while (p < end && (p = field(p, end, &num, &d, &n))) {
		const uint8_t *q = d, *qe = d + n;

		while (n && q < qe && (q = varint(q, qe, &v)))
			sum += v;
	}
	return sum;
}

static uint64_t walk_range(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *d;
	uint64_t sum = 0;
	size_t n;
	int num;

	while (p < end && (p = field(p, end, &num, &d, &n)))
		if (num == 2)
			sum += walk_sample(d, n);
	return sum;
}

struct half {
	const uint8_t *p, *end;
	uint64_t sum;
};

static void *half_run(void *arg)
{
	struct half *h = arg;

	h->sum = walk_range(h->p, h->end);
	return NULL;
}

static uint8_t *inflate_libdeflate(const uint8_t *gz, size_t len,
                                   size_t *out_len)
{
	struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
	uint32_t isize;
	uint8_t *out;

	memcpy(&isize, gz + len - 4, 4);
	out = malloc(isize);
	if (libdeflate_gzip_decompress(d, gz, len, out, isize, out_len) !=
	    LIBDEFLATE_SUCCESS) {
		fprintf(stderr, "libdeflate failed\n");
		exit(1);
	}
	libdeflate_free_decompressor(d);
	return out;
}

static uint64_t run_libdeflate(const uint8_t *gz, size_t len, int walk)
{
	size_t n;
	uint8_t *raw = inflate_libdeflate(gz, len, &n);
	const uint8_t *p = raw, *end = raw + n, *mid = NULL, *d;
	uint64_t sum = n, count = 0, fields = 0;
	size_t fl;
	int num;

	if (walk) {
		struct half a, b;
		pthread_t t;

		/* Walk 1: every field once, counting samples. */
		while (p < end && (p = field(p, end, &num, &d, &fl)))
			count += num == 2;
		for (p = raw; p < end && (p = field(p, end, &num, &d, &fl));)
			if (num == 2 && ++fields == count / 2) {
				mid = p;
				break;
			}
		a = (struct half){raw, mid, 0};
		b = (struct half){mid, end, 0};
		pthread_create(&t, NULL, half_run, &b);
		half_run(&a);
		pthread_join(t, NULL);
		sum = a.sum + b.sum;
	}
	free(raw);
	return sum;
}

static uint64_t run_isal(const uint8_t *gz, size_t len)
{
	struct inflate_state s;
	uint8_t *buf = malloc(CHUNK);
	uint64_t total = 0;

	isal_inflate_init(&s);
	s.crc_flag = ISAL_GZIP;
	s.next_in = (uint8_t *)gz;
	s.avail_in = (uint32_t)len;
	while (s.block_state != ISAL_BLOCK_FINISH) {
		s.next_out = buf;
		s.avail_out = CHUNK;
		if (isal_inflate(&s) != ISAL_DECOMP_OK) {
			fprintf(stderr, "isal failed\n");
			exit(1);
		}
		total += CHUNK - s.avail_out;
		if (s.avail_out == CHUNK && s.avail_in == 0)
			break;
	}
	free(buf);
	return total;
}

/* The ring between the inflating thread and the walking one. */
struct ring {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint8_t *chunk[RING];
	size_t len[RING];
	size_t produced, consumed; /* chunk counts */
	int done;
	const uint8_t *gz;
	size_t gz_len;
};

static void *inflater(void *arg)
{
	struct ring *r = arg;
	struct inflate_state s;

	isal_inflate_init(&s);
	s.crc_flag = ISAL_GZIP;
	s.next_in = (uint8_t *)r->gz;
	s.avail_in = (uint32_t)r->gz_len;
	for (;;) {
		size_t slot;

		pthread_mutex_lock(&r->mu);
		while (r->produced - r->consumed == RING)
			pthread_cond_wait(&r->cv, &r->mu);
		slot = r->produced % RING;
		pthread_mutex_unlock(&r->mu);
		s.next_out = r->chunk[slot];
		s.avail_out = CHUNK;
		if (isal_inflate(&s) != ISAL_DECOMP_OK) {
			fprintf(stderr, "isal failed\n");
			exit(1);
		}
		pthread_mutex_lock(&r->mu);
		r->len[slot] = CHUNK - s.avail_out;
		r->produced++;
		if (s.block_state == ISAL_BLOCK_FINISH)
			r->done = 1;
		pthread_cond_broadcast(&r->cv);
		pthread_mutex_unlock(&r->mu);
		if (s.block_state == ISAL_BLOCK_FINISH)
			return NULL;
	}
}

static uint64_t run_isal_walk(const uint8_t *gz, size_t len)
{
	struct ring r = {.gz = gz, .gz_len = len};
	uint8_t *carry = malloc(1 << 20);
	size_t ncarry = 0, cap_carry = 1 << 20;
	uint64_t sum = 0;
	pthread_t t;

	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	for (int i = 0; i < RING; i++)
		r.chunk[i] = malloc(CHUNK);
	pthread_create(&t, NULL, inflater, &r);
	for (;;) {
		const uint8_t *p, *end, *next, *d;
		size_t slot, n, fl;
		int num;

		pthread_mutex_lock(&r.mu);
		while (r.consumed == r.produced && !r.done)
			pthread_cond_wait(&r.cv, &r.mu);
		if (r.consumed == r.produced) {
			pthread_mutex_unlock(&r.mu);
			break;
		}
		slot = r.consumed % RING;
		n = r.len[slot];
		pthread_mutex_unlock(&r.mu);
		p = r.chunk[slot];
		end = p + n;
		/* Finish the field split over the previous chunk. */
		while (ncarry && p < end) {
			size_t take =
			        (size_t)(end - p) < 64 ? (size_t)(end - p) : 64;
			const uint8_t *ce;

			if (ncarry + take > cap_carry)
				carry = realloc(carry, cap_carry *= 2);
			memcpy(carry + ncarry, p, take);
			ce = field(carry, carry + ncarry + take, &num, &d, &fl);
			if (ce) {
				size_t used = (size_t)(ce - carry) - ncarry;

				if (num == 2)
					sum += walk_sample(d, fl);
				p += used;
				ncarry = 0;
			} else {
				ncarry += take;
				p += take;
			}
		}
		while (p < end && (next = field(p, end, &num, &d, &fl))) {
			if (num == 2)
				sum += walk_sample(d, fl);
			p = next;
		}
		if (p < end) {
			if (ncarry + (size_t)(end - p) > cap_carry)
				carry = realloc(carry, cap_carry *= 2);
			memcpy(carry + ncarry, p, (size_t)(end - p));
			ncarry += (size_t)(end - p);
		}
		pthread_mutex_lock(&r.mu);
		r.consumed++;
		pthread_cond_broadcast(&r.cv);
		pthread_mutex_unlock(&r.mu);
	}
	pthread_join(t, NULL);
	for (int i = 0; i < RING; i++)
		free(r.chunk[i]);
	free(carry);
	return sum;
}

static double now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

int main(int argc, char **argv)
{
	const char *modes[] = {"libdeflate", "isal", "libdeflate-walk",
	                       "isal-walk"};
	int runs = 5;
	const char *path = NULL;
	uint8_t *gz;
	size_t len;
	FILE *f;

	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
			runs = atoi(argv[++i]);
		else
			path = argv[i];
	if (!path || !(f = fopen(path, "rb"))) {
		fprintf(stderr, "usage: inflate_stream [--runs N] FILE.gz\n");
		return 2;
	}
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	gz = malloc(len);
	if (fread(gz, 1, len, f) != len)
		return 1;
	fclose(f);
	for (int m = 0; m < 4; m++) {
		double best_cpu = 1e9, best_wall = 1e9;
		uint64_t check = 0;

		for (int i = 0; i < runs; i++) {
			double c0 = cpu(), w0 = now(CLOCK_MONOTONIC), c, w;

			check = m == 0   ? run_libdeflate(gz, len, 0)
			        : m == 1 ? run_isal(gz, len)
			        : m == 2 ? run_libdeflate(gz, len, 1)
			                 : run_isal_walk(gz, len);
			c = cpu() - c0;
			w = now(CLOCK_MONOTONIC) - w0;
			best_cpu = c < best_cpu ? c : best_cpu;
			best_wall = w < best_wall ? w : best_wall;
		}
		printf("%-16s cpu %.3f s  wall %.3f s  (check %llu)\n",
		       modes[m], best_cpu, best_wall,
		       (unsigned long long)check);
	}
	free(gz);
	return 0;
}
