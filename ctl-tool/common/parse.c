// SPDX-License-Identifier: GPL-2.0
#include "common/parse.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int parse_u64(const char *str, uint64_t *val)
{
	const char *digits = str;
	int base = 10;
	uint64_t v = 0;

	if (!isdigit((unsigned char)str[0]))
		return -1;
	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X')) {
		base = 16;
		digits = str + 2;
	} else if (str[0] == '0' && str[1]) {
		return -1;	/* would read as octal */
	}
	if (!*digits)
		return -1;
	for (; *digits; digits++) {
		int d;

		if (isdigit((unsigned char)*digits))
			d = *digits - '0';
		else if (base == 16 && isxdigit((unsigned char)*digits))
			d = tolower((unsigned char)*digits) - 'a' + 10;
		else
			return -1;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*val = v;
	return 0;
}

int parse_size(const char *str, uint64_t *size)
{
	size_t len = strlen(str);
	unsigned int shift = 0;
	char number[64];
	uint64_t v;

	if (!len || len >= sizeof(number))
		return -1;
	memcpy(number, str, len + 1);
	if (len > 1) {
		switch (number[len - 1]) {
		case 'g': case 'G':
			shift = 30;
			break;
		case 'm': case 'M':
			shift = 20;
			break;
		case 'k': case 'K':
			shift = 10;
			break;
		}
		if (shift)
			number[len - 1] = '\0';
	}
	if (parse_u64(number, &v) || !v || v > (UINT64_MAX >> shift))
		return -1;
	*size = v << shift;
	return 0;
}

int parse_range(const char *addr, const char *size, uint64_t *start,
		uint64_t *len)
{
	uint64_t a, s;

	if (parse_u64(addr, &a) || parse_size(size, &s) || s > UINT64_MAX - a)
		return -1;
	*start = a;
	*len = s;
	return 0;
}

int parse_switch(const char *str, bool *on)
{
	if (!strcmp(str, "on"))
		*on = true;
	else if (!strcmp(str, "off"))
		*on = false;
	else
		return -1;
	return 0;
}

int parse_bar(const char *str, unsigned int *bar)
{
	if (str[0] < '0' || str[0] > '5' || str[1])
		return -1;
	*bar = str[0] - '0';
	return 0;
}

/* LEN (1 to MAX_DIGITS) hex digits at STR, at most MAX. */
static int hex_field(const char *str, size_t len, size_t max_digits,
		     unsigned long max, unsigned long *val)
{
	unsigned long v = 0;
	size_t i;

	if (!len || len > max_digits)
		return -1;
	for (i = 0; i < len; i++) {
		if (!isxdigit((unsigned char)str[i]))
			return -1;
		v = v * 16 + (isdigit((unsigned char)str[i]) ? str[i] - '0' :
			      tolower((unsigned char)str[i]) - 'a' + 10);
	}
	if (v > max)
		return -1;
	*val = v;
	return 0;
}

int parse_bdf(const char *str, char *out, size_t out_size)
{
	unsigned long domain = 0, bus = 0, dev, fn;
	const char *dot = strchr(str, '.');
	const char *colon = strchr(str, ':');
	const char *second = colon ? strchr(colon + 1, ':') : NULL;
	const char *device = str;

	if (!dot || strchr(dot + 1, '.') || out_size < 18)
		return -1;
	if (second) {
		if (strchr(second + 1, ':') ||
		    hex_field(str, colon - str, 8, 0xffffffffUL, &domain) ||
		    hex_field(colon + 1, second - colon - 1, 2, 0xff, &bus))
			return -1;
		device = second + 1;
	} else if (colon) {
		if (hex_field(str, colon - str, 2, 0xff, &bus))
			return -1;
		device = colon + 1;
	}
	if (dot < device || hex_field(device, dot - device, 2, 0x1f, &dev) ||
	    hex_field(dot + 1, strlen(dot + 1), 1, 7, &fn))
		return -1;
	snprintf(out, out_size, "%04lx:%02lx:%02lx.%lx", domain, bus, dev, fn);
	return 0;
}

