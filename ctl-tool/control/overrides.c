// SPDX-License-Identifier: GPL-2.0
/*
 * The commands of the overrides file: rules that answer traced reads of a
 * register with a value of one's own, in whole or in some bits, and keep
 * traced writes from the device. override, drop, del-override, del-drop
 * and clear-overrides write it as add, del and clear write ranges: one
 * rule per write, appended, the whole set replaced only when cleared.
 * overrides lists the rules, noting each one that cannot act now: a rule
 * acts only on accesses that are traced, while tracing is on.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "common/pci.h"
#include "control/commands.h"
#include "control/events.h"
#include "control/tracer.h"

/* The most values of the kernel's feed. */
#define FEED_MAX		65536

/* ADDR as the rule commands take it, parsed; BAR-relative is resolved later. */
struct address {
	const char *arg;	/* as typed */
	bool bar_relative;	/* BDF:BAR+OFFSET */
	char bdf[32];
	unsigned int bar;
	uint64_t offset;
};

static int parse_address(const char *arg, struct address *where, uint64_t *phys)
{
	where->arg = arg;
	where->bar_relative = strpbrk(arg, ":+") != NULL;
	if (!where->bar_relative) {
		if (parse_u64(arg, phys))
			return usage_error("invalid address '%s': expected decimal or 0x hex, or BDF:BAR+OFFSET",
					   arg);
		return 0;
	}
	if (parse_bar_address(arg, where->bdf, sizeof(where->bdf), &where->bar, &where->offset))
		return usage_error("invalid address '%s': expected BDF:BAR+OFFSET as in 0000:00:04.0:0+0x1c ([[DOMAIN:]BUS:]DEV.FN, BAR 0 to 5, OFFSET decimal or 0x hex)",
				   arg);
	return 0;
}

/* The physical address of a BAR-relative one: its WIDTH bytes inside the BAR. */
static int resolve_address(const struct address *where, unsigned int width, uint64_t *phys)
{
	struct pci_bar res;
	uint64_t size;

	if (!where->bar_relative)
		return 0;
	if (read_pci_bar(where->bdf, where->bar, &res, false))
		return EXIT_REFUSED;
	size = res.end - res.start + 1;
	if (where->offset >= size || width > size - where->offset) {
		fprintf(stderr, "mmioctl: %s: %u %s at offset 0x%" PRIx64 " run past the end of %s BAR %u (0x%" PRIx64 " bytes)\n",
			where->arg, width, width == 1 ? "byte" : "bytes", where->offset, where->bdf,
			where->bar, size);
		return EXIT_REFUSED;
	}
	*phys = res.start + where->offset;
	return 0;
}

/* A refused write of the overrides file, with what a user can do about it. */
static int overrides_error(const char *path, int err)
{
	if (err == ENOENT)
		fprintf(stderr, "mmioctl: %s not found: this kernel has no MMIO overrides\n", path);
	else if (err == ENOSPC)
		fprintf(stderr, "mmioctl: %s: %s: at most %d rules, expired ones included (del-override, del-drop, clear-overrides)\n",
			path, strerror(err), OVERRIDES_MAX);
	else
		fprintf(stderr, "mmioctl: %s: %s\n", path, strerror(err));
	return EXIT_REFUSED;
}

static int write_overrides(const char *data, int flags)
{
	const char *path = control_path("overrides");
	int err;

	if (!path)
		return EXIT_REFUSED;
	err = try_write(path, data, flags);
	return err ? overrides_error(path, err) : 0;
}

/* What decides whether a rule can act: tracing, the range set, the mappings. */
struct traced {
	bool tracing;		/* the tracer, or mmiotrace events anywhere */
	char *ranges;		/* the ranges file */
	char *mappings;		/* the mappings file, read when the set is empty */
};

static void free_traced(struct traced *t)
{
	free(t->ranges);
	free(t->mappings);
}

