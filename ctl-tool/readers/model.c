// SPDX-License-Identifier: GPL-2.0
/*
 * model [-o FILE] TRACE...
 *
 * A register map for a device nobody mapped yet, inferred from what its
 * driver did: an rnndb skeleton that decode, stat and diff load as it is.
 * Per device (a BAR of a PCIDEV line: a domain bound to the device by
 * <pci>) or mapping outside every BAR (a domain to bind with
 * --map FILE@ADDR), every offset touched becomes a register of the widest
 * width it was accessed with, named by its offset (R0014), marked
 * read-only or write-only when it was, with bitfields for the runs of bits
 * seen to change, and a <doc> of what was seen: reads and writes, the
 * first value read (its reset value if the trace starts at the probe),
 * the bits that changed, whether it changed with no write in between (a
 * status register), the polling loops on it and the bits they waited on,
 * and the bits that a write of 1 cleared (a read with the bit set, a
 * write with it set, then a read with it clear: write-1-to-clear).
 *
 * No map is loaded: every register is named by its offset. Several
 * traces of the same device add up (same vendor:device and BAR, or the
 * same physical base for a mapping), as do two devices of one kind in a
 * trace; the order of accesses (what changed, what a write cleared) is
 * followed per device and per trace. Registers that overlap (one offset
 * read at two widths, a byte inside a word) become one.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/out.h"
#include "readers/analyze.h"
#include "readers/readers.h"

struct model_reg {
	uint64_t offset;
	unsigned int width;		/* the widest seen */
	unsigned int widths;		/* bit N: 2^N bytes seen */
	unsigned int inner;		/* bit K: accesses that start K bytes in (merged) */
	unsigned long long reads, writes, loops;
	bool have_first, write_before_first, changes_alone;
	uint64_t first_read;
	uint64_t changed;		/* bits that differed from one access to the next */
	uint64_t w1c;			/* bits a write of 1 cleared */
	uint64_t polled;		/* bits a polling loop waited on */
};

/*
 * A register's last accesses in one region of one trace: two devices of
 * one kind, or two traces, do not follow on from each other.
 */
struct reg_order {
	bool have_read, have_value, written_since_read;
	unsigned int last_width;
	uint64_t last_read, last_value, last_write;
};

struct model_domain {
	bool pci;
	unsigned int vendor, device, bar;
	uint64_t base, size;		/* a mapping's base; the size of what was seen */
	char name[48];
	struct model_reg *regs;
	size_t nregs, cap;
	struct u64map by_offset;	/* offset -> index + 1 */
};

/* A region of the trace being read (region->data). */
struct model_source {
	struct model_domain *domain;
	struct u64map order;		/* offset -> struct reg_order */
};

struct model {
	struct session *s;
	struct poll run;
	struct model_domain **domains;
	size_t ndomains, cap;
	unsigned long long accesses, skipped;
};

/* ---- what the traces did ---- */

static bool same_device(const struct model_domain *d, const struct region *r)
{
	if (r->kind == REGION_BAR)
		return d->pci && d->vendor == r->vendor && d->device == r->device && d->bar == r->bar;
	return !d->pci && d->base == r->base;
}

static struct model_domain *new_domain(struct model *m, const struct region *r)
{
	struct model_domain *d = calloc(1, sizeof(*d)), **domains;

	domains = grow_array(m->domains, &m->cap, m->ndomains, sizeof(*domains), 8);
	if (!d || !domains) {
		free(d);
		return NULL;
	}
	m->domains = domains;
	d->pci = r->kind == REGION_BAR;
	d->vendor = r->vendor;
	d->device = r->device;
	d->bar = r->bar;
	d->base = r->base;
	if (d->pci)
		snprintf(d->name, sizeof(d->name), "PCI_%04X_%04X_BAR%u", r->vendor, r->device,
			 r->bar);
	else
		snprintf(d->name, sizeof(d->name), "MAP_%" PRIX64, r->base);
	m->domains[m->ndomains++] = d;
	return d;
}

/* The source of region R in this trace, and its domain. */
static struct model_source *source_of(struct model *m, struct region *r)
{
	struct model_source *src = r->data;
	size_t i;

	if (src)
		return src;
	src = calloc(1, sizeof(*src));
	if (!src)
		return NULL;
	for (i = 0; i < m->ndomains && !src->domain; i++)
		if (same_device(m->domains[i], r))
			src->domain = m->domains[i];
	if (!src->domain)
		src->domain = new_domain(m, r);
	if (!src->domain) {
		free(src);
		return NULL;
	}
	r->data = src;
	return src;
}

