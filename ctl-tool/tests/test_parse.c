// SPDX-License-Identifier: GPL-2.0
/* Unit tests of parse.c; prints one TAP-style line per case. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/parse.h"

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

static void bar_address_ok(const char *in, const char *bdf, unsigned int bar, uint64_t offset)
{
	char out[18] = "";
	unsigned int b = 9;
	uint64_t o = 1;

	report(!parse_bar_address(in, out, sizeof(out), &b, &o) && !strcmp(out, bdf) && b == bar &&
	       o == offset, "BAR address accepted", in);
}

static void bar_address_bad(const char *in)
{
	char out[18] = "";
	unsigned int b = 9;
	uint64_t o = 1;

	report(parse_bar_address(in, out, sizeof(out), &b, &o) && b == 9 && o == 1,
	       "BAR address rejected", in);
}

/* IN parses as WANT, and formats back as FORMATTED. */
static void override_ok(const char *in, struct override_rule want, const char *formatted)
{
	struct override_rule r;
	char line[OVERRIDE_LINE_MAX + 2];

	memset(&r, 0x5a, sizeof(r));
	report(!parse_override_line(in, &r) && r.addr == want.addr && r.width == want.width &&
	       r.value == want.value && r.mask == want.mask && r.has_mask == want.has_mask &&
	       r.count == want.count && r.drop == want.drop && r.remove == want.remove &&
	       r.source == want.source &&
	       format_override(&r, line, sizeof(line)) > 0 && !strcmp(line, formatted),
	       "override line accepted", in);
}

static void override_bad(const char *in)
{
	struct override_rule r = { .addr = 42 };

	report(parse_override_line(in, &r) && r.addr == 42, "override line rejected", in);
}

/* IN parses as an event of TYPE at TIME_US, PHYS and VALUE (READ, WRITE: and WIDTH, OVERRIDE). */
static void event_ok(const char *in, int type, uint64_t time_us, uint64_t phys, uint64_t value,
		     unsigned int width, unsigned int override)
{
	char why[EVENT_WHY_MAX];
	struct event_line e;

	report(parse_event_line(in, &e, why) == 1 && (int)e.type == type && e.time_us == time_us &&
	       e.phys == phys && e.value == value && e.width == width && e.override == override,
	       "event line parsed", in);
}

static void event_bad(const char *in, const char *want)
{
	char why[EVENT_WHY_MAX] = "";
	struct event_line e;

	report(parse_event_line(in, &e, why) == -1 && !strcmp(why, want), want, in);
}

static void lost_ok(const char *in, uint64_t want)
{
	uint64_t v = 42;

	report(!parse_lost_line(in, &v) && v == want, "lost-events line accepted", in);
}

static void lost_bad(const char *in)
{
	uint64_t v = 42;

	report(parse_lost_line(in, &v) && v == 42, "lost-events line rejected", in);
}