/* Tracing on decided as status does: the tracer is mmiotrace, or events arm. */
static int read_traced(struct traced *t)
{
	struct tracer_state state;
	char instances[4096];
	bool top;

	t->ranges = t->mappings = NULL;
	if (read_tracer_state(&state))
		return EXIT_REFUSED;
	event_consumers(&top, instances, sizeof(instances));
	t->tracing = !strcmp(state.current, "mmiotrace") || top || instances[0];
	if (read_all(control_path("ranges"), &t->ranges, NULL))
		return EXIT_REFUSED;
	/* With an empty set, what is traced is what the mappings file says. */
	if (t->tracing && !t->ranges[strspn(t->ranges, " \t\n")] &&
	    read_all(control_path("mappings"), &t->mappings, NULL)) {
		free_traced(t);
		return EXIT_REFUSED;
	}
	return 0;
}

/* Does [ADDR, ADDR + WIDTH) meet [START, START + LEN)? */
static bool meets(uint64_t addr, unsigned int width, uint64_t start, uint64_t len)
{
	return addr <= start + (len - 1) && start <= addr + (width - 1);
}

/* Does a range of the set hold a byte of the access? */
static bool in_ranges(const char *text, uint64_t addr, unsigned int width)
{
	const char *line = text;
	char buf[128];
	uint64_t start, len;
	bool remove;

	for (; *line; line += strcspn(line, "\n") + !!line[strcspn(line, "\n")]) {
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(line, "\n"), line);
		if (!parse_range_line(buf, &remove, &start, &len) && !remove &&
		    meets(addr, width, start, len))
			return true;
	}
	return false;
}

/* Does a traced mapping ("ID PHYS SIZE 1 ARMED CALLER") hold a byte of it? */
static bool in_traced_mapping(const char *text, uint64_t addr, unsigned int width)
{
	const char *line = text;
	char id[32], phys[32], size[32], traced[8];
	uint64_t start, len;

	for (; *line; line += strcspn(line, "\n") + !!line[strcspn(line, "\n")])
		if (sscanf(line, "%31s %31s %31s %7s", id, phys, size, traced) == 4 &&
		    !strcmp(traced, "1") && !parse_u64(phys, &start) && !parse_u64(size, &len) &&
		    len && meets(addr, width, start, len))
			return true;
	return false;
}

/* Why the rule cannot act now, in BUF, or NULL if it can. */
static const char *inert_reason(const struct traced *t, uint64_t addr, unsigned int width,
				char *buf, size_t size)
{
	const char *where = NULL;

	if (t->mappings && !in_traced_mapping(t->mappings, addr, width))
		where = "the range set is empty and no traced mapping holds it";
	else if (!t->mappings && t->ranges[strspn(t->ranges, " \t\n")] &&
		 !in_ranges(t->ranges, addr, width))
		where = "outside the traced ranges";
	if (!t->tracing && where)
		snprintf(buf, size, "tracing is off, %s", where);
	else if (!t->tracing)
		snprintf(buf, size, "tracing is off");
	else if (where)
		snprintf(buf, size, "%s", where);
	else
		return NULL;
	return buf;
}

/*
 * After a rule was added: say so when it is where nothing is traced (the
 * kernel takes it all the same). Tracing off is the usual way to set
 * rules up, and is not worth a word.
 */
static void note_if_untraced(const struct override_rule *rule)
{
	char reason[128];
	struct traced t;

	if (read_traced(&t))
		return;
	t.tracing = true;
	if (inert_reason(&t, rule->addr, rule->width, reason, sizeof(reason)))
		fprintf(stderr, "mmioctl: note: the rule at 0x%" PRIx64 " is inert for now: %s\n",
			rule->addr, reason);
	free_traced(&t);
}

/*
 * A feed or random rule outside a non-empty range set is refused: a
 * fuzzer's values would go nowhere, silently. With an empty set, a mapping
 * made later (the driver bound after the rules are set up) is traced, and
 * tracing off is the usual way to set rules up: neither is a reason.
 */
