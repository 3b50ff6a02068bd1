// SPDX-License-Identifier: GPL-2.0
/*
 * rnndb XML into a register map (regmap.h). Built from envytools' rnn/rnn.c
 * reading of the format, restricted to what decoding an MMIO trace needs:
 *
 *   <database>    <domain>, <enum>, <bitset>; <copyright>, <doc>, <brief>
 *                 and <author> are skipped
 *   <domain>      name, size, width (8: byte offsets, 32: dword offsets),
 *                 bare and prefix (ignored); registers, <array>, <stripe>
 *                 and mmioctl's <pci vendor= device= bar=/> binding
 *   <reg8> .. <reg64>  name, offset, length, stride, access, type, shr and
 *                 mmioctl's volatile="yes"; <bitfield> or <value> children
 *   <array>, <stripe>  name, offset, length, stride, prefix (ignored)
 *   <bitfield>    name, pos or low and high, type, shr; <value> children
 *   <enum>        name, bare, inline, prefix; <value name= value=>
 *   <bitset>      name, bare, inline, prefix; <bitfield> children
 *   type=         hex, uint, int, boolean, or an <enum> or <bitset> name
 *
 * The document is read whole (maps are small) without the network, DTDs or
 * entity substitution.
 */
#include "readers/rnndb.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "common/parse.h"

struct loader {
	struct regmap *map;
	const char *file;
	unsigned int unit;	/* bytes per offset unit of the current domain */
	char *why;
};

static int fail(struct loader *ld, const xmlNode *node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct loader *ld, const xmlNode *node, const char *fmt, ...)
{
	int n = snprintf(ld->why, RM_WHY_MAX, "%s:%ld: ", ld->file, xmlGetLineNo(node));
	va_list args;

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
	if (!name || !strcmp(name, "hex"))
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

static int parse_value(struct loader *ld, const xmlNode *node, struct rm_enum *e)
{
	static const char *const allowed[] = { "name", "value", NULL };
	struct rm_value *v;
	const xmlNode *child;

	if (check_attributes(ld, node, allowed))
		return -1;
	v = rm_append(ld->map, (void **)&e->values, &e->nvalues, sizeof(*v));
	if (!v)
		return out_of_memory(ld, node);
	if (text_attribute(ld, node, "name", true, &v->name) ||
	    number_attribute(ld, node, "value", true, &v->value))
		return -1;
	for_each_element(child, node)
		if (!is_doc(child))
			return fail(ld, child, "<%s> inside <value>", child->name);
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

static int parse_bitfield(struct loader *ld, const xmlNode *node, struct rm_bitset *set)
{
	static const char *const allowed[] = { "name", "pos", "low", "high", "type", "shr", NULL };
	uint64_t low = UINT64_MAX, high = UINT64_MAX, pos = UINT64_MAX;
	const xmlNode *child;
	struct rm_field *f;

	if (check_attributes(ld, node, allowed))
		return -1;
	f = rm_append(ld->map, (void **)&set->fields, &set->nfields, sizeof(*f));
	if (!f)
		return out_of_memory(ld, node);
	f->line = xmlGetLineNo(node);
	if (text_attribute(ld, node, "name", true, &f->name) ||
	    number_attribute(ld, node, "pos", false, &pos) ||
	    number_attribute(ld, node, "low", false, &low) ||
	    number_attribute(ld, node, "high", false, &high) ||
	    type_attributes(ld, node, &f->type))
		return -1;
	if (pos != UINT64_MAX) {
		if (low != UINT64_MAX || high != UINT64_MAX)
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
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (!named(child, "value"))
			return fail(ld, child, "<%s> inside <bitfield>", child->name);
		if (inline_value(ld, child, &f->type))
			return -1;
	}
	return 0;
}

/* <enum> or <bitset> at the top: their own attributes. */
static const char *const top_type_attributes[] = { "name", "bare", "inline", "prefix", NULL };

static int parse_enum(struct loader *ld, const xmlNode *node)
{
	const xmlNode *child;
	struct rm_enum *e, **slot;

	if (check_attributes(ld, node, top_type_attributes))
		return -1;
	e = new_enum(ld, node);
	slot = rm_append(ld->map, (void **)&ld->map->enums, &ld->map->nenums, sizeof(*slot));
	if (!e || !slot)
		return out_of_memory(ld, node);
	*slot = e;
	if (text_attribute(ld, node, "name", true, &e->name))
		return -1;
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (!named(child, "value"))
			return fail(ld, child, "<%s> inside <enum>", child->name);
		if (parse_value(ld, child, e))
			return -1;
	}
	return 0;
}

static struct rm_bitset *new_bitset(struct loader *ld, const xmlNode *node)
{
	struct rm_bitset *set = rm_alloc(ld->map, sizeof(*set));

	if (set) {
		set->file = ld->file;
		set->line = xmlGetLineNo(node);
	}
	return set;
}

static int parse_bitset(struct loader *ld, const xmlNode *node)
{
	const xmlNode *child;
	struct rm_bitset *set, **slot;

	if (check_attributes(ld, node, top_type_attributes))
		return -1;
	set = new_bitset(ld, node);
	slot = rm_append(ld->map, (void **)&ld->map->bitsets, &ld->map->nbitsets, sizeof(*slot));
	if (!set || !slot)
		return out_of_memory(ld, node);
	*slot = set;
	if (text_attribute(ld, node, "name", true, &set->name))
		return -1;
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (!named(child, "bitfield"))
			return fail(ld, child, "<%s> inside <bitset>", child->name);
		if (parse_bitfield(ld, child, set))
			return -1;
	}
	return 0;
}

