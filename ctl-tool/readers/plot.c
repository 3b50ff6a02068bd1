// SPDX-License-Identifier: GPL-2.0
/*
 * plot [--map FILE[@ADDR]... | --map-dir DIR... | --no-maps] [-o FILE] TRACE|-
 *
 * A static picture of the trace in SVG, for a README or a bug report:
 * registers down the side, the hottest (most accessed) first, time along
 * the bottom from the first access, each read a blue mark and each write
 * an orange one on its register's row, its count of accesses at the end
 * of the row, markers within the accesses' span as grey dashed lines (the
 * first MARKERS_MAX, their text cut to 63 bytes, in a tooltip). Accesses
 * that fall in one pixel column are one mark, and marks in adjacent
 * columns one bar, so a polling loop is a bar and the file stays small
 * whatever the trace's length. At most ROWS_MAX registers are drawn; the
 * picture says how many more there were.
 *
 * The accesses are kept (16 bytes each) until the end, when the time
 * span and the order of the rows are known.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/out.h"
#include "readers/analyze.h"
#include "readers/readers.h"

#define ROWS_MAX	32
#define PLOT_W		720	/* pixel columns of the time axis */
#define LABEL_W		200	/* the register names' margin */
#define ROW_H		18
#define TOP		48	/* title and legend */
#define BOTTOM		44	/* time axis, and the note of registers left out */
#define RIGHT		56	/* each row's count of accesses */
#define MARKERS_MAX	64

struct row {
	struct region *region;
	uint64_t offset;
	char name[96];
	unsigned long long accesses;
};

struct point {
	uint64_t us;
	uint32_t row;
	bool write;
};

struct marker {
	uint64_t us;
	char text[64];
};

struct plot {
	struct session *s;
	struct row *rows;
	size_t nrows, rows_cap;
	struct point *points;
	size_t npoints, points_cap;
	struct marker markers[MARKERS_MAX];
	size_t nmarkers;
	uint64_t first_us, last_us;
};

/* Per region (region->data): offset -> row index + 1. */
static int row_of(struct plot *p, const struct access *a, uint32_t *index)
{
	struct u64map *rows = a->region->data;
	char reg[64];
	struct row *row;
	void *found;

	if (!rows) {
		rows = calloc(1, sizeof(*rows));
		if (!rows)
			return -1;
		a->region->data = rows;
	}
	found = u64map_get(rows, a->offset);
	if (found) {
		*index = (uintptr_t)found - 1;
		return 0;
	}
	row = grow_array(p->rows, &p->rows_cap, p->nrows, sizeof(*p->rows), 64);
	if (!row)
		return -1;
	p->rows = row;
	row += p->nrows;
	row->region = a->region;
	row->offset = a->offset;
	row->accesses = 0;
	access_register_name(a, reg, sizeof(reg));
	snprintf(row->name, sizeof(row->name), "%s %s", a->region->label, reg);
	if (u64map_put(rows, a->offset, (void *)(uintptr_t)(p->nrows + 1)))
		return -1;
	*index = p->nrows++;
	return 0;
}

static int add_point(struct plot *p, const struct access *a)
{
	struct point *points;
	uint32_t row;

	if (row_of(p, a, &row))
		return -1;
	points = grow_array(p->points, &p->points_cap, p->npoints, sizeof(*points), 4096);
	if (!points)
		return -1;
	p->points = points;
	p->points[p->npoints++] = (struct point){ a->t.time_us, row, a->t.type == TRACE_WRITE };
	p->rows[row].accesses++;
	if (p->npoints == 1 || a->t.time_us < p->first_us)
		p->first_us = a->t.time_us;
	if (a->t.time_us > p->last_us)
		p->last_us = a->t.time_us;
	return 0;
}

static int plot_line(void *ctx, const struct trace_line *t, unsigned long long number,
		     const char *text, size_t len)
{
	struct plot *p = ctx;
	struct access a;

	(void)text;
	(void)len;
	if (trace_is_access(t))
		return access_from(p->s, t, number, &a) ? -1 : add_point(p, &a);
	if (t->type == TRACE_MARK && p->nmarkers < MARKERS_MAX) {
		struct marker *m = &p->markers[p->nmarkers++];
		size_t len = utf8_cut(t->text, t->text_len, sizeof(m->text) - 1);

		m->us = t->time_us;
		memcpy(m->text, t->text, len);
		m->text[len] = '\0';
	}
	return regions_update(p->s, t);
}

/* ---- drawing ---- */

