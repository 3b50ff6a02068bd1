// SPDX-License-Identifier: GPL-2.0
/*
 * The part of the trace readers that they share: options and maps,
 * regions, the decoded text of an access. See analyze.h.
 *
 * mmioctl for the guest is built without libxml2 (make MAPS=0): the guest
 * records, and the host, where the maps and the person are, decodes. A
 * static libxml2 would pull ICU, lzma and zlib into an image that has no
 * libc. Such a build still decodes, folds, counts and diffs by offset.
 */
#include "readers/analyze.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "common/strbuf.h"
#ifndef NO_MAPS
#include "readers/rnndb.h"
#endif

void *grow_array(void *array, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t want = *cap ? 2 * *cap : first;
	void *bigger;

	if (n < *cap)
		return array;
	bigger = realloc(array, want * size);
	if (bigger)
		*cap = want;
	return bigger;
}

/* ---- u64map: open addressing, linear probing, backward-shift deletion ---- */

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= UINT64_C(0xff51afd7ed558ccd);
	key ^= key >> 33;
	return key & (cap - 1);
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->values[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->values[i];
	return NULL;
}

static int u64map_grow(struct u64map *m)
{
	struct u64map bigger = { .cap = m->cap ? m->cap * 2 : 64 };
	size_t i;

	bigger.keys = malloc(bigger.cap * sizeof(*bigger.keys));
	bigger.values = calloc(bigger.cap, sizeof(*bigger.values));
	if (!bigger.keys || !bigger.values) {
		free(bigger.keys);
		free(bigger.values);
		return -1;
	}
	for (i = 0; i < m->cap; i++)
		if (m->values[i])
			u64map_put(&bigger, m->keys[i], m->values[i]);
	free(m->keys);
	free(m->values);
	*m = bigger;
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, void *value)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap && u64map_grow(m))
		return -1;
	for (i = slot_of(key, m->cap); m->values[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->values[i] = value;
			return 0;
		}
	m->keys[i] = key;
	m->values[i] = value;
	m->n++;
	return 0;
}

