// SPDX-License-Identifier: GPL-2.0
/*
 * mmioctl: set up the runtime controls of mmiotrace and record traces from
 * the command line. See docs/mmioctl.1. Exit status: 0 success, 1 the
 * kernel or the system refused, 2 usage error; record with a command exits
 * with the command's status.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "control/commands.h"
#include "control/events.h"
#include "readers/readers.h"

#define VERSION		"0.2"

struct command {
	const char *name;
	const char *args;
	int min_args, max_args;	/* after the name and -i NAME; -1: no limit */
	int (*run)(int argc, char **argv);
	const char *help;
	unsigned int flags;
};

/* -i NAME anywhere before "--"; with LEADING only before the other arguments. */
#define INSTANCE	1U
#define LEADING		2U

static const struct command commands[] = {
	{ "record", "[-e] [-i NAME] [-o FILE] [-b KB] [-d SECONDS] [-q] [-- COMMAND...]", 0, -1,
	  cmd_record, "record a session: on, run COMMAND, drain, off (-e: the events)", 0 },
	{ "hist", "[-i NAME] [--json]", 0, 1, cmd_hist,
	  "per register of an events session: accesses, values", INSTANCE },
	{ "add", "ADDR SIZE...", 2, -1, cmd_add, "add physical ranges (SIZE: bytes, 0x hex, k/M/G)", 0 },
	{ "del", "ADDR SIZE...", 2, -1, cmd_del, "remove ranges, or parts of them", 0 },
	{ "set", "[ADDR SIZE...]", 0, -1, cmd_set, "replace the whole set in one write", 0 },
	{ "load", "FILE|-", 1, 1, cmd_load, "replace the set with a file of ranges", 0 },
	{ "clear", "", 0, 0, cmd_clear, "empty the set", 0 },
	{ "list", "", 0, 0, cmd_list, "print the set, one range per line", 0 },
	{ "add-pci", "BDF [BAR]", 1, 2, cmd_add_pci,
	  "add a PCI device's memory BARs (all if BAR omitted; an I/O BAR to the ports)", 0 },
	{ "add-port", "PORT SIZE...", 2, -1, cmd_add_port, "add I/O ports to trace (at most 4 aligned windows)", 0 },
	{ "del-port", "PORT SIZE...", 2, -1, cmd_del_port, "remove I/O ports", 0 },
	{ "clear-ports", "", 0, 0, cmd_clear_ports, "empty the port set", 0 },
	{ "ports", "", 0, 0, cmd_ports, "print the port set, one range per line", 0 },
	{ "override", "ADDR WIDTH VALUE|feed|random SEED [MASK] [--count N] | --from FILE", 2, -1,
	  cmd_override, "traced reads at ADDR (or BDF:BAR+OFFSET) return VALUE", 0 },
	{ "drop", "ADDR WIDTH [--count N]", 2, -1, cmd_drop,
	  "traced writes at ADDR (or BDF:BAR+OFFSET) miss the device", 0 },
	{ "del-override", "ADDR WIDTH", 2, 2, cmd_del_override, "remove the override of reads at ADDR", 0 },
	{ "del-drop", "ADDR WIDTH", 2, 2, cmd_del_drop, "remove the drop of writes at ADDR", 0 },
	{ "clear-overrides", "", 0, 0, cmd_clear_overrides, "remove every override and drop", 0 },
	{ "overrides", "", 0, 0, cmd_overrides, "list overrides and drops, noting the inert ones", 0 },
	{ "fuzz", "[--time S] [--runs N] [--seed N] [--corpus FILE] [-o DIR] [--no-coverage] [--stop-on-crash] [--journal FILE] DRIVER BDF",
	  2, -1, cmd_fuzz, "feed a driver's probe fuzzed reads of its device, guided by kcov", 0 },
	{ "maps", "", 0, 0, cmd_maps, "list the live ioremap() mappings", 0 },
	{ "on", "[-i NAME]", 0, 0, cmd_on, "switch mmiotrace on (-i: the events of instance NAME)",
	  INSTANCE },
	{ "off", "[-i NAME]", 0, 0, cmd_off, "switch mmiotrace off (stopping recorders)", INSTANCE },
	{ "pc", "on|off", 1, 1, cmd_pc, "record the PC of each access", 0 },
	{ "isa", "on|off", 1, 1, cmd_isa, "trace mappings in the ISA hole 0xa0000-0xfffff", 0 },
	{ "maps-only", "on|off", 1, 1, cmd_maps_only, "log mappings only, arm no page", 0 },
	{ "mark", "[-i NAME] TEXT...", 1, -1, cmd_mark, "write a marker into the trace",
	  INSTANCE | LEADING },
	{ "status", "[-i NAME] [--json]", 0, 1, cmd_status,
	  "tracer, toggles, ranges, stats, buffer size", INSTANCE },
	{ "show", "[-i NAME]", 0, 0, cmd_show, "print the buffer, leaving it there", INSTANCE },
	{ "buffer", "[-i NAME] [KB]", 0, 1, cmd_buffer, "print or set the buffer size per CPU",
	  INSTANCE },
	{ "reset", "[-i NAME]", 0, 0, cmd_reset, "mmiotrace off, every control at its default",
	  INSTANCE },
	{ "decode", "[--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [--fold] [--json] TRACE|-", 1, -1, cmd_decode,
	  "name registers and decode their fields, line by line", 0 },
	{ "stat", "[--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [--sort KEY] [--json] TRACE|-", 1, -1, cmd_stat,
	  "per register: accesses, values, polling loops", 0 },
	{ "diff", "[--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] A B", 2, -1, cmd_diff,
	  "compare two traces by register, section by section", 0 },
	{ "timeline", "[--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [-o FILE] TRACE|-", 1, -1, cmd_timeline,
	  "the trace in the Chrome/Perfetto JSON trace format, to view in time", 0 },
	{ "plot", "[--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [-o FILE] TRACE|-", 1, -1, cmd_plot,
	  "a picture of the trace in SVG: registers by time, the hottest first", 0 },
	{ "model", "[-o FILE] [--json] TRACE...", 1, -1, cmd_model,
	  "a register map inferred from traces (rnndb XML decode loads)", 0 },
	{ "convert", "[TRACE|-]", 0, 1, cmd_convert,
	  "an events trace (an instance's trace) in the stock format", 0 },
	{ "last-boot", "[-i NAME] [--clear]", 0, 1, cmd_last_boot,
	  "the previous boot's events of a flight recorder, converted", INSTANCE },
	{ "boot-params", "[--flight[=SIZE]] [-i NAME] TARGET...", 1, -1, cmd_boot_params,
	  "kernel parameters to trace TARGETs (add-pci BDF [BAR], ADDR SIZE) from boot",
	  INSTANCE },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "usage: mmioctl [--root=DIR] COMMAND [ARG...]\n\n");
	for (i = 0; i < NR_COMMANDS; i++) {
		char synopsis[80];

		snprintf(synopsis, sizeof(synopsis), "%s %s", commands[i].name, commands[i].args);
		/* A long synopsis gets a line of its own, the help under it. */
		if (strlen(synopsis) > 24)
			fprintf(out, "  %s\n  %-24s %s\n", synopsis, "", commands[i].help);
		else
			fprintf(out, "  %-24s %s\n", synopsis, commands[i].help);
	}
	fprintf(out, "\n  -i, --instance=NAME\n"
		"                   the mmiotrace events of trace instance NAME, not the tracer\n"
		"                   (record -e and hist: instance mmioctl unless given;\n"
		"                   last-boot and boot-params --flight: instance flight)\n"
		"  -r, --root=DIR   prefix every path with DIR (or MMIOCTL_ROOT), for tests\n"
		"  -h, --help       this text; COMMAND --help: that command's\n"
		"  -V, --version    the version\n"
		"Exit status: 0 success, 1 refused by the kernel or the system, or a trace or\n"
		"map refused, 2 usage error; record -- COMMAND exits with the command's status;\n"
		"diff: 0 the same, 1 different, 2 trouble.\n"
		"TARGET of boot-params: add-pci BDF [BAR] (a word 0 to 5 after BDF is its BAR)\n"
		"or ADDR SIZE, as the commands add-pci and add take them.\n");
}

