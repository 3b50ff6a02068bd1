// SPDX-License-Identifier: GPL-2.0
/*
 * tfloop: single-step this process with the trap flag for a while, as a
 * debugger's stepi does: every instruction ends in a debug trap that the
 * kernel turns into SIGTRAP.
 *
 * usage: tfloop MILLISECONDS
 * Prints the number of traps taken; exits 1 if there were none.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>

#define X86_EFLAGS_TF	0x100

static volatile unsigned long traps;
static struct timespec until;

static int past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec ||
	       (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/* Each trap: count it; once the time is up, clear TF in the return frame. */
static void on_trap(int sig, siginfo_t *info, void *uc_void)
{
	ucontext_t *uc = uc_void;

	(void)sig;
	(void)info;
	traps++;
	if (past(&until))
		uc->uc_mcontext.gregs[REG_EFL] &= ~X86_EFLAGS_TF;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	long ms;

	if (argc != 2 || (ms = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: tfloop MILLISECONDS\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += (ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	/* Set TF: from the next instruction on, each one traps. */
	asm volatile("pushf\n\torl $0x100, (%%rsp)\n\tpopf" : : : "memory", "cc");
	while (!past(&until))
		;
	printf("%lu\n", traps);
	return traps ? 0 : 1;
}
