// SPDX-License-Identifier: GPL-2.0
/*
 * peek: read 4 bytes at a virtual address from user mode, as an
 * unprivileged program would try with a kernel address.
 *
 * usage: peek ADDR
 * Prints the value and exits 0 if the read works; a kernel address gets
 * SIGSEGV, which the shell reports as status 139.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	volatile uint32_t *p;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: peek ADDR\n");
		return 2;
	}
	p = (volatile uint32_t *)(uintptr_t)strtoull(argv[1], &end, 0);
	if (*end) {
		fprintf(stderr, "peek: bad address '%s'\n", argv[1]);
		return 2;
	}
	printf("0x%x\n", *p);
	return 0;
}