static int command_usage(const struct command *cmd, FILE *out)
{
	fprintf(out, "usage: mmioctl %s %s\n  %s\n", cmd->name, cmd->args, cmd->help);
	return out == stdout ? 0 : EXIT_USAGE;
}

/*
 * What was printed must have reached standard output: a full disk or a
 * closed stdout is a failure too.
 */
static int close_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		fprintf(stderr, "mmioctl: standard output: %s\n", strerror(errno ?: EIO));
		return status ? status : EXIT_REFUSED;
	}
	return status;
}

/*
 * Take -i NAME, -iNAME, --instance NAME and --instance=NAME out of the
 * arguments: anywhere before "--" (taken out too), or with LEADING only
 * before the first other argument.
 */
static int take_instance(int *argc, char **argv, bool leading)
{
	int i = 1, used;

	while (i < *argc) {
		const char *arg = argv[i], *name;

		used = 1;
		if (!strcmp(arg, "--")) {
			memmove(&argv[i], &argv[i + 1], (*argc - i) * sizeof(char *));
			(*argc)--;
			break;
		}
		if (!strcmp(arg, "-i") || !strcmp(arg, "--instance")) {
			if (i + 1 >= *argc)
				return usage_error("%s needs an instance NAME", arg);
			name = argv[i + 1];
			used = 2;
		} else if (!strncmp(arg, "--instance=", 11)) {
			name = arg + 11;
		} else if (!strncmp(arg, "-i", 2)) {
			name = arg + 2;
		} else if (leading) {
			break;
		} else {
			i++;
			continue;
		}
		if (check_instance_name(name))
			return usage_error("invalid instance name '%s': expected 1 to %d letters, digits, '_', '-' or '.', not starting with '-' or '.'",
					   name, INSTANCE_NAME_MAX);
		if (instance)
			return usage_error("more than one instance given");
		instance = name;
		memmove(&argv[i], &argv[i + used], (*argc - i - used + 1) * sizeof(char *));
		*argc -= used;
	}
	return 0;
}

