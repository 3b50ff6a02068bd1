// SPDX-License-Identifier: GPL-2.0
/*
 * The commands that set mmiotrace up and look at it. Each validates all of
 * its arguments before it writes anything, and writes each change in one
 * write(2), which the kernel applies whole or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

#define RANGE_LINE_MAX	48	/* "!0x%016llx 0x%016llx\n" and a NUL */
#define RANGES_WRITE_MAX (64 * 1024)

/* A physical range, or a range of I/O ports, [start, start + len). */
struct mmio_range {
	uint64_t start, len;
	bool ports;
};

/* After a change that may leave the set empty: say what that means. */
static void warn_if_set_empty(void)
{
	struct tracer_state state;
	char first[128];

	if (read_line(control_path("ranges"), first, sizeof(first)) || first[0] ||
	    read_tracer_state(&state) || strcmp(state.current, "mmiotrace"))
		return;
	fprintf(stderr, "mmioctl: the range set is empty: every mapping made while tracing is traced\n");
}

/* The range ADDR SIZE of the command line; a usage error says what is wrong. */
static int range_args(const char *addr, const char *size, struct mmio_range *range)
{
	if (parse_u64(addr, &range->start))
		return usage_error("invalid address '%s': expected decimal or 0x hex", addr);
	if (parse_size(size, &range->len))
		return usage_error("invalid size '%s': expected bytes, 0x hex, or a k/M/G suffix",
				   size);
	if (range->len > UINT64_MAX - range->start)
		return usage_error("range %s %s runs past the end of the address space", addr, size);
	return 0;
}

/* The highest port, as the kernel's IO_SPACE_LIMIT on x86. */
#define PORT_MAX	0xffffu

/* "0xSTART 0xSIZE\n" lines of ADDR SIZE pairs (ports with PORTS), PREFIX before each. */
static int range_lines(int argc, char **argv, const char *prefix, bool ports, char **lines)
{
	size_t size = (size_t)argc / 2 * RANGE_LINE_MAX + 1, used = 0;
	struct mmio_range range;
	int i, ret;

	*lines = malloc(size);
	if (!*lines)
		return system_error("malloc");
	(*lines)[0] = '\0';
	for (i = 0; i + 1 < argc; i += 2) {
		ret = range_args(argv[i], argv[i + 1], &range);
		if (!ret && ports && (range.start > PORT_MAX || range.len > PORT_MAX + 1 - range.start))
			ret = usage_error("ports %s %s run past port 0x%x", argv[i], argv[i + 1],
					  PORT_MAX);
		if (ret) {
			free(*lines);
			return ret;
		}
		used += snprintf(*lines + used, size - used, "%s0x%" PRIx64 " 0x%" PRIx64 "\n",
				 prefix, range.start, range.len);
	}
	return 0;
}

/*
 * Write LINES to FILE, saying what the kernel's refusals of a port set
 * mean: it lives in the CPU's four debug registers.
 */
static int write_set_lines(const char *file, const char *lines, int flags)
{
	int ret = write_file(control_path(file), lines, flags);

	if (ret && !strcmp(file, "ports") && errno == ENOSPC)
		fprintf(stderr, "mmioctl: the port set needs more than 4 aligned windows of 1, 2 or 4 ports (debug registers)\n");
	else if (ret && !strcmp(file, "ports") && errno == EBUSY)
		fprintf(stderr, "mmioctl: the debug registers are in use (a debugger, perf or kgdb)\n");
	return ret;
}

/* Write the ADDR SIZE pairs of argv[1...] to FILE, adding or replacing. */
static int write_set(const char *file, int argc, char **argv, const char *prefix, int flags)
{
	const bool ports = !strcmp(file, "ports");
	char *lines;
	int ret;

	if ((argc - 1) % 2)
		return usage_error("%s takes %s SIZE pairs", argv[0], ports ? "PORT" : "ADDR");
	ret = range_lines(argc - 1, argv + 1, prefix, ports, &lines);
	if (ret)
		return ret;
	ret = write_set_lines(file, lines, flags);
	free(lines);
	return ret;
}

