// SPDX-License-Identifier: GPL-2.0
/*
 * Register maps: the model rnndb.c fills, checked once (regmap_finish),
 * then looked up per access and used to name registers and decode values.
 */
#include "readers/regmap.h"
#include "common/strbuf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Everything of a map lives in a chain of blocks, freed at once. */
struct rm_arena {
	struct rm_arena *next;
	size_t used, size;
	_Alignas(16) char data[];
};

#define ARENA_BLOCK	(64 * 1024)

struct regmap *regmap_new(void)
{
	return calloc(1, sizeof(struct regmap));
}

void regmap_free(struct regmap *map)
{
	struct rm_arena *a, *next;

	if (!map)
		return;
	for (a = map->arena; a; a = next) {
		next = a->next;
		free(a);
	}
	free(map);
}

void *rm_alloc(struct regmap *map, size_t size)
{
	struct rm_arena *a = map->arena;
	void *p;

	size = (size + 15) & ~(size_t)15;
	if (!a || a->size - a->used < size) {
		size_t block = size > ARENA_BLOCK ? size : ARENA_BLOCK;

		a = malloc(sizeof(*a) + block);
		if (!a)
			return NULL;
		a->size = block;
		a->used = 0;
		a->next = map->arena;
		map->arena = a;
	}
	p = a->data + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

const char *rm_strdup(struct regmap *map, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = rm_alloc(map, n);

	if (p)
		memcpy(p, s, n);
	return p;
}

void *rm_append(struct regmap *map, void **array, size_t *n, size_t elem_size)
{
	size_t count = *n;
	char *p = *array;

	/* Capacity: 4, then doubling; a full array is copied, the old one left in the arena. */
	if (count == 0 || (count >= 4 && !(count & (count - 1)))) {
		size_t cap = count ? count * 2 : 4;
		char *bigger = rm_alloc(map, cap * elem_size);

		if (!bigger)
			return NULL;
		if (count)
			memcpy(bigger, p, count * elem_size);
		p = bigger;
		*array = p;
	}
	(*n)++;
	memset(p + count * elem_size, 0, elem_size);
	return p + count * elem_size;
}

/* ---- checking a loaded map ---- */

static int fail(char *why, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *why, const char *file, int line, const char *fmt, ...)
{
	int n = snprintf(why, RM_WHY_MAX, "%s:%d: ", file, line);
	va_list args;

	/* A path longer than the message: the path, cut, is all there is. */
	if (n < 0 || n >= RM_WHY_MAX)
		return -1;
	va_start(args, fmt);
	vsnprintf(why + n, RM_WHY_MAX - n, fmt, args);
	va_end(args);
	return -1;
}

static const char *elem_name(const struct rm_elem *e)
{
	return e->name ? e->name : "(stripe)";
}

static int resolve(struct regmap *map, struct rm_type *type, const char *file, bool in_field,
		   char *why)
{
	size_t i;

	if (!type->ref)
		return 0;
	for (i = 0; i < map->nenums; i++)
		if (!strcmp(map->enums[i]->name, type->ref)) {
			type->kind = RM_ENUM;
			type->enumeration = map->enums[i];
			return 0;
		}
	for (i = 0; i < map->nbitsets; i++)
		if (!strcmp(map->bitsets[i]->name, type->ref)) {
			/* As envytools shows it, nested; as hex here. */
			if (in_field && map->bitsets[i]->first_wins) {
				type->kind = RM_HEX;
				return 0;
			}
			if (in_field)
				return fail(why, file, type->line,
					    "bitset '%s' as a bitfield's type is not supported",
					    type->ref);
			type->kind = RM_BITSET;
			type->bitset = map->bitsets[i];
			return 0;
		}
	return fail(why, file, type->line, "unknown type '%s'", type->ref);
}

/* Remove element I of an array of *N elements of SIZE bytes. */
static void drop(void *array, size_t *n, size_t size, size_t i)
{
	char *base = array;

	memmove(base + i * size, base + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

static int by_low(const void *a, const void *b)
{
	const struct rm_field *x = a, *y = b;

	return x->low < y->low ? -1 : x->low > y->low;
}

static uint64_t field_mask(const struct rm_field *f)
{
	return (f->high == 63 ? UINT64_MAX : (UINT64_C(1) << (f->high + 1)) - 1) &
	       ~((UINT64_C(1) << f->low) - 1);
}

/* first_wins: in the order they were defined, the fields that overlap none kept before. */
static void keep_first_fields(struct rm_bitset *set)
{
	uint64_t kept = 0;
	size_t i = 0;

	while (i < set->nfields) {
		uint64_t mask = field_mask(&set->fields[i]);

		if (kept & mask) {
			drop(set->fields, &set->nfields, sizeof(*set->fields), i);
			continue;
		}
		kept |= mask;
		i++;
	}
}

/* Fields sorted, each type resolved, no two overlapping. */
static int finish_bitset(struct regmap *map, struct rm_bitset *set, char *why)
{
	const char *file = set->file;
	int line = set->line;
	size_t i;

	if (set->finished)
		return 0;
	set->finished = true;
	if (set->first_wins)
		keep_first_fields(set);
	if (set->nfields > 1)
		qsort(set->fields, set->nfields, sizeof(*set->fields), by_low);
	for (i = 0; i < set->nfields; i++) {
		if (resolve(map, &set->fields[i].type, file, true, why))
			return -1;
		if (i && set->fields[i].low <= set->fields[i - 1].high)
			return fail(why, file, set->fields[i].line ? set->fields[i].line : line,
				    "bitfield %s (bits %u-%u) overlaps %s (bits %u-%u)",
				    set->fields[i].name, set->fields[i].low, set->fields[i].high,
				    set->fields[i - 1].name, set->fields[i - 1].low,
				    set->fields[i - 1].high);
	}
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct rm_elem *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorted children, their extents, no overlap; DEPTH levels above. */
static int finish_elem(struct regmap *map, struct rm_elem *e, unsigned int depth, bool first_wins,
		       char *why)
{
	uint64_t end = 0;
	size_t i;

	if (depth >= RM_DEPTH_MAX)
		return fail(why, e->file, e->line, "%s nests more than %d levels deep",
			    elem_name(e), RM_DEPTH_MAX);
	if (e->kind == RM_REG) {
		if (e->length > 1 && !e->stride)
			e->stride = e->width;
		if (e->length > 1 && e->stride < e->width)
			return fail(why, e->file, e->line, "register %s: stride 0x%" PRIx64
				    " is smaller than its width", e->name, e->stride);
		if (resolve(map, &e->type, e->file, false, why))
			return -1;
		if (e->type.kind == RM_BITSET) {
			struct rm_bitset *set = (struct rm_bitset *)e->type.bitset;

			if (finish_bitset(map, set, why))
				return -1;

			for (i = 0; i < set->nfields; i++)
				if (set->fields[i].high >= e->width * 8 && !first_wins)
					return fail(why, e->file, e->line,
						    "register %s: bitfield %s (bits %u-%u) is wider than its %u bits",
						    e->name, set->fields[i].name, set->fields[i].low,
						    set->fields[i].high, e->width * 8);
		}
		if (e->length > 1 && e->length - 1 > (UINT64_MAX - e->width) / e->stride)
			return fail(why, e->file, e->line, "register %s runs past 2^64", e->name);
		e->extent = e->length > 1 ? e->stride * (e->length - 1) + e->width : e->width;
		return 0;
	}
	for (i = 0; i < e->nchildren; i++)
		e->children[i].seq = i;
	if (first_wins && e->nchildren) {
		e->reach = rm_alloc(map, e->nchildren * sizeof(*e->reach));
		if (!e->reach)
			return fail(why, e->file, e->line, "%s", strerror(ENOMEM));
	}
	if (e->nchildren > 1)
		qsort(e->children, e->nchildren, sizeof(*e->children), by_offset);
	for (i = 0; i < e->nchildren; i++) {
		struct rm_elem *c = &e->children[i];

		if (finish_elem(map, c, depth + 1, first_wins, why))
			return -1;
		if (i && c->offset < end && !first_wins)
			return fail(why, c->file, c->line,
				    "%s at 0x%" PRIx64 " overlaps %s (line %d, 0x%" PRIx64 "-0x%" PRIx64 ")",
				    elem_name(c), c->offset, elem_name(&e->children[i - 1]),
				    e->children[i - 1].line, e->children[i - 1].offset,
				    e->children[i - 1].offset + e->children[i - 1].extent - 1);
		if (c->offset + c->extent < c->offset)
			return fail(why, c->file, c->line, "%s runs past 2^64", elem_name(c));
		if (c->offset + c->extent > end)
			end = c->offset + c->extent;
		if (first_wins)
			e->reach[i] = end;
	}
	if (e->stride && end > e->stride && !first_wins)
		return fail(why, e->file, e->line, "%s: its contents (0x%" PRIx64
			    " bytes) do not fit its stride 0x%" PRIx64, elem_name(e), end, e->stride);
	e->span = end;
	if (e->stride) {
		if (e->length > UINT64_MAX / e->stride)
			return fail(why, e->file, e->line, "%s runs past 2^64", elem_name(e));
		e->extent = e->stride * e->length;
		/* Repetitions whose contents overlap the next (envytools has them). */
		if (first_wins && end > e->stride && end - e->stride > UINT64_MAX - e->extent)
			return fail(why, e->file, e->line, "%s runs past 2^64", elem_name(e));
		if (first_wins && end > e->stride)
			e->extent += end - e->stride;
	} else {
		e->extent = end;
	}
	return 0;
}

static bool same_place(const char *file, int line, const char *other_file, int other_line)
{
	return line == other_line && !strcmp(file, other_file);
}

int regmap_finish(struct regmap *map, char *why)
{
	size_t i, j;

	/*
	 * Two databases that import one file have its definitions twice:
	 * the same file and line is no second definition.
	 */
	for (i = 0; i < map->nbitsets; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(map->bitsets[i]->name, map->bitsets[j]->name) &&
			    !same_place(map->bitsets[i]->file, map->bitsets[i]->line,
					map->bitsets[j]->file, map->bitsets[j]->line))
				return fail(why, map->bitsets[i]->file, map->bitsets[i]->line,
					    "bitset %s is defined twice (%s:%d)",
					    map->bitsets[i]->name, map->bitsets[j]->file,
					    map->bitsets[j]->line);
		if (finish_bitset(map, map->bitsets[i], why))
			return -1;
	}
	for (i = 0; i < map->nenums; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(map->enums[i]->name, map->enums[j]->name) &&
			    !same_place(map->enums[i]->file, map->enums[i]->line,
					map->enums[j]->file, map->enums[j]->line))
				return fail(why, map->enums[i]->file, map->enums[i]->line,
					    "enum %s is defined twice (%s:%d)", map->enums[i]->name,
					    map->enums[j]->file, map->enums[j]->line);
	for (i = 0; i < map->ndomains; i++) {
		struct rm_domain *d = map->domains[i];

		for (j = 0; j < i; j++)
			if (!strcmp(d->name, map->domains[j]->name) &&
			    !same_place(d->file, d->line, map->domains[j]->file, map->domains[j]->line))
				return fail(why, d->file, d->line, "domain %s is defined twice (%s:%d)",
					    d->name, map->domains[j]->file, map->domains[j]->line);
		if (finish_elem(map, &d->root, 0, d->first_wins, why))
			return -1;
		if (d->size && d->root.extent > d->size && !d->first_wins)
			return fail(why, d->file, d->line,
				    "domain %s: registers reach 0x%" PRIx64 ", past its size 0x%" PRIx64,
				    d->name, d->root.extent, d->size);
	}
	return 0;
}

uint64_t rm_domain_extent(const struct rm_domain *d)
{
	return d->size ? d->size : d->root.extent;
}

/* ---- lookup ---- */

/* The child with the greatest offset at or below OFF, or NULL. */
static const struct rm_elem *find_child(const struct rm_elem *parent, uint64_t off)
{
	size_t lo = 0, hi = parent->nchildren;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (parent->children[mid].offset <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &parent->children[lo - 1] : NULL;
}

/*
 * How many elements one first_wins lookup may try: a map whose repetitions
 * overlap by the thousand answers "no register" rather than slowly.
 */
#define RM_TRIES_MAX	4096

/* An element has the access, has none, or (an array) holds it without one. */
enum match { NO_MATCH, MATCHED, CLAIMED };

static enum match match_below(const struct rm_elem *level, uint64_t off, struct rm_hit *hit,
			      unsigned int *tries);

/* Is OFF, inside C's extent, one of its registers? HIT's path grows by C. */
static enum match match_elem(const struct rm_elem *c, uint64_t off, struct rm_hit *hit,
			     unsigned int *tries)
{
	uint64_t index = c->stride ? off / c->stride : 0, first = index;
	enum match m = NO_MATCH;

	if (hit->depth == RM_DEPTH_MAX || ++*tries > RM_TRIES_MAX)
		return NO_MATCH;
	hit->path[hit->depth++] = c;
	hit->index[hit->depth - 1] = index;
	if (c->kind == RM_REG && off - index * c->stride < c->width) {
		hit->reg = c;
		hit->byte = off - index * c->stride;
		return MATCHED;
	}
	if (c->kind == RM_ARRAY) {
		/* As envytools has it: inside an array is the array's, register or not. */
		m = match_below(c, off - index * c->stride, hit, tries);
		if (m == MATCHED)
			return m;
		hit->depth--;
		return CLAIMED;
	}
	/*
	 * A stripe whose contents reach past its stride overlaps its next
	 * repetitions: the first that has it, as envytools tries them.
	 */
	if (c->kind == RM_STRIPE && c->stride && c->span > c->stride)
		first = off < c->span ? 0 : (off - c->span) / c->stride + 1;
	for (; c->kind == RM_STRIPE && m == NO_MATCH && first <= index && first < c->length;
	     first++) {
		hit->index[hit->depth - 1] = first;
		m = match_below(c, off - first * c->stride, hit, tries);
	}
	if (m == MATCHED)
		return m;
	hit->depth--;
	return m;
}

/*
 * first_wins: the children of LEVEL that cover OFF (reach[] bounds the
 * walk back from the last one that starts at or below it), tried in the
 * order they were defined.
 */
static enum match match_below(const struct rm_elem *level, uint64_t off, struct rm_hit *hit,
			      unsigned int *tries)
{
	const struct rm_elem *c = find_child(level, off), *tried = NULL;
	enum match m;
	size_t last, j;

	if (!c)
		return NO_MATCH;
	last = c - level->children;
	for (;;) {
		const struct rm_elem *next = NULL;

		/* The earliest defined one not tried yet: few cover one offset. */
		for (j = last + 1; j-- > 0 && level->reach[j] > off; ) {
			c = &level->children[j];
			if (off - c->offset < c->extent && (!tried || c->seq > tried->seq) &&
			    (!next || c->seq < next->seq))
				next = c;
		}
		if (!next)
			return NO_MATCH;
		m = match_elem(next, off - next->offset, hit, tries);
		if (m != NO_MATCH)
			return m;
		tried = next;
	}
}

bool rm_lookup(const struct rm_domain *d, uint64_t offset, struct rm_hit *hit)
{
	const struct rm_elem *level = &d->root;
	uint64_t off = offset;

	if (d->first_wins) {
		unsigned int tries = 0;

		hit->reg = NULL;
		hit->depth = 0;
		if (match_below(level, off, hit, &tries) == MATCHED)
			return true;
		hit->reg = NULL;
		hit->depth = 0;
		return false;
	}

	hit->reg = NULL;
	hit->depth = 0;
	for (;;) {
		const struct rm_elem *c = find_child(level, off);
		uint64_t index = 0;

		if (!c || off - c->offset >= c->extent || hit->depth == RM_DEPTH_MAX)
			return false;
		off -= c->offset;
		if (c->stride) {
			index = off / c->stride;
			off %= c->stride;
		}
		hit->path[hit->depth] = c;
		hit->index[hit->depth++] = index;
		if (c->kind == RM_REG) {
			if (off >= c->width)
				return false;
			hit->reg = c;
			hit->byte = off;
			return true;
		}
		level = c;
	}
}

size_t rm_name(const struct rm_hit *hit, char *buf, size_t size)
{
	unsigned int i, j, npending = 0;
	uint64_t pending[RM_DEPTH_MAX];
	struct strbuf sb;

	sb_init(&sb, buf, size);
	for (i = 0; i < hit->depth; i++) {
		const struct rm_elem *e = hit->path[i];

		/* An unnamed stripe's index goes to the next name, as envytools puts it. */
		if (!e->name) {
			if (e->length > 1)
				pending[npending++] = hit->index[i];
			continue;
		}
		if (sb.used)
			sb_char(&sb, '.');
		sb_str(&sb, e->name);
		/* As envytools names them: an array of one has no index. */
		for (j = 0; j <= npending; j++) {
			if (j == npending && e->length <= 1)
				break;
			sb_char(&sb, '[');
			sb_dec(&sb, j < npending ? pending[j] : hit->index[i]);
			sb_char(&sb, ']');
		}
		npending = 0;
	}
	if (hit->byte) {
		sb_str(&sb, "+0x");
		sb_hex(&sb, hit->byte, 1);
	}
	return sb.used;
}

/* ---- decoding ---- */

static uint64_t mask_of(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

static const char *enum_name(const struct rm_type *type, uint64_t v)
{
	size_t i;

	if (type->kind != RM_ENUM)
		return NULL;
	for (i = 0; i < type->enumeration->nvalues; i++)
		if (type->enumeration->values[i].value == v)
			return type->enumeration->values[i].name;
	return NULL;
}

/* A value of BITS bits, shown as TYPE says. */
static void format_value(struct strbuf *sb, const struct rm_type *type, uint64_t v,
			 unsigned int bits)
{
	const char *name = enum_name(type, v);

	if (type->shr)
		v <<= type->shr;
	if (name) {
		sb_str(sb, name);
	} else if (type->kind == RM_INT && bits < 64 && (v >> (bits - 1)) & 1) {
		sb_char(sb, '-');
		sb_dec(sb, mask_of(bits) & -v);
	} else if (type->kind == RM_UINT || type->kind == RM_INT || v < 10) {
		sb_dec(sb, v);
	} else {
		sb_str(sb, "0x");
		sb_hex(sb, v, 1);
	}
}

struct field_walk {
	const struct rm_hit *hit;
	uint64_t value;		/* in the register's bit positions */
	uint64_t window;	/* the bits the access covers */
};

static void walk_init(struct field_walk *w, const struct rm_hit *hit, unsigned int width,
		      uint64_t value)
{
	unsigned int shift = hit->byte * 8;

	w->hit = hit;
	w->window = mask_of(width * 8) << shift;
	w->value = value << shift;
}

bool rm_has_fields(const struct rm_hit *hit)
{
	return hit->reg && hit->reg->type.kind == RM_BITSET && hit->reg->type.bitset->nfields;
}

static bool whole_access(const struct rm_hit *hit, unsigned int width)
{
	return !hit->byte && width == hit->reg->width;
}

/* Calls EACH for the fields inside the window; returns the bits they cover. */
static uint64_t walk_fields(const struct field_walk *w,
			    void (*each)(void *ctx, const struct rm_field *f, uint64_t v), void *ctx)
{
	const struct rm_bitset *set = w->hit->reg->type.bitset;
	uint64_t covered = 0;
	size_t i;

	for (i = 0; i < set->nfields; i++) {
		const struct rm_field *f = &set->fields[i];
		uint64_t fmask = mask_of(f->high - f->low + 1) << f->low;

		if ((fmask & w->window) != fmask)
			continue;
		covered |= fmask;
		each(ctx, f, (w->value & fmask) >> f->low);
	}
	return covered;
}

struct text_out {
	struct strbuf sb;
	uint64_t previous;	/* register bit positions */
	bool only_changed;
};

static void text_field(void *ctx, const struct rm_field *f, uint64_t v)
{
	struct text_out *o = ctx;

	if (o->only_changed &&
	    ((o->previous >> f->low) & mask_of(f->high - f->low + 1)) == v)
		return;
	if (o->sb.used)
		sb_char(&o->sb, ' ');
	sb_str(&o->sb, f->name);
	sb_char(&o->sb, '=');
	format_value(&o->sb, &f->type, v, f->high - f->low + 1);
}

static size_t decode_text(const struct rm_hit *hit, unsigned int width, uint64_t value,
			  bool only_changed, uint64_t previous, char *buf, size_t size)
{
	struct text_out o = { .only_changed = only_changed };
	struct field_walk w;
	uint64_t covered, rest;

	sb_init(&o.sb, buf, size);
	if (!rm_has_fields(hit)) {
		if (whole_access(hit, width)) {
			format_value(&o.sb, &hit->reg->type, value, width * 8);
		} else {
			sb_str(&o.sb, "0x");
			sb_hex(&o.sb, value, 1);
		}
		return o.sb.used;
	}
	walk_init(&w, hit, width, value);
	o.previous = previous << (hit->byte * 8);
	covered = walk_fields(&w, text_field, &o);
	rest = w.value & w.window & ~covered;
	if (rest && !(only_changed && rest == (o.previous & w.window & ~covered))) {
		if (o.sb.used)
			sb_char(&o.sb, ' ');
		sb_str(&o.sb, "?=0x");
		sb_hex(&o.sb, rest, 1);
	}
	return o.sb.used;
}

size_t rm_decode(const struct rm_hit *hit, unsigned int width, uint64_t value, char *buf,
		 size_t size)
{
	return decode_text(hit, width, value, false, 0, buf, size);
}

size_t rm_decode_changes(const struct rm_hit *hit, unsigned int width, uint64_t previous,
			 uint64_t value, char *buf, size_t size)
{
	if (!rm_has_fields(hit))
		return decode_text(hit, width, value, false, 0, buf, size);
	return decode_text(hit, width, value, true, previous, buf, size);
}

struct json_walk {
	void (*each)(void *ctx, const char *name, uint64_t value, bool negative,
		     const char *enum_name);
	void *ctx;
};

static void json_field(void *ctx, const struct rm_field *f, uint64_t v)
{
	struct json_walk *j = ctx;
	const char *name = enum_name(&f->type, v);
	unsigned int bits = f->high - f->low + 1;
	uint64_t shown = f->type.shr ? v << f->type.shr : v;

	/* As format_value() shows it: a negative INT by its magnitude. */
	if (!name && f->type.kind == RM_INT && bits < 64 && (shown >> (bits - 1)) & 1)
		j->each(j->ctx, f->name, mask_of(bits) & -shown, true, NULL);
	else
		j->each(j->ctx, f->name, shown, false, name);
}

void rm_fields(const struct rm_hit *hit, unsigned int width, uint64_t value,
	       void (*each)(void *ctx, const char *name, uint64_t value, bool negative,
			    const char *enum_name),
	       void *ctx)
{
	struct json_walk j = { each, ctx };
	struct field_walk w;

	if (!rm_has_fields(hit))
		return;
	walk_init(&w, hit, width, value);
	walk_fields(&w, json_field, &j);
}