int parse_bar_address(const char *str, char *bdf, size_t bdf_size,
		      unsigned int *bar, uint64_t *offset)
{
	const char *plus = strchr(str, '+'), *colon = NULL, *at;
	char device[32], bar_text[8];
	unsigned int b;
	uint64_t off;

	if (!plus || strchr(plus + 1, '+'))
		return -1;
	for (at = str; at < plus; at++)
		if (*at == ':')
			colon = at;
	if (!colon || colon - str >= (ptrdiff_t)sizeof(device) ||
	    plus - colon - 1 >= (ptrdiff_t)sizeof(bar_text))
		return -1;
	memcpy(device, str, colon - str);
	device[colon - str] = '\0';
	memcpy(bar_text, colon + 1, plus - colon - 1);
	bar_text[plus - colon - 1] = '\0';
	if (parse_bar(bar_text, &b) || parse_u64(plus + 1, &off) ||
	    parse_bdf(device, bdf, bdf_size))
		return -1;
	*bar = b;
	*offset = off;
	return 0;
}

int parse_range_line(const char *line, bool *remove, uint64_t *start,
		     uint64_t *len)
{
	char addr[64], size[64], extra;

	while (isspace((unsigned char)*line))
		line++;
	*remove = *line == '!';
	if (*remove)
		line++;
	if (sscanf(line, "%63s %63s %c", addr, size, &extra) != 2)
		return -1;
	return parse_range(addr, size, start, len);
}

int parse_positive(const char *str, unsigned long max, unsigned long *val)
{
	uint64_t v;

	if (parse_u64(str, &v) || !v || v > max)
		return -1;
	*val = v;
	return 0;
}

int parse_resource_line(const char *line, struct pci_bar *bar)
{
	char start[32], end[32], flags[32], extra;

	if (sscanf(line, "%31s %31s %31s %c", start, end, flags, &extra) != 3)
		return -1;
	if (parse_u64(start, &bar->start) || parse_u64(end, &bar->end) ||
	    parse_u64(flags, &bar->flags))
		return -1;
	return 0;
}

int check_marker(const char *text)
{
	size_t len = strlen(text);

	if (!len || len > MARKER_MAX || strchr(text, '\n'))
		return -1;
	return 0;
}

int check_instance_name(const char *name)
{
	size_t len = strlen(name), i;

	if (!len || len > INSTANCE_NAME_MAX || !(isalnum((unsigned char)name[0]) || name[0] == '_'))
		return -1;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
			return -1;
	return 0;
}

/*
 * The first ": NAME:" of an event in LINE that ends its name: its type,
 * where it is, and its length; -1 if there is none.
 */
static int find_event(const char *line, const char **where, size_t *len)
{
	static const struct {
		const char *pattern;
		enum event_type type;
	} events[] = {
		{ ": mmio_read:", EVENT_READ },
		{ ": mmio_write:", EVENT_WRITE },
		{ ": mmio_map:", EVENT_MAP },
		{ ": mmio_unmap:", EVENT_UNMAP },
		{ ": tracing_mark_write:", EVENT_MARK },
		{ ": print:", EVENT_MARK },
		{ ": mmio_unknown:", EVENT_UNKNOWN },
	};
	const char *first = NULL;
	int type = -1;
	size_t i;

	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		const char *at = line, *end;

		/* The first occurrence that ends the name. */
		while ((at = strstr(at, events[i].pattern))) {
			end = at + strlen(events[i].pattern);
			if (!*end || *end == ' ' || *end == '\n')
				break;
			at++;
		}
		if (at && (!first || at < first)) {
			first = at;
			type = events[i].type;
			*len = strlen(events[i].pattern);
		}
	}
	*where = first;
	return type;
}

int classify_event_line(const char *line)
{
	const char *where;
	size_t len;

	return find_event(line, &where, &len);
}

/* WHY (EVENT_WHY_MAX bytes) from FMT; returns -1. */
static __attribute__((format(printf, 2, 3))) int malformed(char *why, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(why, EVENT_WHY_MAX, fmt, args);
	va_end(args);
	return -1;
}

/* "malformed NAME= field 'VALUE'" for the value at VALUE. */
static int bad_field(char *why, const char *name, const char *value)
{
	return malformed(why, "malformed %s= field '%.*s'", name, (int)strcspn(value, " "), value);
}