static int write_ranges(int argc, char **argv, const char *prefix, int flags)
{
	return write_set("ranges", argc, argv, prefix, flags);
}

int cmd_add_port(int argc, char **argv)
{
	return write_set("ports", argc, argv, "", O_APPEND);
}

int cmd_del_port(int argc, char **argv)
{
	return write_set("ports", argc, argv, "!", O_APPEND);
}

int cmd_clear_ports(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return write_file(control_path("ports"), "", O_TRUNC);
}

int cmd_ports(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return print_file(control_path("ports"), "", false);
}

int cmd_add(int argc, char **argv)
{
	return write_ranges(argc, argv, "", O_APPEND);
}

int cmd_del(int argc, char **argv)
{
	int ret = write_ranges(argc, argv, "!", O_APPEND);

	if (!ret)
		warn_if_set_empty();
	return ret;
}

/* Replace the whole set at once: there is no moment with an empty set. */
int cmd_set(int argc, char **argv)
{
	int ret = write_ranges(argc, argv, "", O_TRUNC);

	if (!ret)
		warn_if_set_empty();
	return ret;
}

int cmd_clear(int argc, char **argv)
{
	int ret;

	(void)argc;
	(void)argv;
	ret = write_file(control_path("ranges"), "", O_TRUNC);
	if (!ret)
		warn_if_set_empty();
	return ret;
}

/*
 * load FILE|-: a ranges file as list prints it, "[!]ADDR SIZE" lines,
 * blank lines and #-comments skipped, installed in place of the set in one
 * write.
 */
int cmd_load(int argc, char **argv)
{
	const char *name = strcmp(argv[1], "-") ? argv[1] : "standard input";
	FILE *in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	char line[4096], *lines;
	size_t used = 0;
	int number = 0, ret = 0;
	uint64_t start, len;
	bool remove;

	(void)argc;
	if (!in)
		return system_error(argv[1]);
	lines = malloc(RANGES_WRITE_MAX + 1);
	if (!lines) {
		ret = system_error("malloc");
		goto out;
	}
	lines[0] = '\0';
	while (fgets(line, sizeof(line), in)) {
		const char *text = line + strspn(line, " \t");

		number++;
		line[strcspn(line, "\n")] = '\0';
		if (!*text || *text == '#')
			continue;
		if (parse_range_line(line, &remove, &start, &len)) {
			ret = usage_error("%s:%d: invalid range '%s': expected ADDR SIZE",
					  name, number, line);
			goto out;
		}
		if (used + RANGE_LINE_MAX > RANGES_WRITE_MAX) {
			ret = usage_error("%s: more than %d bytes of ranges", name,
					  RANGES_WRITE_MAX);
			goto out;
		}
		used += snprintf(lines + used, RANGES_WRITE_MAX + 1 - used,
				 "%s0x%" PRIx64 " 0x%" PRIx64 "\n", remove ? "!" : "",
				 start, len);
	}
	if (ferror(in)) {
		ret = system_error(name);
		goto out;
	}
	ret = write_file(control_path("ranges"), lines, O_TRUNC);
	if (!ret)
		warn_if_set_empty();
out:
	free(lines);
	if (in != stdin)
		fclose(in);
	return ret;
}

int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return print_file(control_path("ranges"), "", false);
}

/*
 * The ranges of add-pci BDF [BAR] (BAR_ARG NULL: omitted), from sysfs
 * "resource": the BAR asked for (with PORTS_OK, an I/O port BAR too), or
 * every memory BAR that has an address, into RANGES (6 of them), their
 * number in *N. A usage error, or why the device has none, is said.
 */
static int pci_ranges(const char *bdf_arg, const char *bar_arg, bool ports_ok,
		      struct mmio_range *ranges, unsigned int *n)
{
	char bdf[32], path[4096], line[256];
	unsigned int want = 0, bar;
	struct pci_bar res;
	FILE *file;

