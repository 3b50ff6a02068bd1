// SPDX-License-Identifier: GPL-2.0
/*
 * rnndb XML into a register map (regmap.h), as envytools' rnn/rnn.c reads
 * it, restricted to what decoding an MMIO trace needs:
 *
 *   <database>    <domain>, <enum>, <bitset>, <group>, <spectype> and
 *                 <import file=>; <copyright>, <license>, <author>, <doc>
 *                 and <brief> are skipped. Those may stand anywhere, as
 *                 in envytools' files, not only at the top.
 *   <import>      the file is looked for in $RNN_PATH's directories, then
 *                 in the importing file's directory and each one above it
 *                 (envytools' "bus/pmc.xml", Mesa's "adreno/a6xx.xml");
 *                 each file is read once. Domains, enums and bitsets of
 *                 one name in several files of one database are merged.
 *   <domain>      name, size, width (8: byte offsets, 32: dword offsets),
 *                 bare; registers, <array>, <stripe>, <use-group> and
 *                 mmioctl's <pci vendor= device= bar=/> binding
 *   <reg8> .. <reg64>  name, offset, length, stride, access, type, shr and
 *                 mmioctl's volatile="yes"; <bitfield> or <value> children
 *   <array>, <stripe>  name, offset, length, stride
 *   <group>, <use-group name=>  the group's elements, where it is used
 *   <bitfield>    name, pos or low and high, type, shr; <value> children
 *   <enum>        name, bare, inline; <value name= value=> (a value
 *                 without value= names a variant only)
 *   <bitset>      name, bare, inline; <bitfield> children
 *   type=         hex, uint, int, boolean, an <enum> or <bitset> name;
 *                 float, fixed, ufixed and <spectype> names as hex
 *   prefix=, varset=, variants=  see variants.h: an element whose
 *                 variants= leave out the map's variant (--variant) is
 *                 left out; a database of several files is first_wins
 *                 (regmap.h). add=, min=, max=, align= and radix= are
 *                 taken and not used.
 *
 * The documents are read whole (maps are small) without the network, DTDs
 * or entity substitution.
 */
#include "readers/rnndb.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "common/parse.h"
#include "readers/variants.h"

/* A file of the database, parsed, kept until the database is read. */
struct source {
	const char *path;	/* the first file as given; an import as found */
	const char *real;	/* realpath(), that each file is read once */
	xmlDocPtr doc;
	bool parsed;		/* its elements are in the map */
};

/* An <import> element, and the source it names. */
struct import_of {
	const xmlNode *node;
	size_t source;
};

/* A <group>, used where a <use-group> names it. */
struct group {
	const char *name;
	const char *file;
	const xmlNode *node;
};

/* A varset: the names of an enum's values, in order, and their value=. */
struct varset {
	const char *name;
	const char **values;
	size_t nvalues;
	uint64_t *ids;
	bool *has_id;
	size_t nids, nhas_id;
};

struct loader {
	struct regmap *map;
	const char *file;
	unsigned int unit;	/* bytes per offset unit of the current domain */
	char *why;
	bool in_memory;		/* no <import>: rnndb_load_memory() */
	bool first_wins;	/* a database of several files */
	const char *varset;	/* what variants= refers to here, or NULL */
	/*
	 * The first prefix= or varset= of the database: for variants= with
	 * no varset around them, an inline enum's values, which envytools
	 * reads where the enum is used.
	 */
	const char *default_varset;
	bool variant_found;	/* the variant is a value of a varset used */
	/* The map's variant, or the chipset of its PMC.ID once found. */
	const char *variant;
	unsigned int group_depth;
	size_t nelements;	/* registers, arrays and stripes so far */
	/* The domains being parsed, inner last: one cannot be merged into. */
	const struct rm_domain *open[RM_DEPTH_MAX];
	unsigned int nopen;
	uint64_t base;		/* bytes added to offset=: a flattened stripe's */
	/* The first domain, enum and bitset of this database, for merging. */
	size_t first_domain, first_enum, first_bitset;
	struct source *sources;
	size_t nsources;
	struct import_of *imports;	/* what each <import> read, for parsing */
	size_t nimports;
	struct group *groups;
	size_t ngroups;
	const char **spectypes;
	size_t nspectypes;
	struct varset *varsets;
	size_t nvarsets;
};

static int fail(struct loader *ld, const xmlNode *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct loader *ld, const xmlNode *node, const char *fmt, ...)
{
	int n = snprintf(ld->why, RM_WHY_MAX, "%s:%ld: ", ld->file, xmlGetLineNo(node));
	va_list args;

	/* A path longer than the message: the path, cut, is all there is. */
	if (n < 0 || n >= RM_WHY_MAX)
		return -1;
	va_start(args, fmt);
	vsnprintf(ld->why + n, RM_WHY_MAX - n, fmt, args);
	va_end(args);
	return -1;
}

static int out_of_memory(struct loader *ld, const xmlNode *node)
{
	return fail(ld, node, "%s", strerror(ENOMEM));
}

static bool named(const xmlNode *node, const char *name)
{
	return !strcmp((const char *)node->name, name);
}

#define for_each_element(child, node) \
	for (child = (node)->children; child; child = child->next) \
		if (child->type == XML_ELEMENT_NODE)

static bool is_doc(const xmlNode *node)
{
	return named(node, "doc") || named(node, "brief");
}

/* Every attribute of NODE must be one of ALLOWED (NULL-terminated). */
static int check_attributes(struct loader *ld, const xmlNode *node, const char *const *allowed)
{
	const xmlAttr *a;
	size_t i;

	for (a = node->properties; a; a = a->next) {
		for (i = 0; allowed[i]; i++)
			if (!strcmp((const char *)a->name, allowed[i]))
				break;
		if (!allowed[i])
			return fail(ld, node, "unsupported attribute '%s' in <%s>", a->name, node->name);
	}
	return 0;
}

/* The attribute NAME, copied into the map; NULL when absent (or on ENOMEM). */
static const char *attribute(struct loader *ld, const xmlNode *node, const char *name,
			     bool *missing)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
	const char *copy;

	*missing = !v;
	if (!v)
		return NULL;
	copy = rm_strdup(ld->map, (const char *)v);
	xmlFree(v);
	return copy;
}

static int text_attribute(struct loader *ld, const xmlNode *node, const char *name,
			  bool required, const char **out)
{
	bool missing;

	*out = attribute(ld, node, name, &missing);
	if (missing && required)
		return fail(ld, node, "<%s> without %s=", node->name, name);
	if (!missing && !*out)
		return out_of_memory(ld, node);
	if (*out && !**out)
		return fail(ld, node, "<%s> with an empty %s=", node->name, name);
	return 0;
}

/* A number, decimal or 0x hex; *val left alone when absent and not required. */
static int number_attribute(struct loader *ld, const xmlNode *node, const char *name,
			    bool required, uint64_t *val)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
	int ret = 0;

	if (!v)
		return required ? fail(ld, node, "<%s> without %s=", node->name, name) : 0;
	if (parse_u64((const char *)v, val))
		ret = fail(ld, node, "<%s> %s='%s' is not a number (decimal or 0x hex)",
			   node->name, name, v);
	xmlFree(v);
	return ret;
}

