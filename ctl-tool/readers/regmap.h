/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Register maps: what rnndb XML (rnndb.c) is read into, and how an access
 * is named and its value decoded. Pure: no XML, no I/O.
 *
 * A domain is a tree: registers, and arrays and stripes that repeat their
 * children. Offsets are kept in bytes, relative to the parent; siblings are
 * sorted by offset and never overlap, so a lookup is a binary search per
 * level, and an array of a thousand doorbells costs one node, not a
 * thousand.
 */
#ifndef MMIOCTL_REGMAP_H
#define MMIOCTL_REGMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a value, of a register or a bitfield, is shown. */
enum rm_kind {
	RM_HEX,		/* 0-9 as they are, 0x... above */
	RM_UINT,	/* decimal */
	RM_INT,		/* signed decimal, of the field's width */
	RM_BOOLEAN,	/* 0 or 1 */
	RM_ENUM,	/* a value's name, else hex */
	RM_BITSET,	/* NAME=VALUE for each bitfield */
};

struct rm_value {
	const char *name;
	uint64_t value;
};

struct rm_enum {
	const char *name;		/* NULL for an inline <value> list */
	struct rm_value *values;
	size_t nvalues;
	const char *file;
	int line;
};

struct rm_bitset;

struct rm_type {
	enum rm_kind kind;
	unsigned int shr;		/* the value is shown shifted left by this */
	const struct rm_enum *enumeration;	/* RM_ENUM */
	const struct rm_bitset *bitset;		/* RM_BITSET */
	const char *ref;		/* type="NAME", resolved after loading */
	int line;			/* of that reference */
};

struct rm_field {
	const char *name;
	unsigned int low, high;		/* bits, inclusive */
	struct rm_type type;
	int line;
};

struct rm_bitset {
	const char *name;		/* NULL for inline bitfields */
	struct rm_field *fields;	/* sorted by low bit */
	size_t nfields;
	bool finished;
	bool first_wins;		/* see rm_domain */
	const char *file;
	int line;
};

enum rm_elem_kind { RM_REG, RM_ARRAY, RM_STRIPE };

struct rm_elem {
	enum rm_elem_kind kind;
	const char *name;		/* NULL: an unnamed stripe */
	uint64_t offset;		/* bytes from the parent's start */
	uint64_t stride, length;	/* arrays, stripes, registers with length > 1 */
	uint64_t extent;		/* bytes covered from offset */
	unsigned int width;		/* RM_REG: bytes, 1 2 4 or 8 */
	bool is_volatile;		/* RM_REG: ignored by diff */
	struct rm_type type;		/* RM_REG */
	struct rm_elem *children;	/* sorted by offset */
	size_t nchildren;
	const char *file;
	int line;
	size_t seq;			/* definition order, for first_wins */
	/* first_wins: how far children[0..i] reach, for overlapping ones. */
	uint64_t *reach;
	uint64_t span;			/* bytes one repetition's children cover */
};

/* <pci vendor= device= bar=/>: the BAR this domain describes. */
struct rm_pci {
	unsigned int vendor, device, bar;
};

struct rm_domain {
	const char *name;
	uint64_t size;			/* bytes; 0: as far as its registers go */
	struct rm_elem root;		/* its children are the domain's elements */
	struct rm_pci *pci;
	size_t npci;
	/*
	 * A database of several files (envytools', Mesa's) is taken as it
	 * is: elements may overlap, and an access is the first defined
	 * register that has it, as envytools' lookup tries them; of two
	 * overlapping bitfields the later one is left out.
	 */
	bool first_wins;
	unsigned int unit;		/* bytes per offset unit (width= / 8) */
	const char *file;
	int line;
};

/* Every loaded map. Everything is allocated in the map's arena. */
struct regmap {
	struct rm_domain **domains;
	size_t ndomains;
	struct rm_enum **enums;
	size_t nenums;
	struct rm_bitset **bitsets;
	size_t nbitsets;
	/*
	 * The variant to load (--variant): the value of a varset enum, such
	 * as envytools' chipset "G80", that variants= attributes select by.
	 */
	const char *variant;
	/*
	 * Without a variant: how to find PMC.ID, the first read of offset 0
	 * of the BAR the map is bound to, that envytools' chipset variant is
	 * taken from (as demmio does). The loader asks once, and only a
	 * database that needs the chipset: it sets pmc_id, detected_variant
	 * for that database and no other, and read_pmc_id to NULL.
	 */
	bool (*read_pmc_id)(void *ctx, uint32_t *pmc_id);
	void *pmc_ctx;
	uint32_t pmc_id;
	const char *detected_variant;
	struct rm_arena *arena;
};

struct regmap *regmap_new(void);
void regmap_free(struct regmap *map);
void *rm_alloc(struct regmap *map, size_t size);	/* zeroed; NULL on ENOMEM */
const char *rm_strdup(struct regmap *map, const char *s);
/*
 * One more element, zeroed, at the end of an array in the arena (*ARRAY
 * and *N are updated): the new element, or NULL on ENOMEM.
 */
void *rm_append(struct regmap *map, void **array, size_t *n, size_t elem_size);

/*
 * After loading: resolve type references, sort siblings, compute extents,
 * and refuse overlaps. 0, or -1 with "FILE:LINE: reason" in WHY.
 */
#define RM_WHY_MAX	512
int regmap_finish(struct regmap *map, char *why);

/* The extent of a domain: its size, or how far its registers go. */
uint64_t rm_domain_extent(const struct rm_domain *d);

/* Where an access landed. */
#define RM_DEPTH_MAX	16
struct rm_hit {
	const struct rm_elem *reg;	/* NULL: no register there */
	unsigned int depth;
	const struct rm_elem *path[RM_DEPTH_MAX];	/* the elements, outermost first */
	uint64_t index[RM_DEPTH_MAX];
	uint64_t byte;			/* offset of the access inside the register */
};

/* The register at OFFSET of domain D, for an access of WIDTH bytes. */
bool rm_lookup(const struct rm_domain *d, uint64_t offset, struct rm_hit *hit);

/*
 * The register's name: "CSTS", "DB[3].SQTDBL", "RAL[2]", with "+0x4" for
 * an access that starts inside it. Returns the length written (cut to fit
 * SIZE, NUL-terminated).
 */
size_t rm_name(const struct rm_hit *hit, char *buf, size_t size);

/*
 * The fields of VALUE, an access of WIDTH bytes at the hit: "EN=1 CSS=0",
 * an enum's name, or the value. Only the fields wholly inside the accessed
 * bytes are shown. Bits set that no field describes come last as "?=0x...".
 * With ONLY_CHANGED, fields whose value equals their value in PREVIOUS are
 * left out. Returns the length written (cut to fit SIZE, NUL-terminated).
 */
size_t rm_decode(const struct rm_hit *hit, unsigned int width, uint64_t value, char *buf,
		 size_t size);
size_t rm_decode_changes(const struct rm_hit *hit, unsigned int width, uint64_t previous,
			 uint64_t value, char *buf, size_t size);

/*
 * The same fields for JSON: calls EACH for every field shown, with its name,
 * its value (shifted by shr; with NEGATIVE, an INT field's magnitude: the
 * value is -VALUE, as rm_decode() shows it) and the enum name if it has one
 * (else NULL).
 */
void rm_fields(const struct rm_hit *hit, unsigned int width, uint64_t value,
	       void (*each)(void *ctx, const char *name, uint64_t value, bool negative,
			    const char *enum_name),
	       void *ctx);

/* Is this a domain's bitfield-free, type-free register (the value is all)? */
bool rm_has_fields(const struct rm_hit *hit);

#endif
