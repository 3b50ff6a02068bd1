// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD fixture for the host tests: makes open() or write() of one
 * file fail with a chosen errno, the way a kernel control file refuses a
 * write (EINVAL) or a read-only file refuses to open (EROFS), even as root.
 *   FAKEFAIL="open|write:PATH_SUFFIX:ERRNO"
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

static int matches(const char *op, const char *path)
{
	const char *rule = getenv("FAKEFAIL");
	char want_op[16], suffix[4096];
	size_t plen, slen;

	if (!rule || !path || sscanf(rule, "%15[^:]:%4095[^:]:", want_op, suffix) != 2)
		return 0;
	plen = strlen(path);
	slen = strlen(suffix);
	return !strcmp(op, want_op) && plen >= slen && !strcmp(path + plen - slen, suffix);
}

static int fake_errno(void)
{
	return atoi(strrchr(getenv("FAKEFAIL"), ':') + 1);
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
		errno = fake_errno();
		return -1;
	}
	return real_open(path, flags, mode);
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real_write)(int, const void *, size_t);
	char link[64], path[4096];
	ssize_t len;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len > 0) {
		path[len] = '\0';
		if (matches("write", path)) {
			errno = fake_errno();
			return -1;
		}
	}
	return real_write(fd, buf, count);
}
