// SPDX-License-Identifier: GPL-2.0
/*
 * decode [--map FILE[@ADDR]]... [--fold] [--json] TRACE|-
 *
 * Each R/W line in a register map becomes "TIME W4 NVME+0x0014 0x00460001
 * CC <= EN=1 CSS=0 ...": the region and the offset in it, the value, the
 * register and its fields. Every other line is printed as it came. With
 * --fold a polling loop becomes one line: "... CSTS => RDY=0 x523 (2.1 ms),
 * then RDY=1". With --json each line becomes one JSON object (the schema
 * is in docs/mmioctl.1). The trace streams through: a run of reads is the
 * only thing held back.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/out.h"
#include "readers/analyze.h"
#include "readers/readers.h"

struct decoder {
	struct session *s;
	struct poll run;
	char *held;		/* the text of the run's first line */
	size_t held_len;
	bool json;
};

/* ---- text ---- */

static void text_access(const struct access *a, const char *line, size_t len)
{
	char buf[DECODED_MAX];

	if (!a->region->domain) {
		out_mem(line, len);
		return;
	}
	out_time(a->t.time_us);
	out_char(' ');
	out_mem(buf, access_text(a, buf, sizeof(buf)));
	if (a->t.pc) {
		out_str(" pc=0x");
		out_hex(a->t.pc, 1);
	}
}

/* " x523 (2.1 ms), then RDY=1" */
static void text_loop_suffix(const struct poll *run, const struct access *final)
{
	char buf[DECODED_MAX];

	out_str(" x");
	out_dec(run->count);
	format_span(run->first.t.time_us, final ? final->t.time_us : run->last_us,
		    buf, sizeof(buf));
	out_str(" (");
	out_str(buf);
	out_char(')');
	if (final) {
		out_str(", then ");
		out_mem(buf, access_changes(&run->first, final->t.value, buf, sizeof(buf)));
	}
}

/* ---- JSON ---- */

static void json_key(const char *key)
{
	out_char(',');
	out_char('"');
	out_str(key);
	out_str("\":");
}

static void json_hex(const char *key, uint64_t v)
{
	json_key(key);
	out_str("\"0x");
	out_hex(v, 1);
	out_char('"');
}

static void json_time(const char *key, uint64_t us)
{
	json_key(key);
	out_time(us);
}

static void json_start(unsigned long long line, const char *type)
{
	out_str("{\"line\":");
	out_dec(line);
	out_str(",\"type\":\"");
	out_str(type);
	out_char('"');
}

struct json_fields {
	bool first, enums;
};

/* JSON numbers past 2^53 lose digits in jq and JavaScript: those are hex strings. */
#define JSON_EXACT_MAX ((UINT64_C(1) << 53) - 1)

static void json_field(void *ctx, const char *name, uint64_t value, bool negative,
		       const char *enum_name)
{
	struct json_fields *j = ctx;

	if (j->enums && !enum_name)
		return;
	if (!j->first)
		out_char(',');
	j->first = false;
	out_json_string(name, strlen(name));
	out_char(':');
	if (j->enums) {
		out_json_string(enum_name, strlen(enum_name));
	} else if (value > JSON_EXACT_MAX) {
		out_str(negative ? "\"-0x" : "\"0x");
		out_hex(value, 1);
		out_char('"');
	} else {
		if (negative)
			out_char('-');
		out_dec(value);
	}
}

/* "decoded", "fields" and "enums" of a value of the access's register. */
static void json_decoded(const struct access *a, uint64_t value)
{
	struct json_fields j = { true, false };
	char buf[DECODED_MAX];

	json_key("decoded");
	out_json_string(buf, rm_decode(&a->hit, a->t.width, value, buf, sizeof(buf)));
	if (!rm_has_fields(&a->hit))
		return;
	json_key("fields");
	out_char('{');
	rm_fields(&a->hit, a->t.width, value, json_field, &j);
	out_char('}');
	json_key("enums");
	out_char('{');
	j.first = true;
	j.enums = true;
	rm_fields(&a->hit, a->t.width, value, json_field, &j);
	out_char('}');
}