/* The timestamp that ends at END: "secs.frac", 1 to 9 digits of fraction. */
static int event_time(const char *line, const char *end, uint64_t *us)
{
	const char *start = end, *dot = NULL, *p;
	uint64_t secs = 0, frac = 0;
	size_t digits;

	while (start > line && start[-1] != ' ')
		start--;
	for (p = start; p < end; p++) {
		if (*p == '.' && !dot)
			dot = p;
		else if (!isdigit((unsigned char)*p))
			return -1;
	}
	digits = dot ? end - dot - 1 : 0;
	if (!dot || dot == start || dot - start > 10 || !digits || digits > 9)
		return -1;
	for (p = start; p < dot; p++)
		secs = secs * 10 + (*p - '0');
	for (p = dot + 1; p < end; p++)
		frac = frac * 10 + (*p - '0');
	for (; digits < 6; digits++)
		frac *= 10;
	for (; digits > 6; digits--)
		frac /= 10;
	*us = secs * 1000000 + frac;
	return 0;
}

/* The value of field NAME in FIELDS, a "NAME=" at the start of a word; NULL if none. */
static const char *field(const char *fields, const char *name)
{
	size_t len = strlen(name);
	const char *at = fields;

	while ((at = strstr(at, name))) {
		if ((at == fields || at[-1] == ' ') && at[len] == '=')
			return at + len + 1;
		at += len;
	}
	return NULL;
}

/* The word at S, up to a blank or the end, into BUF (SIZE bytes); -1 if too long. */
static int word(const char *s, char *buf, size_t size)
{
	size_t len = strcspn(s, " ");

	if (len >= size)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return 0;
}

/*
 * A number as either format prints it: 0x hex (options/fields adds " (N)",
 * which is left alone), decimal with an optional '-' (into *NEGATIVE), or
 * options/fields' "(N)" and "'c'(N)" of a one-byte field.
 */
static int field_number(const char *value, uint64_t *v, bool *negative)
{
	char text[32], *num = text;
	size_t len;

	if (word(value, text, sizeof(text)))
		return -1;
	if (text[0] == '\'') {
		if (strlen(text) < 4 || text[2] != '\'')
			return -1;
		num = text + 3;
	}
	if (num[0] == '(' || num != text) {
		len = strlen(num);
		if (len < 3 || num[0] != '(' || num[len - 1] != ')')
			return -1;
		num[len - 1] = '\0';
		num++;
	}
	*negative = num[0] == '-';
	if (*negative && (num[1] == '0' && num[2]))
		return -1;	/* "-0x..." and "-01" */
	return parse_u64(num + *negative, v);
}

/* Field NAME as a number of up to MAX; *WHY says why not. */
static int field_u64(const char *fields, const char *name, uint64_t max, uint64_t *v, char *why)
{
	const char *value = field(fields, name);
	bool negative;

	if (!value)
		return malformed(why, "no %s= field", name);
	if (field_number(value, v, &negative) || negative || *v > max)
		return bad_field(why, name, value);
	return 0;
}

/*
 * map_id, an int: "-1", or options/fields' "0xffffffff (-1)"; within what
 * the stock format's parser reads back, -0x7fffffff to 0x7fffffff.
 */
static int field_map_id(const char *fields, long *id, char *why)
{
	const char *value = field(fields, "map_id");
	bool negative;
	uint64_t v;

	long id_value;

	if (!value)
		return malformed(why, "no map_id= field");
	if (field_number(value, &v, &negative) || v > 0xffffffffULL)
		return bad_field(why, "map_id", value);
	id_value = negative ? -(long)v : (long)(int32_t)(uint32_t)v;
	if (id_value < -0x7fffffffL || id_value > 0x7fffffffL)
		return bad_field(why, "map_id", value);
	*id = id_value;
	return 0;
}

/* override=: the event format's words, or options/fields' number. */
static int field_override(const char *fields, enum event_type type, struct event_line *e,
			  char *why)
{
	static const char *const words[] = { "none", "mixed", "replaced", "dropped" };
	const char *value = field(fields, "override");
	char text[32];
	uint64_t v;
	bool negative;
	size_t i;

	e->override = 0;
	if (!value)
		return 0;
	for (i = 1; i < 4; i++)
		if (!word(value, text, sizeof(text)) && !strcmp(text, words[i]))
			break;
	if (i < 4)
		e->override = i;
	else if (!field_number(value, &v, &negative) && !negative && v < 4)
		e->override = v;
	else
		return bad_field(why, "override", value);
	/* The kernel overrides reads (mixed, replaced) and drops writes. */
	if ((type == EVENT_READ && e->override == 3) ||
	    (type == EVENT_WRITE && (e->override == 1 || e->override == 2)))
		return malformed(why, "override=%s on a %s", words[e->override],
				 type == EVENT_READ ? "read" : "write");
	/* Only options/fields prints device=; the event's format leaves it out. */
	if (e->override != 1 || !field(fields, "device"))
		return 0;
	e->has_device = true;
	return field_u64(fields, "device", UINT64_MAX, &e->device, why);
}