static int refuse_if_untraced(const struct override_rule *rule)
{
	const char *where = NULL;
	struct traced t;
	int ret = 0;

	if (read_traced(&t))
		return EXIT_REFUSED;
	if (t.ranges[strspn(t.ranges, " \t\n")] && !in_ranges(t.ranges, rule->addr, rule->width))
		where = "outside the traced ranges";
	if (where) {
		fprintf(stderr, "mmioctl: 0x%" PRIx64 ": %s: a %s rule there would never take a value (mmioctl add, add-pci)\n",
			rule->addr, where, rule->source == SOURCE_FEED ? "feed" : "random");
		ret = EXIT_REFUSED;
	}
	free_traced(&t);
	return ret;
}

static const char *bytes(unsigned int n)
{
	return n == 1 ? "byte" : "bytes";
}

/* Refuse, naming the argument, a rule the kernel would refuse. */
static int check_rule(const struct override_rule *rule, const struct address *where,
		      const char *value, const char *mask)
{
	switch (check_override(rule)) {
	case OVERRIDE_OK:
		return 0;
	case OVERRIDE_UNALIGNED:
		if (where->bar_relative)
			return usage_error("address '%s' (0x%" PRIx64 ") is not aligned to the width %u",
					   where->arg, rule->addr, rule->width);
		return usage_error("address '%s' is not aligned to the width %u", where->arg,
				   rule->width);
	case OVERRIDE_VALUE_WIDE:
		return usage_error("value '%s' does not fit in %u %s", value, rule->width,
				   bytes(rule->width));
	case OVERRIDE_MASK_ZERO:
		return usage_error("mask '%s' selects no bit: leave MASK out for the whole value",
				   mask);
	case OVERRIDE_MASK_WIDE:
		return usage_error("mask '%s' does not fit in %u %s", mask, rule->width,
				   bytes(rule->width));
	}
	return EXIT_USAGE;
}

/*
 * VALUE [MASK], feed [MASK] or random SEED [MASK] of an override, from the
 * arguments after ADDR and WIDTH; *VALUE and *MASK are those typed ("" if
 * none), for the messages.
 */
static int parse_source(int nargs, const char **arg, struct override_rule *rule,
			const char **value, const char **mask)
{
	int first_mask = 3;

	*value = nargs > 2 ? arg[2] : "";
	if (nargs > 2 && !strcmp(arg[2], "feed")) {
		rule->source = SOURCE_FEED;
	} else if (nargs > 2 && !strcmp(arg[2], "random")) {
		rule->source = SOURCE_RANDOM;
		if (nargs < 4 || parse_u64(arg[3], &rule->value))
			return usage_error("random needs a SEED: decimal or 0x hex");
		first_mask = 4;
	} else if (nargs > 2 && parse_u64(arg[2], &rule->value)) {
		return usage_error("invalid value '%s': expected decimal or 0x hex, feed or random SEED",
				   arg[2]);
	}
	if (nargs > first_mask + 1)
		return usage_error("override: unexpected argument '%s'", arg[first_mask + 1]);
	*mask = nargs > first_mask ? arg[first_mask] : "";
	if (nargs > first_mask && parse_u64(arg[first_mask], &rule->mask))
		return usage_error("invalid mask '%s': expected decimal or 0x hex", arg[first_mask]);
	rule->has_mask = nargs > first_mask;
	return 0;
}

/*
 * override ADDR WIDTH VALUE [MASK] [--count N], drop ADDR WIDTH [--count N]
 * and del-override, del-drop ADDR WIDTH: every argument checked, then one
 * line written to the overrides file (appended).
 */
