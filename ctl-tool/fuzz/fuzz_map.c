// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the register map reader (make stress): the input is
 * an rnndb XML document. A map that loads and passes regmap_finish() is
 * then looked up at offsets around each of its registers, and values are
 * decoded there, as decode does for every access; each result is checked
 * against what the code promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "readers/regmap.h"
#include "readers/rnndb.h"

static void probe(const struct rm_domain *d, uint64_t offset, uint64_t value)
{
	static const unsigned int widths[] = { 1, 2, 4, 8 };
	char name[256], text[2048];
	struct rm_hit hit;
	size_t i;

	if (!rm_lookup(d, offset, &hit))
		return;
	if (!hit.reg || hit.reg->kind != RM_REG || hit.byte >= hit.reg->width ||
	    hit.depth == 0 || hit.depth > RM_DEPTH_MAX)
		abort();
	if (rm_name(&hit, name, sizeof(name)) >= sizeof(name) || strlen(name) >= sizeof(name))
		abort();
	for (i = 0; i < 4; i++) {
		uint64_t v = widths[i] < 8 ? value & ((UINT64_C(1) << (widths[i] * 8)) - 1) : value;

		if (rm_decode(&hit, widths[i], v, text, sizeof(text)) >= sizeof(text) ||
		    strlen(text) >= sizeof(text))
			abort();
		rm_decode_changes(&hit, widths[i], ~v, v, text, sizeof(text));
	}
}

static void walk(const struct rm_domain *d, const struct rm_elem *e, uint64_t base, int depth)
{
	size_t i;

	if (depth > RM_DEPTH_MAX)
		abort();
	for (i = 0; i < e->nchildren && i < 64; i++) {
		const struct rm_elem *c = &e->children[i];
		uint64_t at = base + c->offset;

		probe(d, at, 0x5a5aa5a5deadbeef);
		probe(d, at + 1, UINT64_MAX);
		probe(d, at + c->extent - 1, 0);
		probe(d, at + c->extent, 1);
		if (c->kind != RM_REG)
			walk(d, c, at, depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct regmap *map = regmap_new();
	char why[RM_WHY_MAX];
	size_t i;

	if (!map)
		return 0;
	why[0] = '\0';
	/* The corpus's variants.xml has V1 to V3: variants= are weighed. */
	map->variant = "V2";
	if (!rnndb_load_memory(map, "fuzz.xml", (const char *)data, size, why) &&
	    !regmap_finish(map, why)) {
		for (i = 0; i < map->ndomains; i++) {
			probe(map->domains[i], 0, 0);
			probe(map->domains[i], UINT64_MAX, UINT64_MAX);
			walk(map->domains[i], &map->domains[i]->root, 0, 0);
		}
	} else if (!why[0] || strlen(why) >= RM_WHY_MAX) {
		abort();	/* a refusal always says why */
	}
	regmap_free(map);
	return 0;
}