/* The device and BAR of an access in a BAR: "bdf":"00:06.0","bar":0 */
static void json_bar(const struct region *r)
{
	json_key("bdf");
	out_char('"');
	out_hex(r->bus, 2);
	out_char(':');
	out_hex(r->devfn >> 3, 2);
	out_char('.');
	out_dec(r->devfn & 7);
	out_char('"');
	json_key("bar");
	out_dec(r->bar);
}

static void json_access(const struct access *a, const struct poll *run, const struct access *final)
{
	char name[256];

	json_start(a->line, a->t.type == TRACE_READ ? "R" : "W");
	json_time("time", a->t.time_us);
	json_key("width");
	out_dec(a->t.width);
	json_key("map_id");
	if (a->t.map_id < 0)
		out_char('-');
	out_dec(a->t.map_id < 0 ? -(uint64_t)a->t.map_id : (uint64_t)a->t.map_id);
	json_hex("phys", a->t.phys);
	json_hex("value", a->t.value);
	json_hex("pc", a->t.pc);
	json_key("pid");
	out_dec(a->t.pid);
	if (a->region->kind != REGION_PHYS) {
		json_key("region");
		out_json_string(a->region->label, strlen(a->region->label));
		json_hex("offset", a->offset);
	}
	if (a->region->kind == REGION_BAR)
		json_bar(a->region);
	if (a->hit.reg) {
		json_key("register");
		out_json_string(name, rm_name(&a->hit, name, sizeof(name)));
		json_decoded(a, a->t.value);
	}
	if (run) {
		json_key("repeat");
		out_dec(run->count);
		json_time("until", run->last_us);
		if (final) {
			json_key("then");
			out_str("{\"line\":");
			out_dec(final->line);
			json_time("time", final->t.time_us);
			json_hex("value", final->t.value);
			if (a->hit.reg)
				json_decoded(a, final->t.value);
			out_char('}');
		}
	}
	out_char('}');
}

static void json_pcidev(const struct trace_pcidev *dev)
{
	int i;
	bool first = true;

	json_key("bdf");
	out_char('"');
	out_hex(dev->bus, 2);
	out_char(':');
	out_hex(dev->devfn >> 3, 2);
	out_char('.');
	out_dec(dev->devfn & 7);
	out_char('"');
	json_key("vendor");
	out_str("\"0x");
	out_hex(dev->vendor, 4);
	out_char('"');
	json_key("device");
	out_str("\"0x");
	out_hex(dev->device, 4);
	out_char('"');
	json_key("irq");
	out_dec(dev->irq);
	json_key("resources");
	out_char('[');
	for (i = 0; i < PCIDEV_RESOURCES; i++) {
		bool io = dev->base[i] & 1;

		if (!dev->size[i])
			continue;
		if (!first)
			out_char(',');
		first = false;
		out_str("{\"index\":");
		out_dec(i);
		json_hex("base", dev->base[i] & ~(uint64_t)(io ? 3 : 15));
		json_hex("size", dev->size[i]);
		json_key("io");
		out_str(io ? "true" : "false");
		out_char('}');
	}
	out_char(']');
	json_key("driver");
	out_json_string(dev->driver, dev->driver_len);
}

static void json_other(const struct trace_line *t, unsigned long long line)
{
	static const char *const names[] = {
		[TRACE_COMMENT] = "COMMENT", [TRACE_VERSION] = "VERSION",
		[TRACE_PCIDEV] = "PCIDEV", [TRACE_MAP] = "MAP", [TRACE_UNMAP] = "UNMAP",
		[TRACE_MARK] = "MARK", [TRACE_LOST] = "LOST", [TRACE_UNKNOWN] = "UNKNOWN",
		[TRACE_PIO_READ] = "IN", [TRACE_PIO_WRITE] = "OUT", [TRACE_OTHER] = "OTHER",
	};

	if (t->type == TRACE_BLANK)
		return;
	json_start(line, names[t->type]);
	switch (t->type) {
	case TRACE_VERSION:
		json_key("version");
		out_dec(t->version);
		break;
	case TRACE_PCIDEV:
		json_pcidev(&t->pcidev);
		break;
	case TRACE_MAP:
	case TRACE_UNMAP:
	case TRACE_UNKNOWN:
		json_time("time", t->time_us);
		json_key("map_id");
		if (t->map_id < 0)
			out_char('-');
		out_dec(t->map_id < 0 ? -(uint64_t)t->map_id : (uint64_t)t->map_id);
		json_key("pid");
		out_dec(t->pid);
		if (t->type == TRACE_UNMAP)
			break;
		json_hex("phys", t->phys);
		if (t->type == TRACE_MAP) {
			json_hex("virt", t->virt);
			json_hex("len", t->len);
		} else {
			json_key("opcode");
			out_char('[');
			out_dec(t->opcode[0]);
			out_char(',');
			out_dec(t->opcode[1]);
			out_char(',');
			out_dec(t->opcode[2]);
			out_char(']');
			json_hex("pc", t->pc);
		}
		break;
	case TRACE_MARK:
		json_time("time", t->time_us);
		json_key("text");
		out_json_string(t->text, t->text_len);
		break;
	case TRACE_PIO_READ:
	case TRACE_PIO_WRITE:
		json_time("time", t->time_us);
		json_hex("port", t->phys);
		json_key("width");
		out_dec(t->width);
		json_hex("value", t->value);
		json_hex("pc", t->pc);
		json_key("pid");
		out_dec(t->pid);
		break;
	case TRACE_LOST:
		json_key("lost");
		out_dec(t->lost);
		break;
	default:	/* COMMENT, OTHER */
		json_key("text");
		out_json_string(t->text, t->text_len);
		break;
	}
	out_char('}');
}

