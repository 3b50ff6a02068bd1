/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every part of mmioctl uses (files.c): the exit statuses, how a
 * failure is reported, where the kernel's files are (under --root), and
 * reads and writes of them.
 */
#ifndef MMIOCTL_FILES_H
#define MMIOCTL_FILES_H

#include <stdbool.h>
#include <stddef.h>

#define EXIT_REFUSED	1	/* the kernel or the system refused */
#define EXIT_USAGE	2	/* the arguments are wrong */

extern const char *root;	/* --root: prefix of every path */

int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int system_error(const char *path);

void find_mounts(void);
const char *control_path(const char *name);
const char *tracing_path(const char *name);
const char *root_path(const char *path);

int try_write(const char *path, const char *data, int flags);
int write_file(const char *path, const char *data, int flags);
int read_text(const char *path, char *buf, size_t size);
int read_line(const char *path, char *buf, size_t size);
int try_read_line(const char *path, char *buf, size_t size);
int read_all(const char *path, char **buf, size_t *len);
int print_file(const char *path, const char *indent, bool skip_comments);
/*
 * -o FILE: standard output goes to FILE (through a temporary file that
 * output_end() renames onto it when STATUS is 0, and removes otherwise).
 */
int output_start(const char *path);
int output_end(int status);

#endif
