// SPDX-License-Identifier: GPL-2.0
/*
 * timeline [--map FILE[@ADDR]... | --map-dir DIR... | --no-maps] [-o FILE] TRACE|-
 *
 * The trace in the Chrome/Perfetto JSON trace format ("Trace Event
 * Format": an object whose traceEvents array Perfetto's UI and
 * chrome://tracing open as they are), to look at in time:
 *
 *   - one process per region (a device's BAR, a mapping, "phys"), named by
 *     its label; in it one thread per process of the trace's pid column
 *     ("kernel" for pid 0), since the stock format has no CPU column;
 *   - a counter per register (or BAR offset) whose value is the last value
 *     read or written there;
 *   - each read and write an instant event on its thread, named "R CSTS"
 *     or "W +0x0014", the value, width, line and decoded fields in args;
 *   - a polling loop (analyze.h) one complete event ("X") over the reads
 *     of the loop, its count and the value it waited for in args;
 *   - process 0, "trace": MAP and UNMAP lines as instants, MARK lines and
 *     lost events as global instants (a line across every track).
 *
 * Times are the trace's microseconds (the format's "ts" unit). Values are
 * JSON numbers in the counters (a viewer's doubles: exact to 2^53) and hex
 * strings in args.
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

#define TRACE_PID	0	/* process "trace": maps, markers, lost events */

struct timeline {
	struct session *s;
	struct poll run;
	unsigned long long events;
	uint64_t last_us;	/* of the last line with a time */
};

/* Per region (region->data): its threads already named, by pid. */
struct track {
	struct u64map threads;
};

/* ---- events ---- */

/* Opens an event object of phase PH on PID/TID: the caller adds and closes it. */
static void event_start(struct timeline *tl, const char *ph, uint64_t pid, uint64_t tid)
{
	out_str(tl->events++ ? ",\n{\"ph\":\"" : "{\"ph\":\"");
	out_str(ph);
	out_str("\",\"pid\":");
	out_dec(pid);
	out_str(",\"tid\":");
	out_dec(tid);
}

static void json_key(const char *name)
{
	out_str(",\"");
	out_str(name);
	out_str("\":");
}

static void json_hex(const char *name, uint64_t v)
{
	json_key(name);
	out_str("\"0x");
	out_hex(v, 1);
	out_char('"');
}

static void json_ts(uint64_t us)
{
	json_key("ts");
	out_dec(us);
}

/* A metadata event: process or thread NAME ("process_name", "thread_name"). */
static void metadata(struct timeline *tl, const char *what, uint64_t pid, uint64_t tid,
		     const char *name, size_t len)
{
	event_start(tl, "M", pid, tid);
	json_key("name");
	out_str("\"");
	out_str(what);
	out_str("\",\"args\":{\"name\":");
	out_json_string(name, len);
	out_str("}}");
}

static void sort_index(struct timeline *tl, uint64_t pid)
{
	event_start(tl, "M", pid, 0);
	out_str(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":");
	out_dec(pid);
	out_str("}}");
}

/* Regions are processes 1, 2, ... in the order the trace met them. */
static uint64_t region_pid(const struct region *r)
{
	return r->index + 1;
}

/* Name the region's process, and the thread of PID in it, when first seen. */
static int name_track(struct timeline *tl, struct region *r, uint64_t pid)
{
	struct track *track = r->data;
	char name[32];

	if (!track) {
		track = calloc(1, sizeof(*track));
		if (!track)
			return -1;
		r->data = track;
		metadata(tl, "process_name", region_pid(r), 0, r->label, strlen(r->label));
		sort_index(tl, region_pid(r));
	}
	if (u64map_get(&track->threads, pid))
		return 0;
	if (u64map_put(&track->threads, pid, track))
		return -1;
	if (pid)
		snprintf(name, sizeof(name), "pid %" PRIu64, pid);
	else
		snprintf(name, sizeof(name), "kernel");
	metadata(tl, "thread_name", region_pid(r), pid, name, strlen(name));
	return 0;
}

