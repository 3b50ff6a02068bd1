// SPDX-License-Identifier: GPL-2.0
/* Unit tests of parse.c; prints one TAP-style line per case. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"

static int failures;

static void report(int ok, const char *what, const char *input)
{
	printf("%s - mmioctl parse: %s '", ok ? "ok" : "not ok", what);
	for (; *input; input++)
		fputs(*input == '\n' ? "\\n" : (char[]){ *input, 0 }, stdout);
	printf("'\n");
	failures += !ok;
}

static void u64_ok(const char *in, uint64_t want)
{
	uint64_t v = 0;

	report(!parse_u64(in, &v) && v == want, "number accepted", in);
}

static void u64_bad(const char *in)
{
	uint64_t v = 42;

	report(parse_u64(in, &v) && v == 42, "number rejected", in);
}

static void size_ok(const char *in, uint64_t want)
{
	uint64_t v = 0;

	report(!parse_size(in, &v) && v == want, "size accepted", in);
}

static void size_bad(const char *in)
{
	uint64_t v = 42;

	report(parse_size(in, &v) && v == 42, "size rejected", in);
}

static void bdf_ok(const char *in, const char *want)
{
	char out[18] = "";

	report(!parse_bdf(in, out, sizeof(out)) && !strcmp(out, want), "BDF accepted", in);
}

static void bdf_bad(const char *in)
{
	char out[18] = "";

	report(parse_bdf(in, out, sizeof(out)) != 0, "BDF rejected", in);
}

static void instance_ok(const char *in)
{
	report(!check_instance_name(in), "instance name accepted", in);
}

static void instance_bad(const char *in)
{
	report(check_instance_name(in) != 0, "instance name rejected", in);
}

static void line_is(const char *in, int want)
{
	char what[64];

	snprintf(what, sizeof(what), "event line of type %d", want);
	report(classify_event_line(in) == want, what, in);
}

static void hist_ok(const char *in, bool with_value, uint64_t phys, uint64_t value,
		    uint64_t hits)
{
	uint64_t p = 1, v = 1, h = 1;

	report(!parse_hist_entry(in, with_value, &p, &v, &h) && p == phys && v == value &&
	       h == hits, "histogram entry accepted", in);
}

static void hist_bad(const char *in, bool with_value)
{
	uint64_t p = 1, v = 1, h = 1;

	report(parse_hist_entry(in, with_value, &p, &v, &h) && p == 1 && v == 1 && h == 1,
	       "histogram entry rejected", in);
}

int main(void)
{
	struct pci_bar bar;
	uint64_t start, len;
	bool on;
	unsigned int n;

	u64_ok("0", 0);
	u64_ok("1", 1);
	u64_ok("4096", 4096);
	u64_ok("0x0", 0);
	u64_ok("0xfea00000", 0xfea00000);
	u64_ok("0XFEA00000", 0xfea00000);
	u64_ok("0x000000000000fea0", 0xfea0);
	u64_ok("18446744073709551615", UINT64_MAX);
	u64_ok("0xffffffffffffffff", UINT64_MAX);
	u64_bad("");
	u64_bad("0x");
	u64_bad("010");		/* octal-looking */
	u64_bad("00");
	u64_bad("-1");
	u64_bad("+1");
	u64_bad(" 1");
	u64_bad("1 ");
	u64_bad("1\n");
	u64_bad("12a");
	u64_bad("0x1g");
	u64_bad("18446744073709551616");	/* 2^64 */
	u64_bad("0x10000000000000000");
	u64_bad("99999999999999999999");

	size_ok("1", 1);
	size_ok("16", 16);
	size_ok("0x10", 16);
	size_ok("4k", 4096);
	size_ok("4K", 4096);
	size_ok("16k", 16384);
	size_ok("1m", 1 << 20);
	size_ok("1M", 1 << 20);
	size_ok("2G", 2ULL << 30);
	size_ok("0x10k", 16384);
	size_ok("17179869183G", 17179869183ULL << 30);
	size_bad("0");
	size_bad("0k");
	size_bad("16q");
	size_bad("k");
	size_bad("4kk");
	size_bad("4 k");
	size_bad("4T");
	size_bad("-4k");
	size_bad("010");
	size_bad("17179869184G");	/* 2^64 */
	size_bad("18014398509481984k");

	report(!parse_range("0xfffffffffffffffe", "1", &start, &len) &&
	       start == 0xfffffffffffffffeULL && len == 1, "range accepted", "0xfffffffffffffffe 1");
	report(parse_range("0xffffffffffffffff", "1", &start, &len) != 0,
	       "range rejected (end overflows)", "0xffffffffffffffff 1");
	report(parse_range("0x1", "0xffffffffffffffff", &start, &len) != 0,
	       "range rejected (end overflows)", "0x1 0xffffffffffffffff");

	bdf_ok("00:03.0", "0000:00:03.0");
	bdf_ok("0000:00:03.0", "0000:00:03.0");
	bdf_ok("0001:AB:1f.7", "0001:ab:1f.7");
	/* The short forms lspci prints and takes. */
	bdf_ok("3.0", "0000:00:03.0");
	bdf_ok("00:3.0", "0000:00:03.0");
	bdf_ok("0:03.0", "0000:00:03.0");
	bdf_ok("1:2:3.4", "0001:02:03.4");
	/* Domains above 0xffff exist (VMD). */
	bdf_ok("10000:00:03.0", "10000:00:03.0");
	bdf_ok("ffffffff:ff:1f.7", "ffffffff:ff:1f.7");
	bdf_bad("");
	bdf_bad("00:03");
	bdf_bad("3");
	bdf_bad(".0");
	bdf_bad("3.");
	bdf_bad("00:20.0");	/* device > 0x1f */
	bdf_bad("00:03.8");	/* function > 7 */
	bdf_bad("00:03.07");
	bdf_bad("00-03.0");
	bdf_bad("100000000:00:03.0");	/* 9 digits of domain */
	bdf_bad("000:00:03.0:0");
	bdf_bad("0:0:0:0.0");
	bdf_bad("00:03.0 ");
	bdf_bad("00:03.0.1");
	bdf_bad("zz:03.0");
	bdf_bad("000:03.0");	/* 3 digits of bus */

	{
		bool remove;

		report(!parse_range_line("0x1000 0x10", &remove, &start, &len) && !remove &&
		       start == 0x1000 && len == 0x10, "range line accepted", "0x1000 0x10");
		report(!parse_range_line(" !4096\t4k ", &remove, &start, &len) && remove &&
		       start == 4096 && len == 4096, "range line accepted", " !4096\t4k ");
		report(parse_range_line("0x1000", &remove, &start, &len) != 0,
		       "range line rejected", "0x1000");
		report(parse_range_line("0x1000 16 x", &remove, &start, &len) != 0,
		       "range line rejected", "0x1000 16 x");
		report(parse_range_line("!! 0x1000 16", &remove, &start, &len) != 0,
		       "range line rejected", "!! 0x1000 16");
	}
	{
		unsigned long v = 0;

		report(!parse_positive("1408", 1UL << 30, &v) && v == 1408, "positive accepted", "1408");
		report(parse_positive("0", 1UL << 30, &v) != 0, "positive rejected", "0");
		report(parse_positive("11", 10, &v) != 0, "positive rejected (above max)", "11");
		report(parse_positive("1.5", 10, &v) != 0, "positive rejected", "1.5");
	}

	report(!parse_switch("on", &on) && on, "switch accepted", "on");
	report(!parse_switch("off", &on) && !on, "switch accepted", "off");
	report(parse_switch("1", &on) != 0, "switch rejected", "1");
	report(parse_switch("ON", &on) != 0, "switch rejected", "ON");
	report(!parse_bar("5", &n) && n == 5, "BAR accepted", "5");
	report(parse_bar("6", &n) != 0, "BAR rejected", "6");
	report(parse_bar("01", &n) != 0, "BAR rejected", "01");

	report(!parse_resource_line("0x00000000fea00000 0x00000000feafffff 0x0000000000040200\n",
				    &bar) && bar.start == 0xfea00000 && bar.end == 0xfeafffff &&
	       bar.flags == 0x40200, "resource line accepted", "fea00000 feafffff 40200");
	report(parse_resource_line("0x1 0x2\n", &bar) != 0, "resource line rejected", "0x1 0x2");

	report(!check_marker("after init"), "marker accepted", "after init");
	report(check_marker("") != 0, "marker rejected", "");
	report(check_marker("two\nlines") != 0, "marker rejected", "two\\nlines");
	{
		char big[MARKER_MAX + 2];

		memset(big, 'x', MARKER_MAX);
		big[MARKER_MAX] = '\0';
		report(!check_marker(big), "marker accepted", "1024 x");
		big[MARKER_MAX] = 'x';
		big[MARKER_MAX + 1] = '\0';
		report(check_marker(big) != 0, "marker rejected", "1025 x");
	}

	instance_ok("mmioctl");
	instance_ok("tc");
	instance_ok("_x-1.2");
	instance_ok("0");
	instance_ok("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");	/* 64 */
	instance_bad("");
	instance_bad(".");
	instance_bad("..");
	instance_bad(".hidden");
	instance_bad("-i");
	instance_bad("a/b");
	instance_bad("a b");
	instance_bad("a\nb");
	instance_bad("a:b");
	instance_bad("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");	/* 65 */

	line_is("            sh-66     [000] d..2.     6.094904: mmio_read: phys=0xfea00000 value=0x10000ed width=4 map_id=1 pc=0x0",
		EVENT_READ);
	line_is("            sh-66     [001] d..2.     6.094904: mmio_write: phys=0xfea00004 value=0x55 width=4 map_id=1 pc=0x0\n",
		EVENT_WRITE);
	line_is("     kworker/1:1-37      [001] ...1.     7.830886: mmio_map: map_id=2 phys=0xfea00000 virt=0xffffc90000015000 len=0x1000",
		EVENT_MAP);
	line_is("            sh-66     [000] .....     6.1: mmio_unmap: map_id=2", EVENT_UNMAP);
	line_is("            sh-66     [000] d..2.     6.1: mmio_unknown: phys=0xfea00000 opcode=66,0f,d6 map_id=1 pc=0x0",
		EVENT_UNKNOWN);
	line_is("            bash-50   [001] .....     7.850069: tracing_mark_write: hello", EVENT_MARK);
	/* A marker whose text names an event is a marker. */
	line_is("            bash-50   [001] .....     7.850069: tracing_mark_write: fake: mmio_read: x",
		EVENT_MARK);
	/* trace-cmd report's lines. */
	line_is("x:             bash-51    [000]    10.425225: mmio_read:            phys=0xfea00000 value=0x10000ed width=4 map_id=2 pc=0x0",
		EVENT_READ);
	line_is("x:             bash-50    [001]     7.850069: print:                tracing_mark_write: hello",
		EVENT_MARK);
	line_is("            sh-66     [000] d..2.     6.1: mmio_readx: phys=0x0", -1);
	line_is("            sh-66     [000] d..2.     6.1: sched_switch: prev_comm=sh", -1);
	line_is("# tracer: nop", -1);
	line_is("", -1);

	hist_ok("{ phys: fea00004 } hitcount:          3", false, 0xfea00004, 0, 3);
	hist_ok("{ phys: fea00004 } hitcount:          3\n", false, 0xfea00004, 0, 3);
	hist_ok("{ phys: fea00004, value: 55 } hitcount:          1", true, 0xfea00004, 0x55, 1);
	hist_ok("{ phys: ffffffffffffffff, value: ffffffffffffffff } hitcount: 18446744073709551615",
		true, UINT64_MAX, UINT64_MAX, UINT64_MAX);
	hist_ok("{ phys: 0, value: 0 } hitcount:          0", true, 0, 0, 0);
	hist_bad("{ phys: fea00004 } hitcount:          3", true);
	hist_bad("{ phys: fea00004, value: 55 } hitcount:          1", false);
	hist_bad("{ phys: 0xfea00004 } hitcount:          3", false);
	hist_bad("{ phys:   fea00004 } hitcount:          3", false);
	hist_bad("{ phys: 1ffffffffffffffff } hitcount: 3", false);
	hist_bad("{ phys: fea00004 } hitcount:", false);
	hist_bad("{ phys: fea00004 } hitcount: 18446744073709551616", false);
	hist_bad("{ phys: fea00004 } hitcount:          3 x", false);
	hist_bad("{ phys: fea00004, value:         85 } hitcount: 3", true);	/* not .hex */
	hist_bad("Totals:", false);
	return failures ? 1 : 0;
}
