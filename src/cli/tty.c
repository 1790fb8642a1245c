#define _GNU_SOURCE 1 /* fopencookie */
#include <stdbool.h>
#include <stdlib.h>
#include <sys/types.h>

#include "tty.h"

struct tty_sink {
	FILE *to;
	bool after_c2; /* the last byte written was 0xc2 (a C1 may follow) */
};

/* Write n bytes escaped; *after_c2 carries a split UTF-8 C1 across
 * calls. */
static void put_escaped(FILE *to, const unsigned char *s, size_t n,
                        bool *after_c2)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (*after_c2) {
			*after_c2 = false;
			if (c >= 0x80 && c <= 0x9f) {
				/* U+0080-U+009F: CSI, OSC and friends. */
				fprintf(to, "\\xc2\\x%02x", c);
				continue;
			}
			fputc(0xc2, to);
		}
		if (c == 0xc2)
			*after_c2 = true;
		else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			fprintf(to, "\\x%02x", c);
		else
			fputc(c, to);
	}
}

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct tty_sink *t = cookie;

	put_escaped(t->to, (const unsigned char *)buf, n, &t->after_c2);
	return ferror(t->to) ? -1 : (ssize_t)n;
}

static int sink_close(void *cookie)
{
	struct tty_sink *t = cookie;
	int err = 0;

	if (t->after_c2)
		fputc(0xc2, t->to);
	if (fflush(t->to) != 0)
		err = EOF;
	free(t);
	return err;
}

FILE *pp_cli_tty_open(FILE *to)
{
	cookie_io_functions_t io = {NULL, sink_write, NULL, sink_close};
	struct tty_sink *t = calloc(1, sizeof(*t));
	FILE *f;

	if (!t)
		return NULL;
	t->to = to;
	if (!(f = fopencookie(t, "w", io)))
		free(t);
	return f;
}

void pp_cli_tty_write(const char *s, size_t n, FILE *to)
{
	bool after_c2 = false;

	put_escaped(to, (const unsigned char *)s, n, &after_c2);
	if (after_c2)
		fputc(0xc2, to);
}

void pp_cli_tty_puts(const char *s, FILE *to)
{
	size_t n = 0;

	while (s[n])
		n++;
	pp_cli_tty_write(s, n, to);
}