static int bool_attribute(struct loader *ld, const xmlNode *node, const char *name, bool *val)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
	int ret = 0;

	if (!v)
		return 0;
	if (!strcmp((const char *)v, "yes") || !strcmp((const char *)v, "1") ||
	    !strcmp((const char *)v, "true"))
		*val = true;
	else if (!strcmp((const char *)v, "no") || !strcmp((const char *)v, "0") ||
		 !strcmp((const char *)v, "false"))
		*val = false;
	else
		ret = fail(ld, node, "<%s> %s='%s': expected yes or no", node->name, name, v);
	xmlFree(v);
	return ret;
}

/* Is NODE's name= NAME? */
static bool has_name(const xmlNode *node, const char *name)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)"name");
	bool same = v && !strcmp((const char *)v, name);

	xmlFree(v);
	return same;
}

/* ---- variants ---- */

/* NAME, the variant that <value> NODE names, at the end of VS. */
static int add_variant(struct loader *ld, struct varset *vs, const xmlNode *node,
		       const xmlChar *name)
{
	const char **slot = rm_append(ld->map, (void **)&vs->values, &vs->nvalues, sizeof(*slot));
	uint64_t *id = rm_append(ld->map, (void **)&vs->ids, &vs->nids, sizeof(*id));
	bool *has_id = rm_append(ld->map, (void **)&vs->has_id, &vs->nhas_id, sizeof(*has_id));
	xmlChar *value = xmlGetProp(node, (const xmlChar *)"value");

	if (slot)
		*slot = rm_strdup(ld->map, (const char *)name);
	if (id && has_id && value)
		*has_id = !parse_u64((const char *)value, id);
	xmlFree(value);
	return slot && *slot && id && has_id ? 0 : out_of_memory(ld, node);
}

