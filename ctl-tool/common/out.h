/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output of the trace readers, a line at a time, into one buffer written to
 * standard output when full: printf() per field would cost more than all
 * the parsing. Errors surface when mmioctl closes standard output, or, for
 * -o FILE, when output_end() (files.h) finishes FILE.
 */
#ifndef MMIOCTL_OUT_H
#define MMIOCTL_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OUT_SIZE	(256 * 1024)

struct out {
	char buf[OUT_SIZE];
	size_t used;
};

extern struct out out;

void out_flush(void);
/* out_flush() and fflush(stdout): what is printed so far reaches the reader. */
void out_push(void);

static inline void out_mem(const char *s, size_t n)
{
	if (n > OUT_SIZE - out.used)
		out_flush();
	if (n > OUT_SIZE) {
		fwrite(s, 1, n, stdout);
		return;
	}
	memcpy(out.buf + out.used, s, n);
	out.used += n;
}

static inline void out_str(const char *s)
{
	out_mem(s, strlen(s));
}

static inline void out_char(char c)
{
	if (out.used == OUT_SIZE)
		out_flush();
	out.buf[out.used++] = c;
}

/* Lowercase hex of V, at least DIGITS digits, without "0x". */
void out_hex(uint64_t v, unsigned int digits);
void out_dec(uint64_t v);
/* Microseconds as "%u.%06u", the trace's own format. */
void out_time(uint64_t us);
/* A JSON string, quoted and escaped; bytes that are not UTF-8 become U+FFFD. */
void out_json_string(const char *s, size_t n);
/* XML text, escaped; bytes that are not UTF-8 become U+FFFD, control characters go. */
void out_xml(const char *s, size_t n);
void out_int(long long v);
/* How much of S (N bytes) fits in MAX bytes without cutting a UTF-8 character. */
size_t utf8_cut(const char *s, size_t n, size_t max);

#endif
