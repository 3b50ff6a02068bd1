// SPDX-License-Identifier: GPL-2.0
/*
 * LD_PRELOAD fixture for the host tests: mkdir() and rmdir() of a trace
 * instance in a fake tracefs tree behave as tracefs does. mkdir of
 * ".../instances/NAME" makes the directory filled with a copy of the
 * template FAKE_INSTANCE (the files a new instance has); rmdir removes it
 * with what is in it, or fails with EBUSY while a process, the caller
 * too, holds one of its files open.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Is PATH an instance: its parent directory named "instances"? */
static int is_instance(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash - path >= 10 && !strncmp(slash - 10, "/instances", 10) && slash[1];
}

static int run(const char *tool, const char *a, const char *b, const char *c)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		execlp(tool, tool, a, b, c, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return 0;
}

/* Does a process hold a file below DIR open? */
static int held_open(const char *dir)
{
	char fds[300], link[600], target[4096];
	struct dirent *p, *fd;
	size_t len = strlen(dir);
	DIR *proc, *fdir;
	ssize_t n;
	int found = 0;

	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!found && (p = readdir(proc))) {
		if (atoi(p->d_name) <= 0)
			continue;
		snprintf(fds, sizeof(fds), "/proc/%s/fd", p->d_name);
		fdir = opendir(fds);
		if (!fdir)
			continue;
		while (!found && (fd = readdir(fdir))) {
			snprintf(link, sizeof(link), "%s/%s", fds, fd->d_name);
			n = readlink(link, target, sizeof(target) - 1);
			if (n > 0) {
				target[n] = '\0';
				found = !strncmp(target, dir, len) && target[len] == '/';
			}
		}
		closedir(fdir);
	}
	closedir(proc);
	return found;
}

int mkdir(const char *path, mode_t mode)
{
	static int (*real_mkdir)(const char *, mode_t);
	const char *template = getenv("FAKE_INSTANCE");
	char from[4096];

	if (!real_mkdir)
		real_mkdir = (int (*)(const char *, mode_t))dlsym(RTLD_NEXT, "mkdir");
	if (!template || !is_instance(path))
		return real_mkdir(path, mode);
	if (!access(path, F_OK)) {
		errno = EEXIST;
		return -1;
	}
	snprintf(from, sizeof(from), "%s/.", template);
	if (real_mkdir(path, mode) || run("cp", "-a", from, path)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

int rmdir(const char *path)
{
	static int (*real_rmdir)(const char *);
	char full[4096];

	if (!real_rmdir)
		real_rmdir = (int (*)(const char *))dlsym(RTLD_NEXT, "rmdir");
	if (!getenv("FAKE_INSTANCE") || !is_instance(path))
		return real_rmdir(path);
	if (access(path, F_OK))
		return -1;	/* errno from access() */
	if (!realpath(path, full) || held_open(full)) {
		errno = EBUSY;
		return -1;
	}
	return run("rm", "-rf", "--", path) ? (errno = EIO, -1) : 0;
}