/* The <value name=> of every <enum name=VS> below NODE, in document order. */
static int collect_values(struct loader *ld, const xmlNode *node, struct varset *vs)
{
	const xmlNode *child, *value;

	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (!named(child, "enum") || !has_name(child, vs->name)) {
			if (collect_values(ld, child, vs))
				return -1;
			continue;
		}
		for_each_element(value, child) {
			xmlChar *name = xmlGetProp(value, (const xmlChar *)"name");
			int ret = name && named(value, "value") ? add_variant(ld, vs, value, name) : 0;

			xmlFree(name);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The varset NAME, from the enums NAME of every file; NULL on an error. */
static const struct varset *find_varset(struct loader *ld, const xmlNode *at, const char *name)
{
	struct varset *vs;
	size_t i;

	for (i = 0; i < ld->nvarsets; i++)
		if (!strcmp(ld->varsets[i].name, name))
			return &ld->varsets[i];
	vs = rm_append(ld->map, (void **)&ld->varsets, &ld->nvarsets, sizeof(*vs));
	if (!vs || !(vs->name = rm_strdup(ld->map, name))) {
		out_of_memory(ld, at);
		return NULL;
	}
	for (i = 0; i < ld->nsources; i++)
		if (collect_values(ld, xmlDocGetRootElement(ld->sources[i].doc), vs))
			return NULL;
	if (!vs->nvalues) {
		fail(ld, at, "varset %s: no <enum name=\"%s\"> with values in the database", name,
		     name);
		return NULL;
	}
	return vs;
}

/*
 * envytools' chipset from PMC.ID (NV_PMC_BOOT_0), as its parse_pmc_id()
 * reads it for NV10 and later; 0 if it cannot tell.
 */
static uint64_t chipset_of(uint32_t pmc_id)
{
	/* Bit 31 set: a big-endian card's, byte-swapped (pmc_id_flipped()). */
	if (pmc_id & 0x80000000 && (!(pmc_id & 0x80) || pmc_id & 0xf00))
		pmc_id = __builtin_bswap32(pmc_id);
	/* Still bits 31 and 8-11: BAR0 reads are broken (0xffffffff). */
	if (pmc_id & 0x80000000 && pmc_id & 0xf00)
		return 0;
	return pmc_id & 0x80 ? pmc_id >> 20 & 0x1ff : 0;
}

/*
 * Without --variant, the chipset of the PMC.ID the trace read (regmap.h),
 * as demmio takes it: the map's variant from now on. NULL, and WHY, if
 * enum chipset does not name it.
 */
static const char *chipset_variant(struct loader *ld, const xmlNode *node,
				   const struct varset *vs)
{
	uint64_t chipset = chipset_of(ld->map->pmc_id);
	size_t i;

	for (i = 0; chipset && i < vs->nvalues; i++)
		if (vs->has_id[i] && vs->ids[i] == chipset) {
			ld->variant = ld->map->detected_variant = vs->values[i];
			return vs->values[i];
		}
	if (!chipset)
		fail(ld, node, "the trace's PMC.ID 0x%08x does not tell the chipset (before NV10, or BAR0 broken): give --variant NAME",
		     ld->map->pmc_id);
	else
		fail(ld, node, "the trace's PMC.ID 0x%08x is chipset 0x%" PRIx64 ", which enum chipset does not name: give --variant NAME",
		     ld->map->pmc_id, chipset);
	return NULL;
}

/* Is NODE, with VARIANTS, in the map's variant? */
static int take_variants(struct loader *ld, const xmlNode *node, const char *variants,
			 bool *taken)
{
	const char *variant = ld->variant;
	const struct varset *vs;
	char unknown[64];
	size_t i;

	const char *varset = ld->varset ? ld->varset : ld->default_varset;

	if (!varset)
		return fail(ld, node, "<%s> variants='%s' without a varset (prefix= or varset= on it or around it)",
			    node->name, variants);
	vs = find_varset(ld, node, varset);
	if (!vs)
		return -1;
	if (!variant && ld->map->read_pmc_id && !strcmp(varset, "chipset")) {
		bool found = ld->map->read_pmc_id(ld->map->pmc_ctx, &ld->map->pmc_id);

		ld->map->read_pmc_id = NULL;
		variant = found ? chipset_variant(ld, node, vs) : NULL;
		if (found && !variant)
			return -1;
	}
	if (!variant)
		return fail(ld, node, "<%s> variants='%s': the database has variants, choose one with --variant NAME (a value of enum %s)",
			    node->name, variants, varset);
	for (i = 0; i < vs->nvalues && strcmp(vs->values[i], variant); i++)
		;
	/* Another varset (envytools' obj-class beside chipset): kept, as lookup does. */
	if (i == vs->nvalues) {
		*taken = true;
		return 0;
	}
	ld->variant_found = true;
	if (variants_take(variants, vs->values, vs->nvalues, i, taken, unknown, sizeof(unknown)))
		return fail(ld, node, "variants='%s': '%s' is not a value of enum %s", variants,
			    unknown, varset);
	return 0;
}

/*
 * prefix=, varset= and variants= of NODE: the varset from here down
 * (*SAVED: the one to put back after NODE), and whether NODE is in the
 * map's variant.
 */
static int enter_variants(struct loader *ld, const xmlNode *node, const char **saved,
			  bool *taken)
{
	xmlChar *prefix = xmlGetProp(node, (const xmlChar *)"prefix");
	xmlChar *varset = xmlGetProp(node, (const xmlChar *)"varset");
	xmlChar *variants = xmlGetProp(node, (const xmlChar *)"variants");
	int ret = 0;

	*saved = ld->varset;
	*taken = true;
	if (prefix)
		ld->varset = strcmp((const char *)prefix, "none") ?
			     rm_strdup(ld->map, (const char *)prefix) : NULL;
	if (varset)
		ld->varset = rm_strdup(ld->map, (const char *)varset);
	if ((prefix && strcmp((const char *)prefix, "none") && !ld->varset) ||
	    (varset && !ld->varset))
		ret = out_of_memory(ld, node);
	if (!ret && variants)
		ret = take_variants(ld, node, (const char *)variants, taken);
	xmlFree(prefix);
	xmlFree(varset);
	xmlFree(variants);
	return ret;
}

/* ---- types ---- */

static bool is_spectype(const struct loader *ld, const char *name)
{
	size_t i;

	for (i = 0; i < ld->nspectypes; i++)
		if (!strcmp(ld->spectypes[i], name))
			return true;
	return false;
}

/*
 * Built-in types shown as hex: envytools' float, fixed and ufixed, Mesa's
 * a3xx_regid, address, waddress and uoffset; bitfield and enum are what
 * the children make them.
 */
static bool is_hex_type(const char *name)
{
	static const char *const names[] = { "hex", "float", "fixed", "ufixed", "bitfield", "enum",
					     "a3xx_regid", "address", "waddress", "uoffset" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* type= and shr=, as registers and bitfields have them. */
static int type_attributes(struct loader *ld, const xmlNode *node, struct rm_type *type)
{
	const char *name;
	uint64_t shr = 0;

	if (text_attribute(ld, node, "type", false, &name) ||
	    number_attribute(ld, node, "shr", false, &shr))
		return -1;
	if (shr > 63)
		return fail(ld, node, "shr=%llu is more than 63", (unsigned long long)shr);
	type->shr = shr;
	type->kind = RM_HEX;
	if (!name || is_hex_type(name) || is_spectype(ld, name))
		return 0;
	if (!strcmp(name, "uint"))
		type->kind = RM_UINT;
	else if (!strcmp(name, "int"))
		type->kind = RM_INT;
	else if (!strcmp(name, "boolean"))
		type->kind = RM_BOOLEAN;
	else {
		type->ref = name;	/* an enum or a bitset, resolved at the end */
		type->line = xmlGetLineNo(node);
	}
	return 0;
}

static int try_top(struct loader *ld, const xmlNode *node, bool *done);
static int parse_import(struct loader *ld, const xmlNode *node);

/* Children of NODE that are neither its own nor docs are refused. */
static int other_children(struct loader *ld, const xmlNode *node, const char *own)
{
	const xmlNode *child;
	bool done;

	for_each_element(child, node) {
		if (is_doc(child) || (own && named(child, own)))
			continue;
		if (try_top(ld, child, &done))
			return -1;
		if (!done)
			return fail(ld, child, "<%s> inside <%s>", child->name, node->name);
	}
	return 0;
}

static int parse_value(struct loader *ld, const xmlNode *node, struct rm_enum *e)
{
	static const char *const allowed[] = { "name", "value", "varset", "variants", NULL };
	const char *saved, *name;
	uint64_t value = UINT64_MAX;
	struct rm_value *v;
	bool taken;
	int ret;

	if (check_attributes(ld, node, allowed) || enter_variants(ld, node, &saved, &taken))
		return -1;
	ret = text_attribute(ld, node, "name", true, &name) ||
	      number_attribute(ld, node, "value", false, &value) ||
	      other_children(ld, node, NULL);
	ld->varset = saved;
	/* A value without value= names a variant (envytools' chipset NV1). */
	if (ret || !taken || !xmlHasProp(node, (const xmlChar *)"value"))
		return ret ? -1 : 0;
	v = rm_append(ld->map, (void **)&e->values, &e->nvalues, sizeof(*v));
	if (!v)
		return out_of_memory(ld, node);
	v->name = name;
	v->value = value;
	return 0;
}

static struct rm_enum *new_enum(struct loader *ld, const xmlNode *node)
{
	struct rm_enum *e = rm_alloc(ld->map, sizeof(*e));

	if (e) {
		e->file = ld->file;
		e->line = xmlGetLineNo(node);
	}
	return e;
}

/* <value> children of a register or a bitfield: an inline enum. */
static int inline_value(struct loader *ld, const xmlNode *node, struct rm_type *type)
{
	if (type->ref || (type->kind != RM_HEX && type->kind != RM_ENUM))
		return fail(ld, node, "<value> in a %s that has a type=", node->parent->name);
	if (!type->enumeration) {
		type->enumeration = new_enum(ld, node);
		if (!type->enumeration)
			return out_of_memory(ld, node);
		type->kind = RM_ENUM;
	}
	return parse_value(ld, node, (struct rm_enum *)type->enumeration);
}

/* pos=, or low= and high= (else DEFAULT_LOW, DEFAULT_HIGH), into F. */
static int bits_or(struct loader *ld, const xmlNode *node, struct rm_field *f,
		   uint64_t default_low, uint64_t default_high)
{
	uint64_t low = default_low, high = default_high, pos = UINT64_MAX;

	if (number_attribute(ld, node, "pos", false, &pos) ||
	    number_attribute(ld, node, "low", false, &low) ||
	    number_attribute(ld, node, "high", false, &high))
		return -1;
	if (pos != UINT64_MAX) {
		if (low != default_low || high != default_high)
			return fail(ld, node, "bitfield %s: pos= with low= or high=", f->name);
		low = high = pos;
	}
	if (low == UINT64_MAX || high == UINT64_MAX)
		return fail(ld, node, "bitfield %s: needs pos=, or low= and high=", f->name);
	if (low > high || high > 63)
		return fail(ld, node, "bitfield %s: bits %llu-%llu are not within 0-63, low to high",
			    f->name, (unsigned long long)low, (unsigned long long)high);
	f->low = low;
	f->high = high;
	return 0;
}

/* pos=, or low= and high=, into F. */
static int bit_placement(struct loader *ld, const xmlNode *node, struct rm_field *f)
{
	return bits_or(ld, node, f, UINT64_MAX, UINT64_MAX);
}

/*
 * Attributes taken and not used: a type's (envytools'), a register's
 * usage= and a bitfield's addvariant= (Mesa's, for its command streams).
 */
#define UNUSED_TYPE_ATTRIBUTES	"add", "min", "max", "align", "radix", "usage", "addvariant"

static int parse_bitfield_body(struct loader *ld, const xmlNode *node, struct rm_field *f)
{
	const xmlNode *child;
	bool done;

	f->line = xmlGetLineNo(node);
	if (text_attribute(ld, node, "name", true, &f->name) || bit_placement(ld, node, f) ||
	    type_attributes(ld, node, &f->type))
		return -1;
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (named(child, "value")) {
			if (inline_value(ld, child, &f->type))
				return -1;
			continue;
		}
		/* A bitfield's own bitfields (envytools'): the field is shown whole. */
		if (named(child, "bitfield"))
			continue;
		if (try_top(ld, child, &done))
			return -1;
		if (!done)
			return fail(ld, child, "<%s> inside <bitfield>", child->name);
	}
	return 0;
}

static int parse_bitfield(struct loader *ld, const xmlNode *node, struct rm_bitset *set)
{
	static const char *const allowed[] = { "name", "pos", "low", "high", "type", "shr",
					       "varset", "variants", UNUSED_TYPE_ATTRIBUTES, NULL };
	struct rm_field *f;
	const char *saved;
	bool taken;
	int ret;

	if (check_attributes(ld, node, allowed) || enter_variants(ld, node, &saved, &taken))
		return -1;
	ret = 0;
	if (taken) {
		f = rm_append(ld->map, (void **)&set->fields, &set->nfields, sizeof(*f));
		ret = f ? parse_bitfield_body(ld, node, f) : out_of_memory(ld, node);
	}
	ld->varset = saved;
	return ret;
}

/* <enum> or <bitset> at the top: their own attributes. */
static const char *const top_type_attributes[] = { "name", "bare", "inline", "prefix", "varset",
						   "variants", NULL };

/* The enum NAME of this database, to merge into; NULL if none yet. */
static struct rm_enum *enum_to_merge(struct loader *ld, const char *name)
{
	size_t i;

	for (i = ld->first_enum; i < ld->map->nenums; i++)
		if (!strcmp(ld->map->enums[i]->name, name))
			return ld->map->enums[i];
	return NULL;
}

static int parse_enum_values(struct loader *ld, const xmlNode *node, struct rm_enum *e)
{
	const xmlNode *child;
	bool done;

	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (named(child, "value")) {
			if (parse_value(ld, child, e))
				return -1;
			continue;
		}
		if (try_top(ld, child, &done))
			return -1;
		if (!done)
			return fail(ld, child, "<%s> inside <enum>", child->name);
	}
	return 0;
}

static int parse_enum(struct loader *ld, const xmlNode *node)
{
	struct rm_enum *e, **slot;
	const char *saved, *name;
	bool taken;
	int ret;

	if (check_attributes(ld, node, top_type_attributes) ||
	    text_attribute(ld, node, "name", true, &name) ||
	    enter_variants(ld, node, &saved, &taken))
		return -1;
	ret = 0;
	e = taken ? enum_to_merge(ld, name) : NULL;
	if (taken && !e) {
		e = new_enum(ld, node);
		slot = rm_append(ld->map, (void **)&ld->map->enums, &ld->map->nenums,
				 sizeof(*slot));
		if (!e || !slot)
			ret = out_of_memory(ld, node);
		else
			*slot = e;
		if (e)
			e->name = name;
	}
	if (!ret && taken)
		ret = parse_enum_values(ld, node, e);
	ld->varset = saved;
	return ret;
}

static struct rm_bitset *new_bitset(struct loader *ld, const xmlNode *node)
{
	struct rm_bitset *set = rm_alloc(ld->map, sizeof(*set));

	if (set) {
		set->file = ld->file;
		set->line = xmlGetLineNo(node);
		set->first_wins = ld->first_wins;
	}
	return set;
}

/* The bitset NAME of this database, to merge into; NULL if none yet. */
static struct rm_bitset *bitset_to_merge(struct loader *ld, const char *name)
{
	size_t i;

	for (i = ld->first_bitset; i < ld->map->nbitsets; i++)
		if (!strcmp(ld->map->bitsets[i]->name, name))
			return ld->map->bitsets[i];
	return NULL;
}

static int parse_bitset(struct loader *ld, const xmlNode *node)
{
	struct rm_bitset *set, **slot;
	const char *saved, *name;
	const xmlNode *child;
	bool taken, done;
	int ret = 0;

	if (check_attributes(ld, node, top_type_attributes) ||
	    text_attribute(ld, node, "name", true, &name) ||
	    enter_variants(ld, node, &saved, &taken))
		return -1;
	set = taken ? bitset_to_merge(ld, name) : NULL;
	if (taken && !set) {
		set = new_bitset(ld, node);
		slot = rm_append(ld->map, (void **)&ld->map->bitsets, &ld->map->nbitsets,
				 sizeof(*slot));
		if (!set || !slot)
			ret = out_of_memory(ld, node);
		else
			*slot = set;
		if (set)
			set->name = name;
	}
	for_each_element(child, node) {
		if (ret || !taken)
			break;
		if (is_doc(child))
			continue;
		if (named(child, "bitfield"))
			ret = parse_bitfield(ld, child, set);
		else if (!(ret = try_top(ld, child, &done)) && !done)
			ret = fail(ld, child, "<%s> inside <bitset>", child->name);
	}
	ld->varset = saved;
	return ret;
}

static int register_width(const xmlNode *node);

/* offset=, length=, stride= in the domain's unit, into bytes. */
static int placement(struct loader *ld, const xmlNode *node, struct rm_elem *e, bool need_offset)
{
	uint64_t limit = UINT64_MAX / ld->unit;

	e->length = 1;
	if (number_attribute(ld, node, "offset", need_offset, &e->offset) ||
	    number_attribute(ld, node, "length", false, &e->length) ||
	    number_attribute(ld, node, "stride", false, &e->stride))
		return -1;
	if (!e->length && !ld->first_wins)
		return fail(ld, node, "<%s> with length 0", node->name);
	if (e->offset > limit || e->stride > limit)
		return fail(ld, node, "<%s>: offset or stride past 2^64 bytes", node->name);
	e->offset *= ld->unit;
	if (e->offset > UINT64_MAX - ld->base)
		return fail(ld, node, "<%s>: offset past 2^64 bytes", node->name);
	e->offset += ld->base;
	e->stride *= ld->unit;
	/* envytools' length 0, "as many as there are": 4 GiB of them. */
	if (!e->length)
		e->length = (UINT64_C(1) << 32) /
			    (e->stride ? e->stride : (uint64_t)(register_width(node) ?: 1));
	e->file = ld->file;
	e->line = xmlGetLineNo(node);
	return 0;
}

static int register_width(const xmlNode *node)
{
	if (named(node, "reg8"))
		return 1;
	if (named(node, "reg16"))
		return 2;
	if (named(node, "reg32"))
		return 4;
	if (named(node, "reg64"))
		return 8;
	return 0;
}

/* A <bitfield> of register E: into its inline bitset, made at the first. */
static int register_bitfield(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	struct rm_bitset *set = (struct rm_bitset *)e->type.bitset;

	/* envytools shows the bitfields of a register that has both. */
	if (e->type.kind == RM_ENUM && ld->first_wins && !e->type.ref) {
		e->type.kind = RM_HEX;
		e->type.enumeration = NULL;
	}
	if (e->type.kind == RM_ENUM)
		return fail(ld, node, "register %s: <value> and <bitfield> mixed", e->name);
	/* envytools shows such a register by its type=, without the bitfields. */
	if (!set && (e->type.ref || e->type.kind != RM_HEX) && ld->first_wins)
		return 0;
	if (!set) {
		if (e->type.ref || e->type.kind != RM_HEX)
			return fail(ld, node, "register %s: <bitfield> in a register that has a type=",
				    e->name);
		set = new_bitset(ld, node);
		if (!set)
			return out_of_memory(ld, node);
		e->type.kind = RM_BITSET;
		e->type.bitset = set;
	}
	return parse_bitfield(ld, node, set);
}

/*
 * Mesa's <reg32 name= low= high= type=>: the value is those bits, shown
 * as one bitfield of the register's name and the register's type.
 */
static int value_bits(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	struct rm_bitset *set = new_bitset(ld, node);
	struct rm_field *f;

	if (!set)
		return out_of_memory(ld, node);
	f = rm_append(ld->map, (void **)&set->fields, &set->nfields, sizeof(*f));
	if (!f)
		return out_of_memory(ld, node);
	f->name = e->name;
	f->line = xmlGetLineNo(node);
	/* Left out, low= is 0 and high= the register's top bit, as in Mesa. */
	if (bits_or(ld, node, f, 0, e->width * 8 - 1) || type_attributes(ld, node, &f->type))
		return -1;
	e->type.kind = RM_BITSET;
	e->type.bitset = set;
	return 0;
}

static int parse_register(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	static const char *const allowed[] = { "name", "offset", "length", "stride", "access",
					       "type", "shr", "volatile", "varset", "variants",
					       "pos", "low", "high", UNUSED_TYPE_ATTRIBUTES, NULL };
	const xmlNode *child;
	const char *access;
	bool done;

	if (check_attributes(ld, node, allowed))
		return -1;
	e->kind = RM_REG;
	e->width = register_width(node);
	if (text_attribute(ld, node, "name", true, &e->name) || placement(ld, node, e, true) ||
	    text_attribute(ld, node, "access", false, &access) ||
	    bool_attribute(ld, node, "volatile", &e->is_volatile))
		return -1;
	if (xmlHasProp(node, (const xmlChar *)"pos") || xmlHasProp(node, (const xmlChar *)"low") ||
	    xmlHasProp(node, (const xmlChar *)"high")) {
		if (value_bits(ld, node, e))
			return -1;
	} else if (type_attributes(ld, node, &e->type)) {
		return -1;
	}
	if (access && strcmp(access, "r") && strcmp(access, "w") && strcmp(access, "rw"))
		return fail(ld, node, "register %s: access='%s': expected r, w or rw", e->name,
			    access);
	if (e->length > 1 && e->stride && e->stride < e->width)
		return fail(ld, node, "register %s: stride smaller than the register", e->name);
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (named(child, "value")) {
			if (e->type.kind == RM_BITSET && ld->first_wins)
				continue;
			if (e->type.kind == RM_BITSET)
				return fail(ld, child, "register %s: <value> and <bitfield> mixed",
					    e->name);
			if (inline_value(ld, child, &e->type))
				return -1;
		} else if (named(child, "bitfield")) {
			if (register_bitfield(ld, child, e))
				return -1;
		} else if (try_top(ld, child, &done)) {
			return -1;
		} else if (!done) {
			return fail(ld, child, "<%s> inside <%s>", child->name, node->name);
		}
	}
	return 0;
}

static int parse_elements(struct loader *ld, const xmlNode *node, struct rm_elem *parent);

static int parse_group(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	static const char *const allowed[] = { "name", "offset", "length", "stride", "prefix",
					       "varset", "variants", "usage", NULL };
	bool array = named(node, "array");
	uint64_t base;
	int ret;

	if (check_attributes(ld, node, allowed))
		return -1;
	e->kind = array ? RM_ARRAY : RM_STRIPE;
	/* envytools has an array without a name (bus/pci.xml): it is not named. */
	if (text_attribute(ld, node, "name", false, &e->name) || placement(ld, node, e, array))
		return -1;
	if (array && !e->stride)
		return fail(ld, node, "array %s without stride=", e->name ? e->name : "(unnamed)");
	if (e->length > 1 && !e->stride)
		return fail(ld, node, "stripe with length= but no stride=");
	/* Its children's offsets are its own. */
	base = ld->base;
	ld->base = 0;
	ret = parse_elements(ld, node, e);
	ld->base = base;
	return ret;
}

/*
 * In a database of several files, an unnamed stripe of one (envytools'
 * way to give elements variants, or Mesa's) is not an element: its
 * elements are its parent's, so that first_wins (regmap.h) weighs them
 * one by one, as envytools' lookup tries them, not the stripe whole.
 */
static bool is_flat_stripe(const struct loader *ld, const xmlNode *node)
{
	xmlChar *length = xmlGetProp(node, (const xmlChar *)"length");
	bool flat = ld->first_wins && named(node, "stripe") &&
		    !xmlHasProp(node, (const xmlChar *)"name") &&
		    (!length || !strcmp((const char *)length, "1"));

	xmlFree(length);
	return flat;
}

static int flat_stripe(struct loader *ld, const xmlNode *node, struct rm_elem *parent)
{
	static const char *const allowed[] = { "offset", "length", "stride", "prefix", "varset",
					       "variants", NULL };
	uint64_t offset = 0, base = ld->base;
	int ret;

	if (check_attributes(ld, node, allowed) ||
	    number_attribute(ld, node, "offset", false, &offset))
		return -1;
	if (offset > (UINT64_MAX - base) / ld->unit)
		return fail(ld, node, "<stripe>: offset past 2^64 bytes");
	ld->base += offset * ld->unit;
	ret = parse_elements(ld, node, parent);
	ld->base = base;
	return ret;
}

/* <use-group name=>: the group's elements, as PARENT's own. */
static int use_group(struct loader *ld, const xmlNode *node, struct rm_elem *parent)
{
	static const char *const allowed[] = { "name", "varset", "variants", NULL };
	const char *name, *file = ld->file;
	size_t i;
	int ret;

	bool found = false;

	if (check_attributes(ld, node, allowed) || text_attribute(ld, node, "name", true, &name))
		return -1;
	if (ld->group_depth == RM_DEPTH_MAX)
		return fail(ld, node, "group %s uses itself, or groups nest too deep", name);
	ld->group_depth++;
	/* Groups of one name are one, in the order they were defined (envytools'). */
	for (i = 0, ret = 0; i < ld->ngroups && !ret; i++) {
		if (strcmp(ld->groups[i].name, name))
			continue;
		found = true;
		ld->file = ld->groups[i].file;
		ret = parse_elements(ld, ld->groups[i].node, parent);
		ld->file = file;
	}
	ld->group_depth--;
	if (!found)
		return fail(ld, node, "<use-group name=\"%s\">: no <group> of that name", name);
	return ret;
}

static bool is_element(const xmlNode *node)
{
	return register_width(node) || named(node, "array") || named(node, "stripe") ||
	       named(node, "use-group");
}

/*
 * The most elements one database may have once its groups are used: a
 * chain of groups each using the next several times grows as a power.
 * envytools' whole rnndb has about 12000.
 */
#define ELEMENTS_MAX	(1 << 20)

/* One register, array, stripe or group use in PARENT, unless variants= leave it out. */
static int parse_element(struct loader *ld, const xmlNode *node, struct rm_elem *parent)
{
	const char *saved;
	struct rm_elem *e;
	bool taken;
	int ret = 0;

	if (enter_variants(ld, node, &saved, &taken))
		return -1;
	if (taken && named(node, "use-group")) {
		ret = use_group(ld, node, parent);
	} else if (taken && is_flat_stripe(ld, node)) {
		ret = flat_stripe(ld, node, parent);
	} else if (taken && ++ld->nelements > ELEMENTS_MAX) {
		ret = fail(ld, node, "more than %d elements: a group used too often?", ELEMENTS_MAX);
	} else if (taken) {
		e = rm_append(ld->map, (void **)&parent->children, &parent->nchildren, sizeof(*e));
		if (!e)
			ret = out_of_memory(ld, node);
		else if (register_width(node))
			ret = parse_register(ld, node, e);
		else
			ret = parse_group(ld, node, e);
	}
	ld->varset = saved;
	return ret;
}

/* Registers, arrays, stripes and group uses inside PARENT. */
static int parse_elements(struct loader *ld, const xmlNode *node, struct rm_elem *parent)
{
	const xmlNode *child;
	bool done;

	for_each_element(child, node) {
		if (is_doc(child) || (named(child, "pci") && named(node, "domain")))
			continue;
		if (is_element(child)) {
			if (parse_element(ld, child, parent))
				return -1;
			continue;
		}
		if (try_top(ld, child, &done))
			return -1;
		if (!done)
			return fail(ld, child, "<%s> inside <%s> is not supported", child->name,
				    node->name);
	}
	return 0;
}

/*
 * A PCI vendor or device ID: hex, as lspci -n prints it, with or without
 * 0x. Read as a number, "1234" would be decimal 0x04d2 and bind nothing.
 */
static int pci_id_attribute(struct loader *ld, const xmlNode *node, const char *name,
			    uint64_t *val)
{
	xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
	const char *id = (const char *)v, *digits;
	size_t n;
	int ret = 0;

	if (!v)
		return fail(ld, node, "<%s> without %s=", node->name, name);
	digits = id[0] == '0' && (id[1] == 'x' || id[1] == 'X') ? id + 2 : id;
	n = strspn(digits, "0123456789abcdefABCDEF");
	if (!n || n > 4 || digits[n])
		ret = fail(ld, node, "<%s> %s='%s' is not a PCI ID (up to 4 hex digits, as lspci -n prints it)",
			   node->name, name, id);
	else
		*val = strtoull(digits, NULL, 16);
	xmlFree(v);
	return ret;
}

/* mmioctl's binding: <pci vendor="1b36" device="0010" bar="0"/> (IDs in hex). */
static int parse_pci(struct loader *ld, const xmlNode *node, struct rm_domain *d)
{
	static const char *const allowed[] = { "vendor", "device", "bar", NULL };
	uint64_t vendor, device, bar;
	struct rm_pci *pci;

	if (check_attributes(ld, node, allowed) ||
	    pci_id_attribute(ld, node, "vendor", &vendor) ||
	    pci_id_attribute(ld, node, "device", &device) ||
	    number_attribute(ld, node, "bar", true, &bar))
		return -1;
	if (bar > 5)
		return fail(ld, node, "<pci>: bar is 0 to 5");
	pci = rm_append(ld->map, (void **)&d->pci, &d->npci, sizeof(*pci));
	if (!pci)
		return out_of_memory(ld, node);
	pci->vendor = vendor;
	pci->device = device;
	pci->bar = bar;
	return 0;
}

/* The domain NAME of this database, to merge into; NULL if none yet. */
static struct rm_domain *domain_to_merge(struct loader *ld, const char *name)
{
	size_t i;

	for (i = ld->first_domain; i < ld->map->ndomains; i++)
		if (!strcmp(ld->map->domains[i]->name, name))
			return ld->map->domains[i];
	return NULL;
}

static struct rm_domain *new_domain(struct loader *ld, const xmlNode *node, const char *name)
{
	struct rm_domain *d = rm_alloc(ld->map, sizeof(*d)), **slot;

	slot = rm_append(ld->map, (void **)&ld->map->domains, &ld->map->ndomains, sizeof(*slot));
	if (!d || !slot)
		return NULL;
	*slot = d;
	d->name = name;
	d->file = ld->file;
	d->line = xmlGetLineNo(node);
	d->first_wins = ld->first_wins;
	d->root.kind = RM_STRIPE;
	d->root.length = 1;
	d->root.file = ld->file;
	d->root.line = d->line;
	return d;
}

static int parse_domain_body(struct loader *ld, const xmlNode *node)
{
	struct rm_domain *d;
	const xmlNode *child;
	const char *name;
	uint64_t width = 8, size = 0;
	unsigned int i;
	int ret;

	if (text_attribute(ld, node, "name", true, &name) ||
	    number_attribute(ld, node, "width", false, &width) ||
	    number_attribute(ld, node, "size", false, &size))
		return -1;
	if (width != 8 && width != 16 && width != 32 && width != 64)
		return fail(ld, node, "domain %s: width=%llu: expected 8, 16, 32 or 64", name,
			    (unsigned long long)width);
	ld->unit = width / 8;
	if (size > UINT64_MAX / ld->unit)
		return fail(ld, node, "domain %s: size past 2^64 bytes", name);
	d = domain_to_merge(ld, name);
	for (i = 0; d && i < ld->nopen; i++)
		if (ld->open[i] == d)
			return fail(ld, node, "domain %s inside itself", name);
	if (ld->nopen == RM_DEPTH_MAX)
		return fail(ld, node, "domain %s: domains nest too deep", name);
	if (d && d->unit != ld->unit)
		return fail(ld, node, "domain %s: width=%llu, and %u at %s:%d", name,
			    (unsigned long long)width, d->unit * 8, d->file, d->line);
	if (!d && !(d = new_domain(ld, node, name)))
		return out_of_memory(ld, node);
	d->unit = ld->unit;
	if (size)
		d->size = size * ld->unit;
	for_each_element(child, node)
		if (named(child, "pci") && parse_pci(ld, child, d))
			return -1;
	ld->open[ld->nopen++] = d;
	ret = parse_elements(ld, node, &d->root);
	ld->nopen--;
	return ret;
}

static int parse_domain(struct loader *ld, const xmlNode *node)
{
	static const char *const allowed[] = { "name", "size", "width", "bare", "prefix",
					       "varset", "variants", NULL };
	unsigned int unit = ld->unit;
	uint64_t base = ld->base;
	const char *saved;
	bool taken;
	int ret = 0;

	if (check_attributes(ld, node, allowed) || enter_variants(ld, node, &saved, &taken))
		return -1;
	/* A domain inside a flattened stripe starts at its own 0. */
	ld->base = 0;
	if (taken)
		ret = parse_domain_body(ld, node);
	ld->varset = saved;
	ld->unit = unit;
	ld->base = base;
	return ret;
}

/*
 * The tags that may stand anywhere: a domain, parsed, or skipped: read
 * before (enums and bitsets, groups, spectypes and imports) or not needed
 * (copyrights). *DONE: NODE was one of them.
 */
static int try_top(struct loader *ld, const xmlNode *node, bool *done)
{
	*done = true;
	if (named(node, "domain"))
		return parse_domain(ld, node);
	if (named(node, "import"))
		return parse_import(ld, node);
	*done = named(node, "enum") || named(node, "bitset") || named(node, "group") ||
		named(node, "spectype") || named(node, "copyright") || named(node, "license") ||
		named(node, "author");
	return 0;
}

/*
 * Every enum and bitset below NODE, wherever it stands: as in envytools,
 * they are the database's, even inside an element that variants= leave
 * out. Their own prefix=, varset= and variants= apply.
 */
static int define_types(struct loader *ld, const xmlNode *node)
{
	const xmlNode *child;

	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if ((named(child, "enum") && parse_enum(ld, child)) ||
		    (named(child, "bitset") && parse_bitset(ld, child)) ||
		    define_types(ld, child))
			return -1;
	}
	return 0;
}