/* ---- either ---- */

static void emit_access(struct decoder *d, const struct access *a, const char *line, size_t len)
{
	if (d->json)
		json_access(a, NULL, NULL);
	else
		text_access(a, line, len);
	out_char('\n');
}

/* A run that ended: a single read as it was, or a loop as one line. */
static int emit_run(void *ctx, const struct poll *run, const struct access *final)
{
	struct decoder *d = ctx;

	if (run->count == 1 && !final) {
		emit_access(d, &run->first, d->held, d->held_len);
	} else if (d->json) {
		json_access(&run->first, run, final);
		out_char('\n');
	} else {
		text_access(&run->first, d->held, d->held_len);
		text_loop_suffix(run, final);
		out_char('\n');
	}
	return 0;
}

static int decode_access(struct decoder *d, const struct trace_line *t, unsigned long long number,
			 const char *line, size_t len)
{
	struct access a;
	int taken;

	if (access_from(d->s, t, number, &a))
		return -1;
	if (!d->s->fold) {
		emit_access(d, &a, line, len);
		return 0;
	}
	taken = poll_feed(&d->run, &a, emit_run, d);
	if (taken < 0)
		return -1;
	if (!taken) {
		emit_access(d, &a, line, len);
	} else if (d->run.count == 1 && d->run.first.line == number) {
		/* A new run: its first line is printed as it is if it stays alone. */
		memcpy(d->held, line, len);
		d->held_len = len;
	}
	return 0;
}

static int decode_line(void *ctx, const struct trace_line *t, unsigned long long number,
		       const char *line, size_t len)
{
	struct decoder *d = ctx;

	if (trace_is_access(t))
		return decode_access(d, t, number, line, len);
	if (poll_flush(&d->run, emit_run, d) || regions_update(d->s, t))
		return -1;
	if (d->json) {
		json_other(t, number);
		if (t->type != TRACE_BLANK)
			out_char('\n');
	} else {
		out_mem(line, len);
		out_char('\n');
	}
	return 0;
}

/* What came before a bad line is printed before the message about it. */
static void decode_error(void *ctx)
{
	struct decoder *d = ctx;

	poll_flush(&d->run, emit_run, d);
	out_flush();
}

static int decode_trace(struct decoder *d, const char *path)
{
	struct trace_walk w = { decode_line, decode_error, out_push, d, NULL, 0 };
	int ret = walk_trace(path, &w);

	poll_flush(&d->run, emit_run, d);
	out_flush();
	if (!ret)
		session_note_unused_maps(d->s, w.name);
	return ret;
}

int cmd_decode(int argc, char **argv)
{
	struct session s;
	struct decoder d = { .s = &s };
	int ret;

	ret = session_start(&s, argc, argv, OPT_MAP | OPT_FOLD | OPT_JSON, 1);
	if (!ret) {
		d.json = s.json;
		d.held = malloc(TRACE_LINE_MAX);
		ret = d.held ? decode_trace(&d, s.paths[0]) : system_error("malloc");
		free(d.held);
	}
	session_end(&s);
	return ret;
}