/* offset=, length=, stride= in the domain's unit, into bytes. */
static int placement(struct loader *ld, const xmlNode *node, struct rm_elem *e, bool need_offset)
{
	uint64_t limit = UINT64_MAX / ld->unit;

	e->length = 1;
	if (number_attribute(ld, node, "offset", need_offset, &e->offset) ||
	    number_attribute(ld, node, "length", false, &e->length) ||
	    number_attribute(ld, node, "stride", false, &e->stride))
		return -1;
	if (!e->length)
		return fail(ld, node, "<%s> with length 0", node->name);
	if (e->offset > limit || e->stride > limit)
		return fail(ld, node, "<%s>: offset or stride past 2^64 bytes", node->name);
	e->offset *= ld->unit;
	e->stride *= ld->unit;
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

static int parse_register(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	static const char *const allowed[] = { "name", "offset", "length", "stride", "access",
					       "type", "shr", "volatile", NULL };
	const xmlNode *child;
	const char *access;
	struct rm_bitset *set = NULL;

	if (check_attributes(ld, node, allowed))
		return -1;
	e->kind = RM_REG;
	e->width = register_width(node);
	if (text_attribute(ld, node, "name", true, &e->name) || placement(ld, node, e, true) ||
	    text_attribute(ld, node, "access", false, &access) ||
	    bool_attribute(ld, node, "volatile", &e->is_volatile) ||
	    type_attributes(ld, node, &e->type))
		return -1;
	if (access && strcmp(access, "r") && strcmp(access, "w") && strcmp(access, "rw"))
		return fail(ld, node, "register %s: access='%s': expected r, w or rw", e->name,
			    access);
	if (e->length > 1 && e->stride && e->stride < e->width)
		return fail(ld, node, "register %s: stride smaller than the register", e->name);
	for_each_element(child, node) {
		if (is_doc(child))
			continue;
		if (named(child, "value")) {
			if (set)
				return fail(ld, child, "register %s: <value> and <bitfield> mixed",
					    e->name);
			if (inline_value(ld, child, &e->type))
				return -1;
			continue;
		}
		if (!named(child, "bitfield"))
			return fail(ld, child, "<%s> inside <%s>", child->name, node->name);
		if (!set) {
			if (e->type.ref || e->type.kind != RM_HEX)
				return fail(ld, child,
					    "register %s: <bitfield> in a register that has a type=",
					    e->name);
			set = new_bitset(ld, child);
			if (!set)
				return out_of_memory(ld, child);
			e->type.kind = RM_BITSET;
			e->type.bitset = set;
		}
		if (parse_bitfield(ld, child, set))
			return -1;
	}
	return 0;
}

static int parse_elements(struct loader *ld, const xmlNode *node, struct rm_elem *parent);

static int parse_group(struct loader *ld, const xmlNode *node, struct rm_elem *e)
{
	static const char *const allowed[] = { "name", "offset", "length", "stride", "prefix",
					       NULL };
	bool array = named(node, "array");

	if (check_attributes(ld, node, allowed))
		return -1;
	e->kind = array ? RM_ARRAY : RM_STRIPE;
	if (text_attribute(ld, node, "name", array, &e->name) || placement(ld, node, e, array))
		return -1;
	if (array && !e->stride)
		return fail(ld, node, "array %s without stride=", e->name);
	if (e->length > 1 && !e->stride)
		return fail(ld, node, "stripe with length= but no stride=");
	return parse_elements(ld, node, e);
}

/* Registers, arrays and stripes inside PARENT. */
static int parse_elements(struct loader *ld, const xmlNode *node, struct rm_elem *parent)
{
	const xmlNode *child;

	for_each_element(child, node) {
		struct rm_elem *e;

		if (is_doc(child) || (named(child, "pci") && named(node, "domain")))
			continue;
		if (!register_width(child) && !named(child, "array") && !named(child, "stripe"))
			return fail(ld, child, "<%s> inside <%s> is not supported", child->name,
				    node->name);
		e = rm_append(ld->map, (void **)&parent->children, &parent->nchildren, sizeof(*e));
		if (!e)
			return out_of_memory(ld, child);
		if (register_width(child) ? parse_register(ld, child, e) : parse_group(ld, child, e))
			return -1;
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

static int parse_domain(struct loader *ld, const xmlNode *node)
{
	static const char *const allowed[] = { "name", "size", "width", "bare", "prefix", NULL };
	struct rm_domain *d, **slot;
	const xmlNode *child;
	uint64_t width = 8;

	if (check_attributes(ld, node, allowed))
		return -1;
	d = rm_alloc(ld->map, sizeof(*d));
	slot = rm_append(ld->map, (void **)&ld->map->domains, &ld->map->ndomains, sizeof(*slot));
	if (!d || !slot)
		return out_of_memory(ld, node);
	*slot = d;
	d->file = ld->file;
	d->line = xmlGetLineNo(node);
	d->root.kind = RM_STRIPE;
	d->root.length = 1;
	d->root.file = ld->file;
	d->root.line = d->line;
	if (text_attribute(ld, node, "name", true, &d->name) ||
	    number_attribute(ld, node, "width", false, &width) ||
	    number_attribute(ld, node, "size", false, &d->size))
		return -1;
	d->root.name = NULL;
	if (width != 8 && width != 16 && width != 32 && width != 64)
		return fail(ld, node, "domain %s: width=%llu: expected 8, 16, 32 or 64", d->name,
			    (unsigned long long)width);
	ld->unit = width / 8;
	if (d->size > UINT64_MAX / ld->unit)
		return fail(ld, node, "domain %s: size past 2^64 bytes", d->name);
	d->size *= ld->unit;
	for_each_element(child, node)
		if (named(child, "pci") && parse_pci(ld, child, d))
			return -1;
	return parse_elements(ld, node, &d->root);
}

static int parse_database(struct loader *ld, const xmlNode *root)
{
	const xmlNode *child;

	if (!named(root, "database"))
		return fail(ld, root, "the top element is <%s>, not <database>", root->name);
	for_each_element(child, root) {
		int ret = 0;

		if (is_doc(child) || named(child, "copyright") || named(child, "author"))
			continue;
		if (named(child, "domain"))
			ret = parse_domain(ld, child);
		else if (named(child, "enum"))
			ret = parse_enum(ld, child);
		else if (named(child, "bitset"))
			ret = parse_bitset(ld, child);
		else if (named(child, "import"))
			ret = fail(ld, child, "<import> is not supported: give each file with --map");
		else
			ret = fail(ld, child, "<%s> is not supported", child->name);
		if (ret)
			return ret;
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

/* The document, parsed (DOC) or not (NULL): into MAP, or why not. */
static int load_doc(struct regmap *map, const char *name, xmlDocPtr doc, char *why)
{
	struct loader ld = { .map = map, .unit = 1, .why = why };
	int ret;

	if (!doc) {
		const xmlError *err = have_error ? &first_error : NULL;

		if (err && err->domain == XML_FROM_IO)
			snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(errno ? errno : EIO));
		else if (err && err->message)
			snprintf(why, RM_WHY_MAX, "%s:%d: malformed XML: %.*s", name, err->line,
				 (int)strcspn(err->message, "\n"), err->message);
		else
			snprintf(why, RM_WHY_MAX, "%s: malformed XML", name);
		return -1;
	}
	ld.file = rm_strdup(map, name);
	if (!ld.file) {
		snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(ENOMEM));
		return -1;
	}
	if (!xmlDocGetRootElement(doc)) {
		snprintf(why, RM_WHY_MAX, "%s: no element", name);
		return -1;
	}
	ret = parse_database(&ld, xmlDocGetRootElement(doc));
	return ret;
}

/* No network, no DTD, no entity substitution, no messages on stderr. */
#define XML_OPTIONS	(XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)

static int load_file(struct regmap *map, const char *path, char *why)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDocPtr doc;
	int ret;

	if (!ctxt) {
		snprintf(why, RM_WHY_MAX, "%s: %s", path, strerror(ENOMEM));
		return -1;
	}
	catch_errors();
	doc = xmlCtxtReadFile(ctxt, path, NULL, XML_OPTIONS);
	ret = load_doc(map, path, doc, why);
	release_errors();
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return ret;
}

int rnndb_load_memory(struct regmap *map, const char *name, const char *buf, size_t len,
		      char *why)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	xmlDocPtr doc;
	int ret;

	if (!ctxt || len > INT_MAX) {
		xmlFreeParserCtxt(ctxt);
		snprintf(why, RM_WHY_MAX, "%s: %s", name, strerror(ctxt ? EFBIG : ENOMEM));
		return -1;
	}
	catch_errors();
	doc = xmlCtxtReadMemory(ctxt, buf, len, name, NULL, XML_OPTIONS);
	ret = load_doc(map, name, doc, why);
	release_errors();
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return ret;
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

	return load_file(ld->map, file, ld->why);
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
		return load_file(map, path, why);
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