/* The counter of A's register takes VALUE at time US. */
static void counter(struct timeline *tl, const struct access *a, uint64_t us, uint64_t value)
{
	char name[256];

	event_start(tl, "C", region_pid(a->region), 0);
	json_key("name");
	out_json_string(name, access_register_name(a, name, sizeof(name)));
	json_ts(us);
	out_str(",\"args\":{\"value\":");
	out_dec(value);
	out_str("}}");
}

/* "value", "width", "line", "pc" and, with a register, "decoded" of A's VALUE. */
static void access_args(const struct access *a, uint64_t value)
{
	char buf[DECODED_MAX];

	out_str(",\"args\":{\"line\":");
	out_dec(a->line);
	json_hex("value", value);
	json_key("width");
	out_dec(a->t.width);
	json_hex("offset", a->offset);
	json_hex("phys", a->t.phys);
	if (a->t.pc)
		json_hex("pc", a->t.pc);
	if (a->hit.reg) {
		json_key("decoded");
		out_json_string(buf, rm_decode(&a->hit, a->t.width, value, buf, sizeof(buf)));
	}
}

/* Opens event PH named NAME (LEN bytes) on PID/TID at time US: the caller closes it. */
static void named_event_start(struct timeline *tl, const char *ph, uint64_t pid, uint64_t tid,
			      const char *name, size_t len, uint64_t us)
{
	event_start(tl, ph, pid, tid);
	json_key("name");
	out_json_string(name, len);
	json_ts(us);
}

/*
 * Opens an event of phase PH on A's thread at A's time, named PREFIX and
 * A's register ("R CSTS", "poll CSTS"), its track named first if new: the
 * caller adds and closes it.
 */
static int register_event_start(struct timeline *tl, const char *ph, const char *prefix,
				const struct access *a)
{
	size_t len = strlen(prefix);
	char name[256];

	if (name_track(tl, a->region, a->t.pid))
		return -1;
	memcpy(name, prefix, len);
	len += access_register_name(a, name + len, sizeof(name) - len);
	named_event_start(tl, ph, region_pid(a->region), a->t.pid, name, len, a->t.time_us);
	return 0;
}

/* A read or write: its instant and its register's counter. */
static int access_event(struct timeline *tl, const struct access *a)
{
	if (register_event_start(tl, "i", a->t.type == TRACE_READ ? "R " : "W ", a))
		return -1;
	out_str(",\"s\":\"t\"");
	access_args(a, a->t.value);
	out_str("}}");
	counter(tl, a, a->t.time_us, a->t.value);
	return 0;
}

/* A polling loop: a complete event over its reads, then its final read. */
static int loop_event(struct timeline *tl, const struct poll *run, const struct access *final)
{
	const struct access *a = &run->first;
	uint64_t end_us = final ? final->t.time_us : run->last_us;

	if (register_event_start(tl, "X", "poll ", a))
		return -1;
	json_key("dur");
	/* A clock that went backwards gives a loop of no length, not 2^64 us. */
	out_dec(end_us >= a->t.time_us ? end_us - a->t.time_us : 0);
	access_args(a, a->t.value);
	json_key("count");
	out_dec(run->count);
	if (final)
		json_hex("then", final->t.value);
	out_str("}}");
	counter(tl, a, a->t.time_us, a->t.value);
	return final ? access_event(tl, final) : 0;
}

static int run_ended(void *ctx, const struct poll *run, const struct access *final)
{
	struct timeline *tl = ctx;

	if (run->count == 1 && !final)
		return access_event(tl, &run->first);
	return loop_event(tl, run, final);
}

/*
 * Opens an instant event NAME at time US of SCOPE ('t' its thread, 'p' its
 * process, 'g' every track) with the trace line NUMBER in its args: the
 * caller adds args and closes it with "}}".
 */
