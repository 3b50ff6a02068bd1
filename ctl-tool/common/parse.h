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

/*
 * An address relative to a PCI BAR: BDF:BAR+OFFSET, the BDF as parse_bdf()
 * takes it (written normalized into bdf), BAR 0 to 5, OFFSET decimal or 0x
 * hex: "0000:00:04.0:0+0x1c", "4.0:2+16".
 */
int parse_bar_address(const char *str, char *bdf, size_t bdf_size,
		      unsigned int *bar, uint64_t *offset);

/* One line of sysfs "resource": "0xSTART 0xEND 0xFLAGS". */
struct pci_bar {
	uint64_t start, end, flags;
};
int parse_resource_line(const char *line, struct pci_bar *bar);

#define PCI_RESOURCE_IO		0x100ULL
#define PCI_RESOURCE_MEM	0x200ULL
#define PCI_RESOURCE_UNSET	0x20000000ULL	/* no address assigned */

/*
 * A rule of the overrides file, as the kernel takes and prints it:
 *   [!]ADDR WIDTH = VALUE [MASK] [count N]   reads of WIDTH bytes at ADDR
 *                                             return VALUE (MASK: its bits)
 *   [!]ADDR WIDTH drop [count N]             writes there miss the device
 * A removal ("!") names the rule by ADDR, WIDTH and its kind; a read
 * rule's VALUE and MASK may follow, and are ignored. WIDTH is 1, 2, 4 or
 * 8, ADDR a multiple of it, VALUE and MASK fit in it, MASK is not 0, N is
 * 0 to INT_MAX and not on a removal. A line has at most
 * OVERRIDE_LINE_MAX characters, its newline left out.
 */
#define OVERRIDE_LINE_MAX	96
#define OVERRIDES_MAX		64	/* rules the kernel keeps */
/* Where a read rule's value comes from, as the kernel has it. */
enum override_source {
	SOURCE_VALUE,			/* "= VALUE [MASK]" */
	SOURCE_FEED,			/* "= feed [MASK]": the feed file's next value */
	SOURCE_RANDOM,			/* "= random SEED [MASK]": the seed's sequence */
};

struct override_rule {
	uint64_t addr, value, mask;	/* value and mask 0 on a removal; value: SEED */
	unsigned int width;
	int count;			/* -1: none */
	bool drop;			/* a write-drop rule, else a read rule */
	bool has_mask;			/* else the value's every bit */
	bool remove;
	enum override_source source;
};
int parse_width(const char *str, unsigned int *width);	/* 1, 2, 4 or 8 */
int parse_count(const char *str, int *count);		/* 0..INT_MAX */

/* What is wrong with a rule whose numbers each parsed, in this order. */
enum override_problem {
	OVERRIDE_OK,
	OVERRIDE_UNALIGNED,	/* ADDR not a multiple of WIDTH */
	OVERRIDE_VALUE_WIDE,	/* VALUE does not fit in WIDTH bytes */
	OVERRIDE_MASK_ZERO,
	OVERRIDE_MASK_WIDE,
};
enum override_problem check_override(const struct override_rule *rule);
int parse_override_line(const char *line, struct override_rule *rule);

/*
 * The line the kernel takes for RULE, with its newline; numbers in 0x hex,
 * no MASK when it has none, a removal without VALUE. Returns its length,
 * or -1 when it does not fit in SIZE.
 */
int format_override(const struct override_rule *rule, char *buf, size_t size);

/* A marker's text: not empty, no newline, at most MARKER_MAX bytes. */
#define MARKER_MAX 1024
int check_marker(const char *text);

/*
 * The name of a trace instance (instances/NAME in tracefs), as mmioctl
 * accepts it: 1 to INSTANCE_NAME_MAX letters, digits, '_', '-' and '.',
 * the first a letter, a digit or '_'. Names that a shell or trace-cmd -B
 * would take apart, and "." and "..", are refused.
 */
#define INSTANCE_NAME_MAX 64
int check_instance_name(const char *name);

