// SPDX-License-Identifier: GPL-2.0
/*
 * The files mmioctl reads and writes: where debugfs and tracefs are, the
 * control files, and how a failure is reported (the program name, then the
 * path and strerror, or the offending argument).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"

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

/*
 * -o FILE of the trace readers: standard output goes to a temporary file
 * beside FILE, which replaces FILE only once all of it is written, so that
 * a refused trace or a full disk leaves FILE as it was. FILE that exists
 * and is not a regular file (/dev/null, a pipe) is written directly, and
 * never removed.
 */
static mode_t current_umask(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return mask;
}

static struct {
	const char *path;
	char *tmp;		/* NULL: writing PATH itself */
} output;

int output_start(const char *path)
{
	struct stat st;
	int fd;

	output.path = path;
	output.tmp = NULL;
	if (stat(path, &st) || S_ISREG(st.st_mode)) {
		output.tmp = malloc(strlen(path) + sizeof(".XXXXXX"));
		if (!output.tmp)
			return system_error("malloc");
		sprintf(output.tmp, "%s.XXXXXX", path);
		fd = mkstemp(output.tmp);
		if (fd >= 0)
			fchmod(fd, 0666 & ~current_umask());
	} else {
		fd = open(path, O_WRONLY | O_CLOEXEC);
	}
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		if (output.tmp)
			unlink(output.tmp);
		free(output.tmp);
		output.tmp = NULL;
		errno = err;
		return system_error(path);
	}
	close(fd);
	return 0;
}

int output_end(int status)
{
	char *tmp = output.tmp;

	output.tmp = NULL;
	if (!status && (fflush(stdout) || ferror(stdout)))
		status = system_error(output.path);
	if (tmp && !status && rename(tmp, output.path))
		status = system_error(output.path);
	if (tmp && status)
		unlink(tmp);
	free(tmp);
	return status;
}
