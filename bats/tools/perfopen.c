// SPDX-License-Identifier: GPL-2.0
/*
 * perfopen ID SECONDS: open a counting perf event of the tracepoint ID
 * for this process, user space only (exclude_kernel), as an unprivileged
 * user may at perf_event_paranoid 2; hold it SECONDS, then close it.
 * Prints "opened" or "refused ERRNO-NAME" (exit 1).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: perfopen TRACEPOINT-ID SECONDS\n");
		return 2;
	}
	attr.config = strtoull(argv[1], NULL, 0);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		printf("refused %s\n", errno_name(errno));
		return 1;
	}
	printf("opened\n");
	fflush(stdout);
	sleep(atoi(argv[2]));
	close(fd);
	return 0;
}
