/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading register maps in rnndb XML, the format of envytools' rnndb and
 * Mesa's src/freedreno/registers, with libxml2. The subset read is listed
 * in docs/mmioctl.1 (REGISTER MAPS); anything else is refused with the file
 * and line, rather than silently decoded wrong.
 */
#ifndef MMIOCTL_RNNDB_H
#define MMIOCTL_RNNDB_H

#include "readers/regmap.h"

/*
 * Add the domains, enums and bitsets of PATH to MAP: an XML file, or a
 * directory whose *.xml files are read in name order. 0, or -1 with the
 * reason ("FILE:LINE: ...") in WHY (RM_WHY_MAX bytes). regmap_finish()
 * checks the whole map once everything is read.
 */
int rnndb_load(struct regmap *map, const char *path, char *why);

/*
 * FN on every *.xml file of DIR, in name order, until one returns nonzero:
 * that value, or 0. *NFILES: the files, or -1 (errno) when DIR cannot be
 * read.
 */
int rnndb_each_file(const char *dir, int (*fn)(const char *file, void *ctx), void *ctx,
		    int *nfiles);

/* The same for a document in memory, NAME standing for its file in messages. */
int rnndb_load_memory(struct regmap *map, const char *name, const char *buf, size_t len,
		      char *why);

#endif
