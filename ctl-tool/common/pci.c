// SPDX-License-Identifier: GPL-2.0
/*
 * The BARs of PCI devices, from sysfs "resource" (one line per resource:
 * start, end and flags, parse_resource_line() in parse.c), which add-pci,
 * boot-params and the overrides' BAR addresses read.
 */
#include <errno.h>
#include <stdio.h>

#include "common/files.h"
#include "common/parse.h"
#include "common/pci.h"

/* Why a BAR of the device cannot be traced, or NULL if it can. */
const char *bar_problem(const struct pci_bar *res)
{
	if (res->flags & PCI_RESOURCE_IO)
		return "is an I/O port BAR, not memory";
	if (!(res->flags & PCI_RESOURCE_MEM) || res->end <= res->start)
		return "is empty";
	if (!res->start || (res->flags & PCI_RESOURCE_UNSET))
		return "has no address assigned";
	return NULL;
}

/*
 * The sysfs "resource" file of PCI device BDF (normalized), opened, its
 * path in PATH; NULL, said why, when there is none.
 */
FILE *open_pci_resource(const char *bdf, char *path, size_t size)
{
	FILE *file;

	snprintf(path, size, "%s/sys/bus/pci/devices/%s/resource", root, bdf);
	file = fopen(path, "r");
	if (!file) {
		if (errno == ENOENT)
			fprintf(stderr, "mmioctl: no PCI device %s (%s)\n", bdf, path);
		else
			system_error(path);
	}
	return file;
}

/*
 * Memory BAR number BAR of device BDF, with an address, or with PORTS_OK an
 * I/O port BAR with one; said why not.
 */
int read_pci_bar(const char *bdf, unsigned int bar, struct pci_bar *res, bool ports_ok)
{
	char path[4096], line[256];
	const char *problem;
	unsigned int i;
	FILE *file;

	file = open_pci_resource(bdf, path, sizeof(path));
	if (!file)
		return EXIT_REFUSED;
	for (i = 0; i <= bar; i++) {
		if (fgets(line, sizeof(line), file))
			continue;
		fclose(file);
		fprintf(stderr, "mmioctl: %s: no line for BAR %u\n", path, bar);
		return EXIT_REFUSED;
	}
	fclose(file);
	if (parse_resource_line(line, res)) {
		fprintf(stderr, "mmioctl: %s: malformed line %u\n", path, bar + 1);
		return EXIT_REFUSED;
	}
	problem = bar_problem(res);
	if (ports_ok && (res->flags & PCI_RESOURCE_IO) && res->start &&
	    !(res->flags & PCI_RESOURCE_UNSET) && res->end > res->start && res->end <= 0xffff)
		problem = NULL;
	if (problem) {
		fprintf(stderr, "mmioctl: %s BAR %u %s\n", bdf, bar, problem);
		return EXIT_REFUSED;
	}
	return 0;
}
