/*
 * Go's text/tabwriter as pprof's `tags` report uses it: padding 1, spaces,
 * cells aligned right. The layout of that report depends on every quirk
 * of it once names hold the characters it interprets, and label values
 * are arbitrary bytes: a tab or newline in a value starts a cell or a
 * line, a 0xff byte (tabwriter.Escape) starts an escaped run that lasts
 * to the next 0xff or the flush, widths count runes (an invalid byte is
 * one) and an escape's two 0xff bytes none. So this follows Go's code
 * step by step rather than laying out the report's two columns by hand.
 * The column blocks are formatted with an explicit stack, not Go's
 * recursion: a hostile value with a million tabs is a million columns.
 */
#include <string.h>

#include "report/internal.h"
#include "util/utf8.h"

#define TW_ESCAPE 0xff

void pp_report__tw_init(struct pp_report__tw *tw, struct pp_ctx *ctx, FILE *out)
{
	memset(tw, 0, sizeof(*tw));
	tw->ctx = ctx;
	tw->out = out;
}

void pp_report__tw_release(struct pp_report__tw *tw)
{
	pp_free(tw->ctx, tw->buf);
	pp_free(tw->ctx, tw->cells);
	pp_free(tw->ctx, tw->line_first);
	pp_free(tw->ctx, tw->widths);
	pp_free(tw->ctx, tw->frames);
	memset(tw, 0, sizeof(*tw));
}

/* Go's reset: no text, one empty line. */
static int tw_reset(struct pp_report__tw *tw)
{
	int err;

	tw->len = tw->pos = 0;
	memset(&tw->cell, 0, sizeof(tw->cell));
	tw->end_char = 0;
	tw->ncells = 0;
	tw->nlines = 0;
	if ((err = pp_grow(tw->ctx, (void **)&tw->line_first, &tw->cap_lines, 1,
	                   sizeof(*tw->line_first))) < 0)
		return err;
	tw->line_first[tw->nlines++] = 0;
	return 0;
}

static int tw_append(struct pp_report__tw *tw, const char *s, size_t n)
{
	int err;

	if (n == 0)
		return 0;
	if ((err = pp_grow(tw->ctx, (void **)&tw->buf, &tw->cap, tw->len + n,
	                   1)) < 0)
		return err;
	memcpy(tw->buf + tw->len, s, n);
	tw->len += n;
	tw->cell.size += n;
	return 0;
}

static void tw_update_width(struct pp_report__tw *tw)
{
	tw->cell.width += (int64_t)pp_utf8_runes(
	        (const unsigned char *)tw->buf + tw->pos, tw->len - tw->pos);
	tw->pos = tw->len;
}

static void tw_end_escape(struct pp_report__tw *tw)
{
	tw_update_width(tw);
	tw->cell.width -= 2; /* the two Escape bytes count for nothing */
	tw->pos = tw->len;
	tw->end_char = 0;
}

/* The cell ends; how many cells its line now has. */
static int tw_terminate_cell(struct pp_report__tw *tw, bool htab, size_t *n)
{
	int err;

	tw->cell.htab = htab;
	if ((err = pp_grow(tw->ctx, (void **)&tw->cells, &tw->cap_cells,
	                   tw->ncells + 1, sizeof(*tw->cells))) < 0)
		return err;
	tw->cells[tw->ncells++] = tw->cell;
	memset(&tw->cell, 0, sizeof(tw->cell));
	*n = tw->ncells - tw->line_first[tw->nlines - 1];
	return 0;
}

static size_t line_cells(const struct pp_report__tw *tw, size_t i)
{
	size_t end = i + 1 < tw->nlines ? tw->line_first[i + 1] : tw->ncells;

	return end - tw->line_first[i];
}

static void tw_pad(struct pp_report__tw *tw, int64_t n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		size_t k = n < 32 ? (size_t)n : 32;

		fwrite(spaces, 1, k, tw->out);
		n -= (int64_t)k;
	}
}

/* Go's writeLines: lines [line0, line1), right-aligned in the columns
 * whose widths are known (the stack's), from buffer position *pos. */
static void tw_write_lines(struct pp_report__tw *tw, size_t *pos, size_t line0,
                           size_t line1, size_t nwidths)
{
	for (size_t i = line0; i < line1; i++) {
		const struct pp_report__tw_cell *c =
		        tw->cells + tw->line_first[i];
		size_t n = line_cells(tw, i);

		for (size_t j = 0; j < n; j++) {
			if (j < nwidths)
				tw_pad(tw, tw->widths[j] - c[j].width);
			if (c[j].size) {
				fwrite(tw->buf + *pos, 1, c[j].size, tw->out);
				*pos += c[j].size;
			}
		}
		if (i + 1 == tw->nlines) {
			/* (No text at all: buf is still NULL.) */
			if (tw->cell.size)
				fwrite(tw->buf + *pos, 1, tw->cell.size,
				       tw->out);
			*pos += tw->cell.size;
		} else {
			fputc('\n', tw->out);
		}
	}
}

