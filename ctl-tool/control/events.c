// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions through the mmiotrace events in a trace instance (instances/NAME
 * in tracefs), and the commands on, off, status, show, buffer, mark and
 * reset with --instance NAME.
 *
 * A session enables the five mmiotrace events of its instance and keeps
 * its histograms in hist triggers on mmio_read and mmio_write: one per
 * register (keys=phys) and one per register and value (keys=phys,value).
 * A trigger keeps its event registered, and so the range set armed, even
 * while the event is disabled, and keeps counting: a session that ends
 * pauses the triggers, disables the events, saves the histograms under
 * /run/mmioctl/NAME/ and removes the triggers. Nothing stays armed, and
 * "hist" prints the saved histograms of a finished session.
 *
 * Triggers are written with O_APPEND (">>"): an O_TRUNC open of a trigger
 * file removes every trigger of the event.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "control/events.h"
#include "control/tracer.h"

const char *instance;

const char *const mmio_events[NR_MMIO_EVENTS] = {
	"mmio_read", "mmio_write", "mmio_unknown", "mmio_map", "mmio_unmap",
};

/* The histograms of a session, on each of mmio_read and mmio_write. */
const char *const hist_specs[NR_HISTS] = {
	[HIST_COUNTS] = "hist:keys=phys.hex:vals=hitcount:size=2048",
	[HIST_VALUES] = "hist:keys=phys.hex,value.hex:vals=hitcount:size=8192",
};

/* How the kernel lists them in trigger and hist files (size and sort added). */
const char *const hist_prefixes[NR_HISTS] = {
	[HIST_COUNTS] = "hist:keys=phys.hex:vals=hitcount:",
	[HIST_VALUES] = "hist:keys=phys.hex,value.hex:vals=hitcount:",
};

/* PATH_SIZE bytes: instances/NAME/FILE under tracefs; NULL if no tracefs. */
const char *instance_file(char *path, const char *name, const char *file)
{
	const char *dir = tracing_path("instances");

	if (!dir)
		return NULL;
	snprintf(path, PATH_SIZE, "%s/%s%s%s", dir, name, *file ? "/" : "", file);
	return path;
}

/* events/mmiotrace/EVENT/FILE of instance NAME. */
static const char *event_file(char *path, const char *name, const char *event,
			      const char *file)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "events/mmiotrace/%s/%s", event, file);
	return instance_file(path, name, rel);
}

/* Does the kernel have the mmiotrace events? Says why not. */
int check_events_available(void)
{
	const char *path = tracing_path("events/mmiotrace");

	if (!path)
		return EXIT_REFUSED;
	if (!access(path, F_OK))
		return 0;
	if (errno != ENOENT)
		return system_error(path);
	fprintf(stderr, "mmioctl: %s not found: this kernel has no mmiotrace events\n", path);
	return EXIT_REFUSED;
}

bool instance_exists(const char *name)
{
	char path[PATH_SIZE];

	return instance_file(path, name, "") && !access(path, F_OK);
}

/* Fails, saying so, unless instance NAME exists. */
int require_instance(const char *name)
{
	char path[PATH_SIZE];

	if (!instance_file(path, name, ""))
		return EXIT_REFUSED;
	if (!access(path, F_OK))
		return 0;
	if (errno != ENOENT)
		return system_error(path);
	fprintf(stderr, "mmioctl: no instance %s (%s)\n", name, path);
	return EXIT_REFUSED;
}

/* Instance NAME, made if it is not there; *CREATED says which. */
int make_instance(const char *name, bool *created)
{
	char path[PATH_SIZE];

	*created = false;
	if (!instance_file(path, name, ""))
		return EXIT_REFUSED;
	if (!access(path, F_OK))
		return 0;
	if (mkdir(path, 0755))
		return system_error(path);
	*created = true;
	return 0;
}

/*
 * The events of the trace array at DIR that are enabled ("1" or "1*" in
 * their enable files), as a mask of 1 << index in mmio_events; *ARMING
 * gets those registered at all, by a trigger too ("0*"). QUIET: nothing
 * printed on errors.
 */
