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
 * same physical base for a mapping).
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
	unsigned long long reads, writes, loops;
	bool have_first, changes_alone;
	/* The order of one trace's accesses: cleared between traces. */
	bool have_read, have_value, written_since_read;
	uint64_t first_read, last_read, last_value, last_write;
	uint64_t changed;		/* bits that differed from one access to the next */
	uint64_t w1c;			/* bits a write of 1 cleared */
	uint64_t polled;		/* bits a polling loop waited on */
};

struct model_domain {
	bool pci;
	unsigned int vendor, device, bar;
	uint64_t base, size;		/* a mapping's; a BAR's size */
	char name[48];
	struct model_reg *regs;
	size_t nregs, cap;
	struct u64map by_offset;	/* offset -> index + 1 */
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
	struct model_domain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	if (m->ndomains == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 8;
		struct model_domain **bigger = realloc(m->domains, cap * sizeof(*bigger));

		if (!bigger) {
			free(d);
			return NULL;
		}
		m->domains = bigger;
		m->cap = cap;
	}
	d->pci = r->kind == REGION_BAR;
	d->vendor = r->vendor;
	d->device = r->device;
	d->bar = r->bar;
	d->base = r->base;
	d->size = r->size;
	if (d->pci)
		snprintf(d->name, sizeof(d->name), "PCI_%04X_%04X_BAR%u", r->vendor, r->device,
			 r->bar);
	else
		snprintf(d->name, sizeof(d->name), "MAP_%" PRIX64, r->base);
	m->domains[m->ndomains++] = d;
	return d;
}

/* The domain of region R (cached in r->data for this trace). */
static struct model_domain *domain_of(struct model *m, struct region *r)
{
	size_t i;

	if (r->data)
		return r->data;
	for (i = 0; i < m->ndomains; i++)
		if (same_device(m->domains[i], r))
			return r->data = m->domains[i];
	return r->data = new_domain(m, r);
}

static struct model_reg *reg_of(struct model_domain *d, uint64_t offset)
{
	void *found = u64map_get(&d->by_offset, offset);
	struct model_reg *reg;

	if (found)
		return &d->regs[(uintptr_t)found - 1];
	if (d->nregs == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 32;
		struct model_reg *bigger = realloc(d->regs, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		d->regs = bigger;
		d->cap = cap;
	}
	if (u64map_put(&d->by_offset, offset, (void *)(uintptr_t)(d->nregs + 1)))
		return NULL;
	reg = &d->regs[d->nregs++];
	memset(reg, 0, sizeof(*reg));
	reg->offset = offset;
	return reg;
}

/*
 * Write-1-to-clear: a read, a write of some of the bits it had set (an
 * interrupt status acknowledged), then a read with those bits clear.
 */
static uint64_t cleared_by_write(const struct model_reg *reg, uint64_t value)
{
	if (!reg->have_read || !reg->written_since_read || !reg->last_write ||
	    (reg->last_write & ~reg->last_read))
		return 0;
	return reg->last_write & ~value;
}

static void saw_read(struct model_reg *reg, uint64_t value)
{
	reg->reads++;
	reg->w1c |= cleared_by_write(reg, value);
	if (reg->have_read && !reg->written_since_read && value != reg->last_read)
		reg->changes_alone = true;
	if (!reg->have_first)
		reg->first_read = value;
	reg->have_first = true;
	reg->have_read = true;
	reg->last_read = value;
	reg->written_since_read = false;
}

static void saw_write(struct model_reg *reg, uint64_t value)
{
	reg->writes++;
	reg->last_write = value;
	reg->written_since_read = true;
}

static struct model_reg *reg_of_access(struct model *m, const struct access *a)
{
	struct model_domain *d;

	if (a->region->kind == REGION_PHYS)
		return NULL;
	d = domain_of(m, a->region);
	return d ? reg_of(d, a->offset) : NULL;
}

static int saw_access(struct model *m, const struct access *a)
{
	struct model_reg *reg;

	m->accesses++;
	if (a->region->kind == REGION_PHYS) {
		m->skipped++;
		return 0;
	}
	reg = reg_of_access(m, a);
	if (!reg)
		return -1;
	if (a->t.width > reg->width)
		reg->width = a->t.width;
	reg->widths |= a->t.width;
	if (reg->have_value)
		reg->changed |= reg->last_value ^ a->t.value;
	reg->have_value = true;
	reg->last_value = a->t.value;
	if (a->t.type == TRACE_READ)
		saw_read(reg, a->t.value);
	else
		saw_write(reg, a->t.value);
	return 0;
}

/* A polling loop that ended: the bits its final read differed in. */
static int saw_run(void *ctx, const struct poll *run, const struct access *final)
{
	struct model_reg *reg;

	if (run->count < 2 || run->first.region->kind == REGION_PHYS)
		return 0;
	reg = reg_of_access(ctx, &run->first);
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
	if (reg->have_first)
		doc_bits("first read", reg->first_read, reg);
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

static void write_model(struct model *m, const struct session *s)
{
	size_t i;
	int p;

	out_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!--\n  Inferred by mmioctl model from");
	for (p = 0; p < s->npaths; p++) {
		out_char(' ');
		out_str(strcmp(s->paths[p], "-") ? s->paths[p] : "standard input");
	}
	out_str(" (");
	out_dec(m->accesses);
	out_str(" accesses).\n  The names are offsets: rename what you recognise.\n-->\n");
	out_str("<database xmlns=\"http://nouveau.freedesktop.org/\">\n");
	for (i = 0; i < m->ndomains; i++)
		write_domain(m->domains[i]);
	out_str("\n</database>\n");
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

/* A new trace: what came before its first access is not known. */
static void forget_order(struct model *m)
{
	size_t i, r;

	for (i = 0; i < m->ndomains; i++)
		for (r = 0; r < m->domains[i]->nregs; r++) {
			struct model_reg *reg = &m->domains[i]->regs[r];

			reg->have_read = reg->have_value = reg->written_since_read = false;
		}
}

static int read_traces(struct model *m, struct session *s)
{
	int p, ret = 0;

	for (p = 0; p < s->npaths && !ret; p++) {
		struct trace_walk w = { model_line, NULL, NULL, m, NULL, 0 };

		session_reset_regions(s);
		forget_order(m);
		m->run.count = 0;
		ret = walk_trace(s->paths[p], &w);
		if (!ret && poll_flush(&m->run, saw_run, m))
			ret = system_error("malloc");
	}
	return ret;
}

int cmd_model(int argc, char **argv)
{
	struct session s;
	struct model m = { .s = &s };
	int ret;

	ret = session_start(&s, argc, argv, OPT_OUTPUT, TRACES_ANY);
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
	/* Opened only now: a refused trace leaves no file. */
	if (!ret && s.output)
		ret = output_to(s.output);
	if (!ret)
		write_model(&m, &s);
	out_flush();
	free_model(&m);
	session_end(&s);
	return ret;
}