/* Go's format(0, 0, nlines), its recursion over column blocks unrolled:
 * frame k formats column k of lines [line0, line1), resuming at line
 * `at`; widths[0..k) are the widths of the columns to its left. */
static int tw_format(struct pp_report__tw *tw)
{
	size_t pos = 0, depth = 1;
	int err;

	if ((err = pp_grow(tw->ctx, (void **)&tw->frames, &tw->cap_frames, 1,
	                   sizeof(*tw->frames))) < 0)
		return err;
	tw->frames[0].line0 = tw->frames[0].at = 0;
	tw->frames[0].line1 = tw->nlines;
	while (depth > 0) {
		struct pp_report__tw_frame *f = &tw->frames[depth - 1];
		size_t column = depth - 1, end;
		int64_t width = 0;

		while (f->at < f->line1 && column + 1 >= line_cells(tw, f->at))
			f->at++;
		if (f->at >= f->line1) {
			tw_write_lines(tw, &pos, f->line0, f->line1, column);
			if (--depth > 0) {
				f = &tw->frames[depth - 1];
				f->line0 = f->at = tw->frames[depth].line1;
			}
			continue;
		}
		/* A column block: the lines from here on that have a cell
		 * in this column (not counting each line's last cell). */
		tw_write_lines(tw, &pos, f->line0, f->at, column);
		f->line0 = f->at;
		for (end = f->at;
		     end < f->line1 && column + 1 < line_cells(tw, end);
		     end++) {
			const struct pp_report__tw_cell *c =
			        &tw->cells[tw->line_first[end] + column];

			if (c->width + 1 > width)
				width = c->width + 1;
		}
		if ((err = pp_grow(tw->ctx, (void **)&tw->widths,
		                   &tw->cap_widths, column + 1,
		                   sizeof(*tw->widths))) < 0 ||
		    (err = pp_grow(tw->ctx, (void **)&tw->frames,
		                   &tw->cap_frames, depth + 1,
		                   sizeof(*tw->frames))) < 0)
			return err;
		f = &tw->frames[depth - 1];
		tw->widths[column] = width;
		tw->frames[depth].line0 = tw->frames[depth].at = f->line0;
		tw->frames[depth].line1 = end;
		depth++;
	}
	return 0;
}

static int tw_flush_lines(struct pp_report__tw *tw)
{
	size_t n;
	int err;

	if (tw->cell.size > 0) {
		if (tw->end_char)
			tw_end_escape(tw);
		if ((err = tw_terminate_cell(tw, false, &n)) < 0)
			return err;
	}
	if ((err = tw_format(tw)) < 0)
		return err;
	return tw_reset(tw);
}

int pp_report__tw_write(struct pp_report__tw *tw, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = 0, cells;
	int err;

	if (tw->nlines == 0 && (err = tw_reset(tw)) < 0)
		return err;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = u[i];

		if (tw->end_char) {
			if (ch == tw->end_char) {
				if ((err = tw_append(tw, s + n, i + 1 - n)) < 0)
					return err;
				n = i + 1;
				tw_end_escape(tw);
			}
			continue;
		}
		if (ch == '\t' || ch == '\v' || ch == '\n' || ch == '\f') {
			if ((err = tw_append(tw, s + n, i - n)) < 0)
				return err;
			tw_update_width(tw);
			n = i + 1;
			if ((err = tw_terminate_cell(tw, ch == '\t', &cells)) <
			    0)
				return err;
			if (ch == '\n' || ch == '\f') {
				if ((err = pp_grow(
				             tw->ctx, (void **)&tw->line_first,
				             &tw->cap_lines, tw->nlines + 1,
				             sizeof(*tw->line_first))) < 0)
					return err;
				tw->line_first[tw->nlines++] = tw->ncells;
				/* A line of one cell aligns nothing after
				 * it: Go flushes there. */
				if ((ch == '\f' || cells == 1) &&
				    (err = tw_flush_lines(tw)) < 0)
					return err;
			}
		} else if (ch == TW_ESCAPE) {
			if ((err = tw_append(tw, s + n, i - n)) < 0)
				return err;
			tw_update_width(tw);
			n = i; /* the Escape byte stays in the text */
			tw->end_char = TW_ESCAPE;
		}
	}
	return tw_append(tw, s + n, len - n);
}

int pp_report__tw_flush(struct pp_report__tw *tw)
{
	int err;

	if (tw->nlines == 0 && (err = tw_reset(tw)) < 0)
		return err;
	return tw_flush_lines(tw);
}