	*n = 0;
	if (parse_bdf(bdf_arg, bdf, sizeof(bdf)))
		return usage_error("invalid PCI address '%s': expected [[DOMAIN:]BUS:]DEV.FN",
				   bdf_arg);
	if (bar_arg) {
		if (parse_bar(bar_arg, &want))
			return usage_error("invalid BAR '%s': expected 0 to 5", bar_arg);
		if (read_pci_bar(bdf, want, &res, ports_ok))
			return EXIT_REFUSED;
		ranges[(*n)++] = (struct mmio_range){ res.start, res.end - res.start + 1,
						      res.flags & PCI_RESOURCE_IO };
		return 0;
	}
	file = open_pci_resource(bdf, path, sizeof(path));
	if (!file)
		return EXIT_REFUSED;
	for (bar = 0; bar < 6 && fgets(line, sizeof(line), file); bar++) {
		if (parse_resource_line(line, &res)) {
			fclose(file);
			fprintf(stderr, "mmioctl: %s: malformed line %u\n", path, bar + 1);
			return EXIT_REFUSED;
		}
		if (!bar_problem(&res))
			ranges[(*n)++] = (struct mmio_range){ res.start, res.end - res.start + 1, false };
	}
	fclose(file);
	if (!*n) {
		fprintf(stderr, "mmioctl: %s has no memory BAR with an address\n", bdf);
		return EXIT_REFUSED;
	}
	return 0;
}

/*
 * add-pci BDF [BAR]: the device's memory BARs added to the set; a BAR of
 * I/O ports named by its number to the port set.
 */
int cmd_add_pci(int argc, char **argv)
{
	char lines[6 * RANGE_LINE_MAX + 1] = "";
	struct mmio_range ranges[6];
	unsigned int n, i;
	size_t used = 0;
	int ret;

	ret = pci_ranges(argv[1], argc == 3 ? argv[2] : NULL, true, ranges, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		used += snprintf(lines + used, sizeof(lines) - used, "0x%" PRIx64 " 0x%" PRIx64 "\n",
				 ranges[i].start, ranges[i].len);
	return write_set_lines(n == 1 && ranges[0].ports ? "ports" : "ranges", lines, O_APPEND);
}

/* The kernel command line of x86 holds COMMAND_LINE_SIZE bytes with its NUL. */
#define BOOT_LINE_MAX	(2048 - 1)

/* What boot-params was asked for. */
struct boot_request {
	struct mmio_range *ranges;
	unsigned int n;
	bool pci;			/* an add-pci TARGET: BAR addresses of this boot */
	uint64_t flight_size;		/* 0: no --flight */
};

/* --flight or --flight=SIZE (a multiple of the page, reserve_mem's unit). */
static int flight_option(const char *arg, struct boot_request *req)
{
	if (!strcmp(arg, "--flight")) {
		req->flight_size = 2 << 20;
		return 0;
	}
	if (parse_size(arg + 9, &req->flight_size) || req->flight_size % 4096)
		return usage_error("invalid flight recorder size '%s': expected bytes, 0x hex, or a k/M/G suffix, a multiple of 4k",
				   arg + 9);
	return 0;
}

/* The options and TARGETs of boot-params, each checked, the BARs read. */
static int boot_targets(int argc, char **argv, struct boot_request *req)
{
	int i, ret;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		unsigned int n;

		if (!strcmp(arg, "--flight") || !strncmp(arg, "--flight=", 9)) {
			ret = flight_option(arg, req);
		} else if (!strcmp(arg, "add-pci")) {
			const char *bar = NULL;

			if (i + 1 == argc)
				return usage_error("add-pci needs a BDF");
			/* After BDF, a word 0 to 5 is its BAR: no range starts there. */
			if (i + 2 < argc && strlen(argv[i + 2]) == 1 && strchr("012345", argv[i + 2][0]))
				bar = argv[i + 2];
			ret = pci_ranges(argv[i + 1], bar, false, req->ranges + req->n, &n);
			req->n += n;
			req->pci = true;
			i += bar ? 2 : 1;
		} else if (arg[0] == '-') {
			return usage_error("unknown option '%s'", arg);
		} else if (i + 1 == argc) {
			return usage_error("address '%s' without a SIZE", arg);
		} else {
			ret = range_args(arg, argv[i + 1], &req->ranges[req->n++]);
			i++;
		}
		if (ret)
			return ret;
	}
	if (!req->n)
		return usage_error("boot-params needs a TARGET: add-pci BDF [BAR], or ADDR SIZE");
	if (instance && !req->flight_size)
		return usage_error("-i NAME names the flight recorder's instance: give --flight too");
	return 0;
}