static int parse_database(struct loader *ld, const xmlNode *root)
{
	const xmlNode *child;
	bool done;

	if (!named(root, "database"))
		return fail(ld, root, "the top element is <%s>, not <database>", root->name);
	for_each_element(child, root) {
		if (is_doc(child))
			continue;
		if (try_top(ld, child, &done))
			return -1;
		if (!done)
			return fail(ld, child, "<%s> is not supported", child->name);
	}
	return 0;
}

/*
 * The first error libxml2 reports is the one to show: later ones follow
 * from it ("Premature end of data" after a tag left open).
 */
static xmlError first_error;
static bool have_error;

static void keep_first_error(void *ctx, xmlErrorPtr err)
{
	(void)ctx;
	if (have_error || !err || err->level < XML_ERR_ERROR)
		return;
	xmlResetError(&first_error);
	xmlCopyError(err, &first_error);
	have_error = true;
}

static void catch_errors(void)
{
	xmlResetError(&first_error);
	have_error = false;
	xmlSetStructuredErrorFunc(NULL, keep_first_error);
}

static void release_errors(void)
{
	xmlSetStructuredErrorFunc(NULL, NULL);
	xmlResetError(&first_error);
	have_error = false;
}

/* Why DOC, of file NAME, could not be read: into WHY. */
static void unreadable(const char *name, char *why)
{
	const xmlError *err = have_error ? &first_error : NULL;

	if (err && err->domain == XML_FROM_IO)
		snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(errno ? errno : EIO));
	else if (err && err->message)
		snprintf(why, RM_WHY_MAX, "%s:%d: malformed XML: %.*s", name, err->line,
			 (int)strcspn(err->message, "\n"), err->message);
	else
		snprintf(why, RM_WHY_MAX, "%s: malformed XML", name);
}

