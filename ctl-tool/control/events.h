/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions through the mmiotrace events in a trace instance (events.c),
 * what record -e (record.c) and hist (hist.c) build on.
 */
#ifndef MMIOCTL_EVENTS_H
#define MMIOCTL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

/* --instance NAME of the command; NULL: the tracer (on, off, ...). */
extern const char *instance;

/* What record -e and hist use without --instance. */
#define DEFAULT_INSTANCE	"mmioctl"

/* The boot-mapped instance of last-boot and boot-params --flight without --instance. */
#define FLIGHT_INSTANCE		"flight"

/* Where a finished session's histograms are kept, under --root. */
#define SAVED_HISTS_DIR		"/run/mmioctl"

#define PATH_SIZE		(4096 + 256)

#define NR_MMIO_EVENTS		5
extern const char *const mmio_events[NR_MMIO_EVENTS];

enum { HIST_COUNTS, HIST_VALUES, NR_HISTS };
extern const char *const hist_specs[NR_HISTS];
extern const char *const hist_prefixes[NR_HISTS];

const char *instance_file(char *path, const char *name, const char *file);
int check_events_available(void);
bool instance_exists(const char *name);
int require_instance(const char *name);
int make_instance(const char *name, bool *created);
int read_events_enabled(const char *name, unsigned int *enabled, unsigned int *arming);
bool events_on(const char *name);
int set_events(const char *name, bool on);

bool hists_installed(const char *name);
int pause_hists(const char *name, bool pause);
int remove_hists(const char *name);
const char *saved_hist_file(char *path, const char *name, const char *file);
bool saved_hists_exist(const char *name);
int save_hists(const char *name);
int remove_saved_hists(const char *name);

int begin_events_session(const char *name, bool enable);
int end_events_session(const char *name);
int remove_instance(const char *name);
int all_events_off(void);
void event_consumers(bool *top, char *names, size_t size);

/* Per-CPU counters of the instance's buffer, summed over its CPUs. */
struct buffer_stats {
	unsigned long long entries, lost;	/* lost: overrun, commit overrun, dropped */
};
int read_buffer_stats(const char *name, struct buffer_stats *stats);

/* The instance variants of the commands. */
int instance_on(const char *name);
int instance_off(const char *name);
int instance_status(const char *name, bool json);
int instance_show(const char *name);
int instance_buffer(const char *name, const char *kb);
int instance_mark(const char *name, const char *text);
int instance_reset(const char *name);

#endif
