// SPDX-License-Identifier: GPL-2.0
/*
 * hist [-i NAME] [--json]: per register of an events session, from the
 * kernel's histograms (events.c installs them): the accesses, the reads
 * and the writes, and the values read and written, the most frequent
 * first. A running session's come from the hist files of its instance, a
 * finished one's from the copies saved when it ended; both are the
 * kernel's text, read the same way.
 *
 * Per register, the counts come from the histogram keyed by phys alone,
 * which has room for more registers than the one keyed by phys and value
 * has for pairs: when that one is full ("Dropped"), the counts stay exact
 * and the values are marked incomplete ("+").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/parse.h"
#include "control/commands.h"
#include "control/events.h"

#define VALUES_SHOWN	4	/* per register and direction, in the text output */

enum { READ, WRITE };

struct entry {
	uint64_t phys, value, hits;
};

struct entries {
	struct entry *e;
	size_t n, size;
};

/* The four histograms of a session: [READ or WRITE][HIST_COUNTS or HIST_VALUES]. */
struct session_hists {
	struct entries h[2][NR_HISTS];
	bool found[2][NR_HISTS];
	uint64_t hits[2];	/* the events counted: Totals of HIST_COUNTS */
	uint64_t dropped;	/* entries the full histograms could not take */
};

static int add_entry(struct entries *es, const struct entry *e)
{
	if (es->n == es->size) {
		size_t size = es->size ? es->size * 2 : 256;
		struct entry *bigger = realloc(es->e, size * sizeof(*bigger));

		if (!bigger)
			return system_error("malloc");
		es->e = bigger;
		es->size = size;
	}
	es->e[es->n++] = *e;
	return 0;
}

/*
 * One hist file (DIR: READ or WRITE): the sections of the histograms
 * mmioctl installed are read, any other histogram's skipped.
 */
static int parse_hist_file(const char *path, char *text, int dir, struct session_hists *sh)
{
	char *line, *next;
	int hist = -1, number = 0;
	bool other = false;
	uint64_t n;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		number++;
		if (!strcmp(line, "# event histogram")) {
			hist = -1;
			other = false;
			continue;
		}
		if (!strncmp(line, "# trigger info: ", 16)) {
			const char *info = line + 16;
			int h;

			other = true;
			for (h = 0; h < NR_HISTS; h++)
				if (!strncmp(info, hist_prefixes[h], strlen(hist_prefixes[h])) &&
				    !strstr(info, " if ")) {
					if (sh->found[dir][h]) {
						fprintf(stderr, "mmioctl: %s:%d: a second histogram '%s'\n",
							path, number, info);
						return EXIT_REFUSED;
					}
					hist = h;
					other = false;
					sh->found[dir][h] = true;
				}
			continue;
		}
		if (other || line[0] == '#' || !line[0] || !strcmp(line, "Totals:") ||
		    sscanf(line, "    Entries: %" SCNu64, &n) == 1)
			continue;
		if (hist < 0)
			goto malformed;
		if (line[0] == '{') {
			struct entry e;

			if (parse_hist_entry(line, hist == HIST_VALUES, &e.phys, &e.value, &e.hits))
				goto malformed;
			if (add_entry(&sh->h[dir][hist], &e))
				return EXIT_REFUSED;
		} else if (sscanf(line, "    Hits: %" SCNu64, &n) == 1) {
			if (hist == HIST_COUNTS)
				sh->hits[dir] = n;
		} else if (sscanf(line, "    Dropped: %" SCNu64, &n) == 1) {
			sh->dropped += n;
		} else {
			goto malformed;
		}
	}
	return 0;
malformed:
	fprintf(stderr, "mmioctl: %s:%d: not a histogram line: '%s'\n", path, number, line);
	return EXIT_REFUSED;
}

static int by_phys(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->phys < y->phys ? -1 : x->phys > y->phys;
}

/* By register, then the most frequent value first, then by value. */
static int by_phys_hits(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->phys != y->phys)
		return x->phys < y->phys ? -1 : 1;
	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