/* No network, no DTD, no entity substitution, no messages on stderr. */
#define XML_OPTIONS	(XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

/* PATH (NAME in messages), parsed, or NULL with why not. */
static xmlDocPtr read_doc(const char *path, const char *name, const char *buf, size_t len,
			  char *why)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDocPtr doc;

	if (!ctxt) {
		snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(ENOMEM));
		return NULL;
	}
	catch_errors();
	doc = buf ? xmlCtxtReadMemory(ctxt, buf, len, name, NULL, XML_OPTIONS) :
		    xmlCtxtReadFile(ctxt, path, NULL, XML_OPTIONS);
	if (!doc)
		unreadable(name, why);
	else if (!xmlDocGetRootElement(doc))
		snprintf(why, RM_WHY_MAX, "%s: no element", name);
	release_errors();
	xmlFreeParserCtxt(ctxt);
	if (doc && !xmlDocGetRootElement(doc)) {
		xmlFreeDoc(doc);
		return NULL;
	}
	return doc;
}

static int gather(struct loader *ld, const char *path, const char *buf, size_t len,
		  size_t *index);

/* Is DIR/FILE there? Into FOUND (PATH_MAX bytes). */
static bool find_in(const char *dir, const char *file, char *found)
{
	int n = snprintf(found, PATH_MAX, "%s/%s", dir, file);

	return n < PATH_MAX && !access(found, R_OK);
}

