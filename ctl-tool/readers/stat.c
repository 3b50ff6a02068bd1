// SPDX-License-Identifier: GPL-2.0
/*
 * stat [--map FILE[@ADDR]]... [--json] TRACE|-
 *
 * Per register (or per offset where no map names one), in each region:
 * reads, writes, the first and last access, the values read and written
 * with their counts (most frequent first), and the polling loops found in
 * it (analyze.h). Memory grows with the registers touched, not the lines:
 * at most VALUES_MAX distinct values and LOOPS_KEPT loops are kept per
 * register, the rest are counted; a register with one value in each
 * direction and no loop is one struct reg_stats and an index slot.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/out.h"
#include "readers/analyze.h"
#include "readers/readers.h"

#define VALUES_MAX	32	/* distinct values kept per register and direction */
#define VALUES_SHOWN	4	/* in the text output */
#define LOOPS_KEPT	8	/* loops kept per register (the first ones) */

struct value_count {
	uint64_t value, count;
};

/* The kept values of a direction that has two or more (its n* counts them). */
struct values {
	struct value_count *v;
	unsigned int cap;
};

struct loop_record {
	unsigned long long line;
	uint64_t start_us, end_us, count, value, final;
	bool has_final;
};

/* What few registers have: two values or more in a direction, loops. */
struct reg_extra {
	struct values read, written;
	struct loop_record loops[LOOPS_KEPT];
	uint64_t nloops, polls;
};

/*
 * One register. A direction's only value is kept here; a second one moves
 * them to extra. A trace of millions of addresses each touched once (a
 * frame buffer) costs this, 88 bytes, and a 4-byte index slot per address.
 */
struct reg_stats {
	uint64_t offset;
	uint64_t reads, writes, first_us, last_us;
	struct value_count read1, written1;	/* while nread, nwritten <= 1 */
	struct reg_extra *extra;		/* NULL until needed */
	uint8_t nread, nwritten;		/* distinct values kept */
	uint16_t widths;			/* bit W: an access of W bytes */
};

/* A region's registers, in an array that an open-addressed index finds. */
struct region_stats {
	struct reg_stats *regs;		/* in the order first seen; sorted for the output */
	uint32_t n, cap;
	uint32_t *slots;		/* index + 1 into regs; 0: free */
	uint32_t nslots;		/* a power of two, or 0 */
	uint64_t reads, writes;
};

struct totals {
	unsigned long long lines;
	uint64_t reads, writes, lost, marks, maps, unmaps, unknown, other, pio_in, pio_out;
	uint64_t first_us, last_us;
	bool timed;
};

