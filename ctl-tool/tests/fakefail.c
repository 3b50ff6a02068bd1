// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD fixture for the host tests: makes open(), read() or write() of
 * one file fail with a chosen errno, the way a kernel control file refuses a
 * write (EINVAL), a read-only file refuses to open (EROFS), even as root,
 * or a signal interrupts a blocking read (EINTR), TIMES times if given.
 *   FAKEFAIL="open|read|write:PATH_SUFFIX:ERRNO[:TIMES]"
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fake_errno;

/* Whether OP on PATH is to fail now; sets fake_errno if so. */
static int matches(const char *op, const char *path)
{
	static int failed;
	const char *rule = getenv("FAKEFAIL");
	char want_op[16], suffix[4096];
	int err, times = -1;
	size_t plen, slen;

	if (!rule || !path ||
	    sscanf(rule, "%15[^:]:%4095[^:]:%d:%d", want_op, suffix, &err, &times) < 3)
		return 0;
	plen = strlen(path);
	slen = strlen(suffix);
	if (strcmp(op, want_op) || plen < slen || strcmp(path + plen - slen, suffix))
		return 0;
	if (times >= 0 && failed >= times)
		return 0;
	failed++;
	fake_errno = err;
	return 1;
}

/* Whether OP on the file behind FD is to fail now. */
static int fd_matches(const char *op, int fd)
{
	char link[64], path[4096];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len <= 0)
		return 0;
	path[len] = '\0';
	return matches(op, path);
}

int open(const char *path, int flags, ...)
{
	static int (*real_open)(const char *, int, ...);
	mode_t mode = 0;
	va_list args;

	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	va_start(args, flags);
	if (flags & O_CREAT)
		mode = va_arg(args, mode_t);
	va_end(args);
	if (matches("open", path)) {
		errno = fake_errno;
		return -1;
	}
	return real_open(path, flags, mode);
}

ssize_t read(int fd, void *buf, size_t count)
{
	static ssize_t (*real_read)(int, void *, size_t);

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (fd_matches("read", fd)) {
		errno = fake_errno;
		return -1;
	}
	return real_read(fd, buf, count);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real_write)(int, const void *, size_t);

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (fd_matches("write", fd)) {
		errno = fake_errno;
		return -1;
	}
	return real_write(fd, buf, count);
}