/*
 * The file an <import file=FILE> in FROM means: in a directory of
 * $RNN_PATH, else in FROM's directory or the nearest one above it.
 */
static bool find_import(const char *from, const char *file, char *found)
{
	const char *rnn_path = getenv("RNN_PATH");
	char dir[PATH_MAX], *list, *entry, *save, *slash;
	bool hit = false;

	if (file[0] == '/')
		return snprintf(found, PATH_MAX, "%s", file) < PATH_MAX && !access(found, R_OK);
	list = rnn_path ? strdup(rnn_path) : NULL;
	for (entry = list ? strtok_r(list, ":", &save) : NULL; entry && !hit;
	     entry = strtok_r(NULL, ":", &save))
		hit = find_in(entry, file, found);
	free(list);
	snprintf(dir, sizeof(dir), "%s", from);
	while (!hit && (slash = strrchr(dir, '/'))) {
		*slash = '\0';
		hit = find_in(*dir ? dir : "/", file, found);
	}
	/* A relative FROM: the current directory is above it too. */
	if (!hit && from[0] != '/' && find_in(".", file, found))
		return snprintf(found, PATH_MAX, "%s", file) < PATH_MAX;
	return hit;
}

/* <import file=> of NODE, read with what it imports. */
static int import(struct loader *ld, const xmlNode *node)
{
	struct import_of *imp;
	char found[PATH_MAX];
	size_t index;
	xmlChar *file;
	int ret;

	if (ld->in_memory)
		return fail(ld, node, "<import> in a document that is not a file");
	file = xmlGetProp(node, (const xmlChar *)"file");
	if (!file || !*file) {
		xmlFree(file);
		return fail(ld, node, "<import> without file=");
	}
	if (!find_import(ld->file, (const char *)file, found))
		ret = fail(ld, node, "<import file=\"%s\">: not found in $RNN_PATH, nor here or above",
			   file);
	else
		ret = gather(ld, found, NULL, 0, &index);
	xmlFree(file);
	if (ret)
		return ret;
	imp = rm_append(ld->map, (void **)&ld->imports, &ld->nimports, sizeof(*imp));
	if (!imp)
		return out_of_memory(ld, node);
	*imp = (struct import_of){ node, index };
	return 0;
}