/* The entries of ES (sorted by phys) for PHYS: *FIRST and the count. */
static size_t entries_of(const struct entries *es, uint64_t phys, const struct entry **first)
{
	size_t lo = 0, hi = es->n, end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (es->e[mid].phys < phys)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < es->n && es->e[end].phys == phys; end++)
		;
	*first = es->e + lo;
	return end - lo;
}

/* One register's accesses in one direction, and its values. */
struct direction {
	uint64_t count, kept;	/* kept: the accesses the values account for */
	const struct entry *values;
	size_t n;
};

static void direction_of(const struct session_hists *sh, int dir, uint64_t phys,
			 struct direction *d)
{
	const struct entry *count;
	size_t i;

	d->n = entries_of(&sh->h[dir][HIST_VALUES], phys, &d->values);
	for (d->kept = 0, i = 0; i < d->n; i++)
		d->kept += d->values[i].hits;
	d->count = entries_of(&sh->h[dir][HIST_COUNTS], phys, &count) ? count->hits : d->kept;
}

static void text_values(const char *name, const struct direction *d, bool *first)
{
	size_t i;

	if (!d->n && !d->count)
		return;
	printf("%s%s", *first ? "" : "; ", name);
	*first = false;
	for (i = 0; i < d->n && i < VALUES_SHOWN; i++)
		printf("%s0x%" PRIx64 " x%" PRIu64, i ? ", " : " ", d->values[i].value,
		       d->values[i].hits);
	if (d->n > VALUES_SHOWN || d->kept < d->count)
		printf("%s... (%zu%s distinct)", d->n ? ", " : " ", d->n,
		       d->kept < d->count ? "+" : "");
}

static void json_values(const char *key, const struct direction *d)
{
	size_t i;

	printf(",\"%s_values\":[", key);
	for (i = 0; i < d->n; i++)
		printf("%s{\"value\":\"0x%" PRIx64 "\",\"count\":%" PRIu64 "}", i ? "," : "",
		       d->values[i].value, d->values[i].hits);
	printf("],\"%s_values_other\":%" PRIu64 ",\"distinct_%s\":%zu", key, d->count - d->kept,
	       key, d->n);
}

static int by_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Every register any of the four histograms has, sorted, once each. */
static int registers_of(const struct session_hists *sh, uint64_t **regs, size_t *n)
{
	size_t total = 0, i, j, k;
	int d, h;

	for (d = 0; d < 2; d++)
		for (h = 0; h < NR_HISTS; h++)
			total += sh->h[d][h].n;
	*regs = malloc((total ? total : 1) * sizeof(**regs));
	if (!*regs)
		return system_error("malloc");
	for (k = 0, d = 0; d < 2; d++)
		for (h = 0; h < NR_HISTS; h++)
			for (i = 0; i < sh->h[d][h].n; i++)
				(*regs)[k++] = sh->h[d][h].e[i].phys;
	qsort(*regs, k, sizeof(**regs), by_u64);
	for (i = 0, j = 0; i < k; i++)
		if (!j || (*regs)[j - 1] != (*regs)[i])
			(*regs)[j++] = (*regs)[i];
	*n = j;
	return 0;
}

static void print_text(const char *name, const char *state, const struct session_hists *sh,
		       const uint64_t *regs, size_t n)
{
	struct direction r, w;
	size_t i;
	bool first;

	printf("instance %s, %s session: %zu registers, %" PRIu64 " reads, %" PRIu64
	       " writes, %" PRIu64 " dropped\n", name, state, n, sh->hits[READ], sh->hits[WRITE],
	       sh->dropped);
	if (!n)
		return;
	printf("  %-18s %10s %10s %10s  %s\n", "phys", "count", "reads", "writes", "values");
	for (i = 0; i < n; i++) {
		direction_of(sh, READ, regs[i], &r);
		direction_of(sh, WRITE, regs[i], &w);
		printf("  0x%-16" PRIx64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "  ", regs[i],
		       r.count + w.count, r.count, w.count);
		first = true;
		text_values("R", &r, &first);
		text_values("W", &w, &first);
		putchar('\n');
	}
}

