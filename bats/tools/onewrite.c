// SPDX-License-Identifier: GPL-2.0
/*
 * onewrite: write DATA to FILE in exactly one write(2), which shells do not
 * promise; the control files judge each write() as a whole.
 *
 * usage: onewrite [-t] FILE DATA
 *   -t   open with O_TRUNC (as ">"); the default is O_APPEND (as ">>")
 * DATA takes the escapes \n, \t, \0, \\ and \xHH.
 * Prints "onewrite: FILE: strerror" and exits 1 when the write fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t unescape(const char *in, char *out)
{
	size_t len = 0;

	while (*in) {
		if (in[0] != '\\' || !in[1]) {
			out[len++] = *in++;
			continue;
		}
		switch (in[1]) {
		case 'n': out[len++] = '\n'; in += 2; break;
		case 't': out[len++] = '\t'; in += 2; break;
		case '0': out[len++] = '\0'; in += 2; break;
		case 'x':
			if (in[2] && in[3]) {
				char hex[3] = { in[2], in[3], 0 };

				out[len++] = (char)strtoul(hex, NULL, 16);
				in += 4;
				break;
			}
			/* fall through */
		default: out[len++] = in[1]; in += 2; break;
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_APPEND;
	char *data;
	size_t len;
	ssize_t done;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "-t")) {
		flags = O_WRONLY | O_TRUNC;
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: onewrite [-t] FILE DATA\n");
		return 2;
	}
	data = malloc(strlen(argv[2]) + 1);
	if (!data)
		return 1;
	len = unescape(argv[2], data);
	fd = open(argv[1], flags);
	if (fd < 0) {
		fprintf(stderr, "onewrite: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	done = write(fd, data, len);
	if (done < 0) {
		fprintf(stderr, "onewrite: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if ((size_t)done != len) {
		fprintf(stderr, "onewrite: %s: short write %zd of %zu\n", argv[1], done, len);
		return 1;
	}
	if (close(fd)) {
		fprintf(stderr, "onewrite: %s: close: %s\n", argv[1], strerror(errno));
		return 1;
	}
	return 0;
}
