// SPDX-License-Identifier: GPL-2.0
/*
 * faultbench: the cost of a process's ordinary page faults, for make bench
 * (what every process pays while kmmio looks at each fault).
 *
 * usage: faultbench anon PAGES
 *        faultbench file PATH FAULTS
 * anon: write one byte to each page of a fresh anonymous mapping (a
 * page allocated and zeroed per fault). file: read one byte of every 16th
 * page of PATH, created 16 * PAGES pages long (the page cache holds it),
 * through a fresh MAP_SHARED mapping: a fault per read, which maps the
 * 64 KiB around it (fault-around; the test kernel has no madvise() to turn
 * it off). Prints "NAME FAULTS NS": ns per fault, the mapping and the
 * touching timed, not the unmapping.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int usage(void)
{
	fprintf(stderr, "usage: faultbench anon PAGES | faultbench file PATH FAULTS\n");
	return 2;
}

static long parse_pages(const char *arg)
{
	char *end;
	long pages = strtol(arg, &end, 0);

	return *end || pages <= 0 || pages > (1L << 20) ? -1 : pages;
}

static int anon(long pages, long page)
{
	volatile char *area;
	long long start, elapsed;
	long i;

	start = now_ns();
	area = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		perror("faultbench: mmap");
		return 1;
	}
	for (i = 0; i < pages; i++)
		area[i * page] = 1;
	elapsed = now_ns() - start;
	munmap((void *)area, pages * page);
	printf("anon %ld %lld\n", pages, elapsed / pages);
	return 0;
}

/* PATH, PAGES long, every page of it in the page cache. */
static int cached_file(const char *path, long pages, long page)
{
	char *buf = calloc(1, page);
	long i;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || !buf) {
		perror("faultbench: open");
		return -1;
	}
	for (i = 0; i < pages; i++) {
		memset(buf, (int)i, page);
		if (write(fd, buf, page) != page) {
			perror("faultbench: write");
			close(fd);
			return -1;
		}
	}
	free(buf);
	return fd;
}

#define FAULT_AROUND_PAGES	16

static int file(const char *path, long faults, long page)
{
	long i, sum = 0, len = faults * FAULT_AROUND_PAGES * page;
	long long start, elapsed;
	volatile char *area;
	int fd = cached_file(path, faults * FAULT_AROUND_PAGES, page);

	if (fd < 0)
		return 1;
	start = now_ns();
	area = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (area == MAP_FAILED) {
		perror("faultbench: mmap");
		return 1;
	}
	for (i = 0; i < faults; i++)
		sum += area[i * FAULT_AROUND_PAGES * page];
	elapsed = now_ns() - start;
	munmap((void *)area, len);
	close(fd);
	unlink(path);
	printf("file %ld %lld %ld\n", faults, elapsed / faults, sum & 0xff);
	return 0;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), pages;

	if (argc == 3 && !strcmp(argv[1], "anon")) {
		pages = parse_pages(argv[2]);
		return pages < 0 ? usage() : anon(pages, page);
	}
	if (argc == 4 && !strcmp(argv[1], "file")) {
		pages = parse_pages(argv[3]);
		return pages < 0 ? usage() : file(argv[2], pages, page);
	}
	return usage();
}