/* The first prefix= or varset= naming a varset: the database's default. */
static int note_varset(struct loader *ld, const xmlNode *node)
{
	const char *const names[] = { "varset", "prefix" };
	size_t i;

	for (i = 0; i < 2 && !ld->default_varset; i++) {
		xmlChar *v = xmlGetProp(node, (const xmlChar *)names[i]);

		if (v && strcmp((const char *)v, "none")) {
			ld->default_varset = rm_strdup(ld->map, (const char *)v);
			if (!ld->default_varset) {
				xmlFree(v);
				return out_of_memory(ld, node);
			}
		}
		xmlFree(v);
	}
	return 0;
}

/* Imports, groups and spectypes anywhere below NODE, in document order. */
static int scan(struct loader *ld, const xmlNode *node)
{
	const xmlNode *child;

	for_each_element(child, node) {
		const char *file = ld->file, *name;
		int ret = 0;

		if (is_doc(child))
			continue;
		if (!ld->default_varset)
			ret = note_varset(ld, child);
		if (ret)
			return ret;
		if (named(child, "import")) {
			ret = import(ld, child);
			ld->file = file;
		} else if (named(child, "group") || named(child, "spectype")) {
			ret = text_attribute(ld, child, "name", true, &name);
			if (!ret && named(child, "group")) {
				struct group *g = rm_append(ld->map, (void **)&ld->groups,
							    &ld->ngroups, sizeof(*g));

				if (!g)
					return out_of_memory(ld, child);
				*g = (struct group){ name, ld->file, child };
			} else if (!ret) {
				const char **slot = rm_append(ld->map, (void **)&ld->spectypes,
							      &ld->nspectypes, sizeof(*slot));

				if (!slot)
					return out_of_memory(ld, child);
				*slot = name;
			}
		}
		if (ret || scan(ld, child))
			return -1;
	}
	return 0;
}

