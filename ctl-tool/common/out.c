// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "common/out.h"

struct out out;

void out_flush(void)
{
	if (out.used)
		fwrite(out.buf, 1, out.used, stdout);
	out.used = 0;
}

void out_push(void)
{
	out_flush();
	fflush(stdout);
}

void out_hex(uint64_t v, unsigned int digits)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16];
	unsigned int n = 0;

	do {
		tmp[n++] = hex[v & 15];
		v >>= 4;
	} while (v);
	while (n < digits && n < sizeof(tmp))
		tmp[n++] = '0';
	if (out.used + n > OUT_SIZE)
		out_flush();
	while (n)
		out.buf[out.used++] = tmp[--n];
}

void out_dec(uint64_t v)
{
	char tmp[20];
	unsigned int n = 0;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	if (out.used + n > OUT_SIZE)
		out_flush();
	while (n)
		out.buf[out.used++] = tmp[--n];
}

void out_time(uint64_t us)
{
	uint64_t frac = us % 1000000;
	char tmp[6];
	int i;

	out_dec(us / 1000000);
	for (i = 5; i >= 0; i--) {
		tmp[i] = '0' + frac % 10;
		frac /= 10;
	}
	out_char('.');
	out_mem(tmp, 6);
}

/* Length of the UTF-8 sequence at S (N bytes left), or 0 if it is not one. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void out_json_string(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	out_char('"');
	while (i < n) {
		size_t len, run = i;

		/* Printable ASCII that needs no escape goes out in one piece. */
		while (run < n && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {
			out_mem((const char *)s + i, run - i);
			i = run;
			continue;
		}
		len = utf8_length(s + i, n - i);
		if (!len) {
			out_str("\\ufffd");
			i++;
		} else if (s[i] == '"' || s[i] == '\\') {
			out_char('\\');
			out_char(s[i++]);
		} else if (s[i] < 0x20) {
			out_str("\\u00");
			out_hex(s[i++], 2);
		} else {
			out_mem((const char *)s + i, len);
			i += len;
		}
	}
	out_char('"');
}

/* Text of an XML element or attribute (SVG, rnndb): escaped, as out_json_string(). */
void out_xml(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;

	while (i < n) {
		len = utf8_length(s + i, n - i);
		if (!len) {
			out_str("&#xfffd;");
			i++;
			continue;
		}
		switch (s[i]) {
		case '&': out_str("&amp;"); break;
		case '<': out_str("&lt;"); break;
		case '>': out_str("&gt;"); break;
		case '"': out_str("&quot;"); break;
		default:
			/* XML 1.0 has no control characters but tab, newline, return. */
			if (s[i] >= 0x20 || s[i] == '\t')
				out_mem((const char *)s + i, len);
		}
		i += len;
	}
}

void out_int(long long v)
{
	if (v < 0)
		out_char('-');
	out_dec(v < 0 ? -(uint64_t)v : (uint64_t)v);
}

size_t utf8_cut(const char *str, size_t n, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, len;

	while (i < n) {
		len = utf8_length(s + i, n - i);
		if (!len)
			len = 1;
		if (i + len > max)
			break;
		i += len;
	}
	return i;
}
