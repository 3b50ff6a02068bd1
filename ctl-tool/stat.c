// SPDX-License-Identifier: GPL-2.0
/*
 * stat [--map FILE[@ADDR]]... [--json] TRACE|-
 *
 * Per register (or per offset where no map names one), in each region:
 * reads, writes, the first and last access, the values read and written
 * with their counts (most frequent first), and the polling loops found in
 * it (analyze.h). Memory grows with the registers touched, not the lines:
 * at most VALUES_MAX distinct values and LOOPS_KEPT loops are kept per
 * register, the rest are counted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "mmioctl.h"
#include "out.h"

#define VALUES_MAX	32	/* distinct values kept per register and direction */
#define VALUES_SHOWN	4	/* in the text output */
#define LOOPS_KEPT	8	/* loops kept per register (the first ones) */

struct value_count {
	uint64_t value, count;
};

struct values {
	struct value_count *v;
	unsigned int n, cap;
	uint64_t other;		/* accesses whose value was not kept */
};

struct loop_record {
	unsigned long long line;
	uint64_t start_us, end_us, count, value, final;
	bool has_final;
};

struct reg_stats {
	uint64_t offset;
	uint64_t reads, writes, first_us, last_us;
	unsigned int widths;	/* bit W: an access of W bytes */
	struct values read, written;
	struct loop_record loops[LOOPS_KEPT];
	uint64_t nloops, polls;
};

struct region_stats {
	struct u64map regs;	/* offset -> struct reg_stats */
	uint64_t reads, writes;
};

struct totals {
	unsigned long long lines;
	uint64_t reads, writes, lost, marks, maps, unmaps, unknown, other;
	uint64_t first_us, last_us;
	bool timed;
};

static struct reg_stats *reg_of(struct region *r, uint64_t offset)
{
	struct region_stats *rs = r->data;
	struct reg_stats *reg;

	if (!rs) {
		rs = calloc(1, sizeof(*rs));
		if (!rs)
			return NULL;
		r->data = rs;
	}
	reg = u64map_get(&rs->regs, offset);
	if (reg)
		return reg;
	reg = calloc(1, sizeof(*reg));
	if (!reg || u64map_put(&rs->regs, offset, reg)) {
		free(reg);
		return NULL;
	}
	reg->offset = offset;
	return reg;
}

static int count_value(struct values *vs, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < vs->n; i++)
		if (vs->v[i].value == value) {
			vs->v[i].count++;
			return 0;
		}
	if (vs->n == VALUES_MAX) {
		vs->other++;
		return 0;
	}
	if (vs->n == vs->cap) {
		unsigned int cap = vs->cap ? vs->cap * 2 : 2;
		struct value_count *v = realloc(vs->v, cap * sizeof(*v));

		if (!v)
			return -1;
		vs->v = v;
		vs->cap = cap;
	}
	vs->v[vs->n].value = value;
	vs->v[vs->n++].count = 1;
	return 0;
}

static int count_access(const struct access *a)
{
	struct reg_stats *reg = reg_of(a->region, a->offset);
	struct region_stats *rs = a->region->data;

	if (!reg)
		return -1;
	if (!reg->reads && !reg->writes)
		reg->first_us = a->t.time_us;
	reg->last_us = a->t.time_us;
	reg->widths |= 1u << a->t.width;
	if (a->t.type == TRACE_READ) {
		reg->reads++;
		rs->reads++;
		return count_value(&reg->read, a->t.value);
	}
	reg->writes++;
	rs->writes++;
	return count_value(&reg->written, a->t.value);
}

