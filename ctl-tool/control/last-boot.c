// SPDX-License-Identifier: GPL-2.0
/*
 * last-boot [-i NAME] [--clear]
 *
 * The trace of a boot-mapped instance (trace_instance=NAME@NAME with
 * reserve_mem=, see boot-params --flight), which after a warm reboot holds
 * what the previous boot recorded, with tracing_on 0 so that this boot's
 * events do not push them out, in the stock format (convert.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/files.h"
#include "common/out.h"
#include "control/commands.h"
#include "control/events.h"
#include "readers/readers.h"

/* Is NAME there, and boot-mapped? Says what to do when not. */
static int check_flight_instance(const char *name)
{
	char path[PATH_SIZE];

	if (!instance_file(path, name, ""))
		return EXIT_REFUSED;
	if (access(path, F_OK)) {
		if (errno != ENOENT)
			return system_error(path);
		fprintf(stderr, "mmioctl: no trace instance %s: boot with reserve_mem=SIZE:2M:%s trace_instance=%s@%s,mmiotrace (see mmioctl boot-params --flight%s%s)\n",
			name, name, name, name, strcmp(name, FLIGHT_INSTANCE) ? " -i " : "",
			strcmp(name, FLIGHT_INSTANCE) ? name : "");
		return EXIT_REFUSED;
	}
	if (access(instance_file(path, name, "last_boot_info"), F_OK)) {
		if (errno != ENOENT)
			return system_error(path);
		fprintf(stderr, "mmioctl: instance %s is not a persistent (boot-mapped) instance: it has no last_boot_info\n",
			name);
		return EXIT_REFUSED;
	}
	return 0;
}

static const char *plural(unsigned long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * Where the events came from. With tracing_on 1 the instance records this
 * boot too (last-boot --clear was run, or someone wrote tracing_on).
 */
static void say_source(const struct convert_counts *c, const char *name)
{
	char path[PATH_SIZE], on[16] = "0";

	try_read_line(instance_file(path, name, "tracing_on"), on, sizeof(on));
	fprintf(stderr, "mmioctl: %llu %s and %llu %s %s, instance %s%s\n", c->accesses,
		plural(c->accesses, "access", "accesses"), c->maps,
		plural(c->maps, "mapping", "mappings"),
		strcmp(on, "0") ? "recorded" : "from the previous boot", name,
		strcmp(on, "0") ? ": its tracing_on is 1, some may be of this boot" : "");
}

/* Empty the instance's buffer, as "echo > trace" does, and record again. */
static int clear_flight(const char *name)
{
	char path[PATH_SIZE];

	if (write_file(instance_file(path, name, "trace"), "", O_TRUNC) ||
	    write_file(instance_file(path, name, "tracing_on"), "1\n", O_TRUNC))
		return EXIT_REFUSED;
	fprintf(stderr, "mmioctl: instance %s emptied, recording again (tracing_on 1)\n", name);
	return 0;
}

int cmd_last_boot(int argc, char **argv)
{
	const char *name = instance ? instance : FLIGHT_INSTANCE;
	struct convert_counts counts;
	char path[PATH_SIZE], *text;
	bool clear = argc == 2;
	size_t len;
	int ret;

	if (clear && strcmp(argv[1], "--clear"))
		return usage_error("last-boot takes no argument but --clear and -i NAME, not '%s'",
				   argv[1]);
	ret = check_flight_instance(name);
	if (ret)
		return ret;
	if (read_all(instance_file(path, name, "trace"), &text, &len))
		return EXIT_REFUSED;
	/* Checked whole first: a bad line or no event prints nothing. */
	ret = convert_text(text, len, path, false, &counts);
	if (!ret && !counts.events) {
		fprintf(stderr, "mmioctl: instance %s holds no mmiotrace events\n", name);
		ret = EXIT_REFUSED;
	}
	if (!ret) {
		out_str("VERSION 20070824\n");
		ret = convert_text(text, len, path, true, &counts);
		out_push();
	}
	free(text);
	if (ret)
		return ret;
	/* Never empty the only record of the last boot before it is safely out. */
	if (ferror(stdout)) {
		/* close_stdout() in mmioctl.c says why. */
		fprintf(stderr, "mmioctl: instance %s left as it was: its events did not all reach standard output\n",
			name);
		return EXIT_REFUSED;
	}
	say_source(&counts, name);
	return clear ? clear_flight(name) : 0;
}
