// SPDX-License-Identifier: GPL-2.0
/*
 * pio: port I/O from a process, as dosemu2 or a user-space driver does it
 * (bats/ports.bats).
 *
 * usage: pio (--ioperm FROM NUM | --iopl | --none) OP...
 *   OP: in WIDTH PORT | out WIDTH PORT VALUE | ins WIDTH PORT COUNT
 * --ioperm grants ports FROM..FROM+NUM-1 with ioperm(), --iopl all of them
 * with iopl(3), --none nothing. Each in prints its value, each ins the
 * bytes it read ("0x51 0x45 ..."), one line per OP, in 0x hex. A port not
 * granted gets SIGSEGV, as the kernel gives it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>

static unsigned long number(const char *arg)
{
	char *end;
	unsigned long value = strtoul(arg, &end, 0);

	if (!*arg || *end) {
		fprintf(stderr, "pio: bad number '%s'\n", arg);
		exit(2);
	}
	return value;
}

static void in_op(unsigned int width, uint16_t port)
{
	uint32_t value;

	if (width == 1)
		value = inb(port);
	else if (width == 2)
		value = inw(port);
	else
		value = inl(port);
	printf("0x%x\n", value);
}

static void out_op(unsigned int width, uint16_t port, uint32_t value)
{
	if (width == 1)
		outb(value, port);
	else if (width == 2)
		outw(value, port);
	else
		outl(value, port);
}

/* REP INS of COUNT elements: one instruction, as the kernel's insb() is. */
static void ins_op(unsigned int width, uint16_t port, unsigned long count)
{
	unsigned char buf[4096];
	void *p = buf;
	unsigned long i, n = count;

	if (count * width > sizeof(buf)) {
		fprintf(stderr, "pio: at most %zu bytes\n", sizeof(buf));
		exit(2);
	}
	if (width == 1)
		asm volatile("rep insb" : "+D"(p), "+c"(n) : "d"(port) : "memory");
	else if (width == 2)
		asm volatile("rep insw" : "+D"(p), "+c"(n) : "d"(port) : "memory");
	else
		asm volatile("rep insl" : "+D"(p), "+c"(n) : "d"(port) : "memory");
	for (i = 0; i < count * width; i++)
		printf("%s0x%x", i ? " " : "", buf[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	int i = 2;

	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "--ioperm") && argc >= 4) {
		if (ioperm(number(argv[2]), number(argv[3]), 1)) {
			perror("pio: ioperm");
			return 1;
		}
		i = 4;
	} else if (!strcmp(argv[1], "--iopl")) {
		if (iopl(3)) {
			perror("pio: iopl");
			return 1;
		}
	} else if (strcmp(argv[1], "--none")) {
		goto usage;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (i + 2 < argc) {
		const char *op = argv[i];
		unsigned int width = number(argv[i + 1]);
		uint16_t port = number(argv[i + 2]);

		if (width != 1 && width != 2 && width != 4)
			goto usage;
		if (!strcmp(op, "in")) {
			in_op(width, port);
			i += 3;
		} else if (!strcmp(op, "out") && i + 3 < argc) {
			out_op(width, port, number(argv[i + 3]));
			i += 4;
		} else if (!strcmp(op, "ins") && i + 3 < argc) {
			ins_op(width, port, number(argv[i + 3]));
			i += 4;
		} else {
			goto usage;
		}
	}
	if (i == argc)
		return 0;
usage:
	fprintf(stderr, "usage: pio (--ioperm FROM NUM | --iopl | --none) "
		"(in W PORT | out W PORT VALUE | ins W PORT COUNT)...\n");
	return 2;
}