/* A run that ended: a loop if it had two reads or more. */
static int end_run(void *ctx, const struct poll *run, const struct access *final)
{
	struct reg_stats *reg;
	struct loop_record *l;

	(void)ctx;
	if (run->count < 2)
		return 0;
	reg = reg_of(run->first.region, run->first.offset);
	if (!reg)
		return -1;
	if (reg->nloops < LOOPS_KEPT) {
		l = &reg->loops[reg->nloops];
		l->line = run->first.line;
		l->start_us = run->first.t.time_us;
		l->end_us = final ? final->t.time_us : run->last_us;
		l->count = run->count;
		l->value = run->first.t.value;
		l->has_final = final;
		l->final = final ? final->t.value : 0;
	}
	reg->nloops++;
	reg->polls += run->count;
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
	const struct reg_stats *x = *(const struct reg_stats *const *)a;
	const struct reg_stats *y = *(const struct reg_stats *const *)b;

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
	const struct reg_stats *x = *(const struct reg_stats *const *)a;
	const struct reg_stats *y = *(const struct reg_stats *const *)b;
	uint64_t vx = sort_value(x), vy = sort_value(y);

	if (vx != vy)
		return vx < vy ? -1 : 1;
	return by_offset(a, b);
}

/* The registers of a region, in --sort's order (NULL when it has none). */
static struct reg_stats **sorted_registers(const struct region *r, size_t *n)
{
	const struct region_stats *rs = r->data;
	struct reg_stats **regs;
	size_t i;

