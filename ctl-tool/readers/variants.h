/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rnndb's variants= attribute, as envytools' rnn.c reads it: over a
 * varset (an enum whose values, in order, are the variants, such as
 * envytools' chipset), a space-separated list of NAME (that one),
 * FIRST:END (FIRST up to END, END excluded) and FIRST-LAST (LAST
 * included); FIRST or the end may be left out ("GT215-", ":NV4").
 */
#ifndef MMIOCTL_VARIANTS_H
#define MMIOCTL_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Does VARIANTS take variant number CHOSEN of the NVALUES names VALUES?
 * 0 with *TAKEN, or -1 with the name that is not a value in UNKNOWN
 * (SIZE bytes).
 */
int variants_take(const char *variants, const char *const *values, size_t nvalues,
		  size_t chosen, bool *taken, char *unknown, size_t size);

#endif