static void print_json(const char *name, const char *state, const struct session_hists *sh,
		       const uint64_t *regs, size_t n)
{
	struct direction r, w;
	size_t i;

	printf("{\"instance\":\"%s\",\"session\":\"%s\",\"reads\":%" PRIu64 ",\"writes\":%" PRIu64
	       ",\"dropped\":%" PRIu64 ",\"registers\":[", name, state, sh->hits[READ],
	       sh->hits[WRITE], sh->dropped);
	for (i = 0; i < n; i++) {
		direction_of(sh, READ, regs[i], &r);
		direction_of(sh, WRITE, regs[i], &w);
		printf("%s{\"phys\":\"0x%" PRIx64 "\",\"count\":%" PRIu64 ",\"reads\":%" PRIu64
		       ",\"writes\":%" PRIu64, i ? "," : "", regs[i], r.count + w.count, r.count,
		       w.count);
		json_values("read", &r);
		json_values("written", &w);
		putchar('}');
	}
	printf("]}\n");
}

int cmd_hist(int argc, char **argv)
{
	static const char *const events[] = { "mmio_read", "mmio_write" };
	const char *name = instance ? instance : DEFAULT_INSTANCE, *state;
	struct session_hists sh = { 0 };
	char path[PATH_SIZE], saved[PATH_SIZE], file[64], *text;
	uint64_t *regs = NULL;
	bool json = false, live;
	size_t n = 0;
	int d, h, ret = 0;

	if (argc == 2 && !strcmp(argv[1], "--json"))
		json = true;
	else if (argc != 1)
		return usage_error("hist takes no argument but -i NAME and --json");
	if (!tracing_path("instances"))
		return EXIT_REFUSED;
	live = hists_installed(name);
	if (!live && !saved_hists_exist(name)) {
		if (instance_exists(name))
			fprintf(stderr, "mmioctl: instance %s has no histograms of mmioctl's: start a session with mmioctl on -i %s or record -e -i %s\n",
				name, name, name);
		else
			fprintf(stderr, "mmioctl: no instance %s (%s), and no histograms saved of one (%s)\n",
				name, instance_file(path, name, ""),
				saved_hist_file(saved, name, ""));
		return EXIT_REFUSED;
	}
	state = live ? "running" : "finished";
	for (d = 0; d < 2 && !ret; d++) {
		if (live) {
			snprintf(file, sizeof(file), "events/mmiotrace/%s/hist", events[d]);
			instance_file(path, name, file);
		} else {
			snprintf(file, sizeof(file), "%s.hist", events[d]);
			saved_hist_file(path, name, file);
		}
		ret = read_all(path, &text, NULL);
		if (ret)
			break;
		ret = parse_hist_file(path, text, d, &sh);
		free(text);
		for (h = 0; h < NR_HISTS && !ret; h++)
			if (!sh.found[d][h]) {
				fprintf(stderr, "mmioctl: %s: no histogram %s...\n", path,
					hist_prefixes[h]);
				ret = EXIT_REFUSED;
			}
	}
	if (!ret) {
		for (d = 0; d < 2; d++) {
			qsort(sh.h[d][HIST_COUNTS].e, sh.h[d][HIST_COUNTS].n, sizeof(struct entry),
			      by_phys);
			qsort(sh.h[d][HIST_VALUES].e, sh.h[d][HIST_VALUES].n, sizeof(struct entry),
			      by_phys_hits);
		}
		ret = registers_of(&sh, &regs, &n);
	}
	if (!ret) {
		if (json)
			print_json(name, state, &sh, regs, n);
		else
			print_text(name, state, &sh, regs, n);
		fflush(stdout);
		if (sh.dropped)
			fprintf(stderr, "mmioctl: the histograms of instance %s were full and dropped %" PRIu64 " entries: registers or values are missing (+: values incomplete)\n",
				name, sh.dropped);
	}
	free(regs);
	for (d = 0; d < 2; d++)
		for (h = 0; h < NR_HISTS; h++)
			free(sh.h[d][h].e);
	return ret;
}
