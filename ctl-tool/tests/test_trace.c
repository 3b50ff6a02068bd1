// SPDX-License-Identifier: GPL-2.0
/* Unit tests of trace.c, the trace line parser; one TAP-style line per case. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "readers/trace.h"

static int failures;

static void report(int ok, const char *what, const char *input, size_t len)
{
	size_t i;

	printf("%s - trace parse: %s '", ok ? "ok" : "not ok", what);
	for (i = 0; i < len; i++) {
		unsigned char c = input[i];

		if (c < 0x20 || c == 0x7f)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	printf("'\n");
	failures += !ok;
}

static int parse(const char *line, struct trace_line *t, char *why)
{
	memset(t, 0x5a, sizeof(*t));
	why[0] = '\0';
	return trace_parse(line, strlen(line), t, why);
}

/* LINE is accepted as TYPE. */
static struct trace_line *accepted(const char *line, enum trace_type type)
{
	static struct trace_line t;
	char why[TRACE_WHY_MAX];
	int ok = !parse(line, &t, why) && t.type == type;

	if (!ok)
		printf("# got type %d, '%s'\n", t.type, why);
	report(ok, "accepted", line, strlen(line));
	return &t;
}

/* LINE (LEN bytes) is refused, and the reason starts with WANT. */
static void refused_len(const char *line, size_t len, const char *want)
{
	char why[TRACE_WHY_MAX] = "";
	struct trace_line t;
	int ok = trace_parse(line, len, &t, why) == -1 && !strncmp(why, want, strlen(want));

	if (!ok)
		printf("# reason '%s', expected '%s'\n", why, want);
	report(ok, "refused", line, len);
}

static void refused(const char *line, const char *want)
{
	refused_len(line, strlen(line), want);
}

static void check(int ok, const char *what)
{
	printf("%s - trace parse: %s\n", ok ? "ok" : "not ok", what);
	failures += !ok;
}

