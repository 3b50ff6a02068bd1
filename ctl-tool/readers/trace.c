// SPDX-License-Identifier: GPL-2.0
/*
 * The stock mmiotrace text format, parsed by hand: a trace of a busy driver
 * has millions of lines, and sscanf() would be most of the cost. Every
 * field of a known line type is checked, so that garbage is rejected with
 * a reason rather than decoded into something plausible.
 */
#include "readers/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cursor {
	const char *p, *end;
};

struct token {
	const char *s;
	size_t n;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated token; false at the end of the line. */
static bool next_token(struct cursor *c, struct token *t)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	if (c->p == c->end)
		return false;
	t->s = c->p;
	while (c->p < c->end && !is_blank(*c->p))
		c->p++;
	t->n = c->p - t->s;
	return true;
}

static bool only_blanks_left(struct cursor *c)
{
	while (c->p < c->end && is_blank(*c->p))
		c->p++;
	return c->p == c->end;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 1 to 16 hex digits, no prefix. */
static bool hex_raw(const char *s, size_t n, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (!n || n > 16)
		return false;
	for (i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return false;
		v = v << 4 | d;
	}
	*val = v;
	return true;
}

/* "0x" and 1 to 16 hex digits. */
static bool hex_0x(const struct token *t, uint64_t *val)
{
	return t->n > 2 && t->s[0] == '0' && t->s[1] == 'x' && hex_raw(t->s + 2, t->n - 2, val);
}

static bool decimal(const char *s, size_t n, uint64_t *val)
{
	uint64_t v = 0;
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - (s[i] - '0')) / 10)
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*val = v;
	return true;
}

/* "%u.%06lu": seconds, a dot, exactly six digits of microseconds. */
static bool timestamp(const struct token *t, uint64_t *us)
{
	uint64_t secs, usecs;

	if (t->n < 8 || t->n > 17 || t->s[t->n - 7] != '.')
		return false;
	if (!decimal(t->s, t->n - 7, &secs) || !decimal(t->s + t->n - 6, 6, &usecs))
		return false;
	*us = secs * 1000000 + usecs;
	return true;
}

/* "%d" */
static bool map_id(const struct token *t, long *id)
{
	bool negative = t->n && t->s[0] == '-';
	uint64_t v;

	if (!decimal(t->s + negative, t->n - negative, &v) || v > 0x7fffffff)
		return false;
	*id = negative ? -(long)v : (long)v;
	return true;
}

