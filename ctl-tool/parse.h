/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parsing of mmioctl's arguments. The rules follow the kernel's control
 * files, so that mmioctl rejects before writing what the kernel would
 * reject: numbers in decimal or 0x hex, no sign, no leading zero (octal),
 * nothing after them; sizes with an optional k/M/G suffix.
 */
#ifndef MMIOCTL_PARSE_H
#define MMIOCTL_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Each returns 0 on success, -1 (value untouched) on malformed input. */
int parse_u64(const char *str, uint64_t *val);
int parse_size(const char *str, uint64_t *size);	/* > 0 */
int parse_range(const char *addr, const char *size, uint64_t *start,
		uint64_t *len);				/* start + len fits */
int parse_switch(const char *str, bool *on);		/* "on" or "off" */
int parse_bar(const char *str, unsigned int *bar);	/* 0..5 */
int parse_positive(const char *str, unsigned long max,
		   unsigned long *val);			/* 1..max */

/*
 * A line of a ranges file as "list" prints it and "load" reads it:
 * "[!]ADDR SIZE", surrounding blanks allowed.
 */
int parse_range_line(const char *line, bool *remove, uint64_t *start,
		     uint64_t *len);

/*
 * A PCI address as lspci prints or takes it: [[DOMAIN:]BUS:]DEV.FN in hex,
 * DOMAIN of up to 8 digits (0x10000 and up exist), BUS and DEV of up to 2,
 * FN of 1; a part left out is 0. Written normalized as "dddd:bb:dd.f" into
 * out (at least 18 bytes).
 */
int parse_bdf(const char *str, char *out, size_t out_size);

/* One line of sysfs "resource": "0xSTART 0xEND 0xFLAGS". */
struct pci_bar {
	uint64_t start, end, flags;
};
int parse_resource_line(const char *line, struct pci_bar *bar);

#define PCI_RESOURCE_IO		0x100ULL
#define PCI_RESOURCE_MEM	0x200ULL
#define PCI_RESOURCE_UNSET	0x20000000ULL	/* no address assigned */

/* A marker's text: not empty, no newline, at most MARKER_MAX bytes. */
#define MARKER_MAX 1024
int check_marker(const char *text);

#endif