/*
 * The type of a line of event text: the kernel's (an instance's trace or
 * trace_pipe, "  sh-66  [000] d..2.  6.094904: mmio_read: phys=...") or
 * trace-cmd report's ("x:  sh-66 [000] 6.094904: mmio_read:   phys=...").
 * The event is the first ": NAME:" followed by a blank or the end; a
 * marker is tracing_mark_write (the kernel) or print (trace-cmd).
 */
enum event_type {
	EVENT_READ, EVENT_WRITE, EVENT_MAP, EVENT_UNMAP, EVENT_MARK, EVENT_UNKNOWN,
	NR_EVENT_TYPES
};
int classify_event_line(const char *line);	/* an event_type, or -1 */

/*
 * An event line parsed for convert: the timestamp before the event's name,
 * then the event's fields by name, as its format prints them
 * ("phys=0xfea00004 value=0x55 width=4 map_id=1 pc=0x0 override=replaced")
 * or as options/fields does ("phys=0xfea00004 (4271898628) ... map_id=0x1
 * (1) width=(4) override=(2)"), which is also how the kernel prints the
 * events a boot-mapped instance kept from a boot at another KASLR offset.
 * Fields not needed are ignored; a needed one missing or malformed makes
 * the line malformed. The timestamp is secs.frac, 1 to 9 digits of
 * fraction; the time is kept in microseconds, as the stock format has it.
 */
#define EVENT_WHY_MAX	128
struct event_line {
	enum event_type type;
	uint64_t time_us;
	long map_id;			/* READ, WRITE, UNKNOWN, MAP, UNMAP */
	uint64_t phys;			/* READ, WRITE, UNKNOWN, MAP */
	uint64_t value, pc;		/* READ, WRITE; pc UNKNOWN too */
	unsigned int width;		/* READ, WRITE: 1, 2, 4 or 8 */
	/* READ, WRITE: 0 none; 1 mixed, 2 replaced (reads); 3 dropped (writes) */
	unsigned int override;
	uint64_t device;		/* mixed: what the device gave, if the line has it */
	bool has_device;
	unsigned char opcode[3];	/* UNKNOWN */
	uint64_t virt, len;		/* MAP */
	uint64_t pid;			/* MAP: its process (pid=; 0 without it) */
	const char *text;		/* MARK: the marker, into the line */
	size_t text_len;
};

/*
 * LINE (NUL-terminated, no newline): 1 an mmiotrace event or a marker,
 * parsed into *E; 0 any other line; -1 a malformed one, WHY
 * (EVENT_WHY_MAX bytes) saying what is wrong.
 */
int parse_event_line(const char *line, struct event_line *e, char *why);

/*
 * The kernel's note of events lost on a CPU, "CPU:1 [LOST 12 EVENTS]", or
 * "CPU:1 [LOST EVENTS]" when it does not know how many (*LOST 0). 0, or -1
 * for any other line.
 */
int parse_lost_line(const char *line, uint64_t *lost);

/*
 * SIZE as mmiotrace.ranges= and reserve_mem= take it, with the largest of
 * the suffixes G, M and k that divides it exactly, else in decimal bytes:
 * "2M", "4k", "100". Returns the length; BUF holds 24 bytes.
 */
#define BOOT_SIZE_MAX	24
int format_boot_size(uint64_t size, char *buf, size_t buf_size);

/*
 * The name of a flight recorder instance, used for the reserve_mem= area
 * too: an instance name mmioctl accepts, at most FLIGHT_NAME_MAX bytes
 * (reserve_mem keeps 15), not starting with a digit (trace_instance= would
 * read NAME@NAME's second NAME as an address). 0, or -1 when the instance
 * name is bad, -2 too long, -3 starting with a digit.
 */
#define FLIGHT_NAME_MAX	15
int check_flight_name(const char *name);

/*
 * One entry of the histograms mmioctl installs, as the kernel prints a
 * .hex key (%llx, no 0x) and the hitcount (%10llu):
 *   "{ phys: fea00004 } hitcount:          3"
 *   "{ phys: fea00004, value: 55 } hitcount:          1"   (WITH_VALUE)
 * A newline at the end is allowed; nothing else.
 */
int parse_hist_entry(const char *line, bool with_value, uint64_t *phys,
		     uint64_t *value, uint64_t *hits);

#endif