static void free_source(void *data)
{
	struct model_source *src = data;
	size_t slot;

	for (slot = 0; slot < src->order.cap; slot++)
		if (src->order.values && src->order.values[slot])
			free(src->order.values[slot]);
	u64map_free(&src->order);
	free(src);
}

static struct model_reg *reg_of(struct model_domain *d, uint64_t offset)
{
	void *found = u64map_get(&d->by_offset, offset);
	struct model_reg *reg;

	if (found)
		return &d->regs[(uintptr_t)found - 1];
	reg = grow_array(d->regs, &d->cap, d->nregs, sizeof(*reg), 32);
	if (!reg)
		return NULL;
	d->regs = reg;
	if (u64map_put(&d->by_offset, offset, (void *)(uintptr_t)(d->nregs + 1)))
		return NULL;
	reg = &d->regs[d->nregs++];
	memset(reg, 0, sizeof(*reg));
	reg->offset = offset;
	return reg;
}

static struct reg_order *order_of(struct model_source *src, uint64_t offset)
{
	struct reg_order *order = u64map_get(&src->order, offset);

	if (order)
		return order;
	order = calloc(1, sizeof(*order));
	if (!order || u64map_put(&src->order, offset, order)) {
		free(order);
		return NULL;
	}
	return order;
}

/* The bits both accesses hold: the narrower one's bytes. */
static uint64_t common_bits(unsigned int width, unsigned int other)
{
	unsigned int bytes = width < other ? width : other;

	return bytes >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * bytes)) - 1;
}

/*
 * Write-1-to-clear: a read, a write of some of the bits it had set (an
 * interrupt status acknowledged), then a read with those bits clear.
 */
static uint64_t cleared_by_write(const struct reg_order *o, uint64_t value)
{
	if (!o->have_read || !o->written_since_read || !o->last_write ||
	    (o->last_write & ~o->last_read))
		return 0;
	return o->last_write & ~value;
}

static void saw_read(struct model_reg *reg, struct reg_order *o, const struct access *a)
{
	uint64_t value = a->t.value, mask = common_bits(a->t.width, o->last_width);

	reg->reads++;
	reg->w1c |= cleared_by_write(o, value) & mask;
	if (o->have_read && !o->written_since_read && ((value ^ o->last_read) & mask))
		reg->changes_alone = true;
	if (!reg->have_first) {
		reg->first_read = value;
		reg->write_before_first = reg->writes > 0;
	}
	reg->have_first = true;
	o->have_read = true;
	o->last_read = value;
	o->written_since_read = false;
}

static void saw_write(struct model_reg *reg, struct reg_order *o, uint64_t value)
{
	reg->writes++;
	o->last_write = value;
	o->written_since_read = true;
}

static int saw_access(struct model *m, const struct access *a)
{
	struct model_source *src;
	struct model_reg *reg;
	struct reg_order *o;

	m->accesses++;
	if (a->region->kind == REGION_PHYS) {
		m->skipped++;
		return 0;
	}
	src = source_of(m, a->region);
	reg = src ? reg_of(src->domain, a->offset) : NULL;
	o = src ? order_of(src, a->offset) : NULL;
	if (!reg || !o)
		return -1;
	/* A mapping seen longer later, or accesses past the BAR's size. */
	if (src->domain->size < a->region->size)
		src->domain->size = a->region->size;
	if (src->domain->size < a->offset + a->t.width)
		src->domain->size = a->offset + a->t.width;
	if (a->t.width > reg->width)
		reg->width = a->t.width;
	reg->widths |= a->t.width;
	if (o->have_value)
		reg->changed |= (o->last_value ^ a->t.value) & common_bits(a->t.width, o->last_width);
	o->have_value = true;
	o->last_value = a->t.value;
	if (a->t.type == TRACE_READ)
		saw_read(reg, o, a);
	else
		saw_write(reg, o, a->t.value);
	o->last_width = a->t.width;
	return 0;
}

/* A polling loop that ended: the bits its final read differed in. */
static int saw_run(void *ctx, const struct poll *run, const struct access *final)
{
	struct model *m = ctx;
	struct model_source *src;
	struct model_reg *reg;

	if (run->count < 2 || run->first.region->kind == REGION_PHYS)
		return 0;
	src = source_of(m, run->first.region);
	reg = src ? reg_of(src->domain, run->first.offset) : NULL;
	if (!reg)
		return -1;
	reg->loops++;
	if (final)
		reg->polled |= run->first.t.value ^ final->t.value;
	return 0;
}

