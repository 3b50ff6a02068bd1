// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for mmioctl's parsers (make stress). Input: one
 * NUL-free string, fed to every parser; each result is checked against
 * what the parser promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../parse.h"

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
