// SPDX-License-Identifier: GPL-2.0
/*
 * barmap FILE OFFSET LENGTH [ro] COMMAND...: map LENGTH bytes of FILE (a
 * sysfs resourceN file, /dev/mem or /dev/uioN) at OFFSET, shared, and run
 * the commands on the mapping, as a user-space driver would. Each read
 * prints "rW OFF = VALUE"; the process's id is printed first ("pid PID").
 *
 *   rW OFF          read W (1, 2, 4 or 8) bytes at OFF, one MOV
 *   wW OFF VALUE    write them
 *   fact N          edu's factorial: write N at 0x8, wait for bit 0 of
 *                   0x20 to clear, read 0x8
 *   memcpy OFF LEN  libc memcpy() of LEN bytes from the mapping, then a
 *                   sum of the bytes ("memcpy OFF LEN = SUM")
 *   pte             the page-table dump's lines of the mapping
 *                   ("pte LINE", from /sys/kernel/debug/page_tables)
 *   wait            print "ready", then wait for SIGUSR1
 *   fork            the rest runs in a child too; the parent waits for it
 *                   and prints "child STATUS"
 *   loop OFF        read 4 bytes at OFF forever
 *   poll OFF        read 4 bytes at OFF until SIGUSR1 comes, then print
 *                   "polled N"
 *   spin OFF N      read 4 bytes at OFF N times, print how long it took
 *                   ("spin N NS" nanoseconds)
 *   pin CPU         run on CPU from now on
 *   unmap           munmap() the mapping
 *   exit            exit at once, without munmap()
 *
 * The page after the mapping is left unmapped, so that an access past
 * its end faults. A fault ends the process with its signal, as it would
 * untraced: the tests compare its status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE_TABLES "/sys/kernel/debug/page_tables/current_kernel"

static volatile uint8_t *bar;
static size_t bar_len;

static unsigned long long number(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "barmap: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static uint64_t bar_read(unsigned int width, unsigned long off)
{
	switch (width) {
	case 1:
		return *(volatile uint8_t *)(bar + off);
	case 2:
		return *(volatile uint16_t *)(bar + off);
	case 4:
		return *(volatile uint32_t *)(bar + off);
	case 8:
		return *(volatile uint64_t *)(bar + off);
	}
	fprintf(stderr, "barmap: width %u\n", width);
	exit(2);
}

static void bar_write(unsigned int width, unsigned long off, uint64_t value)
{
	switch (width) {
	case 1:
		*(volatile uint8_t *)(bar + off) = value;
		return;
	case 2:
		*(volatile uint16_t *)(bar + off) = value;
		return;
	case 4:
		*(volatile uint32_t *)(bar + off) = value;
		return;
	case 8:
		*(volatile uint64_t *)(bar + off) = value;
		return;
	}
	fprintf(stderr, "barmap: width %u\n", width);
	exit(2);
}

/* The dump's lines that meet the mapping: "0xSTART-0xEND ... pte". */
static void print_ptes(void)
{
	unsigned long lo = (unsigned long)bar, hi = lo + bar_len;
	unsigned long start, end;
	char line[256];
	FILE *f = fopen(PAGE_TABLES, "r");

	if (!f) {
		perror(PAGE_TABLES);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "0x%lx-0x%lx", &start, &end) != 2)
			continue;
		if (end > lo && start < hi)
			printf("pte %s", line);
	}
	fclose(f);
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen = 1;
}

static void poll_until_usr1(unsigned long off)
{
	unsigned long n = 0;

	usr1_seen = 0;
	signal(SIGUSR1, on_usr1);
	printf("polling\n");
	fflush(stdout);
	while (!usr1_seen) {
		bar_read(4, off);
		n++;
	}
	printf("polled %lu\n", n);
}

static void wait_usr1(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);
	signal(SIGUSR1, on_usr1);
	printf("ready\n");
	fflush(stdout);
	sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(2);
	}
}

static void factorial(uint32_t n)
{
	bar_write(4, 0x8, n);
	while (bar_read(4, 0x20) & 1)
		;
	printf("fact %u = %llu\n", n, (unsigned long long)bar_read(4, 0x8));
}

