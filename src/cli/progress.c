/* The progress line on a terminal's stderr (cli/progress.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

/* Work shorter than this shows nothing (PPROF_C_PROGRESS_DELAY). */
#define DEFAULT_DELAY 0.5
/* How often the line is redrawn, in nanoseconds. */
#define TICK_NS 100000000L

struct pp_cli_progress {
	int fd;
	double delay;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t thread;
	bool quit;
	bool active;           /* work is going on */
	bool shown;            /* the line is on the screen */
	struct timespec since; /* when the work began */
	char what[256];
	char unit[32];
	uint64_t done, total;
};

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) +
	       (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void put(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void erase(struct pp_cli_progress *p)
{
	if (p->shown)
		put(p->fd, "\r\033[K", 4);
	p->shown = false;
}

/* Copy a name from the profile or the command line for the terminal:
 * control characters (C0, DEL, UTF-8's C1) become '?', so a hostile file
 * name cannot drive the terminal. */
static void copy_shown(char *dst, size_t cap, const char *src)
{
	size_t n = 0;

	for (const unsigned char *s = (const unsigned char *)src;
	     *s && n + 1 < cap; s++) {
		if (*s < 0x20 || *s == 0x7f) {
			dst[n++] = '?';
		} else if (*s == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
			dst[n++] = '?';
			s++;
		} else {
			dst[n++] = (char)*s;
		}
	}
	dst[n] = '\0';
}

static void amount(char *buf, size_t cap, uint64_t v, uint64_t scale)
{
	snprintf(buf, cap, "%.1f", (double)v / (double)scale);
}

static int columns(int fd)
{
	struct winsize ws;

	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 80;
}

static int columns_of(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

/* Draw the line (the lock held). */
static void draw(struct pp_cli_progress *p, double elapsed)
{
	char line[512], count[96] = "", tail[160];
	int width = columns(p->fd) - 1, cols = 0, room;
	const char *what, *ellipsis = "";
	size_t n = 0, len, verb;

	if (strcmp(p->unit, "bytes") == 0) {
		uint64_t big = p->total > p->done ? p->total : p->done;
		uint64_t scale = big >= 1u << 20 ? 1u << 20 : 1u << 10;
		const char *u = scale == 1u << 20 ? "MB" : "kB";
		char a[32], b[32];

		amount(a, sizeof(a), p->done, scale);
		amount(b, sizeof(b), p->total, scale);
		if (p->total)
			snprintf(count, sizeof(count), ": %s/%s %s (%d%%)", a,
			         b, u, (int)(100.0 * p->done / p->total));
		else
			snprintf(count, sizeof(count), ": %s %s", a, u);
	} else if (p->unit[0] && p->total) {
		snprintf(count, sizeof(count), ": %llu/%llu %s (%d%%)",
		         (unsigned long long)p->done,
		         (unsigned long long)p->total, p->unit,
		         (int)(100.0 * p->done / p->total));
	}
	snprintf(tail, sizeof(tail), "%s, %.1f s", count, elapsed);
	/* One terminal line: a wrapped line could not be erased. When it
	 * is too long, the start of the name after the verb gives way (a
	 * path's end names the file); the verb and the figures stay.
	 * Columns are counted as UTF-8 characters. */
	verb = strcspn(p->what, " ");
	verb += p->what[verb] == ' ';
	what = p->what + verb;
	room = width - 9 - (int)verb - columns_of(tail);
	if (room < 8)
		room = 8;
	if (columns_of(what) > room) {
		int drop = columns_of(what) - (room - 3);

		while (*what && drop > 0)
			if (((unsigned char)*++what & 0xc0) != 0x80)
				drop--;
		ellipsis = "...";
	}
	snprintf(line, sizeof(line), "pprof-c: %.*s%s%s%s", (int)verb, p->what,
	         ellipsis, what, tail);
	len = strlen(line);
	for (n = 0; n < len; n++) {
		if (((unsigned char)line[n] & 0xc0) != 0x80 && ++cols > width)
			break;
	}
	put(p->fd, "\r", 1);
	put(p->fd, line, n);
	put(p->fd, "\033[K", 3);
	p->shown = true;
}

static void *ticker(void *arg)
{
	struct pp_cli_progress *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->quit) {
		struct timespec until;
		double elapsed;

		if (!p->active) {
			pthread_cond_wait(&p->wake, &p->lock);
			continue;
		}
		elapsed = seconds_since(&p->since);
		if (elapsed >= p->delay)
			draw(p, elapsed);
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&p->wake, &p->lock, &until);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int pp_cli_progress_new(int fd, struct pp_cli_progress **out)
{
	struct pp_cli_progress *p;
	pthread_condattr_t attr;
	sigset_t all, old;
	const char *env = getenv("PPROF_C_PROGRESS_DELAY");
	int rc;

	*out = NULL;
	if (!isatty(fd))
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return -1;
	p->fd = fd;
	p->delay = DEFAULT_DELAY;
	if (env && *env) {
		char *end;
		double d = strtod(env, &end);

		if (*end == '\0' && d >= 0 && d < 1e6)
			p->delay = d;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &attr);
	pthread_condattr_destroy(&attr);
	/* The thread takes no signal: they stay the main thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&p->thread, NULL, ticker, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&p->wake);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return 0;
	}
	*out = p;
	return 0;
}

void pp_cli_progress_free(struct pp_cli_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = true;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	erase(p);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

void pp_cli_progress_update(void *data, const char *what, const char *unit,
                            uint64_t done, uint64_t total)
{
	struct pp_cli_progress *p = data;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	if (!what) {
		p->active = false;
		erase(p);
		pthread_mutex_unlock(&p->lock);
		return;
	}
	if (!p->active) {
		p->active = true;
		clock_gettime(CLOCK_MONOTONIC, &p->since);
		pthread_cond_signal(&p->wake);
	}
	/* No delay: shown at once, and again at once when the work moves to
	 * another stage, not at the thread's next tick (a stage shorter than
	 * a tick would never be seen). */
	bool again = p->delay == 0 && (!p->shown || strcmp(p->what, what) != 0);

	copy_shown(p->what, sizeof(p->what), what);
	copy_shown(p->unit, sizeof(p->unit), unit ? unit : "");
	p->done = done;
	p->total = total;
	if (again)
		draw(p, seconds_since(&p->since));
	pthread_mutex_unlock(&p->lock);
}

void pp_cli_progress_hold(struct pp_cli_progress *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	erase(p);
}

void pp_cli_progress_release(struct pp_cli_progress *p)
{
	if (!p)
		return;
	fflush(stderr);
	pthread_mutex_unlock(&p->lock);
}