static int model_line(void *ctx, const struct trace_line *t, unsigned long long number,
		      const char *text, size_t len)
{
	struct model *m = ctx;
	struct access a;

	(void)text;
	(void)len;
	if (trace_is_access(t)) {
		if (access_from(m->s, t, number, &a) || saw_access(m, &a))
			return -1;
		return poll_feed(&m->run, &a, saw_run, m) < 0 ? -1 : 0;
	}
	if (poll_flush(&m->run, saw_run, m))
		return -1;
	return regions_update(m->s, t);
}

/* ---- registers that overlap become one ---- */

/* REG, which starts inside INTO, is counted in INTO, INTO widened over it. */
static void absorb(struct model_reg *into, const struct model_reg *reg)
{
	unsigned int shift = (unsigned int)(reg->offset - into->offset);
	uint64_t end = reg->offset + reg->width;

	while (into->width < 8 && into->offset + into->width < end)
		into->width *= 2;
	into->inner |= (1u << shift) | reg->inner << shift;
	into->widths |= reg->widths;
	into->reads += reg->reads;
	into->writes += reg->writes;
	into->loops += reg->loops;
	into->changes_alone |= reg->changes_alone;
	into->changed |= reg->changed << 8 * shift;
	into->w1c |= reg->w1c << 8 * shift;
	into->polled |= reg->polled << 8 * shift;
	if (!into->have_first && reg->have_first) {
		into->have_first = true;
		into->first_read = reg->first_read << 8 * shift;
		into->write_before_first = reg->write_before_first;
	}
}

/*
 * rnndb has no two registers over one byte: a register accessed at two
 * widths, or inside a wider one, is one register (at most 8 bytes).
 */
static void merge_overlaps(struct model_domain *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->nregs; i++) {
		struct model_reg *prev = n ? &d->regs[n - 1] : NULL;

		if (prev && d->regs[i].offset < prev->offset + prev->width &&
		    d->regs[i].offset - prev->offset < 8)
			absorb(prev, &d->regs[i]);
		else
			d->regs[n++] = d->regs[i];
	}
	d->nregs = n;
}

/* ---- the map ---- */

static void out_hex_attr(const char *name, uint64_t v, unsigned int digits)
{
	out_char(' ');
	out_str(name);
	out_str("=\"0x");
	out_hex(v, digits);
	out_char('"');
}

static unsigned int offset_digits(const struct model_domain *d)
{
	unsigned int digits = 1;

	while (digits < 16 && d->size > (UINT64_C(1) << (4 * digits)))
		digits++;
	return digits;
}

/* "; bits 0x00000001 ..." with the register's width in hex digits. */
static void doc_bits(const char *what, uint64_t bits, const struct model_reg *reg)
{
	out_str("; ");
	out_str(what);
	out_str(" 0x");
	out_hex(bits, reg->width * 2);
}

static void write_doc(const struct model_reg *reg)
{
	out_str("\t\t<doc>");
	out_dec(reg->reads);
	out_str(reg->reads == 1 ? " read, " : " reads, ");
	out_dec(reg->writes);
	out_str(reg->writes == 1 ? " write" : " writes");
	if (reg->widths & (reg->widths - 1)) {
		unsigned int w;

		out_str("; widths");
		for (w = 1; w <= 8; w <<= 1)
			if (reg->widths & w) {
				out_char(' ');
				out_dec(w);
			}
	}
	if (reg->inner) {
		unsigned int k;

		out_str("; also accessed at");
		for (k = 1; k < 8; k++)
			if (reg->inner >> k & 1) {
				out_str(" +");
				out_dec(k);
			}
	}
	if (reg->have_first) {
		doc_bits("first read", reg->first_read, reg);
		if (reg->write_before_first)
			out_str(" (after a write)");
	}
	if (reg->changed)
		doc_bits("bits changed", reg->changed, reg);
	if (reg->changes_alone)
		out_str("; changed with no write in between");
	if (reg->loops) {
		out_str("; polled ");
		out_dec(reg->loops);
		out_str(reg->loops == 1 ? " time" : " times");
		if (reg->polled)
			doc_bits("waiting on bits", reg->polled, reg);
	}
	if (reg->w1c)
		doc_bits("write-1-to-clear? bits", reg->w1c, reg);
	out_str(".</doc>\n");
}

/*
 * A bitfield per run of changed bits. Not when more than FIELD_BITS_MAX
 * bits changed: that is a number (a count, an address), not flags.
 */
#define FIELD_BITS_MAX	8

