// SPDX-License-Identifier: GPL-2.0
/*
 * The files mmioctl reads and writes: where debugfs and tracefs are, the
 * control files, and how a failure is reported (the program name, then the
 * path and strerror, or the offending argument).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mmioctl.h"

/*
 * How long a stopped recorder may take to go: record.c gives trace-cmd
 * 60 s to write its file before it kills it (trace-cmd under a loaded
 * emulator took more than the 10 s once waited here), and a little more.
 */
#define RECORDER_STOP_TENTHS	650

const char *root = "";
static char debugfs[4096], tracefs[4096];

int usage_error(const char *fmt, ...)
{
	va_list args;

	fputs("mmioctl: ", stderr);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputs("\nTry 'mmioctl --help'.\n", stderr);
	return EXIT_USAGE;
}

int system_error(const char *path)
{
	fprintf(stderr, "mmioctl: %s: %s\n", path, strerror(errno));
	return EXIT_REFUSED;
}

/* Mount points of debugfs and tracefs, from /proc/mounts. */
void find_mounts(void)
{
	char dev[256], dir[4096], type[64];
	FILE *mounts = fopen(root_path("/proc/mounts"), "r");

	debugfs[0] = tracefs[0] = '\0';
	if (!mounts) {
		/* No /proc/mounts: assume the default mount points. */
		snprintf(debugfs, sizeof(debugfs), "%s/sys/kernel/debug", root);
		snprintf(tracefs, sizeof(tracefs), "%s/sys/kernel/tracing", root);
		return;
	}
	while (fscanf(mounts, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "debugfs") && !debugfs[0])
			snprintf(debugfs, sizeof(debugfs), "%s%s", root, dir);
		else if (!strcmp(type, "tracefs") && !tracefs[0])
			snprintf(tracefs, sizeof(tracefs), "%s%s", root, dir);
	}
	fclose(mounts);
}

/* PATH under --root; the result lives until the next call. */
const char *root_path(const char *path)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf), "%s%s", root, path);
	return buf;
}

/*
 * Path of a control file; prints why and returns NULL when there is none.
 * The result lives in a static buffer until the next call.
 */
const char *control_path(const char *name)
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

const char *tracing_path(const char *name)
{
	static char path[4096 + 64];

	if (!tracefs[0]) {
		/* Older setups reach tracefs through debugfs. */
		if (!debugfs[0]) {
			fprintf(stderr, "mmioctl: tracefs is not mounted (mount -t tracefs none /sys/kernel/tracing)\n");
			return NULL;
		}
		snprintf(tracefs, sizeof(tracefs), "%s/tracing", debugfs);
	}
	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	return path;
}

/* Write DATA in one write(2); 0 or the errno, with nothing printed. */
/* read(2), again when a signal interrupted it before it read anything. */
static ssize_t read_retry(int fd, void *buf, size_t len)
{
	ssize_t got;

	do
		got = read(fd, buf, len);
	while (got < 0 && errno == EINTR);
	return got;
}

int try_write(const char *path, const char *data, int flags)
{
	size_t len = strlen(data);
	ssize_t done;
	int fd, err = 0;

	fd = open(path, O_WRONLY | flags);
	if (fd < 0)
		return errno;
	done = len ? write(fd, data, len) : 0;
	if (done < 0)
		err = errno;
	else if ((size_t)done != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* Write DATA to PATH in one write(2): the kernel judges each write whole. */
int write_file(const char *path, const char *data, int flags)
{
	int err;

	if (!path)
		return EXIT_REFUSED;
	err = try_write(path, data, flags);
	if (!err)
		return 0;
	errno = err;
	return system_error(path);
}

/* A whole small file into BUF, NUL-terminated; an error is reported. */
int read_text(const char *path, char *buf, size_t size)
{
	size_t used = 0;
	ssize_t got;
	int fd;

	if (!path)
		return EXIT_REFUSED;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return system_error(path);
	while (used + 1 < size) {
		got = read_retry(fd, buf + used, size - 1 - used);
		if (got < 0) {
			system_error(path);
			close(fd);
			return EXIT_REFUSED;
		}
		if (!got)
			break;
		used += got;
	}
	buf[used] = '\0';
	close(fd);
	return 0;
}

/* The first line of a file, without its newline; 0 or the errno, nothing printed. */
int try_read_line(const char *path, char *buf, size_t size)
{
	ssize_t got;
	int fd, err = 0;

	if (!path)
		return ENOENT;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	got = read_retry(fd, buf, size - 1);
	if (got < 0)
		err = errno;
	else
		buf[got] = '\0';
	close(fd);
	if (!err)
		buf[strcspn(buf, "\n")] = '\0';
	return err;
}

/* The first line of a file, without its newline. */
int read_line(const char *path, char *buf, size_t size)
{
	int ret = read_text(path, buf, size);

	if (!ret)
		buf[strcspn(buf, "\n")] = '\0';
	return ret;
}

/* Copy a file to stdout, each line prefixed by INDENT. */
int print_file(const char *path, const char *indent, bool skip_comments)
{
	char line[8192];
	FILE *file;

	if (!path)
		return EXIT_REFUSED;
	file = fopen(path, "r");
	if (!file)
		return system_error(path);
	while (fgets(line, sizeof(line), file))
		if (!skip_comments || line[0] != '#')
			printf("%s%s", indent, line);
	if (ferror(file)) {
		system_error(path);
		fclose(file);
		return EXIT_REFUSED;
	}
	fclose(file);
	return 0;
}

/*
 * A whole file of any size into a malloc()ed, NUL-terminated *BUF of *LEN
 * bytes (LEN may be NULL); an error is reported.
 */
int read_all(const char *path, char **buf, size_t *len)
{
	size_t size = 65536, used = 0;
	char *text = NULL, *bigger;
	ssize_t got;
	int fd;

	if (!path)
		return EXIT_REFUSED;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return system_error(path);
	for (;;) {
		if (!text || used + 1 == size) {
			size = text ? size * 2 : size;
			bigger = realloc(text, size);
			if (!bigger) {
				free(text);
				close(fd);
				return system_error("malloc");
			}
			text = bigger;
		}
		got = read_retry(fd, text + used, size - 1 - used);
		if (got < 0) {
			system_error(path);
			free(text);
			close(fd);
			return EXIT_REFUSED;
		}
		if (!got)
			break;
		used += got;
	}
	close(fd);
	text[used] = '\0';
	*buf = text;
	if (len)
		*len = used;
	return 0;
}

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
