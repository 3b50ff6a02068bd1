// SPDX-License-Identifier: GPL-2.0
/*
 * convert [TRACE|-]
 *
 * The mmiotrace events of an events trace (an instance's trace file, the
 * text of record -e, trace-cmd report) in the stock mmiotrace text format
 * (trace.h), so that decode, stat, diff and every demmio-style parser read
 * it: VERSION, then a line per event in order, each override's MARK line
 * after its access as the tracer writes it (log_override() in
 * kernel/trace/mmiotrace/mmio-tracer.c), markers as MARK lines, lost events as the
 * format's lost-events line. Other events and comments are left out.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "common/out.h"
#include "common/parse.h"
#include "readers/readers.h"
#include "readers/trace.h"

struct converter {
	bool print;			/* false: count only */
	bool events_trace;		/* a line had the shape of a trace event */
	bool other_text;		/* a line had neither it nor a comment's */
	bool stock;			/* the first line is the stock format's VERSION */
	unsigned long long lines;
	/*
	 * The pid of each map id's MAP (the tracer's PID column: a user
	 * mapping's process, 0 for the kernel's), for the lines of its map.
	 */
	uint64_t *map_pids;
	size_t nmap_pids;
	unsigned long long accesses;	/* R, W and UNKNOWN */
	unsigned long long maps;
	unsigned long long events;	/* every mmiotrace event, UNMAP too */
};

static void out_map_id(long id)
{
	if (id < 0)
		out_char('-');
	out_dec(id < 0 ? -(uint64_t)id : (uint64_t)id);
}

static void out_0x(uint64_t v)
{
	out_str(" 0x");
	out_hex(v, 1);
}

/*
 * The MARK line the tracer writes after an access an override changed.
 * The event's own format has no device= (options/fields has): for a mixed
 * read without it, the line says so rather than invent a value.
 */
static void out_override(const struct event_line *e)
{
	out_str("MARK ");
	out_time(e->time_us);
	out_str(e->override == 3 ? " override W " : " override R ");
	out_dec(e->width);
	out_0x(e->phys);
	if (e->override == 1 && e->has_device) {
		out_str(": the device gave 0x");
		out_hex(e->device, 1);
	} else if (e->override == 1) {
		out_str(": mixed, the device's value is not in this trace");
	} else if (e->override == 2) {
		out_str(": the device was not read");
	} else {
		out_str(": the write was dropped");
	}
	out_char('\n');
}

/* Map ids are small numbers that count up: past this, pid 0. */
#define MAP_PIDS_MAX (1 << 20)

/* Keep a MAP's pid for its map id: 0, or -1 out of memory. */
static int keep_map_pid(struct converter *c, const struct event_line *e)
{
	size_t want = e->map_id + 1;
	uint64_t *grown;

	if (e->map_id < 0 || e->map_id >= MAP_PIDS_MAX)
		return 0;
	if (want > c->nmap_pids) {
		grown = realloc(c->map_pids, want * 2 * sizeof(*grown));
		if (!grown)
			return -1;
		memset(grown + c->nmap_pids, 0, (want * 2 - c->nmap_pids) * sizeof(*grown));
		c->map_pids = grown;
		c->nmap_pids = want * 2;
	}
	c->map_pids[e->map_id] = e->pid;
	return 0;
}

/* The PID column of a line of map id @map_id. */
static void out_pid(const struct converter *c, long map_id)
{
	out_char(' ');
	out_dec(map_id >= 0 && (size_t)map_id < c->nmap_pids ? c->map_pids[map_id] : 0);
	out_char('\n');
}

/* R|W width secs.usecs map_id 0xphys 0xvalue 0xpc PID */
static void out_access(const struct converter *c, const struct event_line *e)
{
	out_str(e->type == EVENT_READ ? "R " : "W ");
	out_dec(e->width);
	out_char(' ');
	out_time(e->time_us);
	out_char(' ');
	out_map_id(e->map_id);
	out_0x(e->phys);
	out_0x(e->value);
	out_0x(e->pc);
	out_pid(c, e->map_id);
	if (e->override)
		out_override(e);
}

