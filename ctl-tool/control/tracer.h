/* SPDX-License-Identifier: GPL-2.0 */
/* The tracer's state, its counters, and switching it off (tracer.c). */
#ifndef MMIOCTL_TRACER_H
#define MMIOCTL_TRACER_H

#include <stdbool.h>

/* The kernel's default size of the trace buffer, per CPU. */
#define DEFAULT_BUFFER_KB	1408

/* The tracer, as current_tracer and tracing_on say. */
struct tracer_state {
	char current[64];
	bool tracing_on;
};

int read_stat(const char *name, unsigned long long *value);
int read_tracer_state(struct tracer_state *state);
int check_mmiotrace_available(void);
int stop_readers(const char *path, bool under);
int switch_tracer_off(void);

#endif
