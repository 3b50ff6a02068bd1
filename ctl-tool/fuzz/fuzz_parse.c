// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for mmioctl's parsers (make stress). Input: one
 * NUL-free string, fed to every parser; each result is checked against
 * what the parser promises. The trace line parser gets the raw bytes,
 * NULs and all, as a line of a trace file.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse.h"
#include "readers/trace.h"

/* One line of a trace: accepted with sane fields, or refused with a reason. */
static void check_trace_line(const char *line, size_t len)
{
	char why[TRACE_WHY_MAX] = "";
	struct trace_line t;

	if (trace_parse(line, len, &t, why)) {
		if (!why[0] || strlen(why) >= TRACE_WHY_MAX)
			abort();
		return;
	}
	if (trace_is_access(&t) &&
	    ((t.width != 1 && t.width != 2 && t.width != 4 && t.width != 8) ||
	     (t.width < 8 && t.value >> (t.width * 8))))
		abort();
	if ((t.type == TRACE_MARK || t.type == TRACE_OTHER || t.type == TRACE_COMMENT) &&
	    (t.text < line || t.text + t.text_len > line + len ||
	     memchr(t.text, '\0', t.text_len)))
		abort();
	if (t.type == TRACE_MAP && (!t.len || t.phys + t.len - 1 < t.phys))
		abort();
}

/*
 * An override line: accepted only as a rule the kernel takes, and what
 * format_override() writes for it parses back as the same rule.
 */
static void check_override_line(const char *str)
{
	struct override_rule r, again;
	char line[OVERRIDE_LINE_MAX + 2];
	int len;

	if (parse_override_line(str, &r))
		return;
	if ((r.width != 1 && r.width != 2 && r.width != 4 && r.width != 8) || r.addr % r.width ||
	    (r.width < 8 && (r.value >> (r.width * 8) || r.mask >> (r.width * 8))) ||
	    (r.has_mask && !r.mask) || (!r.has_mask && r.mask) || r.count < -1 ||
	    (r.remove && (r.count != -1 || r.value || r.mask)) || (r.drop && (r.value || r.mask)))
		abort();
	len = format_override(&r, line, sizeof(line));
	if (len <= 0 || len > OVERRIDE_LINE_MAX + 1 || line[len - 1] != '\n' ||
	    parse_override_line(line, &again) || again.addr != r.addr || again.value != r.value ||
	    again.mask != r.mask || again.width != r.width || again.count != r.count ||
	    again.drop != r.drop || again.has_mask != r.has_mask || again.remove != r.remove)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *str = malloc(size + 1), *space, bdf[18];
	uint64_t v, start, len;
	struct pci_bar bar;
	unsigned int n;
	bool on;

	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	check_trace_line(str, size);

	if (!parse_u64(str, &v) && (str[0] < '0' || str[0] > '9'))
		abort();
	if (!parse_size(str, &v) && !v)
		abort();
	if (!parse_bdf(str, bdf, sizeof(bdf)) && (strlen(bdf) < 12 || strlen(bdf) > 17))
		abort();
	if (!parse_bar(str, &n) && n > 5)
		abort();
	if (!parse_bar_address(str, bdf, sizeof(bdf), &n, &v) &&
	    (n > 5 || strlen(bdf) < 12 || strlen(bdf) > 17 || !strchr(str, '+')))
		abort();
	if (!parse_width(str, &n) && n != 1 && n != 2 && n != 4 && n != 8)
		abort();
	{
		int count;

		if (!parse_count(str, &count) && count < 0)
			abort();
	}
	check_override_line(str);
	(void)parse_switch(str, &on);
	(void)parse_resource_line(str, &bar);
	if (!check_marker(str) && (strlen(str) > MARKER_MAX || strchr(str, '\n')))
		abort();
	if (!check_instance_name(str) &&
	    (!*str || strlen(str) > INSTANCE_NAME_MAX || strchr(str, '/') || str[0] == '.' ||
	     str[0] == '-'))
		abort();
	if (classify_event_line(str) < -1 || classify_event_line(str) >= NR_EVENT_TYPES)
		abort();
	{
		uint64_t phys, value = 1, hits;

		if (!parse_hist_entry(str, false, &phys, &value, &hits) && value)
			abort();
		if (!parse_hist_entry(str, true, &phys, &value, &hits) && strncmp(str, "{ phys: ", 8))
			abort();
	}
	{
		unsigned long positive;
		bool remove;

		if (!parse_range_line(str, &remove, &start, &len) && (!len || start + len < start))
			abort();
		if (!parse_positive(str, 1000, &positive) && (!positive || positive > 1000))
			abort();
	}
	space = strchr(str, ' ');
	if (space) {
		*space = '\0';
		if (!parse_range(str, space + 1, &start, &len) && (!len || start + len < start))
			abort();
	}
	free(str);
	return 0;
}