static void write_bitfields(const struct model_reg *reg)
{
	unsigned int bits = reg->width * 8, low, high;

	if (!reg->changed || __builtin_popcountll(reg->changed) > FIELD_BITS_MAX)
		return;
	for (low = 0; low < bits; low = high + 1) {
		high = low;
		if (!(reg->changed >> low & 1))
			continue;
		while (high + 1 < bits && (reg->changed >> (high + 1) & 1))
			high++;
		out_str("\t\t<bitfield name=\"B");
		out_dec(low);
		if (high != low) {
			out_char('_');
			out_dec(high);
		}
		if (high == low) {
			out_str("\" pos=\"");
			out_dec(low);
		} else {
			out_str("\" low=\"");
			out_dec(low);
			out_str("\" high=\"");
			out_dec(high);
		}
		out_str("\"/>\n");
	}
}

static void write_reg(const struct model_domain *d, const struct model_reg *reg)
{
	unsigned int digits = offset_digits(d);

	out_str("\t<reg");
	out_dec(reg->width * 8);
	out_hex_attr("offset", reg->offset, digits);
	out_str(" name=\"R");
	out_hex(reg->offset, digits);
	out_char('"');
	if (!reg->writes)
		out_str(" access=\"r\"");
	else if (!reg->reads)
		out_str(" access=\"w\"");
	out_str(">\n");
	write_doc(reg);
	write_bitfields(reg);
	out_str("\t</reg");
	out_dec(reg->width * 8);
	out_str(">\n");
}