/* The name of the flight recorder, for both trace_instance= and reserve_mem=. */
static int check_flight(const char *name)
{
	switch (check_flight_name(name)) {
	case 0:
		return 0;
	case -2:
		return usage_error("instance name '%s' is longer than %d bytes, what reserve_mem= keeps",
				   name, FLIGHT_NAME_MAX);
	case -3:
		return usage_error("instance name '%s' starts with a digit: trace_instance= would read it as an address",
				   name);
	default:
		return usage_error("invalid instance name '%s'", name);
	}
}

/* The line of parameters, into the malloc()ed *LINE. */
static int boot_line(const struct boot_request *req, const char *name, char **line)
{
	size_t size = (size_t)req->n * (BOOT_SIZE_MAX + 20) + 256, used;
	char text[BOOT_SIZE_MAX];
	unsigned int i;

	*line = malloc(size);
	if (!*line)
		return system_error("malloc");
	used = snprintf(*line, size, "mmiotrace.ranges=");
	for (i = 0; i < req->n; i++) {
		format_boot_size(req->ranges[i].len, text, sizeof(text));
		used += snprintf(*line + used, size - used, "%s%s@0x%" PRIx64, i ? "," : "", text,
				 req->ranges[i].start);
	}
	if (!req->flight_size) {
		snprintf(*line + used, size - used, " trace_event=mmiotrace:*");
		return 0;
	}
	format_boot_size(req->flight_size, text, sizeof(text));
	snprintf(*line + used, size - used, " reserve_mem=%s:2M:%s trace_instance=%s@%s,mmiotrace",
		 text, name, name, name);
	return 0;
}

/*
 * boot-params [--flight[=SIZE]] [-i NAME] TARGET...: the kernel parameters
 * that trace TARGETs from boot, through the events of the top-level
 * buffer, or with --flight into a boot-mapped instance that survives a
 * warm reboot (last-boot reads it).
 */
int cmd_boot_params(int argc, char **argv)
{
	struct boot_request req = { 0 };
	const char *name = instance ? instance : FLIGHT_INSTANCE;
	char *line;
	size_t len;
	int ret;

	req.ranges = calloc(argc, 6 * sizeof(*req.ranges));
	if (!req.ranges)
		return system_error("calloc");
	ret = boot_targets(argc, argv, &req);
	if (!ret && req.flight_size)
		ret = check_flight(name);
	if (!ret)
		ret = boot_line(&req, name, &line);
	free(req.ranges);
	if (ret)
		return ret;
	len = strlen(line);
	if (len > BOOT_LINE_MAX)
		ret = usage_error("the parameters take %zu bytes, more than the %d of the x86 kernel command line",
				  len, BOOT_LINE_MAX);
	else
		printf("%s\n", line);
	free(line);
	if (!ret && req.pci)
		fprintf(stderr, "mmioctl: the BAR addresses are those this boot assigned: they stay while the firmware and the slots do\n");
	return ret;
}

/*
 * The last column of a mappings line: the caller of ioremap(), or for a
 * process's mapping "pid=PID virt=VIRT comm=COMM", shown as
 * "pid PID (COMM) at VIRT".
 */
static void print_owner(const char *owner)
{
	char virt[32];
	int pid, comm;

	if (sscanf(owner, "pid=%d virt=%31s comm=%n", &pid, virt, &comm) == 2 && comm > 0)
		printf("pid %d (%s) at %s\n", pid, owner + comm, virt);
	else
		printf("%s\n", owner);
}