static int parse_access_fields(const char *fields, enum event_type type,
			       struct event_line *e, char *why)
{
	uint64_t width;

	if (field_u64(fields, "phys", UINT64_MAX, &e->phys, why) ||
	    field_u64(fields, "value", UINT64_MAX, &e->value, why) ||
	    field_u64(fields, "width", 8, &width, why) || field_map_id(fields, &e->map_id, why) ||
	    field_u64(fields, "pc", UINT64_MAX, &e->pc, why) ||
	    field_override(fields, type, e, why))
		return -1;
	if (width != 1 && width != 2 && width != 4 && width != 8)
		return malformed(why, "width %u is not 1, 2, 4 or 8", (unsigned int)width);
	e->width = width;
	if (width < 8 && e->value >> (width * 8))
		return malformed(why, "value 0x%" PRIx64 " wider than %u bytes", e->value, e->width);
	return 0;
}

/* opcode=: "0f,b7,02" as the event prints it, or options/fields' number. */
static int field_opcode(const char *fields, struct event_line *e, char *why)
{
	const char *value = field(fields, "opcode");
	unsigned long byte;
	uint64_t v;
	int i;

	if (value && strcspn(value, " ") == 8 && value[2] == ',' && value[5] == ',') {
		for (i = 0; i < 3; i++) {
			if (hex_field(value + 3 * i, 2, 2, 0xff, &byte))
				break;
			e->opcode[i] = byte;
		}
		if (i == 3)
			return 0;
	}
	if (value && value[0] == '0' && value[1] == 'x' &&
	    !field_u64(fields, "opcode", 0xffffffffULL, &v, why)) {
		for (i = 0; i < 3; i++)
			e->opcode[i] = v >> (16 - 8 * i);
		return 0;
	}
	return value ? bad_field(why, "opcode", value) : malformed(why, "no opcode= field");
}

/* A marker's text: the kernel's after "NAME: ", trace-cmd's print after its blanks. */
static void marker_text(const char *text, bool print, struct event_line *e)
{
	static const char prefix[] = "tracing_mark_write: ";

	if (print) {
		text += strspn(text, " ");
		if (!strncmp(text, prefix, sizeof(prefix) - 1))
			text += sizeof(prefix) - 1;
	} else if (*text == ' ') {
		text++;
	}
	e->text = text;
	e->text_len = strlen(text);
}

int parse_event_line(const char *line, struct event_line *e, char *why)
{
	const char *where, *fields;
	size_t len;
	int type = find_event(line, &where, &len);
	uint64_t v;

	if (type < 0)
		return 0;
	memset(e, 0, sizeof(*e));
	e->type = type;
	if (event_time(line, where, &e->time_us))
		return malformed(why, "no timestamp (secs.usecs) before the event's name");
	fields = where + len;
	if (type == EVENT_MARK) {
		/* where is ": print:" (trace-cmd) or ": tracing_mark_write:" */
		marker_text(fields, where[2] == 'p', e);
		return 1;
	}
	fields += strspn(fields, " ");
	switch (type) {
	case EVENT_READ:
	case EVENT_WRITE:
		return parse_access_fields(fields, type, e, why) ? -1 : 1;
	case EVENT_UNKNOWN:
		return field_u64(fields, "phys", UINT64_MAX, &e->phys, why) ||
		       field_opcode(fields, e, why) || field_map_id(fields, &e->map_id, why) ||
		       field_u64(fields, "pc", UINT64_MAX, &e->pc, why) ? -1 : 1;
	case EVENT_MAP:
		if (field_map_id(fields, &e->map_id, why) ||
		    field_u64(fields, "phys", UINT64_MAX, &e->phys, why) ||
		    field_u64(fields, "virt", UINT64_MAX, &e->virt, why) ||
		    field_u64(fields, "len", UINT64_MAX, &v, why))
			return -1;
		if (!v || e->phys + v - 1 < e->phys)
			return malformed(why, "mapping of 0x%" PRIx64 " bytes at 0x%" PRIx64
					 " is empty or runs past the end of the address space",
					 v, e->phys);
		e->len = v;
		/* A kernel before user mappings were traced has no pid=. */
		if (field(fields, "pid") &&
		    field_u64(fields, "pid", INT32_MAX, &e->pid, why))
			return -1;
		return 1;
	default:	/* EVENT_UNMAP */
		return field_map_id(fields, &e->map_id, why) ? -1 : 1;
	}
}