void *u64map_del(struct u64map *m, uint64_t key)
{
	size_t i, j, mask = m->cap - 1;
	void *value;

	if (!m->cap)
		return NULL;
	for (i = slot_of(key, m->cap); m->values[i]; i = (i + 1) & mask)
		if (m->keys[i] == key)
			break;
	if (!m->values[i])
		return NULL;
	value = m->values[i];
	m->values[i] = NULL;
	m->n--;
	/* Move back what the freed slot kept from its home. */
	for (j = (i + 1) & mask; m->values[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m->keys[j], m->cap);

		if (((j - home) & mask) >= ((j - i) & mask)) {
			m->keys[i] = m->keys[j];
			m->values[i] = m->values[j];
			m->values[j] = NULL;
			i = j;
		}
	}
	return value;
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

/* ---- options and maps ---- */

/* The longest domain name FILE@ADDR:DOMAIN may give. */
#define DOMAIN_NAME_MAX	128

/*
 * "FILE@ADDR": a map bound to a physical address; "FILE@ADDR:DOMAIN" names
 * the domain of a map that has several (DOMAIN "" without).
 */
static int split_bind(const char *arg, char *path, size_t size, uint64_t *base, bool *bound,
		      char *domain)
{
	const char *at = strrchr(arg, '@'), *colon = at ? strchr(at, ':') : NULL;
	char addr[32];

	*domain = '\0';
	*bound = false;
	if (at && (colon ? (size_t)(colon - at - 1) : strlen(at + 1)) < sizeof(addr)) {
		snprintf(addr, sizeof(addr), "%.*s", colon ? (int)(colon - at - 1) : 31, at + 1);
		*bound = !parse_u64(addr, base);
	}
	if (*bound && colon && (!colon[1] || strlen(colon + 1) >= DOMAIN_NAME_MAX))
		return -1;
	if (*bound && colon)
		strcpy(domain, colon + 1);
	if (!*bound)
		at = arg + strlen(arg);
	if ((size_t)(at - arg) >= size || at == arg)
		return -1;
	memcpy(path, arg, at - arg);
	path[at - arg] = '\0';
	return 0;
}

static const struct rm_domain *domain_for_bar(const struct regmap *map, unsigned int vendor,
					      unsigned int device, unsigned int bar);

#ifdef NO_MAPS
static int find_maps(struct session *s)
{
	(void)s;
	return 0;
}

static int load_maps(struct session *s)
{
	if (!s->nmap_paths)
		return 0;
	fprintf(stderr, "mmioctl: this mmioctl is built without register maps (libxml2): "
		"decode with maps on the host\n");
	return EXIT_REFUSED;
}
#else
/* Two domains bound to the same BAR of the same device cannot both decode it. */
static int check_pci_bindings(const struct regmap *map)
{
	size_t i, j, k, l;

	for (i = 0; i < map->ndomains; i++)
		for (k = 0; k < map->domains[i]->npci; k++)
			for (j = 0; j <= i; j++)
				for (l = 0; l < map->domains[j]->npci && (j < i || l < k); l++) {
					const struct rm_pci *a = &map->domains[i]->pci[k];
					const struct rm_pci *b = &map->domains[j]->pci[l];

					if (a->vendor == b->vendor && a->device == b->device &&
					    a->bar == b->bar) {
						fprintf(stderr, "mmioctl: %s:%d: domain %s binds %04x:%04x BAR%u, as %s does (%s:%d)\n",
							map->domains[i]->file, map->domains[i]->line,
							map->domains[i]->name, a->vendor, a->device,
							a->bar, map->domains[j]->name,
							map->domains[j]->file, map->domains[j]->line);
						return EXIT_REFUSED;
					}
				}
	return 0;
}

/* The first domain FILE itself defines, else the first of its database. */
static const struct rm_domain *own_domain(const struct regmap *map, size_t first,
					  const char *file)
{
	size_t i;

	for (i = first; i < map->ndomains; i++)
		if (!strcmp(map->domains[i]->file, file))
			return map->domains[i];
	return map->domains[first];
}

/*
 * The domain FILE@ADDR binds: the map's only one, or of a database that
 * imports others (envytools' nv_mmio.xml), the only one FILE defines; or
 * the one FILE@ADDR:NAME names.
 */
static struct rm_domain *bound_domain(const struct regmap *map, size_t first, const char *file,
				      const char *name)
{
	struct rm_domain *own = NULL;
	size_t i, nown = 0;

	for (i = first; *name && i < map->ndomains; i++)
		if (!strcmp(map->domains[i]->name, name))
			return map->domains[i];
	if (*name)
		return NULL;
	if (map->ndomains - first == 1)
		return map->domains[first];
	for (i = first; i < map->ndomains; i++)
		if (!strcmp(map->domains[i]->file, file)) {
			own = map->domains[i];
			nown++;
		}
	return nown == 1 ? own : NULL;
}

/* How far into a trace PMC.ID is looked for: a driver reads it at probe. */
#define PMC_ID_LINES	100000

/* Where a bound map's PMC.ID is looked for. */
struct pmc_search {
	const struct session *s;
	uint64_t base;
};

/*
 * The loader's read_pmc_id() (regmap.h): the first 4-byte read of the
 * bound address (an NVIDIA BAR0's PMC.ID) in the first trace, if that is
 * a file. Only a database with envytools' chipset variants asks.
 */
static bool read_pmc_id(void *ctx, uint32_t *pmc_id)
{
	const struct pmc_search *search = ctx;
	const struct session *s = search->s;
	struct trace_reader r;
	struct trace_line t;
	char why[TRACE_WHY_MAX];
	const char *line;
	bool found = false;
	size_t len;
	struct stat st;

	if (!s->npaths || stat(s->paths[0], &st) || !S_ISREG(st.st_mode) ||
	    trace_open(&r, s->paths[0]))
		return false;
	while (!found && r.number < PMC_ID_LINES && trace_next(&r, &line, &len) > 0)
		if (!trace_parse(line, len, &t, why) && t.type == TRACE_READ && t.width == 4 &&
		    t.phys == search->base) {
			*pmc_id = t.value;
			found = true;
		}
	trace_close(&r);
	return found;
}

static int load_maps(struct session *s)
{
	char why[RM_WHY_MAX], path[4096], name[DOMAIN_NAME_MAX];
	struct pmc_search search = { s, 0 };
	struct rm_domain *domain;
	size_t i, before, nbinds = 0;
	bool bound;

	if (!s->nmap_paths)
		return 0;
	s->map = regmap_new();
	s->binds = calloc(s->nmap_paths, sizeof(*s->binds));
	if (!s->map || !s->binds)
		return system_error("malloc");
	s->map->variant = s->variant;
	for (i = 0; i < s->nmap_paths; i++) {
		uint64_t base = 0;

		split_bind(s->map_paths[i], path, sizeof(path), &base, &bound, name);
		before = s->map->ndomains;
		search.base = base;
		s->map->read_pmc_id = bound && !s->map->variant ? read_pmc_id : NULL;
		s->map->pmc_ctx = &search;
		s->map->detected_variant = NULL;
		if (rnndb_load(s->map, path, why)) {
			fprintf(stderr, "mmioctl: %s\n", why);
			return EXIT_REFUSED;
		}
		s->map->read_pmc_id = NULL;	/* search is this function's */
		if (s->map->detected_variant)
			fprintf(stderr, "mmioctl: %s: chipset %s, of the trace's PMC.ID 0x%08" PRIx32 " (--variant NAME chooses)\n",
				path, s->map->detected_variant, s->map->pmc_id);
		if (!bound)
			continue;
		domain = bound_domain(s->map, before, path, name);
		if (!domain && *name) {
			fprintf(stderr, "mmioctl: %s: no domain %s\n", path, name);
			return EXIT_REFUSED;
		}
		if (!domain && s->map->ndomains == before) {
			fprintf(stderr, "mmioctl: %s: @0x%" PRIx64 " binds one domain, and the map has none\n",
				path, base);
			return EXIT_REFUSED;
		}
		if (!domain) {
			fprintf(stderr, "mmioctl: %s: @0x%" PRIx64 " binds one domain, and the map has %zu: name it, as %s@0x%" PRIx64 ":%s\n",
				path, base, s->map->ndomains - before, path, base,
				own_domain(s->map, before, path)->name);
			return EXIT_REFUSED;
		}
		s->binds[nbinds].path = s->map_paths[i];
		s->binds[nbinds].base = base;
		s->binds[nbinds++].domain = domain;
	}
	s->nbinds = nbinds;
	if (regmap_finish(s->map, why)) {
		fprintf(stderr, "mmioctl: %s\n", why);
		return EXIT_REFUSED;
	}
	return check_pci_bindings(s->map);
}

/*
 * FILE of the search path is used when it binds BARs and none that an
 * earlier file took (a domain of the session's map binds it already): a
 * directory earlier in the path overrides the installed maps device by
 * device. A map that does not load is skipped with a warning: a broken
 * file elsewhere must not stop a decode.
 */
static int consider_map(const char *file, void *ctx)
{
	struct session *s = ctx;
	struct regmap *probe = regmap_new();
	char why[RM_WHY_MAX];
	size_t i, j, npci = 0;
	bool taken = false;
	int ret = 0;

	if (!probe)
		return system_error("malloc");
	probe->variant = s->variant;
	if (rnndb_load(probe, file, why) || regmap_finish(probe, why)) {
		fprintf(stderr, "mmioctl: warning: map %s skipped: %s\n", file, why);
		goto out;
	}
	for (i = 0; i < probe->ndomains; i++)
		for (j = 0; j < probe->domains[i]->npci; j++, npci++) {
			const struct rm_pci *p = &probe->domains[i]->pci[j];

			taken |= domain_for_bar(s->map, p->vendor, p->device, p->bar) != NULL;
		}
	if (npci && !taken && rnndb_load(s->map, file, why)) {
		fprintf(stderr, "mmioctl: %s\n", why);
		ret = EXIT_REFUSED;
	}
out:
	regmap_free(probe);
	return ret;
}

/* Every *.xml of DIR, in name order; a directory that is not there is none. */
static int search_dir(struct session *s, const char *dir)
{
	int nfiles;

	return rnndb_each_file(dir, consider_map, s, &nfiles);
}

/*
 * Without --map: the maps of --map-dir, then of $MMIOCTL_MAPS (a
 * colon-separated list), then the installed ones, bound to the devices of
 * the trace by their <pci> bindings (regions_update() says which).
 */
static int find_maps(struct session *s)
{
	const char *env = getenv("MMIOCTL_MAPS");
	char *list = NULL, *dir, *save;
	char why[RM_WHY_MAX];
	size_t i;
	int ret = 0;

	s->map = regmap_new();
	if (!s->map)
		return system_error("malloc");
	s->map->variant = s->variant;
	for (i = 0; i < s->nmap_dirs && !ret; i++)
		ret = search_dir(s, s->map_dirs[i]);
	if (!ret && env && *env) {
		list = strdup(env);
		if (!list)
			ret = system_error("malloc");
		for (dir = list ? strtok_r(list, ":", &save) : NULL; dir && !ret;
		     dir = strtok_r(NULL, ":", &save))
			ret = search_dir(s, dir);
	}
	if (!ret)
		ret = search_dir(s, MAPS_DIR);
	free(list);
	if (ret)
		return ret;
	if (!s->map->ndomains) {
		regmap_free(s->map);
		s->map = NULL;
		return 0;
	}
	if (regmap_finish(s->map, why)) {
		fprintf(stderr, "mmioctl: %s\n", why);
		return EXIT_REFUSED;
	}
	s->found_maps = true;
	return 0;
}
#endif

static bool stdin_twice(const struct session *s)
{
	int i, stdin_paths = 0;

	for (i = 0; i < s->npaths; i++)
		stdin_paths += !strcmp(s->paths[i], "-");
	return stdin_paths > 1;
}

/* Is -o FILE one of the traces (the same file: device and inode)? */
static bool output_is_a_trace(const struct session *s)
{
	struct stat out, in;
	int i;

	if (!s->output || stat(s->output, &out))
		return false;
	for (i = 0; i < s->npaths; i++)
		if (strcmp(s->paths[i], "-") && !stat(s->paths[i], &in) &&
		    in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return true;
	return false;
}

int session_start(struct session *s, int argc, char **argv, unsigned int allowed, int npaths)
{
	static const struct option longopts[] = {
		{ "map", required_argument, NULL, 'm' },
		{ "map-dir", required_argument, NULL, 'd' },
		{ "no-maps", no_argument, NULL, 'n' },
		{ "variant", required_argument, NULL, 'v' },
		{ "fold", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "sort", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const sort_keys[] = {
		[SORT_OFFSET] = "offset", [SORT_ACCESSES] = "accesses", [SORT_READS] = "reads",
		[SORT_WRITES] = "writes", [SORT_FIRST] = "first", [SORT_LAST] = "last",
	};
	size_t key;
	char path[4096], name[DOMAIN_NAME_MAX];
	uint64_t base;
	bool bound;
	int c, longindex = -1;

	memset(s, 0, sizeof(*s));
	s->map_paths = calloc(argc, sizeof(*s->map_paths));
	s->map_dirs = calloc(argc, sizeof(*s->map_dirs));
	if (!s->map_paths || !s->map_dirs)
		return system_error("malloc");
	/* 0, not 1: glibc then reads the optstring again, and permutes. */
	optind = 0;
	opterr = 0;
	/* Options may follow the traces too ("stat t.txt --json"). */
	while ((c = getopt_long(argc, argv, "m:o:", longopts, &longindex)) != -1) {
		if (c == 'm' && (allowed & OPT_MAP)) {
			if (split_bind(optarg, path, sizeof(path), &base, &bound, name))
				return usage_error("%s: invalid map '%s': expected FILE, FILE@ADDR or FILE@ADDR:DOMAIN",
						   argv[0], optarg);
			s->map_paths[s->nmap_paths++] = optarg;
		} else if (c == 'd' && (allowed & OPT_MAP)) {
			s->map_dirs[s->nmap_dirs++] = optarg;
		} else if (c == 'n' && (allowed & OPT_MAP)) {
			s->no_maps = true;
		} else if (c == 'v' && (allowed & OPT_MAP)) {
			if (!*optarg)
				return usage_error("%s: --variant needs a NAME", argv[0]);
			s->variant = optarg;
		} else if (c == 'f' && (allowed & OPT_FOLD)) {
			s->fold = true;
		} else if (c == 'j' && (allowed & OPT_JSON)) {
			s->json = true;
		} else if (c == 's' && (allowed & OPT_SORT)) {
			for (key = 0; key < sizeof(sort_keys) / sizeof(*sort_keys); key++)
				if (!strcmp(optarg, sort_keys[key]))
					break;
			if (key == sizeof(sort_keys) / sizeof(*sort_keys))
				return usage_error("%s: unknown sort key '%s': offset, accesses, reads, writes, first or last",
						   argv[0], optarg);
			s->sort = key;
		} else if (c == 'o' && (allowed & OPT_OUTPUT)) {
			if (!*optarg)
				return usage_error("%s: -o needs a FILE", argv[0]);
			s->output = optarg;
		} else if (c != '?' && c != ':') {
			/* Known, not this command's: named as given, not by its argument. */
			return usage_error("%s: unknown or incomplete option '%s%s'", argv[0],
					   longindex >= 0 ? "--" : "-",
					   longindex >= 0 ? longopts[longindex].name : (char[]){ c, 0 });
		} else if (optopt && optopt != '?') {
			/* A short option, maybe in a cluster ("-jo"): by its letter. */
			return usage_error("%s: unknown or incomplete option '-%c'", argv[0], optopt);
		} else {
			return usage_error("%s: unknown or incomplete option '%s'", argv[0],
					   argv[optind - 1]);
		}
		longindex = -1;
	}
	if (npaths == TRACES_ANY ? argc == optind : argc - optind != npaths)
		return usage_error("%s takes %s", argv[0],
				   npaths == 1 ? "one trace (a file, or - for standard input)" :
				   npaths == 2 ? "two traces" : "one trace or more");
	s->paths = argv + optind;
	s->npaths = argc - optind;
	if (stdin_twice(s))
		return usage_error("%s: only one trace can be standard input", argv[0]);
	if (output_is_a_trace(s))
		return usage_error("%s: -o %s is a trace it reads", argv[0], s->output);
	if (s->no_maps && (s->nmap_paths || s->nmap_dirs))
		return usage_error("%s: --no-maps and --map or --map-dir exclude each other", argv[0]);
	if (s->variant && s->no_maps)
		return usage_error("%s: --variant chooses what maps describe: not with --no-maps",
				   argv[0]);
	if (s->nmap_paths && s->nmap_dirs)
		return usage_error("%s: --map names the maps, --map-dir where to find them: give one",
				   argv[0]);
	/* A command that takes no map (model) names every register by its offset. */
	if (!(allowed & OPT_MAP))
		s->no_maps = true;
	if (!s->nmap_paths && !s->no_maps)
		return find_maps(s);
	return load_maps(s);
}

void session_reset_regions(struct session *s)
{
	struct regions *rs = &s->regions;
	size_t i;

	for (i = 0; i < rs->mappings.cap; i++)
		if (rs->mappings.values && rs->mappings.values[i])
			free(rs->mappings.values[i]);
	u64map_free(&rs->mappings);
	u64map_free(&rs->by_phys);
	for (i = 0; i < rs->n; i++)
		free(rs->all[i]);
	free(rs->all);
	free(rs->ranges);
	memset(rs, 0, sizeof(*rs));
}

void session_free_region_data(struct session *s, void (*free_data)(void *data))
{
	size_t i;

	for (i = 0; i < s->regions.n; i++) {
		if (!s->regions.all[i]->data)
			continue;
		free_data(s->regions.all[i]->data);
		s->regions.all[i]->data = NULL;
	}
}

void session_end(struct session *s)
{
	session_reset_regions(s);
	regmap_free(s->map);
	free(s->binds);
	free(s->map_paths);
	free(s->map_dirs);
}

/* ---- regions ---- */

static unsigned int hex_digits(uint64_t size)
{
	unsigned int n = 1;
	uint64_t last = size ? size - 1 : 0;

	while (last >>= 4)
		n++;
	return n < 2 ? 2 : n;
}

/* The Nth region with this domain, or these ids: "#N" from the second on. */
static unsigned int ordinal(const struct regions *rs, const struct region *r)
{
	unsigned int n = 1;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct region *o = rs->all[i];

		if (r->domain ? o->domain == r->domain :
		    (o->kind == REGION_BAR && !o->domain && o->vendor == r->vendor &&
		     o->device == r->device && o->bar == r->bar))
			n++;
	}
	return n;
}

static struct region *add_region(struct regions *rs, enum region_kind kind, uint64_t base,
				 uint64_t size, const struct rm_domain *domain)
{
	struct region *r = calloc(1, sizeof(*r)), **all;

	if (!r)
		return NULL;
	all = realloc(rs->all, (rs->n + 1) * sizeof(*rs->all));
	if (!all) {
		free(r);
		return NULL;
	}
	rs->all = all;
	r->kind = kind;
	r->base = base;
	r->size = size;
	r->domain = domain;
	r->digits = hex_digits(domain ? rm_domain_extent(domain) : size);
	r->index = rs->n;
	if (domain)
		rs->bound_domains++;
	return r;
}

/* The region is complete (its label set): keep it. */
static struct region *keep_region(struct regions *rs, struct region *r, bool range)
{
	rs->all[rs->n++] = r;
	if (range) {
		struct region **ranges = realloc(rs->ranges, (rs->nranges + 1) * sizeof(*ranges));
		size_t at = rs->nranges;

		if (!ranges)
			return NULL;	/* kept in all[], freed with it */
		rs->ranges = ranges;
		/* Bound ranges first: they win over the BAR they are in. */
		if (r->kind == REGION_BOUND)
			while (at && rs->ranges[at - 1]->kind != REGION_BOUND)
				at--;
		memmove(&rs->ranges[at + 1], &rs->ranges[at], (rs->nranges - at) * sizeof(*ranges));
		rs->ranges[at] = r;
		rs->nranges++;
		rs->last = NULL;
	}
	return r;
}

static void domain_label(const struct regions *rs, struct region *r)
{
	unsigned int n = ordinal(rs, r);

	if (n > 1)
		snprintf(r->label, sizeof(r->label), "%s#%u", r->domain->name, n);
	else
		snprintf(r->label, sizeof(r->label), "%s", r->domain->name);
}

static int add_binds(struct session *s)
{
	size_t i;

	for (i = 0; i < s->nbinds; i++) {
		const struct bind *b = &s->binds[i];
		struct region *r = add_region(&s->regions, REGION_BOUND, b->base,
					      rm_domain_extent(b->domain), b->domain);

		if (!r)
			return -1;
		domain_label(&s->regions, r);
		if (!keep_region(&s->regions, r, true))
			return -1;
	}
	return 0;
}

static const struct rm_domain *domain_for_bar(const struct regmap *map, unsigned int vendor,
					      unsigned int device, unsigned int bar)
{
	size_t i, j;

	if (!map)
		return NULL;
	for (i = 0; i < map->ndomains; i++)
		for (j = 0; j < map->domains[i]->npci; j++) {
			const struct rm_pci *p = &map->domains[i]->pci[j];

			if (p->vendor == vendor && p->device == device && p->bar == bar)
				return map->domains[i];
		}
	return NULL;
}

/* Maps found on the search path: which bound to this device, or none. */
static void note_binding(const struct trace_pcidev *dev, unsigned int bar,
			 const struct rm_domain *domain)
{
	fprintf(stderr, "mmioctl: %02x:%02x.%x %04x:%04x", dev->bus, dev->devfn >> 3,
		dev->devfn & 7, dev->vendor, dev->device);
	if (domain)
		fprintf(stderr, " BAR%u: %s from %s\n", bar, domain->name, domain->file);
	else
		fputs(": no map\n", stderr);
}

static int add_pcidev(struct session *s, const struct trace_pcidev *dev)
{
	bool memory = false, bound = false;
	unsigned int bar;

	for (bar = 0; bar < 6; bar++) {
		const struct rm_domain *domain;
		struct region *r;

		/* Bit 0 set: an I/O port BAR, which mmiotrace never sees. */
		if (!dev->size[bar] || (dev->base[bar] & 1))
			continue;
		domain = domain_for_bar(s->map, dev->vendor, dev->device, bar);
		memory = true;
		bound |= domain != NULL;
		if (domain && s->found_maps)
			note_binding(dev, bar, domain);
		r = add_region(&s->regions, REGION_BAR, dev->base[bar] & ~UINT64_C(0xf),
			       dev->size[bar], domain);
		if (!r)
			return -1;
		r->vendor = dev->vendor;
		r->device = dev->device;
		r->bar = bar;
		r->bus = dev->bus;
		r->devfn = dev->devfn;
		if (domain) {
			domain_label(&s->regions, r);
		} else {
			unsigned int n = ordinal(&s->regions, r);

			snprintf(r->label, sizeof(r->label), "%04x:%04x/%u", dev->vendor,
				 dev->device, bar);
			if (n > 1)
				snprintf(r->label + strlen(r->label),
					 sizeof(r->label) - strlen(r->label), "#%u", n);
		}
		if (!keep_region(&s->regions, r, true))
			return -1;
	}
	if (memory && !bound && s->found_maps)
		note_binding(dev, 0, NULL);
	return 0;
}

int regions_update(struct session *s, const struct trace_line *t)
{
	struct regions *rs = &s->regions;
	struct mapping *m;

	if (!rs->map && s->map)
		rs->map = s->map;
	if (!rs->n && s->nbinds && add_binds(s))
		return -1;
	switch (t->type) {
	case TRACE_PCIDEV:
		return add_pcidev(s, &t->pcidev);
	case TRACE_MAP:
		m = u64map_get(&rs->mappings, t->map_id);
		if (!m) {
			m = malloc(sizeof(*m));
			if (!m || u64map_put(&rs->mappings, t->map_id, m)) {
				free(m);
				return -1;
			}
		}
		m->phys = t->phys;
		m->len = t->len;
		return 0;
	case TRACE_UNMAP:
		free(u64map_del(&rs->mappings, t->map_id));
		return 0;
	default:
		return 0;
	}
}

static struct region *mapping_region(struct regions *rs, const struct mapping *m)
{
	struct region *r = u64map_get(&rs->by_phys, m->phys);

	if (r) {
		if (m->len > r->size) {
			r->size = m->len;
			r->digits = hex_digits(r->size);
		}
		return r;
	}
	r = add_region(rs, REGION_MAPPING, m->phys, m->len, NULL);
	if (!r)
		return NULL;
	snprintf(r->label, sizeof(r->label), "map%u", ++rs->nmapping_regions);
	if (u64map_put(&rs->by_phys, m->phys, r)) {
		free(r);
		return NULL;
	}
	return keep_region(rs, r, false);
}

struct region *region_of(struct session *s, uint64_t phys, long map_id, uint64_t *offset)
{
	struct regions *rs = &s->regions;
	const struct mapping *m;
	struct region *r = rs->last;
	size_t i;

	if (!rs->n && s->nbinds && add_binds(s))
		return NULL;
	if (r && phys - r->base < r->size && r->kind <= REGION_BAR)
		goto found;
	for (i = 0; i < rs->nranges; i++) {
		r = rs->ranges[i];
		if (phys - r->base < r->size)
			goto found;
	}
	m = u64map_get(&rs->mappings, map_id);
	if (m && phys - m->phys < m->len) {
		r = mapping_region(rs, m);
		if (!r)
			return NULL;
		goto found;
	}
	if (!rs->phys) {
		r = add_region(rs, REGION_PHYS, 0, UINT64_MAX, NULL);
		if (!r)
			return NULL;
		r->digits = 8;
		snprintf(r->label, sizeof(r->label), "phys");
		rs->phys = keep_region(rs, r, false);
	}
	*offset = phys;
	return rs->phys;
found:
	rs->last = r;
	*offset = phys - r->base;
	return r;
}

void session_note_unused_maps(const struct session *s, const char *trace_name)
{
	size_t i, j;

	if (!s->map || s->regions.bound_domains)
		return;
	fprintf(stderr, "mmioctl: note: no map applied to %s:", trace_name);
	for (i = 0; i < s->map->ndomains; i++) {
		const struct rm_domain *d = s->map->domains[i];

		if (!d->npci)
			fprintf(stderr, " %s has no <pci> binding (use --map FILE@ADDR);", d->name);
		for (j = 0; j < d->npci; j++)
			fprintf(stderr, " no PCIDEV line for %s's %04x:%04x;", d->name,
				d->pci[j].vendor, d->pci[j].device);
	}
	fputc('\n', stderr);
}

/* ---- accesses ---- */

int access_from(struct session *s, const struct trace_line *t, unsigned long long line,
		struct access *a)
{
	a->t = *t;
	a->line = line;
	a->region = region_of(s, t->phys, t->map_id, &a->offset);
	if (!a->region)
		return -1;
	a->hit.reg = NULL;
	if (a->region->domain)
		rm_lookup(a->region->domain, a->offset, &a->hit);
	return 0;
}

size_t access_fields(const struct access *a, char *buf, size_t size)
{
	struct strbuf sb;

	if (a->hit.reg)
		return rm_decode(&a->hit, a->t.width, a->t.value, buf, size);
	sb_init(&sb, buf, size);
	sb_str(&sb, "0x");
	sb_hex(&sb, a->t.value, 1);
	return sb.used;
}

size_t access_changes(const struct access *a, uint64_t final, char *buf, size_t size)
{
	struct strbuf sb;
	size_t n = 0;

	if (a->hit.reg)
		n = rm_decode_changes(&a->hit, a->t.width, a->t.value, final, buf, size);
	if (n)
		return n;
	sb_init(&sb, buf, size);
	sb_str(&sb, "0x");
	sb_hex(&sb, final, 1);
	return sb.used;
}

size_t access_register_name(const struct access *a, char *buf, size_t size)
{
	int len;

	if (a->hit.reg)
		return rm_name(&a->hit, buf, size);
	len = snprintf(buf, size, "+0x%0*" PRIx64, (int)a->region->digits, a->offset);
	return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
}

size_t access_text(const struct access *a, char *buf, size_t size)
{
	struct strbuf sb;

	sb_init(&sb, buf, size);
	sb_char(&sb, a->t.type == TRACE_READ ? 'R' : 'W');
	sb_dec(&sb, a->t.width);
	sb_char(&sb, ' ');
	sb_str(&sb, a->region->label);
	sb_str(&sb, "+0x");
	sb_hex(&sb, a->offset, a->region->digits);
	sb_str(&sb, " 0x");
	sb_hex(&sb, a->t.value, a->t.width * 2);
	if (!a->hit.reg)
		return sb.used;
	sb_char(&sb, ' ');
	sb.used += rm_name(&a->hit, sb.buf + sb.used, sb.size - sb.used);
	sb_str(&sb, a->t.type == TRACE_READ ? " => " : " <= ");
	sb.used += rm_decode(&a->hit, a->t.width, a->t.value, sb.buf + sb.used, sb.size - sb.used);
	return sb.used;
}

int poll_feed(struct poll *p, const struct access *a, poll_end_fn end, void *ctx)
{
	int ret;

	switch (poll_step(p, a)) {
	case POLL_REPEAT:
		p->count++;
		p->last_us = a->t.time_us;
		return 1;
	case POLL_FINAL:
		ret = end(ctx, p, a);
		p->count = 0;
		return ret ? -1 : 1;
	case POLL_BREAK:
		if (poll_flush(p, end, ctx))
			return -1;
		break;
	}
	if (a->t.type != TRACE_READ)
		return 0;
	p->first = *a;
	p->count = 1;
	p->last_us = a->t.time_us;
	return 1;
}

int poll_flush(struct poll *p, poll_end_fn end, void *ctx)
{
	int ret = p->count ? end(ctx, p, NULL) : 0;

	p->count = 0;
	return ret;
}

int walk_trace(const char *path, struct trace_walk *w)
{
	struct trace_reader r;
	struct trace_line t;
	char why[TRACE_WHY_MAX];
	const char *line;
	size_t len;
	int got, ret = 0;

	if (trace_open(&r, path))
		return EXIT_REFUSED;
	w->name = r.name;
	r.before_wait = w->before_wait;
	while ((got = trace_next(&r, &line, &len)) > 0) {
		if (trace_parse(line, len, &t, why)) {
			if (trace_left_out(&r, why)) {
				r.number--;
				break;
			}
			if (w->before_error)
				w->before_error(w->ctx);
			trace_error(&r, "%s", why);
			ret = EXIT_REFUSED;
			break;
		}
		if (w->line(w->ctx, &t, r.number, line, len)) {
			ret = system_error("malloc");
			break;
		}
	}
	if (got < 0)
		ret = EXIT_REFUSED;
	w->lines = r.number;
	trace_close(&r);
	return ret;
}

void format_span(uint64_t from_us, uint64_t to_us, char *buf, size_t size)
{
	uint64_t us = to_us - from_us;
	double v;

	/* CPUs' clocks apart, or a trace put together from two. */
	if (to_us < from_us) {
		snprintf(buf, size, "timestamps go backwards by %" PRIu64 " us", from_us - to_us);
		return;
	}
	v = us;

	if (us < 1000) {
		snprintf(buf, size, "%" PRIu64 " us", us);
		return;
	}
	v = us / 1e3;
	if (v < 999.5) {
		snprintf(buf, size, "%.3g ms", v);
		return;
	}
	snprintf(buf, size, "%.3g s", us / 1e6);
}

int session_write_output(int argc, char **argv, unsigned int allowed,
			 int (*write)(struct session *s))
{
	struct session s;
	bool opened = false;
	int ret;

	ret = session_start(&s, argc, argv, allowed, 1);
	if (!ret && s.output) {
		ret = output_start(s.output);
		opened = !ret;
	}
	if (!ret)
		ret = write(&s);
	/* A trace refused half-way leaves FILE as it was. */
	if (opened)
		ret = output_end(ret);
	session_end(&s);
	return ret;
}