static bool is_type_char(char c, bool first)
{
	return (c >= 'A' && c <= 'Z') || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

static bool has_control(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (((unsigned char)s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f)
			return true;
	return false;
}

/* WHY: "WHAT 'TOKEN'" with the token cut to fit. */
static int bad(char *why, const char *what, const struct token *t)
{
	if (t && has_control(t->s, t->n))
		snprintf(why, TRACE_WHY_MAX, "control character or NUL in a field");
	else if (t)
		snprintf(why, TRACE_WHY_MAX, "%s '%.*s'", what, (int)(t->n > 40 ? 40 : t->n), t->s);
	else
		snprintf(why, TRACE_WHY_MAX, "%s", what);
	return -1;
}

/* Take N tokens, or say which line type came up short. */
static int tokens(struct cursor *c, struct token *t, int n, const char *type, char *why)
{
	int i;

	for (i = 0; i < n; i++)
		if (!next_token(c, &t[i])) {
			snprintf(why, TRACE_WHY_MAX, "truncated %s line: %d of %d fields", type,
				 i + 1, n + 1);
			return -1;
		}
	if (!only_blanks_left(c)) {
		snprintf(why, TRACE_WHY_MAX, "%s line with more than %d fields", type, n + 1);
		return -1;
	}
	return 0;
}

/* "secs.usecs map_id", the fields every event starts with. */
static int time_and_id(const struct token *f, struct trace_line *t, char *why)
{
	if (!timestamp(&f[0], &t->time_us))
		return bad(why, "malformed timestamp", &f[0]);
	if (!map_id(&f[1], &t->map_id))
		return bad(why, "malformed map id", &f[1]);
	return 0;
}

/* R|W width secs.usecs map_id 0xphys 0xvalue 0xpc pid */
static int parse_access(struct cursor *c, struct trace_line *t, const char *type, char *why)
{
	struct token f[7];
	uint64_t width;

	if (tokens(c, f, 7, type, why))
		return -1;
	if (f[0].n != 1 || !decimal(f[0].s, 1, &width) ||
	    (width != 1 && width != 2 && width != 4 && width != 8))
		return bad(why, "width is not 1, 2, 4 or 8:", &f[0]);
	t->width = width;
	if (time_and_id(&f[1], t, why))
		return -1;
	if (!hex_0x(&f[3], &t->phys))
		return bad(why, "malformed address", &f[3]);
	if (!hex_0x(&f[4], &t->value))
		return bad(why, "malformed value", &f[4]);
	if (width < 8 && t->value >> (width * 8))
		return bad(why, "value wider than the access:", &f[4]);
	if (!hex_0x(&f[5], &t->pc))
		return bad(why, "malformed pc", &f[5]);
	if (!decimal(f[6].s, f[6].n, &t->pid))
		return bad(why, "malformed pid", &f[6]);
	return 0;
}

/* IN|OUT width secs.usecs 0xport 0xvalue 0xpc pid */
static int parse_pio(struct cursor *c, struct trace_line *t, const char *type, char *why)
{
	struct token f[6];
	uint64_t width;

	if (tokens(c, f, 6, type, why))
		return -1;
	if (f[0].n != 1 || !decimal(f[0].s, 1, &width) || (width != 1 && width != 2 && width != 4))
		return bad(why, "width is not 1, 2 or 4:", &f[0]);
	t->width = width;
	t->map_id = -1;
	if (!timestamp(&f[1], &t->time_us))
		return bad(why, "malformed timestamp", &f[1]);
	if (!hex_0x(&f[2], &t->phys) || t->phys > 0xffff)
		return bad(why, "malformed port", &f[2]);
	if (!hex_0x(&f[3], &t->value) || t->value >> (width * 8))
		return bad(why, "malformed value, or wider than the access:", &f[3]);
	if (!hex_0x(&f[4], &t->pc))
		return bad(why, "malformed pc", &f[4]);
	if (!decimal(f[5].s, f[5].n, &t->pid))
		return bad(why, "malformed pid", &f[5]);
	return 0;
}

/* MAP secs.usecs map_id 0xphys 0xvirt 0xlen 0x0 0 */
static int parse_map(struct cursor *c, struct trace_line *t, char *why)
{
	struct token f[7];
	uint64_t zero;

	if (tokens(c, f, 7, "MAP", why))
		return -1;
	if (time_and_id(f, t, why))
		return -1;
	if (!hex_0x(&f[2], &t->phys))
		return bad(why, "malformed address", &f[2]);
	if (!hex_0x(&f[3], &t->virt))
		return bad(why, "malformed virtual address", &f[3]);
	if (!hex_0x(&f[4], &t->len) || !t->len || t->phys + t->len - 1 < t->phys)
		return bad(why, "malformed length", &f[4]);
	if (!hex_0x(&f[5], &zero) || !decimal(f[6].s, f[6].n, &t->pid))
		return bad(why, "malformed last fields", &f[5]);
	return 0;
}

/* UNMAP secs.usecs map_id 0x0 0 */
static int parse_unmap(struct cursor *c, struct trace_line *t, char *why)
{
	struct token f[4];
	uint64_t zero;

	if (tokens(c, f, 4, "UNMAP", why))
		return -1;
	if (time_and_id(f, t, why))
		return -1;
	if (!hex_0x(&f[2], &zero) || !decimal(f[3].s, f[3].n, &t->pid))
		return bad(why, "malformed last fields", &f[2]);
	return 0;
}

/* UNKNOWN secs.usecs map_id 0xphys op1,op2,op3 0xpc 0 */
static int parse_unknown(struct cursor *c, struct trace_line *t, char *why)
{
	struct token f[6];
	uint64_t v;
	int i;

	if (tokens(c, f, 6, "UNKNOWN", why))
		return -1;
	if (time_and_id(f, t, why))
		return -1;
	if (!hex_0x(&f[2], &t->phys))
		return bad(why, "malformed address", &f[2]);
	if (f[3].n != 8 || f[3].s[2] != ',' || f[3].s[5] != ',')
		return bad(why, "malformed opcode bytes", &f[3]);
	for (i = 0; i < 3; i++) {
		if (!hex_raw(f[3].s + 3 * i, 2, &v))
			return bad(why, "malformed opcode bytes", &f[3]);
		t->opcode[i] = v;
	}
	if (!hex_0x(&f[4], &t->pc))
		return bad(why, "malformed pc", &f[4]);
	if (!decimal(f[5].s, f[5].n, &t->pid))
		return bad(why, "malformed pid", &f[5]);
	return 0;
}

/* MARK secs.usecs text, or the lost-events line MARK 0.000000 Lost N events. */
static int parse_mark(struct cursor *c, struct trace_line *t, char *why)
{
	static const char lost[] = "Lost ", events[] = " events.";
	struct token ts;
	const char *text;
	size_t n;

	if (!next_token(c, &ts))
		return bad(why, "truncated MARK line: no timestamp", NULL);
	if (!timestamp(&ts, &t->time_us))
		return bad(why, "malformed timestamp", &ts);
	text = c->p < c->end ? c->p + 1 : c->p;	/* after one blank */
	n = c->end - text;
	if (has_control(text, n))
		return bad(why, "control character in a MARK line", NULL);
	t->text = text;
	t->text_len = n;
	if (t->time_us == 0 && n > sizeof(lost) - 1 + sizeof(events) - 1 &&
	    !memcmp(text, lost, sizeof(lost) - 1) &&
	    !memcmp(text + n - (sizeof(events) - 1), events, sizeof(events) - 1) &&
	    decimal(text + sizeof(lost) - 1, n - (sizeof(lost) - 1) - (sizeof(events) - 1),
		    &t->lost))
		t->type = TRACE_LOST;
	return 0;
}

/* PCIDEV bbdf vvvvdddd irq base0..base6 size0..size6 [driver] */
static int parse_pcidev(struct cursor *c, struct trace_line *t, char *why)
{
	struct trace_pcidev *dev = &t->pcidev;
	struct token f[3 + 2 * PCIDEV_RESOURCES], driver;
	uint64_t v;
	int i;

	for (i = 0; i < 3 + 2 * PCIDEV_RESOURCES; i++)
		if (!next_token(c, &f[i])) {
			snprintf(why, TRACE_WHY_MAX, "truncated PCIDEV line: %d of %d fields",
				 i + 1, 4 + 2 * PCIDEV_RESOURCES);
			return -1;
		}
	if (f[0].n != 4 || !hex_raw(f[0].s, 4, &v))
		return bad(why, "malformed bus and devfn", &f[0]);
	dev->bus = v >> 8;
	dev->devfn = v & 0xff;
	if (f[1].n != 8 || !hex_raw(f[1].s, 8, &v))
		return bad(why, "malformed vendor and device", &f[1]);
	dev->vendor = v >> 16;
	dev->device = v & 0xffff;
	if (!hex_raw(f[2].s, f[2].n, &dev->irq))
		return bad(why, "malformed irq", &f[2]);
	for (i = 0; i < PCIDEV_RESOURCES; i++) {
		if (!hex_raw(f[3 + i].s, f[3 + i].n, &dev->base[i]))
			return bad(why, "malformed base address", &f[3 + i]);
		if (!hex_raw(f[3 + PCIDEV_RESOURCES + i].s, f[3 + PCIDEV_RESOURCES + i].n,
			     &dev->size[i]))
			return bad(why, "malformed size", &f[3 + PCIDEV_RESOURCES + i]);
	}
	dev->driver = "";
	dev->driver_len = 0;
	if (next_token(c, &driver)) {
		if (has_control(driver.s, driver.n))
			return bad(why, "control character in a PCIDEV line", NULL);
		dev->driver = driver.s;
		dev->driver_len = driver.n;
		if (!only_blanks_left(c))
			return bad(why, "PCIDEV line with more than 18 fields", NULL);
	}
	return 0;
}

int trace_parse(const char *line, size_t len, struct trace_line *t, char *why)
{
	struct cursor c = { line, line + len };
	struct token type;
	uint64_t v;
	size_t i;

	t->type = TRACE_BLANK;
	if (!next_token(&c, &type)) {
		if (has_control(line, len))
			return bad(why, "control character in a blank line", NULL);
		return 0;
	}
	/* The hot path: R and W are most of any trace. */
	if (type.n == 1 && (type.s[0] == 'R' || type.s[0] == 'W') && type.s == line) {
		t->type = type.s[0] == 'R' ? TRACE_READ : TRACE_WRITE;
		return parse_access(&c, t, type.s[0] == 'R' ? "R" : "W", why);
	}
	if (line[0] == '#') {
		if (has_control(line, len))
			return bad(why, "control character in a comment", NULL);
		t->type = TRACE_COMMENT;
		t->text = line;
		t->text_len = len;
		return 0;
	}
	if (type.s != line)
		return bad(why, "line starts with a blank", NULL);
	for (i = 0; i < type.n; i++)
		if (!is_type_char(type.s[i], i == 0)) {
			if (has_control(line, len))
				return bad(why, "control character or NUL", NULL);
			return bad(why, "not a trace line: it starts with", &type);
		}
#define IS(name) (type.n == sizeof(name) - 1 && !memcmp(type.s, name, sizeof(name) - 1))
	if (IS("MAP")) {
		t->type = TRACE_MAP;
		return parse_map(&c, t, why);
	}
	if (IS("UNMAP")) {
		t->type = TRACE_UNMAP;
		return parse_unmap(&c, t, why);
	}
	if (IS("MARK")) {
		t->type = TRACE_MARK;
		return parse_mark(&c, t, why);
	}
	if (IS("PCIDEV")) {
		t->type = TRACE_PCIDEV;
		return parse_pcidev(&c, t, why);
	}
	if (IS("UNKNOWN")) {
		t->type = TRACE_UNKNOWN;
		return parse_unknown(&c, t, why);
	}
	if (IS("IN") || IS("OUT")) {
		t->type = IS("IN") ? TRACE_PIO_READ : TRACE_PIO_WRITE;
		return parse_pio(&c, t, IS("IN") ? "IN" : "OUT", why);
	}
	if (IS("VERSION")) {
		struct token f;

		t->type = TRACE_VERSION;
		if (tokens(&c, &f, 1, "VERSION", why))
			return -1;
		if (!decimal(f.s, f.n, &v))
			return bad(why, "malformed version", &f);
		if (v != TRACE_VERSION_STOCK)
			return bad(why, "unsupported trace version (mmioctl reads 20070824):", &f);
		t->version = v;
		return 0;
	}
#undef IS
	if (type.n == 1 && (type.s[0] == 'R' || type.s[0] == 'W'))
		return bad(why, "malformed access line", NULL);
	if (has_control(line, len))
		return bad(why, "control character or NUL", NULL);
	t->type = TRACE_OTHER;
	t->text = line;
	t->text_len = len;
	return 0;
}

int trace_open(struct trace_reader *r, const char *path)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (!strcmp(path, "-")) {
		r->fd = STDIN_FILENO;
		r->name = "standard input";
	} else {
		r->fd = open(path, O_RDONLY);
		r->name = path;
		if (r->fd < 0) {
			fprintf(stderr, "mmioctl: %s: %s\n", path, strerror(errno));
			return 1;
		}
	}
	r->is_file = !fstat(r->fd, &st) && S_ISREG(st.st_mode);
	r->size = 1 << 20;
	r->buf = malloc(r->size);
	if (!r->buf) {
		fprintf(stderr, "mmioctl: %s: %s\n", r->name, strerror(errno));
		trace_close(r);
		return 1;
	}
	return 0;
}

void trace_close(struct trace_reader *r)
{
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	r->fd = -1;
	free(r->buf);
	r->buf = NULL;
}

void trace_error(const struct trace_reader *r, const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "mmioctl: %s:%llu: ", r->name, r->number);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

static int give_line(struct trace_reader *r, char *line, size_t len, const char **out,
		     size_t *out_len)
{
	r->number++;
	if (len > TRACE_LINE_MAX) {
		trace_error(r, "line longer than %d bytes", TRACE_LINE_MAX);
		return -1;
	}
	if (len && line[len - 1] == '\r')
		len--;
	*out = line;
	*out_len = len;
	return 1;
}

bool trace_left_out(const struct trace_reader *r, const char *why)
{
	if (r->cut_short)
		trace_error(r, "%s: the last line, cut short, is left out", why);
	return r->cut_short;
}

int trace_next(struct trace_reader *r, const char **line, size_t *len)
{
	for (;;) {
		char *start = r->buf + r->start;
		char *nl = memchr(start, '\n', r->end - r->start);
		ssize_t got;

		if (nl) {
			r->start = nl + 1 - r->buf;
			return give_line(r, start, nl - start, line, len);
		}
		if (r->eof) {
			size_t rest = r->end - r->start;

			if (!rest)
				return 0;
			r->start = r->end;
			r->cut_short = true;
			return give_line(r, start, rest, line, len);
		}
		if (r->end - r->start > TRACE_LINE_MAX) {
			r->number++;
			trace_error(r, "line longer than %d bytes", TRACE_LINE_MAX);
			return -1;
		}
		if (r->start) {
			memmove(r->buf, start, r->end - r->start);
			r->end -= r->start;
			r->start = 0;
		}
		if (!r->is_file && r->before_wait)
			r->before_wait();
		do
			got = read(r->fd, r->buf + r->end, r->size - r->end);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			fprintf(stderr, "mmioctl: %s: %s\n", r->name, strerror(errno));
			return -1;
		}
		if (!got)
			r->eof = true;
		r->end += got;
	}
}