static int events_state_in(const char *dir, unsigned int *enabled, unsigned int *arming,
			   bool quiet)
{
	char path[PATH_SIZE + 64], state[16];
	int i, err;

	*enabled = *arming = 0;
	for (i = 0; i < NR_MMIO_EVENTS; i++) {
		snprintf(path, sizeof(path), "%s/events/mmiotrace/%s/enable", dir, mmio_events[i]);
		err = quiet ? try_read_line(path, state, sizeof(state)) :
			      read_line(path, state, sizeof(state));
		if (err)
			return EXIT_REFUSED;
		if (state[0] == '1')
			*enabled |= 1U << i;
		if (state[0] == '1' || (state[0] && state[1] == '*'))
			*arming |= 1U << i;
	}
	return 0;
}

int read_events_enabled(const char *name, unsigned int *enabled, unsigned int *arming)
{
	char dir[PATH_SIZE];
	unsigned int ignored;

	if (!instance_file(dir, name, ""))
		return EXIT_REFUSED;
	return events_state_in(dir, enabled, arming ? arming : &ignored, false);
}

/* Any event of NAME enabled? An error counts as no: the session is over. */
bool events_on(const char *name)
{
	unsigned int enabled, arming;
	char dir[PATH_SIZE];

	return instance_file(dir, name, "") && !events_state_in(dir, &enabled, &arming, true) &&
	       enabled;
}

/*
 * Every mmiotrace event of the trace array at DIR off, through the
 * system's enable file: the five a session enables, and any other that
 * trace-cmd -e mmiotrace enabled beside them (pio_read and pio_write),
 * which would keep tracing running. A kernel without the file has only
 * the five.
 */
static int system_off_in(const char *dir)
{
	char path[PATH_SIZE + 64];

	snprintf(path, sizeof(path), "%s/events/mmiotrace/enable", dir);
	return access(path, F_OK) ? 0 : write_file(path, "0\n", O_TRUNC);
}

/* Enable all five, one enable file each; or disable every mmiotrace event. */
int set_events(const char *name, bool on)
{
	char path[PATH_SIZE];
	int i, ret = 0;

	for (i = 0; i < NR_MMIO_EVENTS && !ret; i++)
		ret = write_file(event_file(path, name, mmio_events[i], "enable"),
				 on ? "1\n" : "0\n", O_TRUNC);
	if (!ret && !on && instance_file(path, name, ""))
		ret = system_off_in(path);
	return ret;
}

/* Are the session's histograms there (the kernel lists them as triggers)? */
bool hists_installed(const char *name)
{
	char path[PATH_SIZE], *text, *line, *save;
	bool found = false;

	if (!event_file(path, name, "mmio_read", "trigger") || access(path, F_OK))
		return false;
	if (read_all(path, &text, NULL))
		return false;
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save))
		found = !strncmp(line, hist_prefixes[HIST_COUNTS], strlen(hist_prefixes[HIST_COUNTS]));
	free(text);
	return found;
}

/*
 * Write "PREFIX SPEC SUFFIX" for each histogram of mmio_read and
 * mmio_write: install (""), pause (":pause"), continue (":cont") or remove
 * ("!"). QUIET: a histogram that is not there (ENOENT) is no error.
 */
static int hists_command(const char *name, const char *prefix, const char *suffix, bool quiet)
{
	static const char *const events[] = { "mmio_read", "mmio_write" };
	char path[PATH_SIZE], command[256];
	int e, h, err;

	for (e = 0; e < 2; e++)
		for (h = 0; h < NR_HISTS; h++) {
			if (!event_file(path, name, events[e], "trigger"))
				return EXIT_REFUSED;
			snprintf(command, sizeof(command), "%s%s%s\n", prefix, hist_specs[h], suffix);
			err = try_write(path, command, O_APPEND);
			if (!err || (quiet && err == ENOENT))
				continue;
			errno = err;
			return system_error(path);
		}
	return 0;
}

int pause_hists(const char *name, bool pause)
{
	return hists_command(name, "", pause ? ":pause" : ":cont", false);
}

int remove_hists(const char *name)
{
	return hists_command(name, "!", "", true);
}