int main(void)
{
	struct trace_line *t;

	t = accepted("R 4 12.345678 3 0xfebf001c 0x1 0x0 0", TRACE_READ);
	check(t->width == 4 && t->time_us == 12345678 && t->map_id == 3 &&
	      t->phys == 0xfebf001c && t->value == 1 && t->pc == 0, "R fields");
	t = accepted("W 8 0.000001 0 0xfea00080 0xffffffffffffffff 0xffffffff81000000 0",
		     TRACE_WRITE);
	check(t->width == 8 && t->time_us == 1 && t->value == UINT64_MAX &&
	      t->pc == 0xffffffff81000000, "W fields, 64 bits");
	t = accepted("W 1 4294967295.999999 2147483647 0xff 0xff 0x0 0", TRACE_WRITE);
	check(t->time_us == UINT64_C(4294967295999999) && t->map_id == 2147483647,
	      "largest timestamp and map id");
	accepted("R\t4 1.000000\t1 0x0 0x0 0x0 0", TRACE_READ);
	accepted("R 4 1.000000 1 0x0 0x0 0x0 0  ", TRACE_READ);
	t = accepted("MAP 2.808930 7 0xfea00000 0xffffc90000015000 0x1000 0x0 0", TRACE_MAP);
	check(t->map_id == 7 && t->phys == 0xfea00000 && t->virt == 0xffffc90000015000 &&
	      t->len == 0x1000, "MAP fields");
	t = accepted("UNMAP 2.862954 7 0x0 0", TRACE_UNMAP);
	check(t->map_id == 7 && t->time_us == 2862954, "UNMAP fields");
	t = accepted("MARK 1.783617 demo: edu accesses begin", TRACE_MARK);
	check(t->text_len == 24 && !memcmp(t->text, "demo: edu accesses begin", 24),
	      "MARK text");
	t = accepted("MARK 1.000000  two  spaces ", TRACE_MARK);
	check(t->text_len == 13 && !memcmp(t->text, " two  spaces ", 13), "MARK text kept as is");
	t = accepted("MARK 0.000000 Lost 12 events.", TRACE_LOST);
	check(t->lost == 12, "lost events");
	accepted("MARK 0.000000 Lost many events.", TRACE_MARK);
	accepted("MARK 1.000000 Lost 12 events.", TRACE_MARK);
	t = accepted("UNKNOWN 3.000001 5 0xfea00010 0f,b6,4a 0xffffffff81234567 0", TRACE_UNKNOWN);
	check(t->opcode[0] == 0x0f && t->opcode[1] == 0xb6 && t->opcode[2] == 0x4a &&
	      t->pc == 0xffffffff81234567, "UNKNOWN opcode bytes");
	t = accepted("IN 1 2.000004 0x71 0x2f 0xffffffff8123abcd 0", TRACE_PIO_READ);
	check(t->width == 1 && t->time_us == 2000004 && t->phys == 0x71 && t->value == 0x2f &&
	      t->pc == 0xffffffff8123abcd && t->pid == 0 && trace_is_pio(t) && !trace_is_access(t),
	      "IN fields");
	t = accepted("OUT 2 2.000005 0x510 0x0 0x0 812", TRACE_PIO_WRITE);
	check(t->width == 2 && t->phys == 0x510 && t->pid == 812, "OUT fields");
	t = accepted("VERSION 20070824", TRACE_VERSION);
	check(t->version == 20070824, "VERSION");
	t = accepted("PCIDEV 0030 1b360010 a feb70004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme",
		     TRACE_PCIDEV);
	check(t->pcidev.bus == 0 && t->pcidev.devfn == 0x30 && t->pcidev.vendor == 0x1b36 &&
	      t->pcidev.device == 0x0010 && t->pcidev.irq == 10 &&
	      t->pcidev.base[0] == 0xfeb70004 && t->pcidev.size[0] == 0x4000 &&
	      t->pcidev.driver_len == 4 && !memcmp(t->pcidev.driver, "nvme", 4), "PCIDEV fields");
	t = accepted("PCIDEV 0018 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 ",
		     TRACE_PCIDEV);
	check(t->pcidev.driver_len == 0 && t->pcidev.size[0] == 0x100000,
	      "PCIDEV without a driver (trailing blank)");
	accepted("", TRACE_BLANK);
	accepted("   ", TRACE_BLANK);
	accepted("# tracer: mmiotrace", TRACE_COMMENT);
	t = accepted("EVENT 1.000000 a line type of a later kernel", TRACE_OTHER);
	check(t->text_len == 44, "unknown line type: the whole line");
	accepted("X", TRACE_OTHER);
	accepted("MAP_V2 1 2 3", TRACE_OTHER);
	accepted("MARK 1.000000 caf\xc3\xa9", TRACE_MARK);

	refused("R 4 1.000000 1 0xfea00000", "truncated R line: 5 of 8 fields");
	refused("R", "truncated R line: 1 of 8 fields");
	refused("W 4 1.000000 1 0xfea00000 0x1 0x0 0 9", "W line with more than 8 fields");
	refused("R 3 1.000000 1 0xfea00000 0x1 0x0 0", "width is not 1, 2, 4 or 8: '3'");
	refused("R 16 1.000000 1 0xfea00000 0x1 0x0 0", "width is not 1, 2, 4 or 8: '16'");
	refused("R 1 1.000000 1 0xfea00000 0x100 0x0 0", "value wider than the access: '0x100'");
	refused("R 2 1.000000 1 0xfea00000 0x10000 0x0 0", "value wider than the access");
	refused("R 4 1.00000 1 0xfea00000 0x1 0x0 0", "malformed timestamp '1.00000'");
	refused("R 4 1,000000 1 0xfea00000 0x1 0x0 0", "malformed timestamp");
	refused("R 4 .000000 1 0xfea00000 0x1 0x0 0", "malformed timestamp");
	refused("R 4 1.000000 x 0xfea00000 0x1 0x0 0", "malformed map id 'x'");
	refused("R 4 1.000000 1 fea00000 0x1 0x0 0", "malformed address 'fea00000'");
	refused("R 4 1.000000 1 0x 0x1 0x0 0", "malformed address '0x'");
	refused("R 4 1.000000 1 0x10000000000000000 0x1 0x0 0", "malformed address");
	refused("R 4 1.000000 1 0xfea0000g 0x1 0x0 0", "malformed address");
	refused("R 4 1.000000 1 0xfea00000 1 0x0 0", "malformed value '1'");
	refused("R 4 1.000000 1 0xfea00000 0x1 0 0", "malformed pc '0'");
	refused("R 4 1.000000 1 0xfea00000 0x1 0x0 -1", "malformed pid '-1'");
	refused(" R 4 1.000000 1 0xfea00000 0x1 0x0 0", "line starts with a blank");
	refused("r 4 1.000000 1 0xfea00000 0x1 0x0 0", "not a trace line: it starts with 'r'");
	refused("rw what?", "not a trace line: it starts with 'rw'");
	refused("garbage", "not a trace line");
	refused("4 1.000000", "not a trace line");
	refused("MAP 1.000000 7 0xfea00000 0xffffc90000015000 0x0 0x0 0", "malformed length '0x0'");
	refused("MAP 1.000000 7 0xffffffffffffff00 0x0 0x1000 0x0 0", "malformed length");
	refused("MAP 1.000000 7 0xfea00000", "truncated MAP line: 4 of 8 fields");
	refused("UNMAP 1.000000", "truncated UNMAP line: 2 of 5 fields");
	refused("UNKNOWN 1.000000 3 0xfea00000 0f,b6 0x0 0", "malformed opcode bytes");
	refused("UNKNOWN 1.000000 3 0xfea00000 0f;b6;01 0x0 0", "malformed opcode bytes");
	refused("IN 8 1.000000 0x70 0x0 0x0 0", "width is not 1, 2 or 4");
	refused("IN 1 1.000000 0x10000 0x0 0x0 0", "malformed port");
	refused("OUT 1 1.000000 0x70 0x100 0x0 0", "malformed value, or wider than the access");
	refused("OUT 1 1.000000 0x70 0x1", "truncated OUT line");
	refused("MARK", "truncated MARK line: no timestamp");
	refused("MARK soon hello", "malformed timestamp 'soon'");
	refused("MARK 1.000000 a\x01" "b", "control character in a MARK line");
	refused("VERSION 20070825", "unsupported trace version (mmioctl reads 20070824): '20070825'");
	refused("VERSION", "truncated VERSION line");
	refused("PCIDEV 0030 1b360010 a feb70004", "truncated PCIDEV line: 5 of 18 fields");
	refused("PCIDEV 030 1b360010 a 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "malformed bus and devfn");
	refused("PCIDEV 0030 1b36001 a 0 0 0 0 0 0 0 0 0 0 0 0 0 0", "malformed vendor and device");
	refused("PCIDEV 0030 1b360010 a 0 0 0 0 0 0 0 0 0 0 0 0 0 0 nvme extra",
		"PCIDEV line with more than 18 fields");
	refused("EVENT \x1b[31mred", "control character or NUL");
	refused("# comment\x7f", "control character in a comment");
	refused_len("R 4 1.000000 1 0xfea00000 0x1 0x0 0\0", 37, "control character or NUL in a field");
	refused_len("\0", 1, "control character");
	refused_len("EV\0NT", 5, "control character or NUL");
	return failures ? 1 : 0;
}