static int write_rule(int argc, char **argv, bool drop, bool remove)
{
	struct override_rule rule = { .count = -1, .drop = drop, .remove = remove };
	const char *arg[5], *count = NULL, *needs, *value = "", *mask = "";
	int nargs = 0, want = drop || remove ? 2 : 3, most = drop || remove ? 2 : 5, i, ret;
	char line[OVERRIDE_LINE_MAX + 2];
	struct address where;

	needs = remove ? "ADDR WIDTH" : drop ? "ADDR WIDTH" : "ADDR WIDTH VALUE";
	for (i = 1; i < argc; i++) {
		if (!remove && (!strcmp(argv[i], "--count") || !strncmp(argv[i], "--count=", 8))) {
			if (count)
				return usage_error("--count is given more than once");
			if (argv[i][7] == '=')
				count = argv[i] + 8;
			else if (i + 1 < argc)
				count = argv[++i];
			else
				return usage_error("--count needs a number N");
		} else if (argv[i][0] == '-' && !isdigit((unsigned char)argv[i][1])) {
			return usage_error("%s: unknown or incomplete option '%s'", argv[0], argv[i]);
		} else if (nargs == most) {
			return usage_error("%s: unexpected argument '%s'", argv[0], argv[i]);
		} else {
			arg[nargs++] = argv[i];
		}
	}
	if (nargs < want)
		return usage_error("%s needs %s", argv[0], needs);
	ret = parse_address(arg[0], &where, &rule.addr);
	if (ret)
		return ret;
	if (parse_width(arg[1], &rule.width))
		return usage_error("invalid width '%s': expected 1, 2, 4 or 8", arg[1]);
	ret = parse_source(nargs, arg, &rule, &value, &mask);
	if (ret)
		return ret;
	if (count && parse_count(count, &rule.count))
		return usage_error("invalid count '%s': expected 0 to %d", count, INT_MAX);
	ret = resolve_address(&where, rule.width, &rule.addr);
	if (!ret)
		ret = check_rule(&rule, &where, value, mask);
	if (!ret && !remove && !drop && rule.source != SOURCE_VALUE)
		ret = refuse_if_untraced(&rule);
	if (ret)
		return ret;
	if (format_override(&rule, line, sizeof(line)) < 0) {
		fprintf(stderr, "mmioctl: the rule is longer than %d characters\n", OVERRIDE_LINE_MAX);
		return EXIT_USAGE;
	}
	ret = write_overrides(line, O_APPEND);
	if (!ret && !remove)
		note_if_untraced(&rule);
	return ret;
}

/* A "feed V V ..." line of a rules file: its values, appended to VALUE. */
static int parse_feed_line(char *line, uint64_t **value, size_t *n)
{
	char *word, *save;

	for (word = strtok_r(line + 4, " \t", &save); word; word = strtok_r(NULL, " \t", &save)) {
		uint64_t *more = realloc(*value, (*n + 1) * sizeof(**value));

		if (!more)
			return -1;
		*value = more;
		if (parse_u64(word, &(*value)[(*n)++]))
			return -1;
	}
	return 0;
}

/*
 * override --from FILE: the rules of FILE replace the set, and its "feed"
 * lines the feed, as mmioctl fuzz writes a reproducer. Rules in the
 * kernel's format; '#' starts a comment. Nothing is written unless every
 * line is right.
 */
static int load_rules_file(const char *path)
{
	char *line = NULL, *rules = NULL, one[OVERRIDE_LINE_MAX + 2];
	size_t nrules = 0, nfeed = 0, line_size = 0;
	uint64_t *feed = NULL;
	struct override_rule rule;
	int lineno = 0, ret = 0, feed_rules = 0;
	FILE *file = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!file)
		return system_error(path);
	while (!ret && getline(&line, &line_size, file) > 0) {
		char *text = line + strspn(line, " \t");

		lineno++;
		text[strcspn(text, "#\n")] = '\0';
		while (*text && strchr(" \t", text[strlen(text) - 1]))
			text[strlen(text) - 1] = '\0';
		if (!*text)
			continue;
		if (!strncmp(text, "feed", 4) && (!text[4] || strchr(" \t", text[4]))) {
			if (parse_feed_line(text, &feed, &nfeed))
				ret = usage_error("%s:%d: a feed line is \"feed VALUE...\", decimal or 0x hex",
						  path, lineno);
			continue;
		}
		if (parse_override_line(text, &rule) || rule.remove ||
		    format_override(&rule, one, sizeof(one)) < 0) {
			ret = usage_error("%s:%d: not a rule: '%s'", path, lineno, text);
			break;
		}
		feed_rules += rule.source == SOURCE_FEED;
		rules = realloc(rules, nrules + strlen(one) + 1);
		if (!rules) {
			ret = system_error("malloc");
			break;
		}
		strcpy(rules + nrules, one);
		nrules += strlen(one);
	}
	if (file != stdin)
		fclose(file);
	free(line);
	if (!ret && nfeed > FEED_MAX)
		ret = usage_error("%s: %zu values to feed, at most %d", path, nfeed, FEED_MAX);
	/*
	 * The feed first, so that no read between the two writes takes a
	 * stale value; only when a rule takes from it: a kernel may have none.
	 */
	if (!ret && (nfeed || feed_rules))
		ret = write_feed(feed, nfeed);
	if (!ret)
		ret = write_overrides(rules ? rules : "", O_TRUNC);
	free(rules);
	free(feed);
	return ret;
}