static int by_offset(const void *x, const void *y)
{
	const struct model_reg *a = x, *b = y;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

static void write_domain(struct model_domain *d)
{
	size_t i;

	qsort(d->regs, d->nregs, sizeof(*d->regs), by_offset);
	merge_overlaps(d);
	out_str("\n<domain name=\"");
	out_str(d->name);
	out_char('"');
	out_hex_attr("size", d->size, 1);
	out_str(">\n");
	if (d->pci) {
		out_str("\t<pci");
		out_hex_attr("vendor", d->vendor, 4);
		out_hex_attr("device", d->device, 4);
		out_str(" bar=\"");
		out_dec(d->bar);
		out_str("\"/>\n");
	} else {
		out_str("\t<doc>A mapping at 0x");
		out_hex(d->base, 1);
		out_str(": bind it with --map FILE@0x");
		out_hex(d->base, 1);
		out_str(".</doc>\n");
	}
	for (i = 0; i < d->nregs; i++)
		write_reg(d, &d->regs[i]);
	out_str("</domain>\n");
}

/*
 * TEXT in an XML comment: printable ASCII only (a path may hold any byte),
 * and no "--", which would end it.
 */
static void out_comment_text(const char *text)
{
	char prev = 0;

	for (; *text; text++) {
		char c = *text >= 0x20 && *text < 0x7f ? *text : '?';

		out_char(c == '-' && prev == '-' ? '?' : c);
		prev = c;
	}
}

static void write_model(struct model *m, const struct session *s)
{
	size_t i;
	int p;

	out_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n  Inferred by mmioctl model from");
	for (p = 0; p < s->npaths; p++) {
		out_char(' ');
		out_comment_text(strcmp(s->paths[p], "-") ? s->paths[p] : "standard input");
	}
	out_str(" (");
	out_dec(m->accesses - m->skipped);
	out_str(m->accesses - m->skipped == 1 ? " access" : " accesses");
	if (m->skipped) {
		out_str("; ");
		out_dec(m->skipped);
		out_str(" outside every BAR and mapping left out");
	}
	out_str(").\n  The names are offsets: rename what you recognise.\n-->\n");
	out_str("<database xmlns=\"http://nouveau.freedesktop.org/\">\n");
	for (i = 0; i < m->ndomains; i++)
		write_domain(m->domains[i]);
	out_str("\n</database>\n");
}

/* ---- the model as JSON (model --json) ---- */

static void json_hex(const char *key, uint64_t v, bool comma)
{
	out_char('"');
	out_str(key);
	out_str("\":\"0x");
	out_hex(v, 1);
	out_char('"');
	if (comma)
		out_char(',');
}

static void json_count(const char *key, unsigned long long v)
{
	out_char('"');
	out_str(key);
	out_str("\":");
	out_dec(v);
	out_char(',');
}

static void json_reg(const struct model_reg *reg)
{
	unsigned int w, k;
	bool first = true;

	out_char('{');
	json_hex("offset", reg->offset, true);
	json_count("width", reg->width);
	out_str("\"widths\":[");
	for (w = 1; w <= 8; w <<= 1)
		if (reg->widths & w) {
			if (!first)
				out_char(',');
			out_dec(w);
			first = false;
		}
	out_str("],\"inner\":[");
	for (first = true, k = 1; k < 8; k++)
		if (reg->inner >> k & 1) {
			if (!first)
				out_char(',');
			out_dec(k);
			first = false;
		}
	out_str("],");
	json_count("reads", reg->reads);
	json_count("writes", reg->writes);
	out_str("\"access\":\"");
	out_str(!reg->writes ? "r" : !reg->reads ? "w" : "rw");
	out_str("\",\"first_read\":");
	if (reg->have_first) {
		out_str("\"0x");
		out_hex(reg->first_read, 1);
		out_char('"');
	} else {
		out_str("null");
	}
	out_str(",\"written_before_first_read\":");
	out_str(reg->have_first && reg->write_before_first ? "true" : "false");
	out_char(',');
	json_hex("changed", reg->changed, true);
	out_str("\"changes_alone\":");
	out_str(reg->changes_alone ? "true," : "false,");
	json_count("loops", reg->loops);
	json_hex("polled", reg->polled, true);
	json_hex("w1c", reg->w1c, false);
	out_char('}');
}

static void json_domain(struct model_domain *d)
{
	size_t i;

	qsort(d->regs, d->nregs, sizeof(*d->regs), by_offset);
	merge_overlaps(d);
	out_str("{\"name\":");
	out_json_string(d->name, strlen(d->name));
	out_char(',');
	if (d->pci) {
		out_str("\"vendor\":\"");
		out_hex(d->vendor, 4);
		out_str("\",\"device\":\"");
		out_hex(d->device, 4);
		out_str("\",");
		json_count("bar", d->bar);
	} else {
		json_hex("base", d->base, true);
	}
	json_hex("size", d->size, true);
	out_str("\"registers\":[");
	for (i = 0; i < d->nregs; i++) {
		if (i)
			out_char(',');
		json_reg(&d->regs[i]);
	}
	out_str("]}");
}

static void json_model(struct model *m, const struct session *s)
{
	const char *path;
	size_t i;
	int p;

	out_str("{\"traces\":[");
	for (p = 0; p < s->npaths; p++) {
		path = strcmp(s->paths[p], "-") ? s->paths[p] : "standard input";
		if (p)
			out_char(',');
		out_json_string(path, strlen(path));
	}
	out_str("],");
	json_count("accesses", m->accesses - m->skipped);
	json_count("skipped", m->skipped);
	out_str("\"devices\":[");
	for (i = 0; i < m->ndomains; i++) {
		if (i)
			out_char(',');
		json_domain(m->domains[i]);
	}
	out_str("]}\n");
}

static void free_model(struct model *m)
{
	size_t i;

	for (i = 0; i < m->ndomains; i++) {
		u64map_free(&m->domains[i]->by_offset);
		free(m->domains[i]->regs);
		free(m->domains[i]);
	}
	free(m->domains);
}

static int read_traces(struct model *m, struct session *s)
{
	int p, ret = 0;

	for (p = 0; p < s->npaths && !ret; p++) {
		struct trace_walk w = { model_line, NULL, NULL, m, NULL, 0 };

		m->run.count = 0;
		ret = walk_trace(s->paths[p], &w);
		if (!ret && poll_flush(&m->run, saw_run, m))
			ret = system_error("malloc");
		/* The next trace's regions are its own, and so is their order. */
		session_free_region_data(s, free_source);
		session_reset_regions(s);
	}
	return ret;
}

int cmd_model(int argc, char **argv)
{
	struct session s;
	struct model m = { .s = &s };
	int ret;

	ret = session_start(&s, argc, argv, OPT_OUTPUT | OPT_JSON, TRACES_ANY);
	if (!ret)
		ret = read_traces(&m, &s);
	if (!ret && !m.ndomains) {
		fprintf(stderr, "mmioctl: model: no access to a device or a mapping in the trace%s\n",
			s.npaths > 1 ? "s" : "");
		ret = EXIT_REFUSED;
	}
	if (!ret && m.skipped)
		fprintf(stderr, "mmioctl: model: %llu access%s outside every BAR and mapping left out\n",
			m.skipped, m.skipped == 1 ? "" : "es");
	/* Written only now: a refused trace leaves FILE as it was. */
	if (!ret && s.output)
		ret = output_start(s.output);
	if (!ret) {
		if (s.json)
			json_model(&m, &s);
		else
			write_model(&m, &s);
		out_flush();
		if (s.output)
			ret = output_end(0);
	}
	free_model(&m);
	session_end(&s);
	return ret;
}
