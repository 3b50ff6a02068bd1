/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that drive the kernel, which the command table in
 * mmioctl.c lists; argv[0] is the command's name.
 */
#ifndef MMIOCTL_COMMANDS_H
#define MMIOCTL_COMMANDS_H

#include <stddef.h>
#include <stdint.h>

/* commands.c: the range set, the tracer, markers, the buffer */
int cmd_add(int argc, char **argv);
int cmd_del(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_add_pci(int argc, char **argv);
int cmd_add_port(int argc, char **argv);
int cmd_del_port(int argc, char **argv);
int cmd_clear_ports(int argc, char **argv);
int cmd_ports(int argc, char **argv);
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
int cmd_boot_params(int argc, char **argv);

/* record.c and hist.c: sessions */
int cmd_record(int argc, char **argv);
int cmd_hist(int argc, char **argv);

/* last-boot.c: the flight recorder */
int cmd_last_boot(int argc, char **argv);

/* overrides.c */
int cmd_override(int argc, char **argv);
int cmd_drop(int argc, char **argv);
int cmd_del_override(int argc, char **argv);
int cmd_del_drop(int argc, char **argv);
int cmd_clear_overrides(int argc, char **argv);
int cmd_overrides(int argc, char **argv);
/* Replace the feed with N values, in one write (fuzz.c). */
int write_feed(const uint64_t *value, size_t n);
/* fuzz.c */
int cmd_fuzz(int argc, char **argv);
int count_overrides(int *n);
int clear_overrides_if_any(void);

#endif