/* UNKNOWN secs.usecs map_id 0xphys op,op,op 0xpc PID */
static void out_unknown(const struct converter *c, const struct event_line *e)
{
	out_str("UNKNOWN ");
	out_time(e->time_us);
	out_char(' ');
	out_map_id(e->map_id);
	out_0x(e->phys);
	out_char(' ');
	out_hex(e->opcode[0], 2);
	out_char(',');
	out_hex(e->opcode[1], 2);
	out_char(',');
	out_hex(e->opcode[2], 2);
	out_0x(e->pc);
	out_pid(c, e->map_id);
}

/* MAP secs.usecs map_id 0xphys 0xvirt 0xlen 0x0 PID, UNMAP secs.usecs map_id 0x0 PID */
static void out_mapping(const struct converter *c, const struct event_line *e)
{
	out_str(e->type == EVENT_MAP ? "MAP " : "UNMAP ");
	out_time(e->time_us);
	out_char(' ');
	out_map_id(e->map_id);
	if (e->type == EVENT_MAP) {
		out_0x(e->phys);
		out_0x(e->virt);
		out_0x(e->len);
	}
	out_str(" 0x0");
	out_pid(c, e->map_id);
}

/* A marker's text may hold any byte but a newline; the format's MARK none of control. */
static void out_marker(const struct event_line *e)
{
	size_t i;

	out_str("MARK ");
	out_time(e->time_us);
	out_char(' ');
	for (i = 0; i < e->text_len; i++) {
		unsigned char c = e->text[i];

		out_char((c < 0x20 && c != '\t') || c == 0x7f ? '?' : c);
	}
	out_char('\n');
}

/* The format's lost-events line; the kernel may not know how many. */
static void out_lost(uint64_t lost)
{
	if (!lost) {
		out_str("MARK 0.000000 Lost an unknown number of events.\n");
		return;
	}
	out_str("MARK 0.000000 Lost ");
	out_dec(lost);
	out_str(" events.\n");
}

/*
 * Whether LINE has the shape of an event line of any event: a CPU in
 * brackets, then a "secs.usecs:" timestamp, as the tracing core and
 * trace-cmd report print them.
 */
static bool event_shaped(const char *line)
{
	const char *cpu = strstr(line, "] "), *p;
	size_t digits;

	if (!cpu)
		return false;
	for (p = cpu; (p = strchr(p, '.')); p++) {
		digits = strspn(p + 1, "0123456789");
		if (digits == 6 && p[7] == ':' && p > cpu && p[-1] >= '0' && p[-1] <= '9')
			return true;
	}
	return false;
}

/* One line of the events trace (NUL-terminated): 0, or -1 with WHY. */
static int convert_line(struct converter *c, const char *line, char *why)
{
	struct event_line e;
	uint64_t lost;
	int got;

	if (!c->lines++ && !strncmp(line, "VERSION ", 8))
		c->stock = true;
	if (event_shaped(line))
		c->events_trace = true;
	else if (line[strspn(line, " \t")] && line[0] != '#')
		c->other_text = true;

	if (!parse_lost_line(line, &lost)) {
		if (c->print)
			out_lost(lost);
		return 0;
	}
	got = parse_event_line(line, &e, why);
	if (got <= 0)
		return got;
	if (e.type != EVENT_MARK)
		c->events++;
	if (e.type == EVENT_READ || e.type == EVENT_WRITE || e.type == EVENT_UNKNOWN)
		c->accesses++;
	if (e.type == EVENT_MAP) {
		c->maps++;
		if (keep_map_pid(c, &e)) {
			snprintf(why, EVENT_WHY_MAX, "out of memory");
			return -1;
		}
	}
	if (!c->print)
		return 0;
	if (e.type == EVENT_READ || e.type == EVENT_WRITE)
		out_access(c, &e);
	else if (e.type == EVENT_UNKNOWN)
		out_unknown(c, &e);
	else if (e.type == EVENT_MAP || e.type == EVENT_UNMAP)
		out_mapping(c, &e);
	else
		out_marker(&e);
	return 0;
}

