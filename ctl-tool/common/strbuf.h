/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building a short string in a fixed buffer, cut (never overrun) when it
 * is full: the decoding of a register is on the path of every line, where
 * snprintf() per field would cost more than the parsing.
 */
#ifndef MMIOCTL_STRBUF_H
#define MMIOCTL_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strbuf {
	char *buf;
	size_t size, used;	/* used < size: the buffer stays NUL-terminated */
};

static inline void sb_init(struct strbuf *sb, char *buf, size_t size)
{
	sb->buf = buf;
	sb->size = size;
	sb->used = 0;
	buf[0] = '\0';
}

static inline void sb_mem(struct strbuf *sb, const char *s, size_t n)
{
	if (n > sb->size - 1 - sb->used)
		n = sb->size - 1 - sb->used;
	memcpy(sb->buf + sb->used, s, n);
	sb->used += n;
	sb->buf[sb->used] = '\0';
}

static inline void sb_str(struct strbuf *sb, const char *s)
{
	sb_mem(sb, s, strlen(s));
}

static inline void sb_char(struct strbuf *sb, char c)
{
	sb_mem(sb, &c, 1);
}

/* Hex digits of V, at least DIGITS (up to 16), without "0x". */
static inline void sb_hex(struct strbuf *sb, uint64_t v, unsigned int digits)
{
	char tmp[16];
	unsigned int n = 16;

	do {
		tmp[--n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (16 - n < digits && n)
		tmp[--n] = '0';
	sb_mem(sb, tmp + n, 16 - n);
}

static inline void sb_dec(struct strbuf *sb, uint64_t v)
{
	char tmp[20];
	unsigned int n = 20;

	do {
		tmp[--n] = '0' + v % 10;
		v /= 10;
	} while (v);
	sb_mem(sb, tmp + n, 20 - n);
}

#endif