/* PATH_SIZE bytes: the saved histograms of NAME, FILE in their directory. */
const char *saved_hist_file(char *path, const char *name, const char *file)
{
	snprintf(path, PATH_SIZE, "%s%s/%s%s%s", root, SAVED_HISTS_DIR, name, *file ? "/" : "",
		 file);
	return path;
}

bool saved_hists_exist(const char *name)
{
	char path[PATH_SIZE];

	return !access(saved_hist_file(path, name, "mmio_read.hist"), F_OK);
}

int remove_saved_hists(const char *name)
{
	static const char *const files[] = { "mmio_read.hist", "mmio_write.hist", "" };
	char path[PATH_SIZE];
	size_t i;

	for (i = 0; i < 3; i++) {
		saved_hist_file(path, name, files[i]);
		if ((i < 2 ? unlink(path) : rmdir(path)) && errno != ENOENT)
			return system_error(path);
	}
	return 0;
}

/* mkdir -p of DIR, which ends without a slash. */
static int make_dirs(char *dir)
{
	char *slash = dir;

	while ((slash = strchr(slash + 1, '/'))) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			*slash = '/';
			return system_error(dir);
		}
		*slash = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return system_error(dir);
	return 0;
}

/* PATH made anew with the LEN bytes of TEXT; an error is reported. */
static int write_new_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t done;

	if (fd < 0)
		return system_error(path);
	while (len) {
		done = write(fd, text, len);
		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0) {
			if (!done)
				errno = EIO;
			system_error(path);
			close(fd);
			return EXIT_REFUSED;
		}
		text += done;
		len -= done;
	}
	return close(fd) ? system_error(path) : 0;
}

/*
 * Copy the hist files of mmio_read and mmio_write to SAVED_HISTS_DIR/NAME,
 * each written aside and renamed into place.
 */
int save_hists(const char *name)
{
	static const char *const events[] = { "mmio_read", "mmio_write" };
	char path[PATH_SIZE], saved[PATH_SIZE], temp[PATH_SIZE + 8], *text;
	size_t len;
	int e, ret;

	ret = make_dirs((char *)saved_hist_file(saved, name, ""));
	for (e = 0; e < 2 && !ret; e++) {
		ret = read_all(event_file(path, name, events[e], "hist"), &text, &len);
		if (ret)
			break;
		snprintf(path, sizeof(path), "%s.hist", events[e]);
		saved_hist_file(saved, name, path);
		snprintf(temp, sizeof(temp), "%s.tmp", saved);
		ret = write_new_file(temp, text, len);
		if (!ret && rename(temp, saved))
			ret = system_error(saved);
		free(text);
	}
	return ret;
}

/*
 * A new session in NAME: an empty buffer, fresh histograms (paused until
 * the events are on), and with ENABLE the events on. Without ENABLE the
 * caller enables them (trace-cmd does) and continues the histograms.
 */
int begin_events_session(const char *name, bool enable)
{
	char path[PATH_SIZE];
	int ret;

	ret = remove_hists(name);
	if (!ret)
		ret = write_file(instance_file(path, name, "trace"), "", O_TRUNC);
	if (!ret)
		ret = remove_saved_hists(name);
	if (!ret)
		ret = hists_command(name, "", ":pause", false);
	if (!ret && enable) {
		ret = set_events(name, true);
		if (!ret)
			ret = pause_hists(name, false);
	}
	return ret;
}

/*
 * End the session in NAME: histograms frozen, events off, histograms
 * saved and removed, so that nothing is armed any more.
 */
int end_events_session(const char *name)
{
	bool hists = hists_installed(name);
	int ret = 0;

	if (hists)
		ret = pause_hists(name, true);
	ret |= set_events(name, false);
	if (hists && !ret)
		ret = save_hists(name);
	if (hists)
		ret |= remove_hists(name);
	return ret ? EXIT_REFUSED : 0;
}