/*
 * The file PATH (or BUF, LEN bytes, named PATH) and what it imports, once
 * each; *INDEX: its source.
 */
static int gather(struct loader *ld, const char *path, const char *buf, size_t len,
		  size_t *index)
{
	char real[PATH_MAX] = "";
	struct source *src;
	xmlDocPtr doc;
	size_t i;

	if (!buf && !realpath(path, real)) {
		snprintf(ld->why, RM_WHY_MAX, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (i = 0; !buf && i < ld->nsources; i++)
		if (!strcmp(ld->sources[i].real, real)) {
			*index = i;
			return 0;
		}
	doc = read_doc(path, path, buf, len, ld->why);
	if (!doc)
		return -1;
	src = rm_append(ld->map, (void **)&ld->sources, &ld->nsources, sizeof(*src));
	if (src) {
		src->doc = doc;
		src->path = rm_strdup(ld->map, path);
		src->real = rm_strdup(ld->map, real);
	}
	if (!src || !src->path || !src->real) {
		if (!src)
			xmlFreeDoc(doc);
		snprintf(ld->why, RM_WHY_MAX, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	ld->file = src->path;
	*index = ld->nsources - 1;
	return scan(ld, xmlDocGetRootElement(doc));
}

/* The elements of SRC, once, with nothing of the importing file's around them. */
static int parse_source(struct loader *ld, struct source *src)
{
	const char *file = ld->file, *varset = ld->varset;
	unsigned int unit = ld->unit, nopen = ld->nopen;
	uint64_t base = ld->base;
	int ret;

	src->parsed = true;
	ld->file = src->path;
	ld->varset = NULL;
	ld->unit = 1;
	ld->base = 0;
	ret = parse_database(ld, xmlDocGetRootElement(src->doc));
	ld->file = file;
	ld->varset = varset;
	ld->unit = unit;
	ld->base = base;
	ld->nopen = nopen;
	return ret;
}

/* <import> NODE, met while parsing: the file gather() read, unless it was parsed before. */
static int parse_import(struct loader *ld, const xmlNode *node)
{
	size_t i;

	for (i = 0; i < ld->nimports; i++)
		if (ld->imports[i].node == node) {
			struct source *src = &ld->sources[ld->imports[i].source];

			return src->parsed ? 0 : parse_source(ld, src);
		}
	return 0;
}

/* --variant NAME is a value of none of the varsets used: which are they? */
static int unknown_variant(struct loader *ld)
{
	int n = snprintf(ld->why, RM_WHY_MAX, "%s: --variant %s is not a value of %s",
			 ld->sources[0].path, ld->variant,
			 ld->nvarsets > 1 ? "its varsets" : "its varset");
	size_t i, j;

	for (i = 0; i < ld->nvarsets && n < RM_WHY_MAX; i++) {
		const struct varset *vs = &ld->varsets[i];

		n += snprintf(ld->why + n, RM_WHY_MAX - n, "%s %s (", i ? ";" : "", vs->name);
		for (j = 0; j < vs->nvalues && j < 8 && n < RM_WHY_MAX; j++)
			n += snprintf(ld->why + n, RM_WHY_MAX - n, "%s%s", j ? " " : "",
				      vs->values[j]);
		if (n < RM_WHY_MAX)
			n += snprintf(ld->why + n, RM_WHY_MAX - n, "%s)",
				      vs->nvalues > 8 ? " ..." : "");
	}
	return -1;
}

/* A database: the file PATH (or BUF), its imports, then all of them parsed. */
static int load_database(struct regmap *map, const char *path, const char *buf, size_t len,
			 char *why)
{
	struct loader ld = { .map = map, .unit = 1, .why = why, .in_memory = buf != NULL,
			     .variant = map->variant,
			     .first_domain = map->ndomains, .first_enum = map->nenums,
			     .first_bitset = map->nbitsets };
	size_t i;
	int ret;

	ret = gather(&ld, path, buf, len, &i);
	ld.first_wins = ld.nsources > 1;
	for (i = 0; !ret && i < ld.nsources; i++) {
		ld.file = ld.sources[i].path;
		ld.varset = NULL;
		ret = define_types(&ld, xmlDocGetRootElement(ld.sources[i].doc));
	}
	/* Each file where it is imported, as envytools reads them: first_wins weighs that order. */
	for (i = 0; !ret && i < ld.nsources; i++)
		if (!ld.sources[i].parsed)
			ret = parse_source(&ld, &ld.sources[i]);
	if (!ret && ld.nvarsets && !ld.variant_found)
		ret = unknown_variant(&ld);
	for (i = 0; i < ld.nsources; i++)
		xmlFreeDoc(ld.sources[i].doc);
	return ret;
}

int rnndb_load_memory(struct regmap *map, const char *name, const char *buf, size_t len,
		      char *why)
{
	if (len > INT_MAX) {
		snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(EFBIG));
		return -1;
	}
	return load_database(map, name, buf ? buf : "", len, why);
}

static int xml_file(const struct dirent *entry)
{
	size_t n = strlen(entry->d_name);

	return n > 4 && !strcmp(entry->d_name + n - 4, ".xml") && entry->d_name[0] != '.';
}

int rnndb_each_file(const char *dir, int (*fn)(const char *file, void *ctx), void *ctx,
		    int *nfiles)
{
	struct dirent **entries;
	int i, ret = 0;

	*nfiles = scandir(dir, &entries, xml_file, alphasort);
	for (i = 0; i < *nfiles; i++) {
		char file[4096];

		snprintf(file, sizeof(file), "%s/%s", dir, entries[i]->d_name);
		if (!ret)
			ret = fn(file, ctx);
		free(entries[i]);
	}
	if (*nfiles >= 0)
		free(entries);
	return ret;
}

struct load_ctx {
	struct regmap *map;
	char *why;
};

static int load_one(const char *file, void *ctx)
{
	struct load_ctx *ld = ctx;

	return load_database(ld->map, file, NULL, 0, ld->why);
}

int rnndb_load(struct regmap *map, const char *path, char *why)
{
	struct load_ctx ld = { map, why };
	struct stat st;
	int n, ret;

	if (stat(path, &st)) {
		snprintf(why, RM_WHY_MAX, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return load_database(map, path, NULL, 0, why);
	ret = rnndb_each_file(path, load_one, &ld, &n);
	if (n < 0) {
		snprintf(why, RM_WHY_MAX, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!n && !ret) {
		snprintf(why, RM_WHY_MAX, "%s: no *.xml file in this directory", path);
		ret = -1;
	}
	return ret;
}
