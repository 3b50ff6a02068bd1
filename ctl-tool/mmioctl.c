// SPDX-License-Identifier: GPL-2.0
/*
 * mmioctl: set up the runtime controls of mmiotrace from the command line.
 * See docs/mmioctl.1. Exit status: 0 success, 1 the kernel or the system
 * refused, 2 usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"

#define VERSION		"0.1"
#define EXIT_REFUSED	1
#define EXIT_USAGE	2

static const char *root = "";	/* --root: prefix of every path */
static char debugfs[4096], tracefs[4096];

static int usage_error(const char *fmt, ...)
{
	va_list args;

	fputs("mmioctl: ", stderr);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputs("\nTry 'mmioctl --help'.\n", stderr);
	return EXIT_USAGE;
}

static int system_error(const char *path)
{
	fprintf(stderr, "mmioctl: %s: %s\n", path, strerror(errno));
	return EXIT_REFUSED;
}

/* Mount points of debugfs and tracefs, from /proc/mounts. */
static void find_mounts(void)
{
	char path[4096], dev[256], dir[4096], type[64];
	FILE *mounts;

	debugfs[0] = tracefs[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/mounts", root);
	mounts = fopen(path, "r");
	if (mounts) {
		while (fscanf(mounts, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
			if (!strcmp(type, "debugfs") && !debugfs[0])
				snprintf(debugfs, sizeof(debugfs), "%s%s", root, dir);
			else if (!strcmp(type, "tracefs") && !tracefs[0])
				snprintf(tracefs, sizeof(tracefs), "%s%s", root, dir);
		}
		fclose(mounts);
		return;
	}
	/* No /proc/mounts: assume the default mount points. */
	snprintf(debugfs, sizeof(debugfs), "%s/sys/kernel/debug", root);
	snprintf(tracefs, sizeof(tracefs), "%s/sys/kernel/tracing", root);
}

/*
 * Path of a control file; prints why and returns NULL when there is none.
 * The result lives in a static buffer until the next call.
 */
static const char *control_path(const char *name)
{
	static char path[4096 + 64];
	char dir[4096 + 16];

	if (!debugfs[0]) {
		fprintf(stderr, "mmioctl: debugfs is not mounted (mount -t debugfs none /sys/kernel/debug)\n");
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%s/mmiotrace", debugfs);
	if (access(dir, F_OK)) {
		if (errno == ENOENT)
			fprintf(stderr, "mmioctl: %s not found: this kernel has no runtime mmiotrace controls\n",
				dir);
		else
			system_error(dir);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static const char *tracing_path(const char *name)
{
	static char path[4096 + 64];

	if (!tracefs[0]) {
		/* Older setups reach tracefs through debugfs. */
		if (debugfs[0])
			snprintf(tracefs, sizeof(tracefs), "%s/tracing", debugfs);
		else {
			fprintf(stderr, "mmioctl: tracefs is not mounted (mount -t tracefs none /sys/kernel/tracing)\n");
			return NULL;
		}
	}
	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	return path;
}

/* Write data to path in one write(2): the kernel judges each write whole. */
static int write_file(const char *path, const char *data, int flags)
{
	size_t len = strlen(data);
	ssize_t done;
	int fd;

	if (!path)
		return EXIT_REFUSED;
	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return system_error(path);
	done = len ? write(fd, data, len) : 0;
	if (done < 0 || (size_t)done != len) {
		if (done >= 0)
			errno = EIO;
		system_error(path);
		close(fd);
		return EXIT_REFUSED;
	}
	if (close(fd))
		return system_error(path);
	return 0;
}

/* fopen() for reading; NULL, with the reason printed, when it fails. */
static FILE *open_read(const char *path)
{
	FILE *file;

	if (!path)
		return NULL;
	file = fopen(path, "r");
	if (!file)
		system_error(path);
	return file;
}

/* Copy a whole file to stdout, each line prefixed by indent. */
static int print_file(const char *path, const char *indent)
{
	FILE *file = open_read(path);
	char line[4096];

	if (!file)
		return EXIT_REFUSED;
	while (fgets(line, sizeof(line), file))
		printf("%s%s", indent, line);
	if (ferror(file)) {
		system_error(path);
		fclose(file);
		return EXIT_REFUSED;
	}
	fclose(file);
	return 0;
}

/* The first line of a file, without its newline. */
static int read_line(const char *path, char *buf, size_t size)
{
	FILE *file = open_read(path);

	if (!file)
		return EXIT_REFUSED;
	if (!fgets(buf, size, file))
		buf[0] = '\0';
	fclose(file);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* "add"/"del": pairs of ADDR SIZE, sent as one write of normalized lines. */
static int write_ranges(int argc, char **argv, const char *prefix)
{
	size_t size = (size_t)argc * 48 + 1, used = 0;
	char *lines = malloc(size);
	uint64_t start, len;
	int i, ret;

	if (!lines)
		return system_error("malloc");
	lines[0] = '\0';
	for (i = 1; i + 1 < argc; i += 2) {
		if (parse_u64(argv[i], &start)) {
			free(lines);
			return usage_error("invalid address '%s': expected decimal or 0x hex", argv[i]);
		}
		if (parse_size(argv[i + 1], &len)) {
			free(lines);
			return usage_error("invalid size '%s': expected bytes, 0x hex, or a k/M/G suffix",
					   argv[i + 1]);
		}
		if (len > UINT64_MAX - start) {
			free(lines);
			return usage_error("range %s %s runs past the end of the address space",
					   argv[i], argv[i + 1]);
		}
		used += snprintf(lines + used, size - used, "%s0x%" PRIx64 " 0x%" PRIx64 "\n",
				 prefix, start, len);
	}
	ret = write_file(control_path("ranges"), lines, O_APPEND);
	free(lines);
	return ret;
}

static int cmd_add(int argc, char **argv)
{
	if (argc % 2 == 0)
		return usage_error("add takes ADDR SIZE pairs");
	return write_ranges(argc, argv, "");
}

static int cmd_del(int argc, char **argv)
{
	if (argc % 2 == 0)
		return usage_error("del takes ADDR SIZE pairs");
	return write_ranges(argc, argv, "!");
}

/* The memory BARs of a PCI device, from sysfs "resource". */
static int cmd_add_pci(int argc, char **argv)
{
	char bdf[16], path[4096], line[256], lines[6 * 48 + 1] = "";
	unsigned int want = 0, bar;
	bool all = argc == 2;
	struct pci_bar res;
	size_t used = 0;
	FILE *file;

	if (parse_bdf(argv[1], bdf, sizeof(bdf)))
		return usage_error("invalid PCI address '%s': expected DDDD:BB:DD.F or BB:DD.F",
				   argv[1]);
	if (!all && parse_bar(argv[2], &want))
		return usage_error("invalid BAR '%s': expected 0 to 5", argv[2]);
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/%s/resource", root, bdf);
	file = fopen(path, "r");
	if (!file) {
		if (errno == ENOENT)
			fprintf(stderr, "mmioctl: no PCI device %s (%s)\n", bdf, path);
		else
			system_error(path);
		return EXIT_REFUSED;
	}
	for (bar = 0; bar < 6 && fgets(line, sizeof(line), file); bar++) {
		if (!all && bar != want)
			continue;
		if (parse_resource_line(line, &res)) {
			fclose(file);
			fprintf(stderr, "mmioctl: %s: malformed line %u\n", path, bar + 1);
			return EXIT_REFUSED;
		}
		if (!all && (res.flags & PCI_RESOURCE_IO)) {
			fclose(file);
			fprintf(stderr, "mmioctl: %s BAR %u is an I/O port BAR, not memory\n", bdf, bar);
			return EXIT_REFUSED;
		}
		if (!all && (!res.flags || res.end <= res.start)) {
			fclose(file);
			fprintf(stderr, "mmioctl: %s BAR %u is empty\n", bdf, bar);
			return EXIT_REFUSED;
		}
		if ((res.flags & PCI_RESOURCE_MEM) && res.end > res.start)
			used += snprintf(lines + used, sizeof(lines) - used,
					 "0x%" PRIx64 " 0x%" PRIx64 "\n",
					 res.start, res.end - res.start + 1);
	}
	fclose(file);
	if (!used) {
		fprintf(stderr, all ? "mmioctl: %s has no memory BAR\n" :
			"mmioctl: %s BAR %u is not a memory BAR\n", bdf, want);
		return EXIT_REFUSED;
	}
	return write_file(control_path("ranges"), lines, O_APPEND);
}

static int cmd_clear(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return write_file(control_path("ranges"), "", O_TRUNC);
}

static int cmd_list(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return print_file(control_path("ranges"), "");
}

static int cmd_on(int argc, char **argv)
{
	char line[4096];
	int ret;

	(void)argc;
	(void)argv;
	if (!control_path("ranges"))
		return EXIT_REFUSED;
	ret = read_line(tracing_path("available_tracers"), line, sizeof(line));
	if (ret)
		return ret;
	if (!strstr(line, "mmiotrace")) {
		fprintf(stderr, "mmioctl: mmiotrace is not among the available tracers\n");
		return EXIT_REFUSED;
	}
	return write_file(tracing_path("current_tracer"), "mmiotrace\n", O_TRUNC);
}

static int cmd_off(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return write_file(tracing_path("current_tracer"), "nop\n", O_TRUNC);
}

/* pc, isa, maps-only: "on" or "off" into a 0/1 file. */
static int set_toggle(int argc, char **argv, const char *file)
{
	bool on;

	(void)argc;
	if (parse_switch(argv[1], &on))
		return usage_error("%s takes 'on' or 'off', not '%s'", argv[0], argv[1]);
	return write_file(control_path(file), on ? "1\n" : "0\n", O_TRUNC);
}

static int cmd_pc(int argc, char **argv)
{
	return set_toggle(argc, argv, "trace_pc");
}

static int cmd_isa(int argc, char **argv)
{
	return set_toggle(argc, argv, "trace_isa");
}

static int cmd_maps_only(int argc, char **argv)
{
	return set_toggle(argc, argv, "maps_only");
}

static int cmd_mark(int argc, char **argv)
{
	char text[MARKER_MAX + 2] = "", path[4096];
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
	snprintf(path, sizeof(path), "%s/proc/mmio-marker", root);
	return write_file(path, text, 0);
}

static int cmd_status(int argc, char **argv)
{
	char tracer[256], line[256], ranges[4096];
	int ret;

	(void)argc;
	(void)argv;
	if (!control_path("ranges"))
		return EXIT_REFUSED;
	snprintf(ranges, sizeof(ranges), "%s", control_path("ranges"));
	ret = read_line(tracing_path("current_tracer"), tracer, sizeof(tracer));
	if (ret)
		return ret;
	printf("tracer: %s (mmiotrace %s)\n", tracer,
	       strcmp(tracer, "mmiotrace") ? "off" : "on");
	ret = read_line(tracing_path("buffer_size_kb"), line, sizeof(line));
	if (ret)
		return ret;
	printf("buffer_size_kb: %s\n", line);
	for (const char **toggle = (const char *[]){ "trace_pc", "trace_isa", "maps_only", NULL };
	     *toggle; toggle++) {
		ret = read_line(control_path(*toggle), line, sizeof(line));
		if (ret)
			return ret;
		printf("%s: %s\n", *toggle, line);
	}
	ret = read_line(ranges, line, sizeof(line));
	if (ret)
		return ret;
	if (!line[0]) {
		printf("ranges: empty (every mapping is traced)\n");
	} else {
		printf("ranges:\n");
		ret = print_file(ranges, "  ");
		if (ret)
			return ret;
	}
	printf("stats:\n");
	return print_file(control_path("stats"), "  ");
}

/* One counter from the stats file. */
static int read_stat(const char *name, unsigned long long *val)
{
	FILE *stats = open_read(control_path("stats"));
	char line[256], key[64];
	unsigned long long v;
	int ret = -1;

	if (!stats)
		return -1;
	while (fgets(line, sizeof(line), stats))
		if (sscanf(line, "%63s %llu", key, &v) == 2 && !strcmp(key, name)) {
			*val = v;
			ret = 0;
		}
	fclose(stats);
	return ret;
}

static volatile sig_atomic_t stop_recording;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_recording = 1;
}

static int write_all(int fd, const char *buf, size_t len, const char *name)
{
	while (len) {
		ssize_t done = write(fd, buf, len);

		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return system_error(name);
		buf += done;
		len -= done;
	}
	return 0;
}

/* Stream trace_pipe until SIGINT/SIGTERM, then report lost events. */
static int cmd_record(int argc, char **argv)
{
	const char *out_name = "standard output", *pipe_path;
	struct sigaction stop = { .sa_handler = on_stop_signal };
	int in, out = STDOUT_FILENO, ret = 0;
	unsigned long long total = 0, lost = 0;
	static char buf[65536];

	if (argc == 3 && !strcmp(argv[1], "-o")) {
		out_name = argv[2];
		out = open(out_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			return system_error(out_name);
	} else if (argc != 1) {
		return usage_error("record takes no argument but -o FILE");
	}
	pipe_path = tracing_path("trace_pipe");
	if (!pipe_path || !control_path("stats"))
		return EXIT_REFUSED;
	in = open(pipe_path, O_RDONLY);
	if (in < 0)
		return system_error(pipe_path);
	/* No SA_RESTART: the signal must interrupt the blocking read. */
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);

	while (!stop_recording) {
		ssize_t got = read(in, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = system_error(pipe_path);
			break;
		}
		if (!got)
			break;
		ret = write_all(out, buf, got, out_name);
		if (ret)
			break;
		total += got;
	}
	close(in);
	if (out != STDOUT_FILENO && close(out) && !ret)
		ret = system_error(out_name);
	if (!read_stat("lost", &lost))
		fprintf(stderr, "mmioctl: recorded %llu bytes, %llu events lost\n", total, lost);
	return ret;
}

struct command {
	const char *name;
	const char *args;
	int min_args, max_args;	/* after the name; -1: no limit */
	int (*run)(int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "add", "ADDR SIZE...", 2, -1, cmd_add, "add physical ranges (SIZE: bytes, 0x hex, k/M/G)" },
	{ "del", "ADDR SIZE...", 2, -1, cmd_del, "remove ranges, or parts of them" },
	{ "add-pci", "BDF [BAR]", 1, 2, cmd_add_pci, "add a PCI device's memory BARs (all if BAR omitted)" },
	{ "clear", "", 0, 0, cmd_clear, "empty the set (= trace every mapping)" },
	{ "list", "", 0, 0, cmd_list, "print the set, one range per line" },
	{ "on", "", 0, 0, cmd_on, "enable the tracer" },
	{ "off", "", 0, 0, cmd_off, "disable the tracer" },
	{ "pc", "on|off", 1, 1, cmd_pc, "record the PC of each access" },
	{ "isa", "on|off", 1, 1, cmd_isa, "trace mappings in the ISA hole 0xa0000-0xfffff" },
	{ "maps-only", "on|off", 1, 1, cmd_maps_only, "log mappings only, arm no page" },
	{ "mark", "TEXT...", 1, -1, cmd_mark, "write a marker into the trace" },
	{ "status", "", 0, 0, cmd_status, "tracer state, ranges, toggles, stats, buffer size" },
	{ "record", "[-o FILE]", 0, 2, cmd_record, "stream the trace until interrupted" },
};

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: mmioctl [--root DIR] COMMAND [ARG...]\n\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char synopsis[64];

		snprintf(synopsis, sizeof(synopsis), "%s %s", commands[i].name, commands[i].args);
		fprintf(out, "  %-22s %s\n", synopsis, commands[i].help);
	}
	fprintf(out, "\n  --root DIR (or MMIOCTL_ROOT) prefixes every path, for tests.\n"
		"Exit status: 0 success, 1 refused by the kernel or the system, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	const char *env_root = getenv("MMIOCTL_ROOT");
	size_t i;

	if (env_root)
		root = env_root;
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[1], "--version")) {
			printf("mmioctl %s\n", VERSION);
			return 0;
		}
		if (!strcmp(argv[1], "--root") && argc > 2) {
			root = argv[2];
			argv += 2;
			argc -= 2;
			continue;
		}
		return usage_error("unknown option '%s'", argv[1]);
	}
	if (argc < 2)
		return usage_error("no command given");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *cmd = &commands[i];
		int nargs = argc - 2;

		if (strcmp(argv[1], cmd->name))
			continue;
		if (nargs < cmd->min_args || (cmd->max_args >= 0 && nargs > cmd->max_args))
			return usage_error("usage: mmioctl %s %s", cmd->name, cmd->args);
		find_mounts();
		return cmd->run(argc - 1, argv + 1);
	}
	return usage_error("unknown command '%s'", argv[1]);
}