static int run_command(int argc, char **argv)
{
	const struct command *cmd = NULL;
	int nargs = argc - 1;
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[0], commands[i].name))
			cmd = &commands[i];
	if (!cmd)
		return usage_error("unknown command '%s'", argv[0]);
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return command_usage(cmd, stdout);
	if (cmd->flags & INSTANCE) {
		int ret = take_instance(&argc, argv, cmd->flags & LEADING);

		if (ret)
			return ret;
		nargs = argc - 1;
	}
	if (nargs < cmd->min_args || (cmd->max_args >= 0 && nargs > cmd->max_args)) {
		command_usage(cmd, stderr);
		return EXIT_USAGE;
	}
	find_mounts();
	return cmd->run(argc, argv);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *env_root = getenv("MMIOCTL_ROOT");
	int c;

	if (env_root)
		root = env_root;
	opterr = 0;
	/* "+": options end at the command; the command's own follow it. */
	while ((c = getopt_long(argc, argv, "+r:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			root = optarg;
			break;
		case 'h':
			usage(stdout);
			return close_stdout(0);
		case 'V':
			printf("mmioctl %s\n", VERSION);
			return close_stdout(0);
		default:
			return usage_error("unknown or incomplete option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("no command given");
	return close_stdout(run_command(argc - optind, argv + optind));
}