int cmd_override(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--from")) {
		if (argc != 3)
			return usage_error("override --from takes one FILE (- for standard input)");
		return load_rules_file(argv[2]);
	}
	return write_rule(argc, argv, false, false);
}

int cmd_drop(int argc, char **argv)
{
	return write_rule(argc, argv, true, false);
}

int cmd_del_override(int argc, char **argv)
{
	return write_rule(argc, argv, false, true);
}

int cmd_del_drop(int argc, char **argv)
{
	return write_rule(argc, argv, true, true);
}

int cmd_clear_overrides(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return write_overrides("", O_TRUNC);
}

/* For reset: no rule left, if the kernel has overrides at all. */
int clear_overrides_if_any(void)
{
	const char *path = control_path("overrides");
	int err;

	if (!path)
		return EXIT_REFUSED;
	err = try_write(path, "", O_TRUNC);
	return err && err != ENOENT ? overrides_error(path, err) : 0;
}

/*
 * overrides: the rules as the kernel prints them, each that cannot act now
 * followed by "  # inert: " and why. Everything is read before anything is
 * printed; a line mmioctl cannot read is an error.
 */
int cmd_overrides(int argc, char **argv)
{
	const char *path = control_path("overrides");
	char *text, *line, *save, copy[4096 + 64], reason[128];
	struct override_rule rule;
	struct traced t;

	(void)argc;
	(void)argv;
	if (!path)
		return EXIT_REFUSED;
	snprintf(copy, sizeof(copy), "%s", path);
	if (read_all(copy, &text, NULL))
		return EXIT_REFUSED;
	for (line = text; *line; line += strcspn(line, "\n") + !!line[strcspn(line, "\n")]) {
		char one[OVERRIDE_LINE_MAX + 2];
		size_t len = strcspn(line, "\n");

		snprintf(one, sizeof(one), "%.*s", (int)len, line);
		if (len > OVERRIDE_LINE_MAX || parse_override_line(one, &rule) || rule.remove) {
			fprintf(stderr, "mmioctl: %s: malformed line '%.*s'\n", copy, (int)len, line);
			free(text);
			return EXIT_REFUSED;
		}
	}
	if (read_traced(&t)) {
		free(text);
		return EXIT_REFUSED;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *why;

		parse_override_line(line, &rule);
		why = inert_reason(&t, rule.addr, rule.width, reason, sizeof(reason));
		printf("%s%s%s\n", line, why ? "  # inert: " : "", why ? why : "");
	}
	free_traced(&t);
	free(text);
	return 0;
}

/* The number of rules, for status: *N is -1 when the kernel has no overrides file. */
int count_overrides(int *n)
{
	const char *path = control_path("overrides");
	char *text, *line, *save;

	*n = -1;
	if (!path)
		return EXIT_REFUSED;
	if (access(path, F_OK) && errno == ENOENT)
		return 0;
	if (read_all(path, &text, NULL))
		return EXIT_REFUSED;
	*n = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		(*n)++;
	free(text);
	return 0;
}
