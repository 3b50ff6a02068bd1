// SPDX-License-Identifier: GPL-2.0
/*
 * rnndb's variants= over a varset: see variants.h. The same ranges as
 * envytools' prepvarinfo(), so that a database means here what it means
 * to envytools' lookup and demmio.
 */
#include "readers/variants.h"

#include <string.h>

/* The index of the LEN-byte NAME among VALUES; -1 (and UNKNOWN) if none. */
static long find_value(const char *name, size_t len, const char *const *values, size_t nvalues,
		       char *unknown, size_t size)
{
	size_t i;

	for (i = 0; i < nvalues; i++)
		if (strlen(values[i]) == len && !strncmp(values[i], name, len))
			return i;
	if (len >= size)
		len = size - 1;
	memcpy(unknown, name, len);
	unknown[len] = '\0';
	return -1;
}

int variants_take(const char *variants, const char *const *values, size_t nvalues,
		  size_t chosen, bool *taken, char *unknown, size_t size)
{
	const char *p = variants;

	*taken = false;
	while (*p) {
		size_t len = strcspn(p, ":- "), end_len;
		long first = 0, end = nvalues;
		const char *second;

		if (*p == ' ') {
			p++;
			continue;
		}
		if (len && (first = find_value(p, len, values, nvalues, unknown, size)) < 0)
			return -1;
		if (p[len] != ':' && p[len] != '-') {
			*taken |= (size_t)first == chosen;
			p += len;
			continue;
		}
		second = p + len + 1;
		end_len = strcspn(second, " ");
		if (end_len) {
			end = find_value(second, end_len, values, nvalues, unknown, size);
			if (end < 0)
				return -1;
			end += p[len] == '-';
		}
		*taken |= chosen >= (size_t)first && chosen < (size_t)end;
		p = second + end_len;
	}
	return 0;
}