int parse_lost_line(const char *line, uint64_t *lost)
{
	const char *p = line;
	uint64_t n = 0;

	if (strncmp(p, "CPU:", 4) || !isdigit((unsigned char)p[4]))
		return -1;
	for (p += 4; isdigit((unsigned char)*p); p++)
		;
	if (!strcmp(p, " [LOST EVENTS]")) {
		*lost = 0;
		return 0;
	}
	if (strncmp(p, " [LOST ", 7))
		return -1;
	for (p += 7; isdigit((unsigned char)*p); p++) {
		if (n > (UINT64_MAX - (*p - '0')) / 10)
			return -1;
		n = n * 10 + (*p - '0');
	}
	if (strcmp(p, " EVENTS]") || p[-1] == ' ')
		return -1;
	*lost = n;
	return 0;
}

int format_boot_size(uint64_t size, char *buf, size_t buf_size)
{
	static const struct {
		unsigned int shift;
		char suffix;
	} units[] = { { 30, 'G' }, { 20, 'M' }, { 10, 'k' } };
	size_t i;

	for (i = 0; i < 3; i++)
		if (size && !(size & ((1ULL << units[i].shift) - 1)))
			return snprintf(buf, buf_size, "%" PRIu64 "%c", size >> units[i].shift,
					units[i].suffix);
	return snprintf(buf, buf_size, "%" PRIu64, size);
}

int check_flight_name(const char *name)
{
	if (check_instance_name(name))
		return -1;
	if (strlen(name) > FLIGHT_NAME_MAX)
		return -2;
	if (isdigit((unsigned char)name[0]))
		return -3;
	return 0;
}

/* Hex digits (1 to 16, as %llx prints) at *S, then past them. */
static int hex_key(const char **s, uint64_t *val)
{
	uint64_t v = 0;
	size_t n = 0;

	for (; isxdigit((unsigned char)**s); (*s)++, n++)
		v = v << 4 | (uint64_t)(isdigit((unsigned char)**s) ? **s - '0' :
					tolower((unsigned char)**s) - 'a' + 10);
	if (!n || n > 16)
		return -1;
	*val = v;
	return 0;
}

static int skip(const char **s, const char *literal)
{
	size_t len = strlen(literal);

	if (strncmp(*s, literal, len))
		return -1;
	*s += len;
	return 0;
}

int parse_hist_entry(const char *line, bool with_value, uint64_t *phys,
		     uint64_t *value, uint64_t *hits)
{
	uint64_t p, v = 0, h = 0;
	const char *s = line;
	size_t n = 0;

	if (skip(&s, "{ phys: ") || hex_key(&s, &p))
		return -1;
	if (with_value && (skip(&s, ", value: ") || hex_key(&s, &v)))
		return -1;
	if (skip(&s, " } hitcount: "))
		return -1;
	while (*s == ' ')
		s++;
	for (; isdigit((unsigned char)*s); s++, n++) {
		if (h > (UINT64_MAX - (*s - '0')) / 10)
			return -1;
		h = h * 10 + (*s - '0');
	}
	if (!n || (*s && strcmp(s, "\n")))
		return -1;
	*phys = p;
	*value = v;
	*hits = h;
	return 0;
}

int parse_width(const char *str, unsigned int *width)
{
	uint64_t v;

	if (parse_u64(str, &v) || (v != 1 && v != 2 && v != 4 && v != 8))
		return -1;
	*width = v;
	return 0;
}

