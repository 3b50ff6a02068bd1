// SPDX-License-Identifier: GPL-2.0
/*
 * onewrite: write DATA to FILE in exactly one write(2), which shells do not
 * promise; the control files judge each write() as a whole.
 *
 * usage: onewrite [-t] [-f N | -m] FILE DATA
 *   -t   open with O_TRUNC (as ">"); the default is O_APPEND (as ">>")
 *   -f N fail the N-th fault-injection site (with failslab: allocation)
 *        that the write() itself reaches, through /proc/self/fail-nth;
 *        exits 3 when the write got through without reaching it
 *   -m   mark the thread for the fault attributes' task-filter
 *        (/proc/thread-self/make-it-fail) during the write() only
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

static int set_fault_file(int fd, const char *value)
{
	ssize_t len = strlen(value);

	return fd < 0 || pwrite(fd, value, len, 0) == len ? 0 : -1;
}

/*
 * FILE (fail-nth or make-it-fail) of this thread, open for writing, or -1
 * after saying why not.
 */
static int open_fault_file(const char *name)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/thread-self/%s", name);
	fd = open(path, O_RDWR);
	if (fd < 0)
		fprintf(stderr, "onewrite: %s: %s\n", path, strerror(errno));
	return fd;
}

/* Whether the armed fault was injected: fail-nth reads back 0 then. */
static int fail_nth_injected(int fd)
{
	char buf[16] = "";

	return pread(fd, buf, sizeof(buf) - 1, 0) > 0 && atoi(buf) == 0;
}

int main(int argc, char **argv)
{
	int flags = O_WRONLY | O_APPEND, fail_fd = -1, mark_fd = -1, injected = 1;
	const char *fail_nth = NULL;
	char *data;
	size_t len;
	ssize_t done;
	int fd, err;

	while (argc > 1 && argv[1][0] == '-' && argv[1][1] && !argv[1][2]) {
		if (argv[1][1] == 't') {
			flags = O_WRONLY | O_TRUNC;
		} else if (argv[1][1] == 'f' && argc > 2) {
			fail_nth = argv[2];
			fail_fd = open_fault_file("fail-nth");
			if (fail_fd < 0)
				return 1;
			argv++;
			argc--;
		} else if (argv[1][1] == 'm') {
			mark_fd = open_fault_file("make-it-fail");
			if (mark_fd < 0)
				return 1;
		} else {
			break;
		}
		argv++;
		argc--;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: onewrite [-t] [-f N | -m] FILE DATA\n");
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
	if (fail_nth && set_fault_file(fail_fd, fail_nth))
		return 1;
	if (set_fault_file(mark_fd, "1"))
		return 1;
	done = write(fd, data, len);
	err = errno;
	if (set_fault_file(mark_fd, "0"))
		return 1;
	if (fail_nth) {
		injected = fail_nth_injected(fail_fd);
		if (set_fault_file(fail_fd, "0"))
			return 1;
	}
	errno = err;
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
	return injected ? 0 : 3;
}