/* Rows by accesses, most first; ties in the order the trace met them. */
static int hotter(const void *x, const void *y)
{
	const struct row *a = *(const struct row *const *)x, *b = *(const struct row *const *)y;

	if (a->accesses != b->accesses)
		return a->accesses > b->accesses ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The pixel column of time US, which is within the accesses' span. */
static unsigned int column_of(const struct plot *p, uint64_t us)
{
	uint64_t span = p->last_us - p->first_us;

	if (!span || us <= p->first_us)
		return 0;
	if (us >= p->last_us)
		return PLOT_W - 1;
	return (unsigned int)((double)(us - p->first_us) * (PLOT_W - 1) / span);
}

/* "+250 us", "+1.5 ms", "+2 s": a time from the first access. */
static void format_offset(uint64_t us, char *buf, size_t size)
{
	if (us < 1000)
		snprintf(buf, size, "+%" PRIu64 " us", us);
	else if (us < 1000000)
		snprintf(buf, size, "+%g ms", us / 1000.0);
	else
		snprintf(buf, size, "+%g s", us / 1000000.0);
}

/* Ticks every 1, 2 or 5 times a power of ten, at most 8 across the span. */
static uint64_t tick_step(uint64_t span)
{
	uint64_t step = 1;

	for (;;) {
		if (span / step <= 8)
			return step;
		if (span / (2 * step) <= 8)
			return 2 * step;
		if (span / (5 * step) <= 8)
			return 5 * step;
		step *= 10;
	}
}

static void draw_axis(const struct plot *p, int y)
{
	uint64_t span = p->last_us - p->first_us, step = tick_step(span ? span : 1), us;
	char label[32];

	out_str("<line x1=\"");
	out_int(LABEL_W);
	out_str("\" y1=\"");
	out_int(y);
	out_str("\" x2=\"");
	out_int(LABEL_W + PLOT_W);
	out_str("\" y2=\"");
	out_int(y);
	out_str("\" stroke=\"#444\"/>\n");
	for (us = 0; us <= span; us += step) {
		int x = LABEL_W + column_of(p, p->first_us + us);

		format_offset(us, label, sizeof(label));
		out_str("<line x1=\"");
		out_int(x);
		out_str("\" y1=\"");
		out_int(y);
		out_str("\" x2=\"");
		out_int(x);
		out_str("\" y2=\"");
		out_int(y + 4);
		out_str("\" stroke=\"#444\"/><text x=\"");
		out_int(x);
		out_str("\" y=\"");
		out_int(y + 16);
		out_str("\" text-anchor=\"middle\">");
		out_xml(label, strlen(label));
		out_str("</text>\n");
		if (!span)
			break;
	}
}

/* One row's marks: a rect per run of adjacent occupied columns. */
static void draw_marks(const bool *cols, int y, const char *colour)
{
	unsigned int x = 0, start;

	while (x < PLOT_W) {
		if (!cols[x]) {
			x++;
			continue;
		}
		for (start = x; x < PLOT_W && cols[x]; x++)
			;
		out_str("<rect x=\"");
		out_int(LABEL_W + start);
		out_str("\" y=\"");
		out_int(y);
		out_str("\" width=\"");
		out_int(x - start);
		out_str("\" height=\"6\" fill=\"");
		out_str(colour);
		out_str("\"/>\n");
	}
}

/* Every other row is shaded, for the eye to follow it across. */
static void draw_band(int y)
{
	out_str("<rect x=\"0\" y=\"");
	out_int(y);
	out_str("\" width=\"100%\" height=\"");
	out_int(ROW_H);
	out_str("\" fill=\"#f4f4f4\"/>\n");
}

static void draw_markers(const struct plot *p, int bottom)
{
	size_t i;

	for (i = 0; i < p->nmarkers; i++) {
		int x = LABEL_W + column_of(p, p->markers[i].us);

		/* Before the first access or after the last: not on this axis. */
		if (p->markers[i].us < p->first_us || p->markers[i].us > p->last_us)
			continue;
		out_str("<line x1=\"");
		out_int(x);
		out_str("\" y1=\"");
		out_int(TOP - 6);
		out_str("\" x2=\"");
		out_int(x);
		out_str("\" y2=\"");
		out_int(bottom);
		out_str("\" stroke=\"#999\" stroke-dasharray=\"3,3\"><title>");
		out_xml(p->markers[i].text, strlen(p->markers[i].text));
		out_str("</title></line>\n");
	}
}

static void draw_header(const struct plot *p, const char *name, int width)
{
	char span[32];

	format_offset(p->last_us - p->first_us, span, sizeof(span));
	out_str("<text x=\"8\" y=\"18\" font-weight=\"bold\">");
	out_xml(name, strlen(name));
	out_str("</text>\n<text x=\"8\" y=\"36\">");
	out_dec(p->npoints);
	out_str(p->npoints == 1 ? " access, " : " accesses, ");
	out_dec(p->nrows);
	out_str(p->nrows == 1 ? " register, over " : " registers, over ");
	out_xml(span + 1, strlen(span + 1));
	out_str("</text>\n<rect x=\"");
	out_int(width - 170);
	out_str("\" y=\"8\" width=\"10\" height=\"6\" fill=\"#1f77b4\"/><text x=\"");
	out_int(width - 156);
	out_str("\" y=\"15\">read</text>\n<rect x=\"");
	out_int(width - 100);
	out_str("\" y=\"8\" width=\"10\" height=\"6\" fill=\"#ff7f0e\"/><text x=\"");
	out_int(width - 86);
	out_str("\" y=\"15\">write</text>\n");
}

static int draw(const struct plot *p, const char *name)
{
	size_t shown = p->nrows < ROWS_MAX ? p->nrows : ROWS_MAX, i, r;
	int width = LABEL_W + PLOT_W + RIGHT;
	int height = TOP + (int)shown * ROW_H + BOTTOM + (shown < p->nrows ? 16 : 0);
	const struct row **order = malloc((p->nrows + 1) * sizeof(*order));
	bool *cols = calloc((size_t)shown * 2 * PLOT_W + 1, sizeof(*cols));
	uint32_t *rank = malloc((p->nrows + 1) * sizeof(*rank));

	if (!order || !cols || !rank) {
		free(order);
		free(cols);
		free(rank);
		return -1;
	}
	for (i = 0; i < p->nrows; i++)
		order[i] = &p->rows[i];
	qsort(order, p->nrows, sizeof(*order), hotter);
	for (i = 0; i < p->nrows; i++)
		rank[order[i] - p->rows] = i;
	for (i = 0; i < p->npoints; i++) {
		r = rank[p->points[i].row];
		if (r < shown)
			cols[(r * 2 + p->points[i].write) * PLOT_W + column_of(p, p->points[i].us)] = true;
	}
	out_str("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
	out_int(width);
	out_str("\" height=\"");
	out_int(height);
	out_str("\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
	draw_header(p, name, width);
	for (r = 0; r < shown; r++) {
		int y = TOP + (int)r * ROW_H;

		if (r % 2)
			draw_band(y);
		out_str("<text x=\"");
		out_int(LABEL_W - 8);
		out_str("\" y=\"");
		out_int(y + 13);
		out_str("\" text-anchor=\"end\">");
		out_xml(order[r]->name, strlen(order[r]->name));
		out_str("</text>\n");
		out_str("<text x=\"");
		out_int(width - 4);
		out_str("\" y=\"");
		out_int(y + 13);
		out_str("\" text-anchor=\"end\" fill=\"#666\">");
		out_dec(order[r]->accesses);
		out_str("</text>\n");
		draw_marks(cols + r * 2 * PLOT_W, y + 3, "#1f77b4");
		draw_marks(cols + (r * 2 + 1) * PLOT_W, y + 9, "#ff7f0e");
	}
	draw_markers(p, TOP + (int)shown * ROW_H);
	draw_axis(p, TOP + (int)shown * ROW_H + 4);
	if (shown < p->nrows) {
		unsigned long long left_out = 0;

		for (i = shown; i < p->nrows; i++)
			left_out += order[i]->accesses;
		out_str("<text x=\"8\" y=\"");
		out_int(height - 6);
		out_str("\">and ");
		out_dec(p->nrows - shown);
		out_str(" more registers (");
		out_dec(left_out);
		out_str(" accesses) not drawn</text>\n");
	}
	out_str("</svg>\n");
	free(order);
	free(cols);
	free(rank);
	return 0;
}

static void free_rows(void *data)
{
	u64map_free(data);
	free(data);
}

static void free_plot(struct plot *p)
{
	session_free_region_data(p->s, free_rows);
	free(p->rows);
	free(p->points);
}

/* The trace's file name without its directories, or "standard input". */
static const char *trace_title(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!strcmp(path, "-"))
		return "standard input";
	return slash ? slash + 1 : path;
}

static int write_plot(struct session *s)
{
	struct plot p = { .s = s };
	struct trace_walk w = { plot_line, NULL, NULL, &p, NULL, 0 };
	int ret = walk_trace(s->paths[0], &w);

	if (!ret && !p.npoints) {
		fprintf(stderr, "mmioctl: %s: no access to plot\n", w.name);
		ret = EXIT_REFUSED;
	}
	if (!ret && draw(&p, trace_title(s->paths[0])))
		ret = system_error("malloc");
	out_flush();
	free_plot(&p);
	if (!ret)
		session_note_unused_maps(s, w.name);
	return ret;
}

int cmd_plot(int argc, char **argv)
{
	return session_write_output(argc, argv, OPT_MAP | OPT_OUTPUT, write_plot);
}
