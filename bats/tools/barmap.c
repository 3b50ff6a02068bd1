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
 *   tick OFF US     as poll, sleeping US microseconds between reads
 *   spin OFF N      read 4 bytes at OFF N times, print how long it took
 *                   ("spin N NS" nanoseconds)
 *   pin CPU         run on CPU from now on
 *   unmap           munmap() the mapping
 *   protect r|rw|none  mprotect() the mapping
 *   exit            exit at once, without munmap()
 *   step OFF        single-step (the trap flag, as a debugger's stepi)
 *                   over one 4-byte read at OFF and three NOPs; prints
 *                   the value and where each trap stopped, named after
 *                   the next instruction ("step OFF = V traps nop1 nop2
 *                   nop3 end")
 *   hwbp OFF        a hardware instruction breakpoint on the instruction
 *                   after a 4-byte read at OFF ("hwbp OFF = V hits N")
 *   watch OFF RW    a hardware data breakpoint on the 4 bytes at OFF, for
 *                   writes (RW "w") or reads and writes ("rw"), around a
 *                   4-byte read and a 4-byte write of what it read
 *                   ("watch OFF RW = V hits N")
 *   xol OFF         a 4-byte read at OFF followed by a RIP-relative load
 *                   and a call: what a uprobe on the read must leave
 *                   working ("xol OFF = V riprel 0xc0ffee01 called 1")
 *   xol-offset      the file offset of that read, for uprobe_events
 *
 * The page after the mapping is left unmapped, so that an access past
 * its end faults. A fault ends the process with its signal, as it would
 * untraced: the tests compare its status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <ucontext.h>
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

/* Read 4 bytes at @off until SIGUSR1, sleeping @pause_us between reads. */
static void poll_until_usr1(unsigned long off, unsigned long pause_us)
{
	unsigned long n = 0;

	usr1_seen = 0;
	signal(SIGUSR1, on_usr1);
	printf("polling\n");
	fflush(stdout);
	while (!usr1_seen) {
		bar_read(4, off);
		n++;
		if (pause_us)
			usleep(pause_us);
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

/* mprotect() the whole mapping: "r", "rw" or "none". */
static void protect(const char *how)
{
	int prot = !strcmp(how, "r") ? PROT_READ :
		   !strcmp(how, "rw") ? PROT_READ | PROT_WRITE : PROT_NONE;

	if (mprotect((void *)bar, bar_len, prot)) {
		perror("mprotect");
		exit(1);
	}
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

/*
 * The instructions a debugger steps over: the trap flag set by POPF traps
 * after the instruction that follows, the 4-byte read at %rdi; then after
 * each NOP. Each label names the instruction a trap stops before.
 */
uint32_t stepped_read(volatile void *addr);
extern const char step_nop1[], step_nop2[], step_nop3[], step_end[];
asm(".pushsection .text\n"
    ".globl stepped_read\n"
    "stepped_read:\n"
    "	pushfq\n"
    "	orq $0x100, (%rsp)\n"
    "	popfq\n"
    "	movl (%rdi), %eax\n"
    ".globl step_nop1\n"
    "step_nop1: nop\n"
    ".globl step_nop2\n"
    "step_nop2: nop\n"
    ".globl step_nop3\n"
    "step_nop3: nop\n"
    ".globl step_end\n"
    "step_end: ret\n"
    ".popsection\n");

/* A 4-byte read at %rdi and the instruction after it, for a breakpoint. */
uint32_t plain_read(volatile void *addr);
extern const char plain_next[];
asm(".pushsection .text\n"
    ".globl plain_read\n"
    "plain_read:\n"
    "	movl (%rdi), %eax\n"
    ".globl plain_next\n"
    "plain_next: nop\n"
    "	ret\n"
    ".popsection\n");

/*
 * A read that a uprobe is put on (xol_mov), then what breaks if the
 * process goes on from the uprobe's out-of-line copy: a RIP-relative
 * load and a call. Returns the value read; *riprel and calls say the rest.
 */
const uint32_t riprel_value __attribute__((used)) = 0xc0ffee01;
static volatile int xol_calls;
void xol_callee(void);
void xol_callee(void)
{
	xol_calls++;
}

uint32_t xol_read(volatile void *addr, uint32_t *riprel);
extern const char xol_mov[];
asm(".pushsection .text\n"
    ".globl xol_read\n"
    "xol_read:\n"
    "	pushq %rbx\n"
    "	movq %rsi, %rbx\n"
    ".globl xol_mov\n"
    "xol_mov: movl (%rdi), %eax\n"
    "	movl riprel_value(%rip), %edx\n"
    "	movl %edx, (%rbx)\n"
    "	pushq %rax\n"
    "	call xol_callee\n"
    "	popq %rax\n"
    "	popq %rbx\n"
    "	ret\n"
    ".popsection\n");

#define STEP_TRAPS_MAX	16
#define X86_EFLAGS_TF	0x100UL
static volatile unsigned long step_traps[STEP_TRAPS_MAX];
static volatile unsigned int nr_step_traps;

/* Each trap: note where it stopped; at the end, clear the trap flag. */
static void on_step_trap(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];

	(void)sig;
	(void)info;
	if (nr_step_traps < STEP_TRAPS_MAX)
		step_traps[nr_step_traps++] = ip;
	if (ip == (unsigned long)step_end || nr_step_traps == STEP_TRAPS_MAX)
		uc->uc_mcontext.gregs[REG_EFL] &= ~X86_EFLAGS_TF;
}

static const char *step_label(unsigned long ip)
{
	static char other[32];

	if (ip == (unsigned long)step_nop1)
		return "nop1";
	if (ip == (unsigned long)step_nop2)
		return "nop2";
	if (ip == (unsigned long)step_nop3)
		return "nop3";
	if (ip == (unsigned long)step_end)
		return "end";
	snprintf(other, sizeof(other), "0x%lx", ip);
	return other;
}

static void step(unsigned long off)
{
	struct sigaction sa = { .sa_sigaction = on_step_trap, .sa_flags = SA_SIGINFO };
	uint32_t value;
	unsigned int i;

	if (sigaction(SIGTRAP, &sa, NULL)) {
		perror("sigaction");
		exit(2);
	}
	nr_step_traps = 0;
	value = stepped_read(bar + off);
	signal(SIGTRAP, SIG_DFL);
	printf("step 0x%lx = 0x%x traps", off, value);
	for (i = 0; i < nr_step_traps; i++)
		printf(" %s", step_label(step_traps[i]));
	printf("\n");
}

/* A counting breakpoint of this process at @addr, of @type and @len. */
static int breakpoint_of(const volatile void *addr, unsigned int type,
			 unsigned int len)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = type,
		.bp_addr = (unsigned long)addr,
		.bp_len = len,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);

	if (fd < 0) {
		perror("perf_event_open");
		exit(2);
	}
	return fd;
}

/* A counting instruction breakpoint of this process at @addr. */
static int breakpoint_at(const void *addr)
{
	return breakpoint_of(addr, HW_BREAKPOINT_X, sizeof(long));
}

static uint64_t breakpoint_hits(int fd)
{
	uint64_t hits = 0;

	if (read(fd, &hits, sizeof(hits)) != sizeof(hits)) {
		perror("read breakpoint count");
		exit(2);
	}
	close(fd);
	return hits;
}

static void watch(unsigned long off, const char *rw)
{
	unsigned int type = !strcmp(rw, "w") ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
	int fd = breakpoint_of(bar + off, type, HW_BREAKPOINT_LEN_4);
	uint32_t value;

	if (strcmp(rw, "w") && strcmp(rw, "rw")) {
		fprintf(stderr, "barmap: watch w or rw, not %s\n", rw);
		exit(2);
	}
	value = bar_read(4, off);
	bar_write(4, off, value);
	printf("watch 0x%lx %s = 0x%x hits %llu\n", off, rw, value,
	       (unsigned long long)breakpoint_hits(fd));
}

static void hwbp(unsigned long off)
{
	int fd = breakpoint_at(plain_next);
	uint32_t value = plain_read(bar + off);

	printf("hwbp 0x%lx = 0x%x hits %llu\n", off, value,
	       (unsigned long long)breakpoint_hits(fd));
}

static void xol(unsigned long off)
{
	uint32_t riprel = 0, value = xol_read(bar + off, &riprel);

	printf("xol 0x%lx = 0x%x riprel 0x%x called %d\n", off, value, riprel, xol_calls);
}

/* The offset of xol_mov in this program's file, from /proc/self/maps. */
static void xol_offset(void)
{
	unsigned long start, end, file_off, addr = (unsigned long)xol_mov;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");

	while (maps && fgets(line, sizeof(line), maps)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &file_off) == 3 &&
		    addr >= start && addr < end) {
			printf("xol-offset 0x%lx\n", addr - start + file_off);
			fclose(maps);
			return;
		}
	}
	fprintf(stderr, "barmap: xol_read is in no mapping\n");
	exit(2);
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
			poll_until_usr1(number(argv[++i]), 0);
		} else if (!strcmp(c, "tick") && i + 2 < argc) {
			poll_until_usr1(number(argv[i + 1]), number(argv[i + 2]));
			i += 2;
		} else if (!strcmp(c, "spin") && i + 2 < argc) {
			unsigned long off = number(argv[++i]);

			spin(off, number(argv[++i]));
		} else if (!strcmp(c, "pin") && i + 1 < argc) {
			pin(number(argv[++i]));
		} else if (!strcmp(c, "unmap")) {
			munmap((void *)bar, bar_len);
		} else if (!strcmp(c, "protect") && i + 1 < argc) {
			protect(argv[++i]);
		} else if (!strcmp(c, "step") && i + 1 < argc) {
			step(number(argv[++i]));
		} else if (!strcmp(c, "watch") && i + 2 < argc) {
			watch(number(argv[i + 1]), argv[i + 2]);
			i += 2;
		} else if (!strcmp(c, "hwbp") && i + 1 < argc) {
			hwbp(number(argv[++i]));
		} else if (!strcmp(c, "xol") && i + 1 < argc) {
			xol(number(argv[++i]));
		} else if (!strcmp(c, "xol-offset")) {
			xol_offset();
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
