/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stock mmiotrace text format (Documentation/trace/mmiotrace.rst),
 * one line at a time, and a reader that hands out the lines of a file or a
 * pipe without copying them. Pure parsing: no output, no allocation.
 *
 * What a line may be:
 *   - a line of a type the format defines (VERSION, PCIDEV, R, W, MAP,
 *     UNMAP, MARK, UNKNOWN), or a port access that the kernel's series
 *     adds (IN, OUT): parsed strictly, every field checked;
 *   - a comment ("#..."), as tracefs' trace file starts with, or a blank
 *     line;
 *   - a line of a type mmioctl does not know: a first word of capitals,
 *     digits and '_' ("EVENT ...", a line type a later kernel adds), then
 *     text; kept as it is (TRACE_OTHER);
 *   - anything else is garbage: a control character or NUL anywhere, a
 *     first word that is not a type, a known type with a malformed field.
 * A '\r' before the newline is dropped (a trace saved with CRLF endings).
 */
#ifndef MMIOCTL_TRACE_H
#define MMIOCTL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum trace_type {
	TRACE_BLANK,
	TRACE_COMMENT,	/* "#...": text is the whole line */
	TRACE_VERSION,	/* VERSION 20070824 */
	TRACE_PCIDEV,
	TRACE_READ,	/* R width secs.usecs map_id 0xphys 0xvalue 0xpc pid */
	TRACE_WRITE,	/* W, the same fields */
	TRACE_MAP,	/* MAP secs.usecs map_id 0xphys 0xvirt 0xlen 0x0 0 */
	TRACE_UNMAP,	/* UNMAP secs.usecs map_id 0x0 0 */
	TRACE_MARK,	/* MARK secs.usecs text */
	TRACE_LOST,	/* MARK 0.000000 Lost N events. */
	TRACE_UNKNOWN,	/* UNKNOWN secs.usecs map_id 0xphys op,op,op 0xpc 0 */
	TRACE_PIO_READ,	/* IN width secs.usecs 0xport 0xvalue 0xpc pid */
	TRACE_PIO_WRITE, /* OUT, the same fields */
	TRACE_OTHER,	/* a line type mmioctl does not know: text is the line */
};

#define TRACE_VERSION_STOCK	20070824u
#define PCIDEV_RESOURCES	7	/* BARs 0-5 and the ROM */

/* PCIDEV bbdf vvvvdddd irq base0..base6 size0..size6 [driver] */
struct trace_pcidev {
	unsigned int bus, devfn, vendor, device;
	uint64_t irq;
	uint64_t base[PCIDEV_RESOURCES];	/* with the flag bits 0-3 */
	uint64_t size[PCIDEV_RESOURCES];
	const char *driver;			/* into the line; may be empty */
	size_t driver_len;
};

struct trace_line {
	enum trace_type type;
	unsigned int width;		/* R, W: 1, 2, 4 or 8 bytes; IN, OUT: 1, 2 or 4 */
	uint64_t time_us;		/* all but VERSION, PCIDEV, LOST */
	long map_id;			/* R, W, MAP, UNMAP, UNKNOWN */
	uint64_t phys;			/* R, W, MAP, UNKNOWN; IN, OUT: the port */
	uint64_t value;			/* R, W, IN, OUT */
	uint64_t pc;			/* R, W, UNKNOWN, IN, OUT */
	uint64_t pid;			/* the last field of R, W, MAP, UNMAP, UNKNOWN, IN, OUT */
	uint64_t virt, len;		/* MAP */
	unsigned char opcode[3];	/* UNKNOWN */
	uint64_t lost;			/* LOST */
	uint64_t version;		/* VERSION */
	const char *text;		/* MARK: the marker; COMMENT, OTHER: the line */
	size_t text_len;
	struct trace_pcidev pcidev;	/* PCIDEV */
};

#define TRACE_WHY_MAX	128

/*
 * Parse LINE (LEN bytes, without the newline; no NUL needed). Returns 0,
 * or -1 with the reason in WHY (TRACE_WHY_MAX bytes). Pointers in *T point
 * into LINE.
 */
int trace_parse(const char *line, size_t len, struct trace_line *t, char *why);

static inline bool trace_is_pio(const struct trace_line *t)
{
	return t->type == TRACE_PIO_READ || t->type == TRACE_PIO_WRITE;
}

static inline bool trace_is_access(const struct trace_line *t)
{
	return t->type == TRACE_READ || t->type == TRACE_WRITE;
}

/*
 * Lines of a file, or of standard input for "-", read in big blocks. A
 * line is at most TRACE_LINE_MAX bytes. Reading a pipe or a terminal,
 * before_wait (if set) is called before each read that may wait, so that
 * the output of a live trace (record | decode -) shows up as it comes.
 */
#define TRACE_LINE_MAX	(64 * 1024)

struct trace_reader {
	const char *name;		/* for messages: the path or "standard input" */
	int fd;
	bool is_file;			/* regular file: no flush before reads */
	char *buf;
	size_t size, start, end;
	unsigned long long number;	/* of the line last returned, from 1 */
	bool eof;
	bool cut_short;			/* that line is the last, with no newline */
	void (*before_wait)(void);
};

/* 0, or 1 with a message printed (the file cannot be opened). */
int trace_open(struct trace_reader *r, const char *path);
void trace_close(struct trace_reader *r);

/*
 * The next line, without its newline (and without a '\r' before it): 1,
 * 0 at the end, -1 with a message printed (read error, line too long).
 * The line stays valid until the next call.
 */
int trace_next(struct trace_reader *r, const char **line, size_t *len);

/*
 * The line last returned did not parse (WHY): true, with a warning, if it
 * is a last line cut short (a recording that ended mid-line), which is
 * left out while the rest of the trace stands; false for a bad line.
 */
bool trace_left_out(const struct trace_reader *r, const char *why);

/* "mmioctl: NAME:LINE: " then the message, on standard error. */
void trace_error(const struct trace_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
