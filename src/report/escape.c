/*
 * Text written into XML, DOT and JSON documents, escaped once here.
 * Profile strings are arbitrary bytes, and each of these formats must stay
 * valid whatever they hold: XML and DOT (which graphviz turns into SVG)
 * need valid UTF-8 and allow no C0 control character but tab and newline,
 * so invalid UTF-8 becomes U+FFFD and control characters are written as
 * the text \xNN, as a terminal shows them (tty.c). Runs of plain ASCII go
 * out in one write, so names that need nothing cost no more than fputs.
 */
#include <string.h>

#include "report/internal.h"
#include "util/utf8.h"

/* The length of the run at s that needs no escaping in XML or DOT. */
static size_t plain_run(const unsigned char *s, const char *special)
{
	const unsigned char *p = s;

	while (*p >= 0x20 && *p < 0x7f && !strchr(special, *p))
		p++;
	return (size_t)(p - s);
}

/* Write the non-ASCII or control character at s for XML or DOT and
 * return how many bytes it took (DOT needs the backslash of \xNN
 * escaped). */
static size_t put_other(FILE *out, const unsigned char *s, size_t n, bool dot)
{
	size_t len = pp_utf8_len(s, n);

	if (len == 0) {
		fputs(PP_UTF8_REPLACEMENT, out);
		return 1;
	}
	if (len == 1) {
		fprintf(out, dot ? "\\\\x%02x" : "\\x%02x", *s);
		return 1;
	}
	/* U+FFFE and U+FFFF are no XML characters. */
	if (len == 3 && s[0] == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		fputs(PP_UTF8_REPLACEMENT, out);
	else
		fwrite(s, 1, len, out);
	return len;
}

void pp_report__put_xml(FILE *out, const char *str)
{
	pp_report__put_xml_n(out, str, strlen(str));
}

void pp_report__put_xml_n(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	while (n > 0) {
		size_t run = plain_run(s, "&<>\"'");

		if (run > n)
			run = n;
		if (run) {
			fwrite(s, 1, run, out);
			s += run, n -= run;
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		case '\t':
			fputc('\t', out);
			break;
		case '\n':
		case '\r':
			/* As attribute values normalise them. */
			fputc(' ', out);
			break;
		default: {
			size_t len = put_other(out, s, n, false);

			s += len, n -= len;
			continue;
		}
		}
		s++, n--;
	}
}

/* As Go's html/template escapes text (pprof's HTML pages): its entities
 * for quotes and '+'; tab, newline and carriage return kept; the rest as
 * for XML. */
void pp_report__put_html_n(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	while (n > 0) {
		size_t run = plain_run(s, "&<>\"'+");

		if (run > n)
			run = n;
		if (run) {
			fwrite(s, 1, run, out);
			s += run, n -= run;
			continue;
		}
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&#34;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		case '+':
			fputs("&#43;", out);
			break;
		case '\t':
		case '\n':
		case '\r':
			fputc(*s, out);
			break;
		default: {
			size_t len = put_other(out, s, n, false);

			s += len, n -= len;
			continue;
		}
		}
		s++, n--;
	}
}

/* Does the '&' at s start what graphviz reads as an HTML entity
 * ("&amp;", "&#60;")? */
static bool entity_at(const char *s)
{
	size_t i = 1;

	while (i < 12 &&
	       (s[i] == '#' || (s[i] >= '0' && s[i] <= '9') ||
	        (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
		i++;
	return i > 1 && s[i] == ';';
}

void pp_report__put_dot(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	while (n > 0) {
		size_t run = plain_run(s, "\\\"&");

		if (run > n)
			run = n;
		if (run) {
			fwrite(s, 1, run, out);
			s += run, n -= run;
			continue;
		}
		if (*s == '\\' || *s == '"') {
			fprintf(out, "\\%c", *s);
		} else if (*s == '\n') {
			fputs("\\l", out); /* pprof's escapeForDot */
		} else if (*s == '&') {
			/* graphviz decodes entities in labels: keep the
			 * name's own text. */
			fputs(entity_at((const char *)s) ? "&amp;" : "&", out);
		} else if (*s == '\t') {
			fputc('\t', out);
		} else {
			size_t len = put_other(out, s, n, true);

			s += len, n -= len;
			continue;
		}
		s++, n--;
	}
}

void pp_report__put_lines(FILE *out, const char *const *lines)
{
	for (; *lines; lines++)
		fputs(*lines, out);
}
