/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the trace readers (decode, stat, diff, timeline, plot, model) share:
 * their options and maps, the regions an access falls in (a PCI BAR from a
 * PCIDEV line, a range a map is bound to, or the mapping of its MAP line),
 * the decoded text of an access, and the detection of polling loops. State is kept per region and per
 * register, never per line, so a trace of any length streams through.
 */
#ifndef MMIOCTL_ANALYZE_H
#define MMIOCTL_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "readers/regmap.h"
#include "readers/trace.h"

/* ---- a hash table from 64-bit keys to pointers ---- */

struct u64map {
	uint64_t *keys;
	void **values;		/* NULL: free slot */
	size_t cap, n;
};

void *u64map_get(const struct u64map *m, uint64_t key);
int u64map_put(struct u64map *m, uint64_t key, void *value);	/* 0 or -1 (ENOMEM) */
void *u64map_del(struct u64map *m, uint64_t key);		/* the value removed */
void u64map_free(struct u64map *m);

/*
 * ARRAY (of *CAP elements of SIZE bytes, N used) with room for one more:
 * itself, or moved to twice the room (FIRST to begin with); NULL when
 * memory ran out, ARRAY then untouched.
 */
void *grow_array(void *array, size_t *cap, size_t n, size_t size, size_t first);

/* ---- regions ---- */

/* A MAP line's range, by its id, until its UNMAP. */
struct mapping {
	uint64_t phys, len;
};

enum region_kind {
	REGION_BOUND,	/* --map FILE@ADDR */
	REGION_BAR,	/* a memory BAR of a PCIDEV line */
	REGION_MAPPING,	/* a MAP line's range, outside every BAR */
	REGION_PHYS,	/* no MAP line known: offsets are physical addresses */
};

struct region {
	enum region_kind kind;
	uint64_t base, size;
	const struct rm_domain *domain;	/* NULL: no map describes it */
	unsigned int vendor, device, bar, bus, devfn;	/* REGION_BAR */
	char label[64];		/* "NVME", "NVME#2", "1b36:0010/0", "map1", "phys" */
	unsigned int digits;	/* hex digits of its offsets */
	size_t index;		/* in creation order */
	void *data;		/* the command's per-region state */
};

struct regions {
	struct region **all;	/* in creation order */
	size_t n;
	struct region **ranges;	/* bound first, then BARs: searched in order */
	size_t nranges;
	struct u64map mappings;	/* MAP id -> struct mapping */
	struct u64map by_phys;	/* mapping start -> REGION_MAPPING region */
	struct region *last;	/* the region of the last lookup */
	struct region *phys;
	unsigned int nmapping_regions;
	const struct regmap *map;
	size_t bound_domains;	/* regions with a domain, for the "no map applied" note */
};

/* ---- one command's session: options, maps, regions ---- */

#define OPT_MAP		0x1
#define OPT_FOLD	0x2
#define OPT_JSON	0x4
#define OPT_SORT	0x8
#define OPT_OUTPUT	0x10

/* Where maps are found without --map, after --map-dir and $MMIOCTL_MAPS. */
#ifndef MAPS_DIR
#define MAPS_DIR	"/usr/local/share/mmioctl/maps"
#endif

/* stat --sort: the order of a region's registers. */
enum sort_key { SORT_OFFSET, SORT_ACCESSES, SORT_READS, SORT_WRITES, SORT_FIRST, SORT_LAST };

struct bind {
	const char *path;
	uint64_t base;
	const struct rm_domain *domain;
};

struct session {
	struct regmap *map;		/* NULL without --map */
	struct bind *binds;
	size_t nbinds;
	const char **map_paths;
	size_t nmap_paths;
	const char **map_dirs;		/* --map-dir, in the order given */
	size_t nmap_dirs;
	bool no_maps;			/* --no-maps */
	const char *variant;		/* --variant NAME, for rnndb's variants= */
	bool found_maps;		/* the maps came from the search path: say what bound */
	bool fold, json;
	enum sort_key sort;
	const char *output;		/* -o FILE (timeline, plot, model) */
	char **paths;			/* the traces */
	int npaths;
	struct regions regions;
};

/*
 * Options of a trace reader (those in ALLOWED), then NPATHS trace
 * paths (TRACES_ANY: one or more); loads the maps, unless OPT_MAP is not
 * allowed. 0, or the exit status with a message printed.
 */
#define TRACES_ANY	(-1)
int session_start(struct session *s, int argc, char **argv, unsigned int allowed, int npaths);
void session_end(struct session *s);
/*
 * A command that writes one thing from one trace (timeline, plot): its
 * options (ALLOWED, with OPT_OUTPUT for -o FILE), then WRITE. The FILE of
 * a trace refused half-way is removed.
 */