/* Remove every trigger of the mmiotrace events of the trace array at DIR. */
static int clear_triggers(const char *dir)
{
	char path[PATH_SIZE + 64], *text, *line, *save, *end, *size;
	int i, ret = 0;

	for (i = 0; i < NR_MMIO_EVENTS && !ret; i++) {
		snprintf(path, sizeof(path), "%s/events/mmiotrace/%s/trigger", dir, mmio_events[i]);
		if (read_all(path, &text, NULL))
			return EXIT_REFUSED;
		for (line = strtok_r(text, "\n", &save); line && !ret;
		     line = strtok_r(NULL, "\n", &save)) {
			char command[4096];

			if (line[0] == '#')
				continue;
			/* As listed, less the state and the size the kernel added. */
			end = strrchr(line, '[');
			if (end && end > line && end[-1] == ' ')
				end--;
			else
				end = NULL;
			if (end)
				*end = '\0';
			size = strstr(line, ":size=");
			if (size)
				memmove(size, size + 6 + strspn(size + 6, "0123456789"),
					strlen(size + 6 + strspn(size + 6, "0123456789")) + 1);
			snprintf(command, sizeof(command), "!%s\n", line);
			ret = write_file(path, command, O_APPEND);
		}
		free(text);
	}
	return ret;
}

/* The mmiotrace events of the trace array at DIR off, their triggers gone. */
static int events_off_in(const char *dir)
{
	char path[PATH_SIZE + 64];
	int i, ret = 0;

	for (i = 0; i < NR_MMIO_EVENTS && !ret; i++) {
		snprintf(path, sizeof(path), "%s/events/mmiotrace/%s/enable", dir, mmio_events[i]);
		ret = write_file(path, "0\n", O_TRUNC);
	}
	if (!ret)
		ret = system_off_in(dir);
	return ret ? ret : clear_triggers(dir);
}

/*
 * Remove instance NAME: events off, triggers gone, then the directory,
 * stopping the mmioctl recorders that hold its files; and its saved
 * histograms.
 */
int remove_instance(const char *name)
{
	char dir[PATH_SIZE];
	int ret = 0;

	if (instance_exists(name)) {
		instance_file(dir, name, "");
		ret = events_off_in(dir);
		if (!ret && rmdir(dir)) {
			if (errno == EBUSY) {
				/* A recorder that failed may have removed it itself. */
				ret = stop_readers(dir, true);
				if (!ret && rmdir(dir) && errno != ENOENT)
					ret = system_error(dir);
			} else {
				ret = system_error(dir);
			}
		}
	}
	return ret ? ret : remove_saved_hists(name);
}

/*
 * Plain reset: the mmiotrace events off and their triggers gone in every
 * trace array, and the default instance removed.
 */
int all_events_off(void)
{
	char dir[PATH_SIZE], path[PATH_SIZE];
	const char *events = tracing_path("events/mmiotrace");
	struct dirent *entry;
	DIR *instances;
	int ret;

	if (!events || access(events, F_OK))
		return 0;	/* a kernel without the events */
	/* The top level: the directory of events/. */
	snprintf(dir, sizeof(dir), "%s", events);
	dir[strlen(dir) - strlen("/events/mmiotrace")] = '\0';
	ret = events_off_in(dir);
	instances = opendir(tracing_path("instances"));
	if (!instances)
		return ret;
	while (!ret && (entry = readdir(instances))) {
		if (entry->d_name[0] == '.' || !strcmp(entry->d_name, DEFAULT_INSTANCE))
			continue;
		ret = events_off_in(instance_file(path, entry->d_name, ""));
	}
	closedir(instances);
	return ret ? ret : remove_instance(DEFAULT_INSTANCE);
}

/*
 * The trace arrays where an mmiotrace event is registered, enabled or by a
 * trigger: each arms the range set. *TOP for the top-level buffer, the
 * instances' names in NAMES, separated by spaces.
 */
