/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Forced into the kernel's x86 selftests by the Makefile (gcc -include):
 * stdout line-buffered, as on a terminal, so that a selftest that dies
 * keeps the lines it printed into a file, and a child it forks does not
 * print again what its parent had buffered. Included first, it defines
 * what the selftests define before their own includes.
 */
#define _GNU_SOURCE
#include <stdio.h>

static void __attribute__((constructor)) linebuf(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
