/* SPDX-License-Identifier: GPL-2.0 */
/* The BARs of PCI devices, from sysfs (pci.c); struct pci_bar is in parse.h. */
#ifndef MMIOCTL_PCI_H
#define MMIOCTL_PCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct pci_bar;
const char *bar_problem(const struct pci_bar *res);
FILE *open_pci_resource(const char *bdf, char *path, size_t size);
int read_pci_bar(const char *bdf, unsigned int bar, struct pci_bar *res, bool ports_ok);

#endif