int parse_count(const char *str, int *count)
{
	uint64_t v;

	if (parse_u64(str, &v) || v > INT_MAX)
		return -1;
	*count = v;
	return 0;
}

static bool fits_width(uint64_t v, unsigned int width)
{
	return width >= 8 || !(v >> (width * 8));
}

enum override_problem check_override(const struct override_rule *rule)
{
	if (rule->addr % rule->width)
		return OVERRIDE_UNALIGNED;
	if (rule->source == SOURCE_VALUE && !fits_width(rule->value, rule->width))
		return OVERRIDE_VALUE_WIDE;
	if (rule->has_mask && !rule->mask)
		return OVERRIDE_MASK_ZERO;
	if (!fits_width(rule->mask, rule->width))
		return OVERRIDE_MASK_WIDE;
	return OVERRIDE_OK;
}

int parse_override_line(const char *line, struct override_rule *rule)
{
	struct override_rule r = { .count = -1 };
	char copy[OVERRIDE_LINE_MAX + 2], *word[10], *save;
	size_t len = strcspn(line, "\n");
	int n = 0, i;

	if (len > OVERRIDE_LINE_MAX || (line[len] && line[len + 1]))
		return -1;
	memcpy(copy, line, len);
	copy[len] = '\0';
	for (word[n] = strtok_r(copy, " \t", &save); word[n]; word[n] = strtok_r(NULL, " \t", &save))
		if (++n == 10)
			return -1;
	if (n && word[0][0] == '!') {
		r.remove = true;
		word[0]++;
	}
	if (n < 3 || parse_u64(word[0], &r.addr) || parse_width(word[1], &r.width))
		return -1;
	i = 3;
	if (!strcmp(word[2], "drop")) {
		r.drop = true;
	} else if (!strcmp(word[2], "=")) {
		/* VALUE|feed|random SEED [MASK]: only a removal may leave VALUE out. */
		if (i < n && strcmp(word[i], "count")) {
			if (!strcmp(word[i], "feed")) {
				r.source = SOURCE_FEED;
				i++;
			} else if (!strcmp(word[i], "random")) {
				/* A removal names only the kind: no SEED needed. */
				r.source = SOURCE_RANDOM;
				if (++i == n ? !r.remove : parse_u64(word[i++], &r.value))
					return -1;
			} else if (parse_u64(word[i++], &r.value)) {
				return -1;
			}
			if (i < n && strcmp(word[i], "count")) {
				if (parse_u64(word[i++], &r.mask))
					return -1;
				r.has_mask = true;
			}
		} else if (!r.remove) {
			return -1;
		}
	} else {
		return -1;
	}
	if (i < n && !strcmp(word[i], "count")) {
		if (r.remove || i + 1 >= n || parse_count(word[i + 1], &r.count))
			return -1;
		i += 2;
	}
	if (i != n || check_override(&r))
		return -1;
	if (r.remove) {
		r.value = r.mask = 0;
		r.has_mask = false;
		r.source = SOURCE_VALUE;
	}
	*rule = r;
	return 0;
}

int format_override(const struct override_rule *rule, char *buf, size_t size)
{
	char mask[32] = "", count[32] = "";
	int len;

	if (rule->remove) {
		len = snprintf(buf, size, "!0x%" PRIx64 " %u %s\n", rule->addr, rule->width,
			       rule->drop ? "drop" : "=");
		return len < 0 || (size_t)len >= size ? -1 : len;
	}
	if (rule->has_mask && !rule->drop)
		snprintf(mask, sizeof(mask), " 0x%" PRIx64, rule->mask);
	if (rule->count >= 0)
		snprintf(count, sizeof(count), " count %d", rule->count);
	if (rule->drop)
		len = snprintf(buf, size, "0x%" PRIx64 " %u drop%s\n", rule->addr, rule->width,
			       count);
	else if (rule->source == SOURCE_FEED)
		len = snprintf(buf, size, "0x%" PRIx64 " %u = feed%s%s\n", rule->addr,
			       rule->width, mask, count);
	else
		len = snprintf(buf, size, "0x%" PRIx64 " %u = %s0x%" PRIx64 "%s%s\n", rule->addr,
			       rule->width, rule->source == SOURCE_RANDOM ? "random " : "",
			       rule->value, mask, count);
	return len < 0 || (size_t)len >= size ? -1 : len;
}
