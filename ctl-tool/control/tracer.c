// SPDX-License-Identifier: GPL-2.0
/*
 * The tracer as its files show it: the stats counters, current_tracer and
 * tracing_on, and switching it off, which first stops the recorders that
 * hold trace_pipe open (the kernel refuses the switch while it is open).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/files.h"
#include "control/tracer.h"

/*
 * How long a stopped recorder may take to go: record.c gives trace-cmd
 * 60 s to write its file before it kills it (trace-cmd under a loaded
 * emulator took more than the 10 s once waited here), and a little more.
 */
#define RECORDER_STOP_TENTHS	650

/* One counter from the stats file; 0, or an error reported. */
int read_stat(const char *name, unsigned long long *value)
{
	const char *path = control_path("stats");
	char text[4096], *line, *save;
	char key[64];

	if (!path || read_text(path, text, sizeof(text)))
		return EXIT_REFUSED;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%63s %llu", key, value) == 2 && !strcmp(key, name))
			return 0;
	fprintf(stderr, "mmioctl: %s has no counter '%s'\n", path, name);
	return EXIT_REFUSED;
}

int read_tracer_state(struct tracer_state *state)
{
	char on[16];

	if (read_line(tracing_path("current_tracer"), state->current,
		      sizeof(state->current)) ||
	    read_line(tracing_path("tracing_on"), on, sizeof(on)))
		return EXIT_REFUSED;
	state->tracing_on = strcmp(on, "0");
	return 0;
}

/* Is mmiotrace, exactly, among the available tracers? Says why not. */
int check_mmiotrace_available(void)
{
	char tracers[4096], *word, *save;

	if (!control_path("ranges") ||
	    read_line(tracing_path("available_tracers"), tracers, sizeof(tracers)))
		return EXIT_REFUSED;
	for (word = strtok_r(tracers, " \t", &save); word; word = strtok_r(NULL, " \t", &save))
		if (!strcmp(word, "mmiotrace"))
			return 0;
	fprintf(stderr, "mmioctl: mmiotrace is not among the available tracers\n");
	return EXIT_REFUSED;
}

/* The command name of process PID, or "?" if it is gone. */
static void process_name(int pid, char *name, size_t size)
{
	char path[64];
	FILE *comm;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	comm = fopen(path, "r");
	if (!comm || !fgets(name, size, comm))
		snprintf(name, size, "?");
	if (comm)
		fclose(comm);
	name[strcspn(name, "\n")] = '\0';
}

/* Does process PID hold the file PATH open, or with UNDER, any file below it? */
static bool holds_open(int pid, const char *path, bool under)
{
	size_t plen = strlen(path);
	char dir[64], link[512], target[8192];
	struct dirent *fd;
	bool found = false;
	ssize_t len;
	DIR *fds;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", pid);
	fds = opendir(dir);
	if (!fds)
		return false;
	while (!found && (fd = readdir(fds))) {
		snprintf(link, sizeof(link), "%s/%s", dir, fd->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len > 0) {
			target[len] = '\0';
			found = under ? !strncmp(target, path, plen) && target[plen] == '/' :
					!strcmp(target, path);
		}
	}
	closedir(fds);
	return found;
}

/* Is an ancestor of PID another mmioctl (than this one)? */
static bool has_recorder_ancestor(int pid)
{
	char path[64], line[256], name[64];
	int depth, parent;
	FILE *status;

	for (depth = 0; depth < 32 && pid > 1; depth++) {
		snprintf(path, sizeof(path), "/proc/%d/status", pid);
		status = fopen(path, "r");
		if (!status)
			return false;
		parent = 0;
		while (fgets(line, sizeof(line), status))
			if (sscanf(line, "PPid: %d", &parent) == 1)
				break;
		fclose(status);
		pid = parent;
		if (pid <= 1 || pid == getpid())
			return false;
		process_name(pid, name, sizeof(name));
		if (!strcmp(name, "mmioctl"))
			return true;
	}
	return false;
}

/*
 * The kernel will not change the tracer while trace_pipe is open, nor
 * remove an instance while any of its files is. Ask each "mmioctl record"
 * that holds PATH (with UNDER, a file below PATH) to stop, as Ctrl-C
 * would, and wait for it to drain and close it; name any other reader and
 * give up.
 */
int stop_readers(const char *pipe_path, bool under)
{
	int stopped[64], nr_stopped = 0, i, tries;
	char name[64];
	struct dirent *entry;
	DIR *proc;

	proc = opendir("/proc");
	if (!proc)
		return system_error("/proc");
	while ((entry = readdir(proc))) {
		int pid = atoi(entry->d_name);

		if (pid <= 0 || pid == getpid() || !holds_open(pid, pipe_path, under))
			continue;
		process_name(pid, name, sizeof(name));
		/* trace-cmd under a recorder goes when the recorder does. */
		if (strcmp(name, "mmioctl") && has_recorder_ancestor(pid))
			continue;
		if (strcmp(name, "mmioctl") || nr_stopped == 64) {
			fprintf(stderr, "mmioctl: %s%s is open in process %d (%s): stop it first\n",
				under ? "a file of " : "", pipe_path, pid, name);
			closedir(proc);
			return EXIT_REFUSED;
		}
		kill(pid, SIGINT);
		stopped[nr_stopped++] = pid;
	}
	closedir(proc);
	/* Done when it has closed the pipe: as a zombie it may still exist. */
	for (i = 0; i < nr_stopped; i++) {
		for (tries = 0; tries < RECORDER_STOP_TENTHS &&
		     holds_open(stopped[i], pipe_path, under); tries++)
			nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
		if (tries == RECORDER_STOP_TENTHS) {
			fprintf(stderr, "mmioctl: the recorder %d did not stop\n", stopped[i]);
			return EXIT_REFUSED;
		}
	}
	return 0;
}

/*
 * Switch the tracer to nop, first stopping the recorders that hold
 * trace_pipe open if the kernel says it is busy.
 */
int switch_tracer_off(void)
{
	const char *path = tracing_path("current_tracer");
	char path_copy[4096 + 64], pipe_path[4096 + 64];
	int err, ret;

	if (!path)
		return EXIT_REFUSED;
	snprintf(path_copy, sizeof(path_copy), "%s", path);
	err = try_write(path_copy, "nop\n", O_TRUNC);
	if (err == EBUSY) {
		snprintf(pipe_path, sizeof(pipe_path), "%s", tracing_path("trace_pipe"));
		ret = stop_readers(pipe_path, false);
		if (ret)
			return ret;
		err = try_write(path_copy, "nop\n", O_TRUNC);
	}
	if (!err)
		return 0;
	errno = err;
	return system_error(path_copy);
}