/* SIZE is written as WANT, which parse_size() reads back as SIZE. */
static void boot_size_is(uint64_t size, const char *want)
{
	char buf[BOOT_SIZE_MAX];
	uint64_t back = 0;

	format_boot_size(size, buf, sizeof(buf));
	report(!strcmp(buf, want) && !parse_size(buf, &back) && back == size, "boot size written",
	       want);
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

	bar_address_ok("0000:00:04.0:0+0x1c", "0000:00:04.0", 0, 0x1c);
	bar_address_ok("4.0:2+16", "0000:00:04.0", 2, 16);
	bar_address_ok("00:03.0:5+0", "0000:00:03.0", 5, 0);
	bar_address_ok("10000:00:03.0:0+0xffffffffffffffff", "10000:00:03.0", 0, UINT64_MAX);
	bar_address_bad("");
	bar_address_bad("00:03.0:0");		/* no offset */
	bar_address_bad("00:03.0+0x10");	/* no BAR */
	bar_address_bad("00:03.0:6+0x10");	/* BAR 6 */
	bar_address_bad("00:03.0:01+0x10");
	bar_address_bad("00:03.0:+0x10");
	bar_address_bad("00:03.0:0+");
	bar_address_bad("00:03.0:0+010");	/* octal-looking */
	bar_address_bad("00:03.0:0+0x10+4");
	bar_address_bad("00:03.0:0+-4");
	bar_address_bad("00:03:0+0x10");	/* no function */
	bar_address_bad(":0+0x10");
	bar_address_bad("0xfea00000+0x10");
	bar_address_bad("00:03.0:0 +0x10");
	{
		unsigned int w = 0;
		int c = 0;

		report(!parse_width("1", &w) && w == 1, "width accepted", "1");
		report(!parse_width("8", &w) && w == 8, "width accepted", "8");
		report(!parse_width("0x4", &w) && w == 4, "width accepted", "0x4");
		report(parse_width("3", &w) != 0 && w == 4, "width rejected", "3");
		report(parse_width("0", &w) != 0, "width rejected", "0");
		report(parse_width("16", &w) != 0, "width rejected", "16");
		report(parse_width("4b", &w) != 0, "width rejected", "4b");
		report(!parse_count("0", &c) && c == 0, "count accepted", "0");
		report(!parse_count("2147483647", &c) && c == 2147483647, "count accepted",
		       "2147483647");
		report(parse_count("2147483648", &c) != 0 && c == 2147483647, "count rejected",
		       "2147483648");
		report(parse_count("-1", &c) != 0, "count rejected", "-1");
	}

	/* The kernel's lines, and what the write side may add. */
	override_ok("0xfea00000 4 = 0x1 0xffffffff",
		    (struct override_rule){ 0xfea00000, 1, 0xffffffff, 4, -1, false, true, false, SOURCE_VALUE },
		    "0xfea00000 4 = 0x1 0xffffffff\n");
	override_ok("0xfea0001c 4 = 0x0 0x1 count 3\n",
		    (struct override_rule){ 0xfea0001c, 0, 1, 4, 3, false, true, false, SOURCE_VALUE },
		    "0xfea0001c 4 = 0x0 0x1 count 3\n");
	override_ok("0xfea00004 2 drop",
		    (struct override_rule){ 0xfea00004, 0, 0, 2, -1, true, false, false, SOURCE_VALUE },
		    "0xfea00004 2 drop\n");
	override_ok("0xfea00008 8 drop count 0",
		    (struct override_rule){ 0xfea00008, 0, 0, 8, 0, true, false, false, SOURCE_VALUE },
		    "0xfea00008 8 drop count 0\n");
	override_ok("4096\t1 =  255",
		    (struct override_rule){ 4096, 255, 0, 1, -1, false, false, false, SOURCE_VALUE },
		    "0x1000 1 = 0xff\n");
	override_ok("0xfffffffffffffff8 8 = 0xffffffffffffffff 0x8000000000000000 count 2147483647",
		    (struct override_rule){ 0xfffffffffffffff8ULL, UINT64_MAX, 1ULL << 63, 8,
					    2147483647, false, true, false, SOURCE_VALUE },
		    "0xfffffffffffffff8 8 = 0xffffffffffffffff 0x8000000000000000 count 2147483647\n");
	override_ok("!0x1000 4 =",
		    (struct override_rule){ 0x1000, 0, 0, 4, -1, false, false, true, SOURCE_VALUE }, "!0x1000 4 =\n");
	override_ok("!0x1000 4 = 0x5 0xf",
		    (struct override_rule){ 0x1000, 0, 0, 4, -1, false, false, true, SOURCE_VALUE }, "!0x1000 4 =\n");
	override_ok("!0x1000 4 drop",
		    (struct override_rule){ 0x1000, 0, 0, 4, -1, true, false, true, SOURCE_VALUE },
		    "!0x1000 4 drop\n");
	/* Values from the feed or a seed's sequence. */
	override_ok("0xfea00000 4 = feed 0xffffffff",
		    (struct override_rule){ 0xfea00000, 0, 0xffffffff, 4, -1, false, true, false,
					    SOURCE_FEED },
		    "0xfea00000 4 = feed 0xffffffff\n");
	override_ok("0xfea00000 4 = feed count 2",
		    (struct override_rule){ 0xfea00000, 0, 0, 4, 2, false, false, false, SOURCE_FEED },
		    "0xfea00000 4 = feed count 2\n");
	override_ok("0xfea00004 4 = random 0x9 0xffffffff count 2",
		    (struct override_rule){ 0xfea00004, 9, 0xffffffff, 4, 2, false, true, false,
					    SOURCE_RANDOM },
		    "0xfea00004 4 = random 0x9 0xffffffff count 2\n");
	override_ok("0x1000 1 = random 0xffffffffffffffff",
		    (struct override_rule){ 0x1000, UINT64_MAX, 0, 1, -1, false, false, false,
					    SOURCE_RANDOM },
		    "0x1000 1 = random 0xffffffffffffffff\n");
	override_ok("!0x1000 4 = feed",
		    (struct override_rule){ 0x1000, 0, 0, 4, -1, false, false, true, SOURCE_VALUE }, "!0x1000 4 =\n");
	override_ok("!0x1000 4 = random",
		    (struct override_rule){ 0x1000, 0, 0, 4, -1, false, false, true, SOURCE_VALUE },
		    "!0x1000 4 =\n");
	override_bad("0x1000 4 = random");		/* no SEED */
	override_bad("0x1000 4 = random count 1");	/* no SEED */
	override_bad("0x1000 4 = feed 0x100000000");	/* mask too wide */
	override_bad("0x1000 4 = feed 0");		/* empty mask */
	override_bad("0x1000 4 drop feed");
	override_bad("0x1000 4 = feed feed");
	override_bad("");
	override_bad("0x1000 4");
	override_bad("0x1000 4 =");			/* no VALUE */
	override_bad("0x1000 4 = count 3");		/* no VALUE */
	override_bad("0x1000 3 = 0x1");			/* width */
	override_bad("0x1002 4 = 0x1");			/* unaligned */
	override_bad("0x1000 1 = 0x100");		/* value too wide */
	override_bad("0x1000 2 = 0x1 0x10000");		/* mask too wide */
	override_bad("0x1000 4 = 0x1 0");		/* empty mask */
	override_bad("0x1000 4 = 0x1 0xf 0xf");
	override_bad("0x1000 4 = 0x1 count");
	override_bad("0x1000 4 = 0x1 count -1");
	override_bad("0x1000 4 = 0x1 count 2147483648");
	override_bad("0x1000 4 = 0x1 count 1 count 2");
	override_bad("0x1000 4 drop 0x1");
	override_bad("0x1000 4 drop count");
	override_bad("0x1000 4 == 0x1");
	override_bad("0x1000 4 = 010");			/* octal-looking */
	override_bad("!0x1000 4 drop count 1");		/* a count on a removal */
	override_bad("!0x1000 4");
	override_bad("! 0x1000 4 =");
	override_bad("!!0x1000 4 =");
	override_bad("0x1000 4 = 0x1\n\n");
	override_bad("0x1000 4 = 0x1\nx");
	override_bad("0x1000 4 = 0x00000000000000000000000000000000000000000000000000000000000000000000000000000000000001");
	{
		struct override_rule r = { .addr = 0x1000, .width = 4, .count = -1 };
		char small[8];

		report(format_override(&r, small, sizeof(small)) == -1, "override format refused",
		       "8 bytes of room");
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
	event_ok("  sh-1  [000] d..1.  12.345678: mmio_write: phys=0xfea00004 value=0x12345678 width=4 map_id=1 pc=0x0",
		 EVENT_WRITE, 12345678, 0xfea00004, 0x12345678, 4, 0);
	event_ok("  sh-1  [000] d..1.  1.5: mmio_read: phys=0x10 value=0xff width=1 map_id=-1 pc=0x0 override=mixed",
		 EVENT_READ, 1500000, 0x10, 0xff, 1, 1);
	/* Nanoseconds (trace-cmd report -t) are cut to microseconds. */
	event_ok("x:  sh-1 [000]  2.123456789: mmio_read:   phys=0x10 value=0x1 width=2 map_id=1 pc=0x0 override=replaced",
		 EVENT_READ, 2123456, 0x10, 0x1, 2, 2);
	event_ok("  sh-1  [000] d..1.  3.000000: mmio_read: phys=0x10 (16) value=0x1 (1) pc=0xffffffffc0001234 (-1073737164) device=0x3 (3) map_id=0xffffffff (-1) width=(8) override=(1)",
		 EVENT_READ, 3000000, 0x10, 0x1, 8, 1);
	event_ok("  sh-1  [000] .....  4.000000: mmio_map: map_id=2 phys=0xfea00000 virt=0xffffc90000015000 len=0x1000",
		 EVENT_MAP, 4000000, 0xfea00000, 0, 0, 0);
	event_ok("  sh-1  [000] .....  5.000000: tracing_mark_write: a: mmio_read: b", EVENT_MARK,
		 5000000, 0, 0, 0, 0);
	/* options/fields prints a one-byte field that is a letter as 'c'(N). */
	event_bad("  sh-1  [000] d..1.  3.000000: mmio_write: phys=0x10 value=0x41 width='A'(65) map_id=1 pc=0x0",
		  "malformed width= field ''A'(65)'");
	event_bad("  sh-1  [000] d..1.  3.000000: mmio_read: phys=0x10 value=0x1 width=4 map_id=1",
		  "no pc= field");
	event_bad("  sh-1  [000] d..1.  3.000000: mmio_read: phys=010 value=0x1 width=4 map_id=1 pc=0x0",
		  "malformed phys= field '010'");
	event_bad("  sh-1  [000] d..1.  3.000000: mmio_read: phys=0x1 value=0x1 width=4 map_id=-0x1 pc=0x0",
		  "malformed map_id= field '-0x1'");
	event_bad("  sh-1  [000] d..1.  3.000000: mmio_unmap: map_id=0x80000000", "malformed map_id= field '0x80000000'");
	event_bad("  sh-1  [000] d..1.  3.0000000000: mmio_unmap: map_id=1",
		  "no timestamp (secs.usecs) before the event's name");
	event_bad("  sh-1  [000] d..1.  123: mmio_unmap: map_id=1",
		  "no timestamp (secs.usecs) before the event's name");

	lost_ok("CPU:1 [LOST 12 EVENTS]", 12);
	lost_ok("CPU:0 [LOST EVENTS]", 0);
	lost_bad("CPU:1 [LOST 12 EVENTS] ");
	lost_bad("CPU: [LOST 12 EVENTS]");
	lost_bad("CPU:1 [LOST  EVENTS]");
	lost_bad("CPU:1 [LOST 99999999999999999999 EVENTS]");

	boot_size_is(1, "1");
	boot_size_is(1023, "1023");
	boot_size_is(1024, "1k");
	boot_size_is(3 << 20, "3M");
	boot_size_is(0x1000 + (1 << 20), "1028k");
	boot_size_is(1ULL << 40, "1024G");
	boot_size_is(UINT64_MAX, "18446744073709551615");

	report(!check_flight_name("flight") && !check_flight_name("a.b-c_123456789"),
	       "flight name accepted", "flight");
	report(check_flight_name("a/b") == -1 && check_flight_name("") == -1 &&
	       check_flight_name("a@b") == -1 && check_flight_name("a^b") == -1,
	       "flight name of an invalid instance rejected", "a/b");
	report(check_flight_name("abcdefghijklmnop") == -2, "flight name too long", "abcdefghijklmnop");
	report(check_flight_name("1flight") == -3, "flight name starting with a digit", "1flight");
	return failures ? 1 : 0;
}
