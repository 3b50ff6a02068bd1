// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for mmioctl's parsers (make stress). Input: one
 * NUL-free string, fed to every parser; each result is checked against
 * what the parser promises. The trace line parser gets the raw bytes,
 * NULs and all, as a line of a trace file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../parse.h"
#include "../trace.h"

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