static void instant_start(struct timeline *tl, uint64_t pid, uint64_t tid, const char *name,
			  size_t len, uint64_t us, char scope, unsigned long long number)
{
	named_event_start(tl, "i", pid, tid, name, len, us);
	out_str(",\"s\":\"");
	out_char(scope);
	out_str("\",\"args\":{\"line\":");
	out_dec(number);
}

/* MAP, UNMAP, MARK, lost events and UNKNOWN: instants. */
static int other_event(struct timeline *tl, const struct trace_line *t, unsigned long long number)
{
	char name[64];
	struct access a;

	switch (t->type) {
	case TRACE_MAP:
	case TRACE_UNMAP:
		snprintf(name, sizeof(name), "%s %ld", t->type == TRACE_MAP ? "MAP" : "UNMAP",
			 t->map_id);
		instant_start(tl, TRACE_PID, t->pid, name, strlen(name), t->time_us, 'p', number);
		if (t->type == TRACE_MAP) {
			json_hex("phys", t->phys);
			json_hex("len", t->len);
		}
		break;
	case TRACE_MARK:
		instant_start(tl, TRACE_PID, 0, t->text, t->text_len, t->time_us, 'g', number);
		break;
	case TRACE_LOST:
		/* Lost events have no time: at the last one seen, as a line. */
		snprintf(name, sizeof(name), "%" PRIu64 " events lost", t->lost);
		instant_start(tl, TRACE_PID, 0, name, strlen(name), tl->last_us, 'g', number);
		break;
	case TRACE_UNKNOWN:
		if (access_from(tl->s, t, number, &a) || name_track(tl, a.region, t->pid))
			return -1;
		instant_start(tl, region_pid(a.region), t->pid, "UNKNOWN", 7, t->time_us, 't',
			      number);
		json_hex("phys", t->phys);
		json_hex("pc", t->pc);
		break;
	default:
		return 0;
	}
	out_str("}}");
	return 0;
}

static int timeline_line(void *ctx, const struct trace_line *t, unsigned long long number,
			 const char *text, size_t len)
{
	struct timeline *tl = ctx;
	struct access a;
	int taken;

	(void)text;
	(void)len;
	if (t->type >= TRACE_READ && t->type <= TRACE_UNKNOWN && t->type != TRACE_LOST)
		tl->last_us = t->time_us;
	if (trace_is_access(t)) {
		if (access_from(tl->s, t, number, &a))
			return -1;
		taken = poll_feed(&tl->run, &a, run_ended, tl);
		if (taken < 0)
			return -1;
		return taken ? 0 : access_event(tl, &a);
	}
	if (poll_flush(&tl->run, run_ended, tl) || regions_update(tl->s, t))
		return -1;
	return other_event(tl, t, number);
}

static void free_track(void *data)
{
	struct track *track = data;

	u64map_free(&track->threads);
	free(track);
}

static int write_timeline(struct session *s)
{
	struct timeline tl = { .s = s };
	struct trace_walk w = { timeline_line, NULL, NULL, &tl, NULL, 0 };
	static const char trace_name[] = "trace";
	int ret;

	out_str("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
	metadata(&tl, "process_name", TRACE_PID, 0, trace_name, strlen(trace_name));
	sort_index(&tl, TRACE_PID);
	ret = walk_trace(s->paths[0], &w);
	if (!ret && poll_flush(&tl.run, run_ended, &tl))
		ret = system_error("malloc");
	/* A trace refused half-way gives no JSON that looks whole. */
	if (!ret)
		out_str("\n]}\n");
	out_flush();
	session_free_region_data(s, free_track);
	if (!ret)
		session_note_unused_maps(s, w.name);
	return ret;
}

int cmd_timeline(int argc, char **argv)
{
	return session_write_output(argc, argv, OPT_MAP | OPT_OUTPUT, write_timeline);
}
