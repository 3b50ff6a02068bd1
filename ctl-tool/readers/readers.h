/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The commands that read traces, which the command table in mmioctl.c
 * lists (argv[0] is the command's name), and the converter that last-boot
 * runs on a flight recorder's events.
 */
#ifndef MMIOCTL_READERS_H
#define MMIOCTL_READERS_H

#include <stdbool.h>
#include <stddef.h>

int cmd_decode(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_model(int argc, char **argv);

/* convert.c: what an events trace held */
struct convert_counts {
	unsigned long long accesses;	/* R, W and UNKNOWN */
	unsigned long long maps;
	unsigned long long events;	/* every mmiotrace event, UNMAP too */
};

int convert_text(const char *text, size_t len, const char *path, bool print,
		 struct convert_counts *counts);

#endif
