// SPDX-License-Identifier: GPL-2.0
/*
 * rewrite: time what "echo TEXT > FILE" costs the kernel, without the
 * shell: open(O_WRONLY | O_TRUNC), one write(2) of TEXT and a newline,
 * close(), COUNT times; for a control file that commits on release, the
 * close is the commit. For make bench.
 *
 * usage: rewrite COUNT FILE TEXT
 * Prints the median of the COUNT durations in ns; exits 1, naming the
 * file, when any open, write or close fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long long *ns, start;
	char *line, *end;
	size_t len;
	long count, i;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: rewrite COUNT FILE TEXT\n");
		return 2;
	}
	count = strtol(argv[1], &end, 0);
	if (*end || count < 1) {
		fprintf(stderr, "rewrite: bad count '%s'\n", argv[1]);
		return 2;
	}
	len = strlen(argv[3]);
	line = malloc(len + 1);
	ns = calloc(count, sizeof(*ns));
	if (!line || !ns) {
		perror("rewrite");
		return 1;
	}
	memcpy(line, argv[3], len);
	line[len++] = '\n';
	for (i = 0; i < count; i++) {
		start = now_ns();
		fd = open(argv[2], O_WRONLY | O_TRUNC);
		if (fd < 0 || write(fd, line, len) != (ssize_t)len || close(fd)) {
			fprintf(stderr, "rewrite: %s: ", argv[2]);
			perror(NULL);
			return 1;
		}
		ns[i] = now_ns() - start;
	}
	qsort(ns, count, sizeof(*ns), compare);
	printf("%lld\n", ns[count / 2]);
	return 0;
}