	*n = 0;
	if (!rs || !rs->regs.n)
		return NULL;
	regs = malloc(rs->regs.n * sizeof(*regs));
	if (!regs)
		return NULL;
	for (i = 0; i < rs->regs.cap; i++)
		if (rs->regs.values[i]) {
			struct reg_stats *reg = rs->regs.values[i];

			if (reg->read.n > 1)
				qsort(reg->read.v, reg->read.n, sizeof(*reg->read.v), by_count);
			if (reg->written.n > 1)
				qsort(reg->written.v, reg->written.n, sizeof(*reg->written.v), by_count);
			regs[(*n)++] = reg;
		}
	if (*n > 1)
		qsort(regs, *n, sizeof(*regs), by_sort_key);
	return regs;
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

static void text_values(FILE *f, const char *dir, const struct values *vs, bool *first)
{
	unsigned int i;

	if (!vs->n)
		return;
	fprintf(f, "%s%s", *first ? "" : "; ", dir);
	*first = false;
	for (i = 0; i < vs->n && i < VALUES_SHOWN; i++)
		fprintf(f, "%s0x%" PRIx64 " x%" PRIu64, i ? ", " : " ", vs->v[i].value,
			vs->v[i].count);
	if (vs->n > VALUES_SHOWN || vs->other)
		fprintf(f, ", ... (%u%s distinct)", vs->n, vs->other ? "+" : "");
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

static void text_region(FILE *f, const struct region *r, struct reg_stats **regs, size_t n)
{
	const struct region_stats *rs = r->data;
	char (*names)[128] = malloc((n ? n : 1) * sizeof(*names));
	int name_width = 8, time_width = 5, offset_width = r->digits + 2 > 6 ? r->digits + 2 : 6;
	int indent;
	char first[32], last[32];
	size_t i;
	uint64_t j;

	if (!names) {
		fprintf(f, "%s: %s\n", r->label, strerror(ENOMEM));
		return;
	}
	for (i = 0; i < n; i++) {
		struct access a;

		reg_hit(r, regs[i], &a);
		names[i][0] = '\0';
		if (a.hit.reg)
			rm_name(&a.hit, names[i], sizeof(names[i]));
		else
			snprintf(names[i], sizeof(names[i]), "-");
		if ((int)strlen(names[i]) > name_width)
			name_width = strlen(names[i]);
		format_time(regs[i]->last_us, last, sizeof(last));
		if ((int)strlen(last) > time_width)
			time_width = strlen(last);
	}
	indent = 2 + offset_width + 2;
	region_header(r, f);
	fprintf(f, "  %" PRIu64 " reads, %" PRIu64 " writes, %zu register%s\n", rs->reads, rs->writes,
		n, n == 1 ? "" : "s");
	fprintf(f, "  %-*s  %-*s %8s %8s  %-*s  %-*s  values\n", offset_width, "offset", name_width,
		"register", "reads", "writes", time_width, "first", time_width, "last");
	for (i = 0; i < n; i++) {
		const struct reg_stats *reg = regs[i];
		bool none = true;
		struct access a;

		reg_hit(r, reg, &a);
		format_time(reg->first_us, first, sizeof(first));
		format_time(reg->last_us, last, sizeof(last));
		fprintf(f, "  0x%0*" PRIx64 "%*s  %-*s %8" PRIu64 " %8" PRIu64 "  %-*s  %-*s  ",
			(int)r->digits, reg->offset, offset_width - (int)r->digits - 2, "", name_width,
			names[i], reg->reads, reg->writes, time_width, first, time_width, last);
		text_values(f, "R", &reg->read, &none);
		text_values(f, "W", &reg->written, &none);
		fputc('\n', f);
		for (j = 0; j < reg->nloops && j < LOOPS_KEPT; j++)
			text_loop(f, indent, &a, &reg->loops[j]);
		if (reg->nloops > LOOPS_KEPT)
			fprintf(f, "%*s... %" PRIu64 " more loops, %" PRIu64 " polling reads in all\n",
				indent, "", reg->nloops - LOOPS_KEPT, reg->polls);
	}
	free(names);
}

static void print_text(const struct session *s, const struct totals *tot, const char *name)
{
	size_t i, n;

	printf("%s: %llu lines, %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " MAP, %" PRIu64
	       " UNMAP, %" PRIu64 " MARK, %" PRIu64 " UNKNOWN, %" PRIu64 " other lines, %" PRIu64
	       " events lost", name, tot->lines, tot->reads, tot->writes, tot->maps, tot->unmaps,
	       tot->marks, tot->unknown, tot->other, tot->lost);
	if (tot->timed)
		printf(", %" PRIu64 ".%06" PRIu64 " to %" PRIu64 ".%06" PRIu64, tot->first_us / 1000000,
		       tot->first_us % 1000000, tot->last_us / 1000000, tot->last_us % 1000000);
	putchar('\n');
	for (i = 0; i < s->regions.n; i++) {
		const struct region *r = s->regions.all[i];
		struct reg_stats **regs = sorted_registers(r, &n);

		if (!regs)
			continue;
		putchar('\n');
		text_region(stdout, r, regs, n);
		free(regs);
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

static void json_values(const char *key, const struct values *vs)
{
	unsigned int i;

	printf(",\"%s\":[", key);
	for (i = 0; i < vs->n; i++)
		printf("%s{\"value\":\"0x%" PRIx64 "\",\"count\":%" PRIu64 "}", i ? "," : "",
		       vs->v[i].value, vs->v[i].count);
	printf("],\"%s_other\":%" PRIu64, key, vs->other);
}

static void json_register(const struct region *r, const struct reg_stats *reg)
{
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
	json_values("read_values", &reg->read);
	json_values("written_values", &reg->written);
	printf(",\"loops\":[");
	for (j = 0; j < reg->nloops && j < LOOPS_KEPT; j++) {
		const struct loop_record *l = &reg->loops[j];

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
	printf("],\"loops_total\":%" PRIu64 ",\"polls_total\":%" PRIu64 "}", reg->nloops, reg->polls);
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
	if (tot->timed) {
		jtime("first", tot->first_us);
		jtime("last", tot->last_us);
	}
	printf(",\"regions\":[");
	for (i = 0; i < s->regions.n; i++) {
		const struct region *r = s->regions.all[i];
		struct reg_stats **regs = sorted_registers(r, &n);

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
			json_register(r, regs[k]);
		}
		printf("]}");
		free(regs);
	}
	printf("]}\n");
}

static void free_stats(struct session *s)
{
	size_t i, j;

	for (i = 0; i < s->regions.n; i++) {
		struct region_stats *rs = s->regions.all[i]->data;

		if (!rs)
			continue;
		for (j = 0; j < rs->regs.cap; j++) {
			struct reg_stats *reg = rs->regs.values[j];

			if (reg) {
				free(reg->read.v);
				free(reg->written.v);
				free(reg);
			}
		}
		u64map_free(&rs->regs);
		free(rs);
		s->regions.all[i]->data = NULL;
	}
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
	free_stats(s);
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