static void copy_out(unsigned long off, size_t len)
{
	unsigned char buf[4096];
	unsigned long sum = 0;
	size_t i;

	if (len > sizeof(buf))
		len = sizeof(buf);
	memcpy(buf, (const void *)(bar + off), len);
	for (i = 0; i < len; i++)
		sum += buf[i];
	printf("memcpy 0x%lx %zu = %lu\n", off, len, sum);
}

static void spin(unsigned long off, unsigned long n)
{
	struct timespec a, b;
	unsigned long i;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		bar_read(4, off);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("spin %lu %lld\n", n, (b.tv_sec - a.tv_sec) * 1000000000LL +
	       (b.tv_nsec - a.tv_nsec));
}

/* The commands from argv[i] on; returns at the end. */
static void run(char **argv, int i, int argc)
{
	for (; i < argc; i++) {
		const char *c = argv[i];

		fflush(stdout);
		if (c[0] == 'r' && c[1] && !c[2] && i + 1 < argc) {
			unsigned long off = number(argv[++i]);

			printf("%s 0x%lx = 0x%llx\n", c, off,
			       (unsigned long long)bar_read(c[1] - '0', off));
		} else if (c[0] == 'w' && c[1] && !c[2] && i + 2 < argc) {
			unsigned long off = number(argv[++i]);

			bar_write(c[1] - '0', off, number(argv[++i]));
		} else if (!strcmp(c, "fact") && i + 1 < argc) {
			factorial(number(argv[++i]));
		} else if (!strcmp(c, "memcpy") && i + 2 < argc) {
			unsigned long off = number(argv[++i]);

			copy_out(off, number(argv[++i]));
		} else if (!strcmp(c, "pte")) {
			print_ptes();
		} else if (!strcmp(c, "wait")) {
			wait_usr1();
		} else if (!strcmp(c, "fork")) {
			int status;
			pid_t child = fork();

			if (child < 0) {
				perror("fork");
				exit(2);
			}
			if (!child) {
				printf("pid %d\n", getpid());
				continue;
			}
			run(argv, i + 1, argc);
			fflush(stdout);
			waitpid(child, &status, 0);
			printf("child %d\n", status);
			return;
		} else if (!strcmp(c, "loop") && i + 1 < argc) {
			unsigned long off = number(argv[++i]);

			for (;;)
				bar_read(4, off);
		} else if (!strcmp(c, "poll") && i + 1 < argc) {
			poll_until_usr1(number(argv[++i]));
		} else if (!strcmp(c, "spin") && i + 2 < argc) {
			unsigned long off = number(argv[++i]);

			spin(off, number(argv[++i]));
		} else if (!strcmp(c, "pin") && i + 1 < argc) {
			pin(number(argv[++i]));
		} else if (!strcmp(c, "unmap")) {
			munmap((void *)bar, bar_len);
		} else if (!strcmp(c, "exit")) {
			fflush(stdout);
			_exit(0);
		} else {
			fprintf(stderr, "barmap: bad command: %s\n", c);
			exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	int fd, prot = PROT_READ | PROT_WRITE, first = 4;
	off_t offset;

	if (argc < 4) {
		fprintf(stderr, "usage: barmap FILE OFFSET LENGTH [ro] COMMAND...\n");
		return 2;
	}
	offset = number(argv[2]);
	bar_len = number(argv[3]);
	if (argc > 4 && !strcmp(argv[4], "ro")) {
		prot = PROT_READ;
		first = 5;
	}
	fd = open(argv[1], prot & PROT_WRITE ? O_RDWR | O_SYNC : O_RDONLY | O_SYNC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	/* Room for the mapping and a hole after it. */
	bar = mmap(NULL, bar_len + 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bar == MAP_FAILED || munmap((void *)(bar + bar_len), 4096)) {
		perror("mmap");
		return 2;
	}
	bar = mmap((void *)bar, bar_len, prot, MAP_SHARED | MAP_FIXED, fd, offset);
	if (bar == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	close(fd);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("pid %d\n", getpid());
	run(argv, first, argc);
	fflush(stdout);
	return 0;
}