/* maps: the mappings file, with a header over its columns. */
int cmd_maps(int argc, char **argv)
{
	const char *path = control_path("mappings");
	char line[1024], id[32], phys[32], size[32], traced[8], armed[32];
	int caller;
	FILE *file;

	(void)argc;
	(void)argv;
	if (!path)
		return EXIT_REFUSED;
	file = fopen(path, "r");
	if (!file)
		return system_error(path);
	printf("%6s %-18s %-12s %6s %12s %s\n", "ID", "PHYS", "SIZE", "TRACED", "ARMED", "CALLER");
	while (fgets(line, sizeof(line), file)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%31s %31s %31s %7s %31s %n", id, phys, size, traced, armed,
			   &caller) != 5) {
			fclose(file);
			fprintf(stderr, "mmioctl: %s: malformed line '%s'\n", path, line);
			return EXIT_REFUSED;
		}
		printf("%6s %-18s %-12s %6s %12s ", id, phys, size,
		       strcmp(traced, "0") ? "yes" : "no", armed);
		print_owner(line + caller);
	}
	if (ferror(file)) {
		fclose(file);
		return system_error(path);
	}
	fclose(file);
	return 0;
}

int cmd_on(int argc, char **argv)
{
	struct tracer_state state;
	int ret;

	(void)argc;
	(void)argv;
	if (instance)
		return instance_on(instance);
	ret = check_mmiotrace_available();
	if (!ret)
		ret = read_tracer_state(&state);
	if (ret)
		return ret;
	if (!strcmp(state.current, "mmiotrace")) {
		fprintf(stderr, "mmioctl: mmiotrace is on already\n");
	} else if (strcmp(state.current, "nop")) {
		fprintf(stderr, "mmioctl: the tracer %s is on: switch it off first\n",
			state.current);
		return EXIT_REFUSED;
	} else {
		ret = write_file(tracing_path("current_tracer"), "mmiotrace\n", O_TRUNC);
		if (ret)
			return ret;
	}
	if (!state.tracing_on)
		fprintf(stderr, "mmioctl: tracing_on is 0: nothing is recorded until it is 1\n");
	return 0;
}

/* off: mmiotrace only; any other tracer is left alone. */
int cmd_off(int argc, char **argv)
{
	struct tracer_state state;
	int ret;

	(void)argc;
	(void)argv;
	if (instance)
		return instance_off(instance);
	ret = read_tracer_state(&state);
	if (ret)
		return ret;
	if (!strcmp(state.current, "mmiotrace"))
		return switch_tracer_off();
	if (!strcmp(state.current, "nop")) {
		fprintf(stderr, "mmioctl: mmiotrace is off already\n");
		return 0;
	}
	fprintf(stderr, "mmioctl: the tracer is %s, not mmiotrace: left alone\n", state.current);
	return EXIT_REFUSED;
}

/* pc, isa, maps-only: "on" or "off" into a 0/1 file. */
static int set_toggle(char **argv, const char *file)
{
	bool on;

	if (parse_switch(argv[1], &on))
		return usage_error("%s takes 'on' or 'off', not '%s'", argv[0], argv[1]);
	return write_file(control_path(file), on ? "1\n" : "0\n", O_TRUNC);
}

int cmd_pc(int argc, char **argv)
{
	(void)argc;
	return set_toggle(argv, "trace_pc");
}

int cmd_isa(int argc, char **argv)
{
	(void)argc;
	return set_toggle(argv, "trace_isa");
}

int cmd_maps_only(int argc, char **argv)
{
	(void)argc;
	return set_toggle(argv, "maps_only");
}