void event_consumers(bool *top, char *names, size_t size)
{
	const char *events = tracing_path("events/mmiotrace");
	unsigned int enabled, arming;
	char dir[PATH_SIZE];
	struct dirent *entry;
	DIR *instances;
	size_t used = 0;

	*top = false;
	names[0] = '\0';
	if (!events)
		return;
	snprintf(dir, sizeof(dir), "%s", events);
	dir[strlen(dir) - strlen("/events/mmiotrace")] = '\0';
	*top = !events_state_in(dir, &enabled, &arming, true) && arming;
	instances = opendir(tracing_path("instances"));
	if (!instances)
		return;
	/* Only names mmioctl takes: the list is separated by spaces, and is JSON. */
	while ((entry = readdir(instances))) {
		if (entry->d_name[0] == '.' || check_instance_name(entry->d_name) ||
		    !instance_file(dir, entry->d_name, "") ||
		    events_state_in(dir, &enabled, &arming, true) || !arming)
			continue;
		used += snprintf(names + used, size - used, "%s%s", used ? " " : "", entry->d_name);
		if (used >= size)
			break;
	}
	closedir(instances);
}

int read_buffer_stats(const char *name, struct buffer_stats *stats)
{
	char dir[PATH_SIZE], path[PATH_SIZE + 300], text[1024], *line, *save;
	struct dirent *entry;
	unsigned long long n;
	DIR *cpus;

	stats->entries = stats->lost = 0;
	cpus = opendir(instance_file(dir, name, "per_cpu"));
	if (!cpus)
		return system_error(dir);
	while ((entry = readdir(cpus))) {
		if (strncmp(entry->d_name, "cpu", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/stats", dir, entry->d_name);
		if (read_text(path, text, sizeof(text))) {
			closedir(cpus);
			return EXIT_REFUSED;
		}
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			if (sscanf(line, "entries: %llu", &n) == 1)
				stats->entries += n;
			else if (sscanf(line, "overrun: %llu", &n) == 1 ||
				 sscanf(line, "commit overrun: %llu", &n) == 1 ||
				 sscanf(line, "dropped events: %llu", &n) == 1)
				stats->lost += n;
		}
	}
	closedir(cpus);
	return 0;
}

/* After a failed start: what the start did undone, as far as it goes. */
static void abandon_session(const char *name, bool created)
{
	if (created) {
		remove_instance(name);
	} else {
		set_events(name, false);
		remove_hists(name);
	}
}

/* Warn when the instance's tracing_on is 0, as "on" does for the tracer. */
static void warn_tracing_off(const char *name)
{
	char path[PATH_SIZE], on[16];

	if (!read_line(instance_file(path, name, "tracing_on"), on, sizeof(on)) && !strcmp(on, "0"))
		fprintf(stderr, "mmioctl: tracing_on of instance %s is 0: nothing is recorded until it is 1\n",
			name);
}

/* on -i NAME: a session in NAME, made if need be. */
int instance_on(const char *name)
{
	bool created;
	int ret;

	ret = check_events_available();
	if (!ret)
		ret = make_instance(name, &created);
	if (ret)
		return ret;
	if (events_on(name)) {
		fprintf(stderr, "mmioctl: the mmiotrace events of instance %s are on already\n", name);
	} else {
		ret = begin_events_session(name, true);
		if (ret) {
			abandon_session(name, created);
			return ret;
		}
	}
	warn_tracing_off(name);
	return 0;
}

/* off -i NAME: the session ends; its histograms are saved for hist. */
int instance_off(const char *name)
{
	int ret = require_instance(name);

	if (ret)
		return ret;
	if (!events_on(name) && !hists_installed(name)) {
		fprintf(stderr, "mmioctl: the mmiotrace events of instance %s are off already\n", name);
		return 0;
	}
	return end_events_session(name);
}

/* The facts status -i prints, read before anything is printed. */
struct instance_status {
	unsigned int enabled, arming;
	char tracing_on[16], buffer[64], ranges[64 * 1024];
	struct buffer_stats stats;
	const char *hists;
};

/* The events of MASK: as a JSON array, or after TEXT separated by spaces. */
static void print_event_list(unsigned int mask, bool json, const char *text)
{
	const char *between = "";
	int i;

	printf("%s", json ? "[" : text);
	for (i = 0; i < NR_MMIO_EVENTS; i++)
		if (mask & (1U << i)) {
			printf(json ? "%s\"%s\"" : "%s%s", between, mmio_events[i]);
			between = json ? "," : " ";
		}
	if (json)
		printf("]");
}

int instance_status(const char *name, bool json)
{
	static struct instance_status st;
	const unsigned int all = (1U << NR_MMIO_EVENTS) - 1;
	char path[PATH_SIZE], *line, *save;
	unsigned long long a, b;
	const char *sep = "";
	int ret;

	ret = require_instance(name);
	if (!ret)
		ret = read_events_enabled(name, &st.enabled, &st.arming);
	if (!ret)
		ret = read_line(instance_file(path, name, "tracing_on"), st.tracing_on,
				sizeof(st.tracing_on));
	if (!ret)
		ret = read_line(instance_file(path, name, "buffer_size_kb"), st.buffer,
				sizeof(st.buffer));
	if (!ret)
		ret = read_buffer_stats(name, &st.stats);
	if (!ret)
		ret = read_text(control_path("ranges"), st.ranges, sizeof(st.ranges));
	if (ret)
		return EXIT_REFUSED;
	st.hists = hists_installed(name) ? "running" : saved_hists_exist(name) ? "finished" : "none";
	st.arming &= ~st.enabled;
	if (json) {
		printf("{\"instance\":\"%s\",\"events\":", name);
		print_event_list(st.enabled, true, NULL);
		printf(",\"triggers_only\":");
		print_event_list(st.arming, true, NULL);
		printf(",\"histograms\":\"%s\",\"tracing_on\":%s,\"buffer_size_kb\":%llu,\"entries\":%llu,\"lost\":%llu,\"ranges\":[",
		       st.hists, strcmp(st.tracing_on, "0") ? "true" : "false",
		       strtoull(st.buffer, NULL, 10), st.stats.entries, st.stats.lost);
		for (line = strtok_r(st.ranges, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (sscanf(line, "%llx %llx", &a, &b) == 2) {
				printf("%s[%llu,%llu]", sep, a, b);
				sep = ",";
			}
		printf("]}\n");
		return 0;
	}
	printf("instance: %s\n", name);
	if (st.enabled == all)
		printf("events: on");
	else if (!st.enabled)
		printf("events: off");
	else
		print_event_list(st.enabled, false, "events: on: ");
	if (st.arming)
		print_event_list(st.arming, false, ", armed by triggers: ");
	printf("\nhistograms: %s\n", st.hists);
	printf("tracing_on: %s\n", st.tracing_on);
	printf("buffer_size_kb: %s\n", st.buffer);
	printf("entries: %llu\nlost: %llu\n", st.stats.entries, st.stats.lost);
	if (!st.ranges[0]) {
		printf("ranges: empty (every mapping made while tracing is traced)\n");
	} else {
		printf("ranges:\n");
		for (line = strtok_r(st.ranges, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			printf("  %s\n", line);
	}
	return 0;
}

int instance_show(const char *name)
{
	char path[PATH_SIZE];
	int ret = require_instance(name);

	return ret ? ret : print_file(instance_file(path, name, "trace"), "", true);
}

/* buffer -i NAME [KB]: KB (checked already) made if need be. */
int instance_buffer(const char *name, const char *kb)
{
	char path[PATH_SIZE], text[64];
	bool created;
	int ret;

	if (!kb) {
		ret = require_instance(name);
		if (!ret)
			ret = read_line(instance_file(path, name, "buffer_size_kb"), text, sizeof(text));
		if (!ret)
			printf("%s\n", text);
		return ret;
	}
	ret = make_instance(name, &created);
	if (!ret)
		ret = write_file(instance_file(path, name, "buffer_size_kb"), kb, O_TRUNC);
	return ret;
}

/* mark -i NAME TEXT: TEXT (checked, with its newline) into its trace_marker. */
int instance_mark(const char *name, const char *text)
{
	char path[PATH_SIZE];
	int ret = require_instance(name);

	return ret ? ret : write_file(instance_file(path, name, "trace_marker"), text, O_APPEND);
}

/* reset -i NAME: the instance and its saved histograms gone. */
int instance_reset(const char *name)
{
	if (!instance_exists(name) && !saved_hists_exist(name)) {
		fprintf(stderr, "mmioctl: no instance %s: nothing to reset\n", name);
		return 0;
	}
	return remove_instance(name);
}