int session_write_output(int argc, char **argv, unsigned int allowed,
			 int (*write)(struct session *s));
/* Forget the regions of the last trace (diff reads two). */
void session_reset_regions(struct session *s);

/* A line that changes regions: PCIDEV, MAP, UNMAP. 0, or -1 (ENOMEM). */
int regions_update(struct session *s, const struct trace_line *t);

/* FREE_DATA(region->data) for every region that has data, which is then NULL. */
void session_free_region_data(struct session *s, void (*free_data)(void *data));

/* The region of an access (or UNKNOWN line) and its offset in it; NULL on ENOMEM. */
struct region *region_of(struct session *s, uint64_t phys, long map_id, uint64_t *offset);

/* After a trace: say on stderr when maps were given and none applied. */
void session_note_unused_maps(const struct session *s, const char *trace_name);

/* ---- accesses ---- */

struct access {
	struct trace_line t;		/* its pointers are not used */
	unsigned long long line;
	struct region *region;
	uint64_t offset;
	struct rm_hit hit;		/* hit.reg NULL: no register known there */
};

/* Fill A from T: region, offset, register. -1 on ENOMEM. */
int access_from(struct session *s, const struct trace_line *t, unsigned long long line,
		struct access *a);

/* "W4 NVME+0x0014 0x00460001 CC <= EN=1 ..." (no time), into BUF. */
#define DECODED_MAX	2048
size_t access_text(const struct access *a, char *buf, size_t size);

/* A's register, "CSTS", or its offset where no map names one, "+0x0014". */
size_t access_register_name(const struct access *a, char *buf, size_t size);

/* Of a loop: the value's fields (or the value) then, if FINAL, what changed. */
size_t access_fields(const struct access *a, char *buf, size_t size);
size_t access_changes(const struct access *a, uint64_t final, char *buf, size_t size);

/* "2.1 ms", "523 us", "1.25 s" */
/* The time from FROM_US to TO_US ("258 ms"), or that it went backwards. */
void format_span(uint64_t from_us, uint64_t to_us, char *buf, size_t size);

/*
 * Polling loops: a run of reads of one register (same region, offset and
 * width) returning the same value, with no other line in between. A run
 * of two or more reads is a loop; it ends at the next line, and when that
 * line is a read of the same register with another value, that read is
 * the loop's final read (the value it waited for).
 */
struct poll {
	struct access first;
	uint64_t count;		/* reads in the run so far; 0: no run */
	uint64_t last_us;	/* time of the last of them */
};

enum poll_step {
	POLL_REPEAT,	/* A repeats the run: count it */
	POLL_FINAL,	/* A ends a loop as its final read */
	POLL_BREAK,	/* A is no part of the run (which ends, if there is one) */
};

static inline enum poll_step poll_step(const struct poll *p, const struct access *a)
{
	if (!p->count || a->t.type != TRACE_READ || a->region != p->first.region ||
	    a->offset != p->first.offset || a->t.width != p->first.t.width)
		return POLL_BREAK;
	if (a->t.value == p->first.t.value)
		return POLL_REPEAT;
	return p->count >= 2 ? POLL_FINAL : POLL_BREAK;
}

/*
 * What a command does with a run that ends: a single read (count 1) or a
 * loop, FINAL the read that ended the loop or NULL. 0, or -1 (ENOMEM).
 */
typedef int (*poll_end_fn)(void *ctx, const struct poll *run, const struct access *final);

/*
 * Feed access A to the run: counted if it repeats it, the final read if it
 * ends a loop, otherwise the run ends (END) and a read starts the next one.
 * Returns 1 when A went into a run, 0 when the caller still has A (a
 * write), -1 when END failed.
 */
int poll_feed(struct poll *p, const struct access *a, poll_end_fn end, void *ctx);
/* End the run there is, if any (before a line that is no access, at the end). */
int poll_flush(struct poll *p, poll_end_fn end, void *ctx);

/* ---- reading a trace ---- */

struct trace_walk {
	/* Each line, parsed: 0, or -1 on ENOMEM. */
	int (*line)(void *ctx, const struct trace_line *t, unsigned long long number,
		    const char *text, size_t len);
	void (*before_error)(void *ctx);	/* before a bad line's message; may be NULL */
	void (*before_wait)(void);		/* see trace.h; may be NULL */
	void *ctx;
	const char *name;			/* set: the path, or "standard input" */
	unsigned long long lines;		/* set: the lines read */
};

/*
 * Every line of the trace PATH ("-": standard input) to W->line. 0, or the
 * exit status with the message printed (the trace cannot be read, a line
 * is malformed, memory ran out).
 */
int walk_trace(const char *path, struct trace_walk *w);

#endif