int cmd_mark(int argc, char **argv)
{
	char text[MARKER_MAX + 2] = "";
	size_t used = 0;
	int i;

	for (i = 1; i < argc; i++) {
		size_t len = strlen(argv[i]);

		if (used + len + 1 > MARKER_MAX + 1)
			return usage_error("marker text is longer than %d bytes", MARKER_MAX);
		if (i > 1)
			text[used++] = ' ';
		memcpy(text + used, argv[i], len + 1);
		used += len;
	}
	if (check_marker(text))
		return usage_error("marker text must be 1 to %d bytes without a newline",
				   MARKER_MAX);
	text[used] = '\n';
	text[used + 1] = '\0';
	if (instance)
		return instance_mark(instance, text);
	return write_file(root_path("/proc/mmio-marker"), text, 0);
}

/* The facts status prints, read before anything is printed. */
struct status {
	struct tracer_state tracer;
	bool events_top;
	char events_instances[4096];
	char buffer[64];
	char toggles[3][8];
	char ranges[64 * 1024];
	int overrides;		/* rules; -1: the kernel has no overrides file */
	char stats[4096];
};

static const char *const toggle_files[] = { "trace_pc", "trace_isa", "maps_only" };

static int read_status(struct status *st)
{
	size_t i;

	if (!control_path("ranges") || read_tracer_state(&st->tracer) ||
	    read_line(tracing_path("buffer_size_kb"), st->buffer, sizeof(st->buffer)))
		return EXIT_REFUSED;
	for (i = 0; i < 3; i++)
		if (read_line(control_path(toggle_files[i]), st->toggles[i],
			      sizeof(st->toggles[i])))
			return EXIT_REFUSED;
	if (read_text(control_path("ranges"), st->ranges, sizeof(st->ranges)) ||
	    count_overrides(&st->overrides) ||
	    read_text(control_path("stats"), st->stats, sizeof(st->stats)))
		return EXIT_REFUSED;
	event_consumers(&st->events_top, st->events_instances, sizeof(st->events_instances));
	return 0;
}

