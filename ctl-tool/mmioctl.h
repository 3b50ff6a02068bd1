/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the parts of mmioctl share: the exit statuses, the files of the
 * kernel (files.c) and the commands (commands.c, record.c), which the
 * command table in mmioctl.c lists.
 */
#ifndef MMIOCTL_H
#define MMIOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXIT_REFUSED	1	/* the kernel or the system refused */
#define EXIT_USAGE	2	/* the arguments are wrong */

/* files.c: paths, reads and writes, messages */
extern const char *root;	/* --root: prefix of every path */

void find_mounts(void);
const char *control_path(const char *name);
const char *tracing_path(const char *name);
const char *root_path(const char *path);
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int system_error(const char *path);
int try_write(const char *path, const char *data, int flags);
int write_file(const char *path, const char *data, int flags);
int read_text(const char *path, char *buf, size_t size);
int read_line(const char *path, char *buf, size_t size);
int try_read_line(const char *path, char *buf, size_t size);
int read_all(const char *path, char **buf, size_t *len);
int print_file(const char *path, const char *indent, bool skip_comments);
int stop_readers(const char *path, bool under);
int read_stat(const char *name, unsigned long long *value);

/* The tracer, as current_tracer and tracing_on say. */
struct tracer_state {
	char current[64];
	bool tracing_on;
};
int read_tracer_state(struct tracer_state *state);
int check_mmiotrace_available(void);
int switch_tracer_off(void);

/* commands.c: the BARs of PCI devices, from sysfs "resource" (parse.h) */
struct pci_bar;
const char *bar_problem(const struct pci_bar *res);
FILE *open_pci_resource(const char *bdf, char *path, size_t size);
int read_pci_bar(const char *bdf, unsigned int bar, struct pci_bar *res);

/* A physical range, [start, start + len). */
struct mmio_range {
	uint64_t start, len;
};

/* commands.c and record.c: argv[0] is the command's name */
int cmd_add(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_add_pci(int argc, char **argv);
int cmd_maps(int argc, char **argv);
int cmd_on(int argc, char **argv);
int cmd_off(int argc, char **argv);
int cmd_pc(int argc, char **argv);
int cmd_isa(int argc, char **argv);
int cmd_maps_only(int argc, char **argv);
int cmd_mark(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_buffer(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_hist(int argc, char **argv);
int cmd_boot_params(int argc, char **argv);

/* convert.c */
int cmd_convert(int argc, char **argv);
int cmd_last_boot(int argc, char **argv);

/* overrides.c */
int cmd_override(int argc, char **argv);
int cmd_drop(int argc, char **argv);
int cmd_del_override(int argc, char **argv);
int cmd_del_drop(int argc, char **argv);
int cmd_clear_overrides(int argc, char **argv);
int cmd_overrides(int argc, char **argv);
int count_overrides(int *n);
int clear_overrides_if_any(void);

/* The kernel's default size of the trace buffer, per CPU. */
#define DEFAULT_BUFFER_KB	1408

#endif