/* A line of LEN bytes as a string in BUF (TRACE_LINE_MAX + 1); -1 if it holds a NUL. */
static int line_string(const char *line, size_t len, char *buf, char *why)
{
	if (memchr(line, '\0', len)) {
		snprintf(why, EVENT_WHY_MAX, "NUL in a line");
		return -1;
	}
	memcpy(buf, line, len);
	buf[len] = '\0';
	return 0;
}

int cmd_convert(int argc, char **argv)
{
	const char *path = argc == 2 ? argv[1] : "-";
	struct converter c = { .print = true };
	struct trace_reader r;
	char why[EVENT_WHY_MAX], *copy;
	const char *line;
	size_t len;
	int got, ret = 0;

	if (path[0] == '-' && path[1])
		return usage_error("convert takes a TRACE file or '-', not '%s'", path);
	copy = malloc(TRACE_LINE_MAX + 1);
	if (!copy)
		return system_error("malloc");
	if (trace_open(&r, path)) {
		free(copy);
		return EXIT_REFUSED;
	}
	/* Reading a live trace (trace_pipe | convert -): lines out as they come. */
	r.before_wait = out_push;
	out_str("VERSION 20070824\n");
	while ((got = trace_next(&r, &line, &len)) > 0) {
		if (line_string(line, len, copy, why) || convert_line(&c, copy, why)) {
			out_flush();
			if (trace_left_out(&r, why))
				break;
			trace_error(&r, "%s", why);
			ret = EXIT_REFUSED;
			break;
		}
	}
	if (got < 0)
		ret = EXIT_REFUSED;
	out_flush();
	if (!ret && !c.events_trace && c.other_text) {
		fprintf(stderr, "mmioctl: %s: not an events trace: no line is a trace event%s\n",
			r.name, c.stock ? " (it is in the stock format: decode and stat read it)" : "");
		ret = EXIT_REFUSED;
	}
	trace_close(&r);
	free(copy);
	free(c.map_pids);
	return ret;
}

/*
 * Each line of TEXT (LEN bytes, the whole trace of PATH) through C, TEXT
 * left as it is; 0, or EXIT_REFUSED with the bad line named as
 * trace_error() names it.
 */
static int convert_lines(struct converter *c, const char *text, size_t len, const char *path)
{
	char why[EVENT_WHY_MAX], *copy = malloc(TRACE_LINE_MAX + 1);
	const char *line = text, *end = text + len, *nl;
	unsigned long long number = 0;
	int ret = 0;

	if (!copy)
		return system_error("malloc");
	for (; line < end && !ret; line = nl + 1) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		number++;
		if (nl - line > TRACE_LINE_MAX)
			snprintf(why, sizeof(why), "line longer than %d bytes", TRACE_LINE_MAX);
		if (nl - line > TRACE_LINE_MAX || line_string(line, nl - line, copy, why) ||
		    convert_line(c, copy, why)) {
			fprintf(stderr, "mmioctl: %s:%llu: %s\n", path, number, why);
			ret = EXIT_REFUSED;
		}
	}
	free(copy);
	return ret;
}

/*
 * The events trace TEXT (LEN bytes, read from PATH) in the stock format on
 * standard output with PRINT, or only checked and counted (COUNTS) without;
 * the VERSION line is the caller's. 0, or EXIT_REFUSED with the bad line
 * named.
 */
int convert_text(const char *text, size_t len, const char *path, bool print,
		 struct convert_counts *counts)
{
	struct converter c = { .print = print };
	int ret = convert_lines(&c, text, len, path);

	*counts = (struct convert_counts){ c.accesses, c.maps, c.events };
	free(c.map_pids);
	return ret;
}