static void print_status_text(struct status *st)
{
	char *line, *save;
	size_t i;

	printf("tracer: %s (mmiotrace %s)\n", st->tracer.current,
	       strcmp(st->tracer.current, "mmiotrace") ? "off" : "on");
	printf("tracing_on: %d\n", st->tracer.tracing_on);
	/* Events arm the range set as the tracer does. */
	if (!st->events_top && !st->events_instances[0])
		printf("events: off\n");
	else
		printf("events: on in %s%s%s%s\n", st->events_top ? "the top-level buffer" : "",
		       st->events_top && st->events_instances[0] ? " and " : "",
		       st->events_instances[0] ? "instances " : "", st->events_instances);
	printf("buffer_size_kb: %s\n", st->buffer);
	for (i = 0; i < 3; i++)
		printf("%s: %s\n", toggle_files[i], st->toggles[i]);
	if (!st->ranges[0]) {
		printf("ranges: empty (every mapping made while tracing is traced)\n");
	} else {
		printf("ranges:\n");
		for (line = strtok_r(st->ranges, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("  %s\n", line);
	}
	if (st->overrides >= 0)
		printf("overrides: %d\n", st->overrides);
	printf("stats:\n");
	for (line = strtok_r(st->stats, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		printf("  %s\n", line);
}

/*
 * The same facts as one JSON object with stable keys: "tracer",
 * "mmiotrace" and "tracing_on", "buffer_size_kb" (the expanded size),
 * the three toggles as booleans, "ranges" as [start, size] pairs of
 * numbers, "stats" by counter name, "events_top" and "events_instances"
 * (where mmiotrace events are on), "overrides" (the number of rules; left
 * out when the kernel has no overrides file).
 */
static void print_status_json(struct status *st)
{
	const char *expanded = strstr(st->buffer, "expanded: ");
	char *line, *save, key[64];
	unsigned long long a, b;
	const char *sep = "";
	size_t i;

	printf("{\"tracer\":\"%s\",\"mmiotrace\":%s,\"tracing_on\":%s,\"buffer_size_kb\":%llu",
	       st->tracer.current, strcmp(st->tracer.current, "mmiotrace") ? "false" : "true",
	       st->tracer.tracing_on ? "true" : "false",
	       strtoull(expanded ? expanded + 10 : st->buffer, NULL, 10));
	for (i = 0; i < 3; i++)
		printf(",\"%s\":%s", toggle_files[i], strcmp(st->toggles[i], "0") ? "true" : "false");
	printf(",\"ranges\":[");
	for (line = strtok_r(st->ranges, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%llx %llx", &a, &b) == 2) {
			printf("%s[%llu,%llu]", sep, a, b);
			sep = ",";
		}
	printf("],\"stats\":{");
	sep = "";
	for (line = strtok_r(st->stats, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%63s %llu", key, &a) == 2) {
			printf("%s\"%s\":%llu", sep, key, a);
			sep = ",";
		}
	printf("},\"events_top\":%s,\"events_instances\":[", st->events_top ? "true" : "false");
	sep = "";
	for (line = strtok_r(st->events_instances, " ", &save); line;
	     line = strtok_r(NULL, " ", &save)) {
		printf("%s\"%s\"", sep, line);
		sep = ",";
	}
	printf("]");
	if (st->overrides >= 0)
		printf(",\"overrides\":%d", st->overrides);
	printf("}\n");
}

int cmd_status(int argc, char **argv)
{
	static struct status st;
	bool json = false;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--json"))
		json = true;
	else if (argc != 1)
		return usage_error("status takes no argument but --json");
	if (instance)
		return instance_status(instance, json);
	ret = read_status(&st);
	if (ret)
		return ret;
	if (json)
		print_status_json(&st);
	else
		print_status_text(&st);
	return 0;
}

/* show: the events in the buffer, left there. */
int cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (instance)
		return instance_show(instance);
	if (!control_path("ranges"))
		return EXIT_REFUSED;
	return print_file(tracing_path("trace"), "", true);
}

/*
 * reset: mmiotrace off and every control at its default: the tracer off,
 * the mmiotrace events off and their triggers gone in every trace array,
 * the default instance removed, no override left (the kernel clears them
 * when tracing stops, not those set while it was off). With -i NAME:
 * instance NAME removed.
 */
int cmd_reset(int argc, char **argv)
{
	struct tracer_state state;
	char buffer[32];
	int ret;

	(void)argc;
	(void)argv;
	if (instance)
		return instance_reset(instance);
	ret = all_events_off();
	if (!ret)
		ret = read_tracer_state(&state);
	if (!ret && !strcmp(state.current, "mmiotrace"))
		ret = switch_tracer_off();
	if (ret)
		return ret;
	snprintf(buffer, sizeof(buffer), "%d\n", DEFAULT_BUFFER_KB);
	return write_file(control_path("ranges"), "", O_TRUNC) ||
	       clear_overrides_if_any() ||
	       write_file(control_path("trace_pc"), "0\n", O_TRUNC) ||
	       write_file(control_path("trace_isa"), "1\n", O_TRUNC) ||
	       write_file(control_path("maps_only"), "0\n", O_TRUNC) ||
	       write_file(tracing_path("buffer_size_kb"), buffer, O_TRUNC) ||
	       write_file(tracing_path("tracing_on"), "1\n", O_TRUNC) ? EXIT_REFUSED : 0;
}

/* buffer [KB]: the size of the trace buffer of each CPU. */
int cmd_buffer(int argc, char **argv)
{
	char text[64];
	unsigned long kb;

	if (argc == 1) {
		if (instance)
			return instance_buffer(instance, NULL);
		if (read_line(tracing_path("buffer_size_kb"), text, sizeof(text)))
			return EXIT_REFUSED;
		printf("%s\n", text);
		return 0;
	}
	if (parse_positive(argv[1], 1UL << 30, &kb))
		return usage_error("invalid buffer size '%s': expected KiB per CPU, 1 or more",
				   argv[1]);
	snprintf(text, sizeof(text), "%lu\n", kb);
	if (instance)
		return instance_buffer(instance, text);
	return write_file(tracing_path("buffer_size_kb"), text, O_TRUNC);
}