static uint32_t slot_of(uint64_t offset, uint32_t nslots)
{
	return (uint32_t)((offset * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (nslots - 1);
}

/* Index @i of rs->regs; the index has room. */
static void index_put(struct region_stats *rs, uint32_t i)
{
	uint32_t slot = slot_of(rs->regs[i].offset, rs->nslots);

	while (rs->slots[slot])
		slot = (slot + 1) & (rs->nslots - 1);
	rs->slots[slot] = i + 1;
}

/* Room for one more register: the array, and the index at most 3/4 full. */
static int make_room(struct region_stats *rs)
{
	uint32_t i;

	if (rs->n == UINT32_MAX - 1) {
		errno = ENOMEM;
		return -1;
	}
	if (rs->n == rs->cap) {
		uint32_t cap = rs->cap ? (rs->cap > UINT32_MAX / 2 ? UINT32_MAX - 1 : rs->cap * 2) : 64;
		struct reg_stats *regs = realloc(rs->regs, (size_t)cap * sizeof(*regs));

		if (!regs)
			return -1;
		rs->regs = regs;
		rs->cap = cap;
	}
	if ((uint64_t)(rs->n + 1) * 4 <= (uint64_t)rs->nslots * 3)
		return 0;
	free(rs->slots);
	rs->nslots = rs->nslots ? rs->nslots * 2 : 128;
	rs->slots = calloc(rs->nslots, sizeof(*rs->slots));
	if (!rs->slots)
		return -1;
	for (i = 0; i < rs->n; i++)
		index_put(rs, i);
	return 0;
}

static struct reg_stats *reg_of(struct region *r, uint64_t offset)
{
	struct region_stats *rs = r->data;
	struct reg_stats *reg;
	uint32_t slot;

	if (!rs) {
		rs = calloc(1, sizeof(*rs));
		if (!rs)
			return NULL;
		r->data = rs;
	}
	if (rs->nslots)
		for (slot = slot_of(offset, rs->nslots); rs->slots[slot];
		     slot = (slot + 1) & (rs->nslots - 1))
			if (rs->regs[rs->slots[slot] - 1].offset == offset)
				return &rs->regs[rs->slots[slot] - 1];
	if (make_room(rs))
		return NULL;
	reg = &rs->regs[rs->n];
	memset(reg, 0, sizeof(*reg));
	reg->offset = offset;
	index_put(rs, rs->n++);
	return reg;
}

static struct reg_extra *extra_of(struct reg_stats *reg)
{
	if (!reg->extra)
		reg->extra = calloc(1, sizeof(*reg->extra));
	return reg->extra;
}

/* Put @vc at index @i of @vs, which grows when @i reaches its end. */
static int put_value(struct values *vs, unsigned int i, struct value_count vc)
{
	if (i == vs->cap) {
		unsigned int cap = vs->cap ? vs->cap * 2 : 4;
		struct value_count *v = realloc(vs->v, cap * sizeof(*v));

		if (!v)
			return -1;
		vs->v = v;
		vs->cap = cap;
	}
	vs->v[i] = vc;
	return 0;
}

/* Count @value in its direction; past VALUES_MAX, values are only counted. */
static int count_value(struct reg_stats *reg, bool write, uint64_t value)
{
	struct value_count *one = write ? &reg->written1 : &reg->read1;
	uint8_t *n = write ? &reg->nwritten : &reg->nread;
	struct values *vs;
	unsigned int i;

	if (*n == 0 || (*n == 1 && one->value == value)) {
		one->value = value;
		one->count++;
		*n = 1;
		return 0;
	}
	if (!extra_of(reg))
		return -1;
	vs = write ? &reg->extra->written : &reg->extra->read;
	if (*n == 1 && put_value(vs, 0, *one))
		return -1;
	for (i = 0; i < *n; i++)
		if (vs->v[i].value == value) {
			vs->v[i].count++;
			return 0;
		}
	if (*n == VALUES_MAX)
		return 0;
	if (put_value(vs, *n, (struct value_count){ value, 1 }))
		return -1;
	(*n)++;
	return 0;
}

/* The kept values of a direction, most frequent first once sorted. */
static const struct value_count *kept_values(const struct reg_stats *reg, bool write,
					     unsigned int *n)
{
	*n = write ? reg->nwritten : reg->nread;
	if (*n <= 1)
		return write ? &reg->written1 : &reg->read1;
	return write ? reg->extra->written.v : reg->extra->read.v;
}

/* The accesses of a direction whose value was not kept. */
static uint64_t other_values(const struct reg_stats *reg, bool write)
{
	const struct value_count *v;
	uint64_t kept = 0;
	unsigned int i, n;

	v = kept_values(reg, write, &n);
	for (i = 0; i < n; i++)
		kept += v[i].count;
	return (write ? reg->writes : reg->reads) - kept;
}

static int count_access(const struct access *a)
{
	struct reg_stats *reg = reg_of(a->region, a->offset);
	struct region_stats *rs = a->region->data;
	bool write = a->t.type != TRACE_READ;

	if (!reg)
		return -1;
	if (!reg->reads && !reg->writes)
		reg->first_us = a->t.time_us;
	reg->last_us = a->t.time_us;
	reg->widths |= 1u << a->t.width;
	if (write) {
		reg->writes++;
		rs->writes++;
	} else {
		reg->reads++;
		rs->reads++;
	}
	return count_value(reg, write, a->t.value);
}

/* A run that ended: a loop if it had two reads or more. */
static int end_run(void *ctx, const struct poll *run, const struct access *final)
{
	struct reg_stats *reg;
	struct reg_extra *x;
	struct loop_record *l;

	(void)ctx;
	if (run->count < 2)
		return 0;
	reg = reg_of(run->first.region, run->first.offset);
	if (!reg || !extra_of(reg))
		return -1;
	x = reg->extra;
	if (x->nloops < LOOPS_KEPT) {
		l = &x->loops[x->nloops];
		l->line = run->first.line;
		l->start_us = run->first.t.time_us;
		l->end_us = final ? final->t.time_us : run->last_us;
		l->count = run->count;
		l->value = run->first.t.value;
		l->has_final = final;
		l->final = final ? final->t.value : 0;
	}
	x->nloops++;
	x->polls += run->count;
	return 0;
}

static void count_line(struct totals *tot, const struct trace_line *t)
{
	switch (t->type) {
	case TRACE_READ:
		tot->reads++;
		break;
	case TRACE_WRITE:
		tot->writes++;
		break;
	case TRACE_LOST:
		tot->lost += t->lost;
		return;
	case TRACE_MARK:
		tot->marks++;
		break;
	case TRACE_MAP:
		tot->maps++;
		break;
	case TRACE_UNMAP:
		tot->unmaps++;
		break;
	case TRACE_UNKNOWN:
		tot->unknown++;
		break;
	case TRACE_PIO_READ:
		tot->pio_in++;
		break;
	case TRACE_PIO_WRITE:
		tot->pio_out++;
		break;
	case TRACE_OTHER:
		tot->other++;
		return;
	default:
		return;
	}
	if (!tot->timed)
		tot->first_us = t->time_us;
	tot->timed = true;
	tot->last_us = t->time_us;
}

/* ---- output ---- */

static int by_offset(const void *a, const void *b)
{
	const struct reg_stats *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_count(const void *a, const void *b)
{
	const struct value_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* stat --sort: counts most first, times earliest first, ties by offset. */
static enum sort_key sort_key;

static uint64_t sort_value(const struct reg_stats *r)
{
	switch (sort_key) {
	case SORT_ACCESSES:
		return UINT64_MAX - (r->reads + r->writes);
	case SORT_READS:
		return UINT64_MAX - r->reads;
	case SORT_WRITES:
		return UINT64_MAX - r->writes;
	case SORT_FIRST:
		return r->first_us;
	case SORT_LAST:
		return r->last_us;
	default:
		return 0;
	}
}

static int by_sort_key(const void *a, const void *b)
{
	const struct reg_stats *x = a, *y = b;
	uint64_t vx = sort_value(x), vy = sort_value(y);

	if (vx != vy)
		return vx < vy ? -1 : 1;
	return by_offset(a, b);
}

/*
 * The registers of a region, sorted in place in --sort's order, their
 * values most frequent first (NULL when it has none). The index is gone:
 * the counting is over.
 */
static struct reg_stats *sorted_registers(const struct region *r, size_t *n)
{
	struct region_stats *rs = r->data;
	struct reg_stats *reg;
	uint32_t i;

	*n = 0;
	if (!rs || !rs->n)
		return NULL;
	free(rs->slots);
	rs->slots = NULL;
	rs->nslots = 0;
	for (i = 0; i < rs->n; i++) {
		reg = &rs->regs[i];
		if (reg->nread > 1)
			qsort(reg->extra->read.v, reg->nread, sizeof(*reg->extra->read.v), by_count);
		if (reg->nwritten > 1)
			qsort(reg->extra->written.v, reg->nwritten, sizeof(*reg->extra->written.v),
			      by_count);
	}
	qsort(rs->regs, rs->n, sizeof(*rs->regs), by_sort_key);
	*n = rs->n;
	return rs->regs;
}

/* A register's hit, for its name and its fields: at the offset, with its width. */
static void reg_hit(const struct region *r, const struct reg_stats *reg, struct access *a)
{
	unsigned int w;

	memset(a, 0, sizeof(*a));
	a->region = (struct region *)r;
	a->offset = reg->offset;
	a->t.type = TRACE_READ;
	for (w = 8; w && !(reg->widths & (1u << w)); w >>= 1)
		;
	a->t.width = w ? w : 4;
	if (r->domain)
		rm_lookup(r->domain, reg->offset, &a->hit);
}

static void region_header(const struct region *r, FILE *f)
{
	switch (r->kind) {
	case REGION_BAR:
		fprintf(f, "%s: %02x:%02x.%x %04x:%04x BAR%u at 0x%" PRIx64 ", 0x%" PRIx64 " bytes\n",
			r->label, r->bus, r->devfn >> 3, r->devfn & 7, r->vendor, r->device, r->bar,
			r->base, r->size);
		break;
	case REGION_BOUND:
		fprintf(f, "%s: bound by --map at 0x%" PRIx64 ", 0x%" PRIx64 " bytes\n", r->label,
			r->base, r->size);
		break;
	case REGION_MAPPING:
		fprintf(f, "%s: the mapping at 0x%" PRIx64 ", 0x%" PRIx64 " bytes (no PCIDEV line covers it)\n",
			r->label, r->base, r->size);
		break;
	case REGION_PHYS:
		fprintf(f, "%s: accesses of no known mapping (offsets are physical addresses)\n",
			r->label);
		break;
	}
}

static void text_values(FILE *f, const struct reg_stats *reg, bool write, bool *first)
{
	const struct value_count *v;
	uint64_t other;
	unsigned int i, n;

	v = kept_values(reg, write, &n);
	if (!n)
		return;
	other = other_values(reg, write);
	fprintf(f, "%s%s", *first ? "" : "; ", write ? "W" : "R");
	*first = false;
	for (i = 0; i < n && i < VALUES_SHOWN; i++)
		fprintf(f, "%s0x%" PRIx64 " x%" PRIu64, i ? ", " : " ", v[i].value, v[i].count);
	if (n > VALUES_SHOWN || other)
		fprintf(f, ", ... (%u%s distinct)", n, other ? "+" : "");
}

static void format_time(uint64_t us, char *buf, size_t size)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, us / 1000000, us % 1000000);
}

static void text_loop(FILE *f, int indent, const struct access *reg_access,
		      const struct loop_record *l)
{
	struct access a = *reg_access;
	char fields[DECODED_MAX], changes[DECODED_MAX], duration[64], start[32];

	a.t.value = l->value;
	access_fields(&a, fields, sizeof(fields));
	format_span(l->start_us, l->end_us, duration, sizeof(duration));
	format_time(l->start_us, start, sizeof(start));
	fprintf(f, "%*sloop at %s (line %llu): %s x%" PRIu64 " (%s)", indent, "", start, l->line,
		fields, l->count, duration);
	if (l->has_final) {
		access_changes(&a, l->final, changes, sizeof(changes));
		fprintf(f, ", then %s", changes);
	}
	fputc('\n', f);
}

/* The register's name at its offset, or "-". */
static void reg_name(const struct region *r, const struct reg_stats *reg, char *name, size_t size,
		     struct access *a)
{
	reg_hit(r, reg, a);
	name[0] = '\0';
	if (a->hit.reg)
		rm_name(&a->hit, name, size);
	else
		snprintf(name, size, "-");
}

/* Its loops, the first LOOPS_KEPT of them, and how many more. */
static void text_loops(FILE *f, int indent, const struct access *a, const struct reg_stats *reg)
{
	const struct reg_extra *x = reg->extra;
	uint64_t j;

	if (!x)
		return;
	for (j = 0; j < x->nloops && j < LOOPS_KEPT; j++)
		text_loop(f, indent, a, &x->loops[j]);
	if (x->nloops > LOOPS_KEPT)
		fprintf(f, "%*s... %" PRIu64 " more loops, %" PRIu64 " polling reads in all\n",
			indent, "", x->nloops - LOOPS_KEPT, x->polls);
}

/* Names are looked up twice, for the column widths and for the rows, not kept. */
static void text_region(FILE *f, const struct region *r, const struct reg_stats *regs, size_t n)
{
	const struct region_stats *rs = r->data;
	int name_width = 8, time_width = 5, offset_width = r->digits + 2 > 6 ? r->digits + 2 : 6;
	int indent = 2 + offset_width + 2;
	char first[32], last[32], name[128];
	struct access a;
	size_t i;

	for (i = 0; i < n; i++) {
		reg_name(r, &regs[i], name, sizeof(name), &a);
		if ((int)strlen(name) > name_width)
			name_width = strlen(name);
		format_time(regs[i].last_us, last, sizeof(last));
		if ((int)strlen(last) > time_width)
			time_width = strlen(last);
	}
	region_header(r, f);
	fprintf(f, "  %" PRIu64 " reads, %" PRIu64 " writes, %zu register%s\n", rs->reads, rs->writes,
		n, n == 1 ? "" : "s");
	fprintf(f, "  %-*s  %-*s %8s %8s  %-*s  %-*s  values\n", offset_width, "offset", name_width,
		"register", "reads", "writes", time_width, "first", time_width, "last");
	for (i = 0; i < n; i++) {
		const struct reg_stats *reg = &regs[i];
		bool none = true;

		reg_name(r, reg, name, sizeof(name), &a);
		format_time(reg->first_us, first, sizeof(first));
		format_time(reg->last_us, last, sizeof(last));
		fprintf(f, "  0x%0*" PRIx64 "%*s  %-*s %8" PRIu64 " %8" PRIu64 "  %-*s  %-*s  ",
			(int)r->digits, reg->offset, offset_width - (int)r->digits - 2, "", name_width,
			name, reg->reads, reg->writes, time_width, first, time_width, last);
		text_values(f, reg, false, &none);
		text_values(f, reg, true, &none);
		fputc('\n', f);
		text_loops(f, indent, &a, reg);
	}
}

static void print_text(const struct session *s, const struct totals *tot, const char *name)
{
	size_t i, n;

	printf("%s: %llu lines, %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " MAP, %" PRIu64
	       " UNMAP, %" PRIu64 " MARK, %" PRIu64 " UNKNOWN, %" PRIu64 " other lines, %" PRIu64
	       " events lost", name, tot->lines, tot->reads, tot->writes, tot->maps, tot->unmaps,
	       tot->marks, tot->unknown, tot->other, tot->lost);
	/* Only a trace with port accesses says so: the stock format has none. */
	if (tot->pio_in || tot->pio_out)
		printf(", %" PRIu64 " IN, %" PRIu64 " OUT", tot->pio_in, tot->pio_out);
	if (tot->timed)
		printf(", %" PRIu64 ".%06" PRIu64 " to %" PRIu64 ".%06" PRIu64, tot->first_us / 1000000,
		       tot->first_us % 1000000, tot->last_us / 1000000, tot->last_us % 1000000);
	putchar('\n');
	for (i = 0; i < s->regions.n; i++) {
		const struct region *r = s->regions.all[i];
		const struct reg_stats *regs = sorted_registers(r, &n);

		if (!regs)
			continue;
		putchar('\n');
		text_region(stdout, r, regs, n);
	}
}

/* ---- JSON: one document; numbers for counts and times, hex strings for addresses ---- */

static void jhex(const char *key, uint64_t v)
{
	printf(",\"%s\":\"0x%" PRIx64 "\"", key, v);
}

static void jtime(const char *key, uint64_t us)
{
	printf(",\"%s\":%" PRIu64 ".%06" PRIu64, key, us / 1000000, us % 1000000);
}

static void jstring(const char *s)
{
	out_json_string(s, strlen(s));
	out_flush();
}

static void json_values(const char *key, const struct reg_stats *reg, bool write)
{
	const struct value_count *v;
	unsigned int i, n;

	v = kept_values(reg, write, &n);
	printf(",\"%s\":[", key);
	for (i = 0; i < n; i++)
		printf("%s{\"value\":\"0x%" PRIx64 "\",\"count\":%" PRIu64 "}", i ? "," : "",
		       v[i].value, v[i].count);
	printf("],\"%s_other\":%" PRIu64, key, other_values(reg, write));
}

static void json_register(const struct region *r, const struct reg_stats *reg)
{
	const struct reg_extra *x = reg->extra;
	char buf[DECODED_MAX];
	struct access a;
	uint64_t j;
	unsigned int w;
	bool first = true;

	reg_hit(r, reg, &a);
	printf("{\"offset\":\"0x%" PRIx64 "\"", reg->offset);
	if (a.hit.reg) {
		printf(",\"register\":");
		rm_name(&a.hit, buf, sizeof(buf));
		jstring(buf);
		printf(",\"volatile\":%s", a.hit.reg->is_volatile ? "true" : "false");
	}
	printf(",\"widths\":[");
	for (w = 1; w <= 8; w <<= 1)
		if (reg->widths & (1u << w)) {
			printf("%s%u", first ? "" : ",", w);
			first = false;
		}
	printf("],\"reads\":%" PRIu64 ",\"writes\":%" PRIu64, reg->reads, reg->writes);
	jtime("first", reg->first_us);
	jtime("last", reg->last_us);
	json_values("read_values", reg, false);
	json_values("written_values", reg, true);
	printf(",\"loops\":[");
	for (j = 0; x && j < x->nloops && j < LOOPS_KEPT; j++) {
		const struct loop_record *l = &x->loops[j];

		printf("%s{\"line\":%llu", j ? "," : "", l->line);
		jtime("time", l->start_us);
		printf(",\"count\":%" PRIu64, l->count);
		jtime("seconds", l->end_us - l->start_us);
		jhex("value", l->value);
		if (l->has_final)
			jhex("final", l->final);
		else
			printf(",\"final\":null");
		a.t.value = l->value;
		access_fields(&a, buf, sizeof(buf));
		printf(",\"decoded\":");
		jstring(buf);
		putchar('}');
	}
	printf("],\"loops_total\":%" PRIu64 ",\"polls_total\":%" PRIu64 "}", x ? x->nloops : 0,
	       x ? x->polls : 0);
}

static void print_json(const struct session *s, const struct totals *tot, const char *name)
{
	static const char *const kinds[] = { "bound", "bar", "mapping", "phys" };
	bool first_region = true;
	size_t i, k, n;

	printf("{\"trace\":");
	jstring(name);
	printf(",\"lines\":%llu,\"reads\":%" PRIu64 ",\"writes\":%" PRIu64 ",\"maps\":%" PRIu64
	       ",\"unmaps\":%" PRIu64 ",\"marks\":%" PRIu64 ",\"unknown\":%" PRIu64
	       ",\"other\":%" PRIu64 ",\"lost\":%" PRIu64, tot->lines, tot->reads, tot->writes,
	       tot->maps, tot->unmaps, tot->marks, tot->unknown, tot->other, tot->lost);
	if (tot->pio_in || tot->pio_out)
		printf(",\"in\":%" PRIu64 ",\"out\":%" PRIu64, tot->pio_in, tot->pio_out);
	if (tot->timed) {
		jtime("first", tot->first_us);
		jtime("last", tot->last_us);
	}
	printf(",\"regions\":[");
	for (i = 0; i < s->regions.n; i++) {
		const struct region *r = s->regions.all[i];
		const struct reg_stats *regs = sorted_registers(r, &n);

		if (!regs)
			continue;
		printf("%s{\"label\":", first_region ? "" : ",");
		first_region = false;
		jstring(r->label);
		printf(",\"kind\":\"%s\"", kinds[r->kind]);
		if (r->domain) {
			printf(",\"domain\":");
			jstring(r->domain->name);
		}
		if (r->kind == REGION_BAR)
			printf(",\"bdf\":\"%02x:%02x.%x\",\"vendor\":\"0x%04x\",\"device\":\"0x%04x\",\"bar\":%u",
			       r->bus, r->devfn >> 3, r->devfn & 7, r->vendor, r->device, r->bar);
		if (r->kind != REGION_PHYS) {
			jhex("base", r->base);
			jhex("size", r->size);
		}
		printf(",\"registers\":[");
		for (k = 0; k < n; k++) {
			if (k)
				putchar(',');
			json_register(r, &regs[k]);
		}
		printf("]}");
	}
	printf("]}\n");
}

static void free_region_stats(void *data)
{
	struct region_stats *rs = data;
	size_t j;

	for (j = 0; j < rs->n; j++)
		if (rs->regs[j].extra) {
			free(rs->regs[j].extra->read.v);
			free(rs->regs[j].extra->written.v);
			free(rs->regs[j].extra);
		}
	free(rs->regs);
	free(rs->slots);
	free(rs);
}

struct stat_walk {
	struct session *s;
	struct totals tot;
	struct poll run;
};

static int stat_line(void *ctx, const struct trace_line *t, unsigned long long number,
		     const char *text, size_t len)
{
	struct stat_walk *sw = ctx;
	struct access a;

	(void)text;
	(void)len;
	count_line(&sw->tot, t);
	if (!trace_is_access(t))
		return poll_flush(&sw->run, end_run, NULL) || regions_update(sw->s, t) ? -1 : 0;
	if (access_from(sw->s, t, number, &a) || count_access(&a))
		return -1;
	return poll_feed(&sw->run, &a, end_run, NULL) < 0 ? -1 : 0;
}

static int stat_trace(struct session *s, const char *path)
{
	struct stat_walk sw = { .s = s };
	struct trace_walk w = { stat_line, NULL, NULL, &sw, NULL, 0 };
	int ret = walk_trace(path, &w);

	if (!ret && poll_flush(&sw.run, end_run, NULL))
		ret = system_error("malloc");
	if (!ret) {
		sw.tot.lines = w.lines;
		if (s->json)
			print_json(s, &sw.tot, w.name);
		else
			print_text(s, &sw.tot, w.name);
		session_note_unused_maps(s, w.name);
	}
	session_free_region_data(s, free_region_stats);
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct session s;
	int ret;

	ret = session_start(&s, argc, argv, OPT_MAP | OPT_JSON | OPT_SORT, 1);
	sort_key = s.sort;
	if (!ret)
		ret = stat_trace(&s, s.paths[0]);
	session_end(&s);
	return ret;
}
