// SPDX-License-Identifier: GPL-2.0
/*
 * diff [--map FILE[@ADDR]]... A B
 *
 * Compares what two traces did to their devices, whatever the addresses:
 * each trace becomes a list of lines without times, map ids or physical
 * addresses ("W4 NVME+0x0014 0x00460001 CC <= EN=1 ..."), polling loops
 * folded without their counts ("... polled, then RDY=1"), registers that a
 * map marks volatile left out. The lists are cut into sections at MARK
 * lines; sections are paired by their marker text, then compared pair by
 * pair (Myers' algorithm, linear space). The output is a unified diff of
 * those lines, each hunk headed by its section's marker.
 *
 * Exit status as diff(1): 0 the same, 1 different, 2 trouble. Both traces
 * are held in memory as these lines, each distinct line once.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/files.h"
#include "common/out.h"
#include "readers/analyze.h"
#include "readers/readers.h"

#define CONTEXT	3
#define EXIT_TROUBLE	2

/* ---- distinct lines, each stored once ---- */

struct strtab {
	char **strs;
	uint64_t *hashes;
	size_t n, cap;
	uint32_t *slots;	/* id + 1; 0: free */
	size_t nslots;
};

static uint64_t hash_of(const char *s, size_t n)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * UINT64_C(0x100000001b3);
	return h;
}

static int strtab_grow(struct strtab *t)
{
	size_t nslots = t->nslots ? t->nslots * 2 : 1024, i, j;
	uint32_t *slots = calloc(nslots, sizeof(*slots));

	if (!slots)
		return -1;
	for (i = 0; i < t->n; i++) {
		for (j = t->hashes[i] & (nslots - 1); slots[j]; j = (j + 1) & (nslots - 1))
			;
		slots[j] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

/* The id of the line S (N bytes), added if new; -1 on ENOMEM. */
static long intern(struct strtab *t, const char *s, size_t n)
{
	uint64_t h = hash_of(s, n);
	size_t j;

	if ((t->n + 1) * 2 > t->nslots && strtab_grow(t))
		return -1;
	for (j = h & (t->nslots - 1); t->slots[j]; j = (j + 1) & (t->nslots - 1)) {
		size_t id = t->slots[j] - 1;

		if (t->hashes[id] == h && !strncmp(t->strs[id], s, n) && !t->strs[id][n])
			return id;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;
		char **strs = realloc(t->strs, cap * sizeof(*strs));
		uint64_t *hashes = strs ? realloc(t->hashes, cap * sizeof(*hashes)) : NULL;

		if (strs)
			t->strs = strs;
		if (!hashes)
			return -1;
		t->hashes = hashes;
		t->cap = cap;
	}
	t->strs[t->n] = strndup(s, n);
	if (!t->strs[t->n])
		return -1;
	t->hashes[t->n] = h;
	t->slots[j] = t->n + 1;
	return t->n++;
}

static void strtab_free(struct strtab *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->hashes);
	free(t->slots);
}

/* ---- a trace as lines ---- */

struct section {
	long name;		/* id of the marker text; the first section: START */
	size_t start;		/* its first line */
};

struct lines {
	const char *name;
	long *ids;
	unsigned long long *numbers;	/* of each line's first trace line */
	size_t n, cap;
	struct section *sections;
	size_t nsections, sections_cap;
	uint64_t lost;
};

struct builder {
	struct session *s;
	struct strtab *tab;
	struct lines *lines;
	struct poll run;
};

/* Line @number of the trace, as @text. */
static int add_line(struct builder *b, unsigned long long number, const char *text, size_t n)
{
	struct lines *l = b->lines;
	long id = intern(b->tab, text, n);

	if (id < 0)
		return -1;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 4096;
		long *ids = realloc(l->ids, cap * sizeof(*ids));
		unsigned long long *numbers;

		if (!ids)
			return -1;
		l->ids = ids;
		numbers = realloc(l->numbers, cap * sizeof(*numbers));
		if (!numbers)
			return -1;
		l->numbers = numbers;
		l->cap = cap;
	}
	l->numbers[l->n] = number;
	l->ids[l->n++] = id;
	return 0;
}

static int add_section(struct builder *b, long name)
{
	struct lines *l = b->lines;

	if (l->nsections == l->sections_cap) {
		size_t cap = l->sections_cap ? l->sections_cap * 2 : 16;
		struct section *s = realloc(l->sections, cap * sizeof(*s));

		if (!s)
			return -1;
		l->sections = s;
		l->sections_cap = cap;
	}
	l->sections[l->nsections].name = name;
	l->sections[l->nsections++].start = l->n;
	return 0;
}

/* A run that ended, as a line: a read as it is, a loop without its count. */
static int end_run(void *ctx, const struct poll *run, const struct access *final)
{
	char buf[DECODED_MAX * 2 + 32];
	size_t n;

	n = access_text(&run->first, buf, DECODED_MAX);
	if (run->count > 1) {
		memcpy(buf + n, " polled", 7);
		n += 7;
		if (final) {
			memcpy(buf + n, ", then ", 7);
			n += 7;
			n += access_changes(&run->first, final->t.value, buf + n, DECODED_MAX);
		}
	}
	return add_line(ctx, run->first.line, buf, n);
}

static int build_access(struct builder *b, const struct trace_line *t, unsigned long long number)
{
	char buf[DECODED_MAX];
	struct access a;
	int taken;

	if (access_from(b->s, t, number, &a))
		return -1;
	if (a.hit.reg && a.hit.reg->is_volatile)
		return 0;
	taken = poll_feed(&b->run, &a, end_run, b);
	if (taken)
		return taken < 0 ? -1 : 0;
	return add_line(b, number, buf, access_text(&a, buf, sizeof(buf)));
}

/* "LABEL+0xOFFSET" of a physical address, as the accesses show it. */
static int place(struct builder *b, uint64_t phys, long map_id, char *buf, size_t size)
{
	uint64_t offset;
	struct region *r = region_of(b->s, phys, map_id, &offset);

	if (!r)
		return -1;
	return snprintf(buf, size, "%s+0x%0*" PRIx64, r->label, (int)r->digits, offset);
}

/* Lines other than accesses: MAP, UNMAP, UNKNOWN, MARK, IN and OUT are compared. */
static int build_other(struct builder *b, const struct trace_line *t, unsigned long long number)
{
	char buf[TRACE_LINE_MAX + 64], where[128];
	const struct mapping *mapping;
	long name;
	int n;

	if (poll_flush(&b->run, end_run, b))
		return -1;
	switch (t->type) {
	case TRACE_MAP:
		if (regions_update(b->s, t) || place(b, t->phys, t->map_id, where, sizeof(where)) < 0)
			return -1;
		n = snprintf(buf, sizeof(buf), "MAP %s 0x%" PRIx64, where, t->len);
		return add_line(b, number, buf, n);
	case TRACE_UNMAP:
		/* Where it was, from its MAP line. */
		mapping = u64map_get(&b->s->regions.mappings, t->map_id);
		if (mapping && place(b, mapping->phys, t->map_id, where, sizeof(where)) < 0)
			return -1;
		n = snprintf(buf, sizeof(buf), "UNMAP %s", mapping ? where : "(a mapping not seen)");
		return regions_update(b->s, t) || add_line(b, number, buf, n);
	case TRACE_UNKNOWN:
		if (place(b, t->phys, t->map_id, where, sizeof(where)) < 0)
			return -1;
		n = snprintf(buf, sizeof(buf), "UNKNOWN %s %02x,%02x,%02x", where, t->opcode[0],
			     t->opcode[1], t->opcode[2]);
		return add_line(b, number, buf, n);
	case TRACE_MARK:
		name = intern(b->tab, t->text, t->text_len);
		n = snprintf(buf, sizeof(buf), "MARK %.*s", (int)t->text_len, t->text);
		return name < 0 || add_section(b, name) || add_line(b, number, buf, n);
	case TRACE_PIO_READ:
	case TRACE_PIO_WRITE:
		n = snprintf(buf, sizeof(buf), "%s %u 0x%04" PRIx64 " 0x%" PRIx64,
			     t->type == TRACE_PIO_READ ? "IN" : "OUT", t->width, t->phys, t->value);
		return add_line(b, number, buf, n);
	case TRACE_LOST:
		b->lines->lost += t->lost;
		return 0;
	default:
		return regions_update(b->s, t);
	}
}

static int build_line(void *ctx, const struct trace_line *t, unsigned long long number,
		      const char *text, size_t len)
{
	(void)text;
	(void)len;
	return trace_is_access(t) ? build_access(ctx, t, number) : build_other(ctx, t, number);
}

/* Read a trace into lines. 0, or the exit status with a message printed. */
static int build(struct session *s, struct strtab *tab, long start_id, const char *path,
		 struct lines *lines)
{
	struct builder b = { .s = s, .tab = tab, .lines = lines };
	struct trace_walk w = { build_line, NULL, NULL, &b, NULL, 0 };
	int ret;

	session_reset_regions(s);
	lines->name = path;
	if (add_section(&b, start_id)) {
		system_error("malloc");
		return EXIT_TROUBLE;
	}
	ret = walk_trace(path, &w);
	if (!ret && poll_flush(&b.run, end_run, &b))
		ret = system_error("malloc");
	if (ret)
		return EXIT_TROUBLE;
	session_note_unused_maps(s, w.name);
	if (lines->lost)
		fprintf(stderr, "mmioctl: %s: %" PRIu64 " events were lost: the diff may show differences that are not there\n",
			w.name, lines->lost);
	return 0;
}

static void lines_free(struct lines *l)
{
	free(l->ids);
	free(l->numbers);
	free(l->sections);
}

/* ---- Myers' algorithm, linear space: marks deleted and inserted lines ---- */

struct myers {
	const long *a, *b;
	char *del, *ins;
	long *vf, *vb;		/* forward and backward furthest x, per diagonal */
};

/*
 * Past an edit cost of TOO_EXPENSIVE, split() settles for the furthest
 * point reached instead of the middle snake, as GNU diff does: the script
 * may then be longer than the shortest (0.1% on two unrelated traces of 2 M
 * lines), and a split costs at most about TOO_EXPENSIVE^2 steps, so that
 * such traces compare in 8 s, not hours. Traces that differ by fewer
 * edits get the shortest script.
 */
#define TOO_EXPENSIVE	1024

static void settle(long n, long m, long fmin, long fmax, long bmin, long bmax, const long *vf,
		   const long *vb, long *x_out, long *y_out)
{
	long k, x, y, fxy = -1, fx = 0, bxy = LONG_MAX, bx = 0;

	for (k = fmax; k >= fmin; k -= 2) {
		x = vf[k] < n ? vf[k] : n;
		y = x - k;
		if (y > m) {
			x = m + k;
			y = m;
		}
		if (x + y > fxy) {
			fxy = x + y;
			fx = x;
		}
	}
	for (k = bmax; k >= bmin; k -= 2) {
		x = vb[k] > 0 ? vb[k] : 0;
		y = x - k;
		if (y < 0) {
			x = k;
			y = 0;
		}
		if (x + y < bxy) {
			bxy = x + y;
			bx = x;
		}
	}
	/* The one that got further from its own corner. */
	if (n + m - bxy < fxy) {
		*x_out = fx;
		*y_out = fxy - fx;
	} else {
		*x_out = bx;
		*y_out = bxy - bx;
	}
}

/*
 * A point on a shortest edit path from (aoff, boff) to (alim, blim), the
 * ends of the middle snake: both halves then cost about half. The ranges
 * start and end with a difference (compareseq trims them), so neither end
 * of the box is returned. As in Myers (1986), section 4b, and xdiff.
 */
static void split(struct myers *my, long aoff, long alim, long boff, long blim, long *sx, long *sy)
{
	const long *a = my->a + aoff, *b = my->b + boff;
	const long n = alim - aoff, m = blim - boff, delta = n - m;
	const int odd = delta & 1;
	long *vf = my->vf + m + 1, *vb = my->vb + m + 1;	/* diagonals -m-1 .. n+1 */
	long fmin = 0, fmax = 0, bmin = delta, bmax = delta, k, x, y, cost;

	vf[0] = 0;
	vb[delta] = n;
	for (cost = 1;; cost++) {
		if (fmin > -m)
			vf[--fmin - 1] = -1;
		else
			fmin++;
		if (fmax < n)
			vf[++fmax + 1] = -1;
		else
			fmax--;
		for (k = fmax; k >= fmin; k -= 2) {
			x = vf[k - 1] >= vf[k + 1] ? vf[k - 1] + 1 : vf[k + 1];
			y = x - k;
			while (x < n && y < m && a[x] == b[y])
				x++, y++;
			vf[k] = x;
			if (odd && bmin <= k && k <= bmax && vb[k] <= x) {
				*sx = aoff + x;
				*sy = boff + y;
				return;
			}
		}
		if (bmin > -m)
			vb[--bmin - 1] = LONG_MAX;
		else
			bmin++;
		if (bmax < n)
			vb[++bmax + 1] = LONG_MAX;
		else
			bmax--;
		for (k = bmax; k >= bmin; k -= 2) {
			x = vb[k - 1] < vb[k + 1] ? vb[k - 1] : vb[k + 1] - 1;
			y = x - k;
			while (x > 0 && y > 0 && a[x - 1] == b[y - 1])
				x--, y--;
			vb[k] = x;
			if (!odd && fmin <= k && k <= fmax && x <= vf[k]) {
				*sx = aoff + x;
				*sy = boff + y;
				return;
			}
		}
		if (cost >= TOO_EXPENSIVE) {
			settle(n, m, fmin, fmax, bmin, bmax, vf, vb, &x, &y);
			*sx = aoff + x;
			*sy = boff + y;
			return;
		}
	}
}

static void compareseq(struct myers *my, long aoff, long alim, long boff, long blim)
{
	long x, y;

	while (aoff < alim && boff < blim && my->a[aoff] == my->b[boff])
		aoff++, boff++;
	while (aoff < alim && boff < blim && my->a[alim - 1] == my->b[blim - 1])
		alim--, blim--;
	if (aoff == alim) {
		while (boff < blim)
			my->ins[boff++] = 1;
	} else if (boff == blim) {
		while (aoff < alim)
			my->del[aoff++] = 1;
	} else {
		split(my, aoff, alim, boff, blim, &x, &y);
		compareseq(my, aoff, x, boff, y);
		compareseq(my, x, alim, y, blim);
	}
}

/* Mark the lines of A to delete and of B to insert. -1 on ENOMEM. */
static int edit_script(const long *a, size_t na, const long *b, size_t nb, char *del, char *ins)
{
	struct myers my = { a, b, del, ins, NULL, NULL };

	my.vf = malloc((na + nb + 3) * sizeof(long));
	my.vb = malloc((na + nb + 3) * sizeof(long));
	if (!my.vf || !my.vb) {
		free(my.vf);
		free(my.vb);
		return -1;
	}
	compareseq(&my, 0, na, 0, nb);
	free(my.vf);
	free(my.vb);
	return 0;
}

/*
 * Pair the sections by marker (the longest common sequence of markers),
 * then compare the lines between one pair of markers and the next, pair by
 * pair: a section only one trace has is part of the span it falls in.
 */
static int compare(const struct lines *A, const struct lines *B, char *del, char *ins)
{
	size_t na = A->nsections, nb = B->nsections, i, j;
	long *an = malloc((na + 1) * sizeof(long)), *bn = malloc((nb + 1) * sizeof(long));
	char *sdel = calloc(na + 1, 1), *sins = calloc(nb + 1, 1);
	struct myers my = { A->ids, B->ids, del, ins, NULL, NULL };
	int ret = -1;

	my.vf = malloc((A->n + B->n + 3) * sizeof(long));
	my.vb = malloc((A->n + B->n + 3) * sizeof(long));
	if (!an || !bn || !sdel || !sins || !my.vf || !my.vb)
		goto out;
	for (i = 0; i < na; i++)
		an[i] = A->sections[i].name;
	for (j = 0; j < nb; j++)
		bn[j] = B->sections[j].name;
	if (edit_script(an, na, bn, nb, sdel, sins))
		goto out;
	/* The first sections have the same name: they always pair. */
	for (i = 0, j = 0; i < na && j < nb;) {
		size_t ni = i + 1, nj = j + 1;

		while (ni < na && sdel[ni])
			ni++;
		while (nj < nb && sins[nj])
			nj++;
		compareseq(&my, A->sections[i].start, ni < na ? A->sections[ni].start : A->n,
			   B->sections[j].start, nj < nb ? B->sections[nj].start : B->n);
		i = ni;
		j = nj;
	}
	ret = 0;
out:
	free(an);
	free(bn);
	free(sdel);
	free(sins);
	free(my.vf);
	free(my.vb);
	return ret;
}

/* ---- unified output ---- */

enum op_kind { OP_SAME, OP_DEL, OP_INS };

struct op {
	enum op_kind kind;
	size_t a, b;		/* lines of A and B before this one */
};

/* The marker of the section holding line I of L, or NULL for the first. */
static const char *section_of(const struct lines *l, const struct strtab *tab, size_t i,
			      long start_id)
{
	size_t s = 0;

	while (s + 1 < l->nsections && l->sections[s + 1].start <= i)
		s++;
	return l->sections[s].name == start_id ? NULL : tab->strs[l->sections[s].name];
}

/*
 * Where a hunk starts in a trace file, as diff -u says it: the trace line
 * of its first line on that side or, when it has none there, of the line
 * it follows (0: none). Its counts are of compared lines, which a polling
 * loop, a volatile register or a VERSION line make differ from the file's.
 */
static unsigned long long hunk_start(const struct lines *l, size_t i, size_t count)
{
	if (count)
		return l->numbers[i];
	return i ? l->numbers[i - 1] : 0;
}

static void print_hunk(const struct lines *A, const struct lines *B, const struct strtab *tab,
		       long start_id, const struct op *ops, size_t h0, size_t h1)
{
	size_t acount = 0, bcount = 0, i;
	const char *marker;

	for (i = h0; i < h1; i++) {
		acount += ops[i].kind != OP_INS;
		bcount += ops[i].kind != OP_DEL;
	}
	out_str("@@ -");
	out_dec(hunk_start(A, ops[h0].a, acount));
	out_char(',');
	out_dec(acount);
	out_str(" +");
	out_dec(hunk_start(B, ops[h0].b, bcount));
	out_char(',');
	out_dec(bcount);
	out_str(" @@");
	marker = acount ? section_of(A, tab, ops[h0].a, start_id) :
		section_of(B, tab, ops[h0].b, start_id);
	if (marker) {
		out_str(" MARK ");
		out_str(marker);
	}
	out_char('\n');
	for (i = h0; i < h1; i++) {
		const char *text = tab->strs[ops[i].kind == OP_INS ? B->ids[ops[i].b] :
					     A->ids[ops[i].a]];

		out_char(ops[i].kind == OP_SAME ? ' ' : ops[i].kind == OP_DEL ? '-' : '+');
		out_str(text);
		out_char('\n');
	}
}

/* 0 the same, 1 different (printed), -1 ENOMEM. */
static int print_diff(const struct lines *A, const struct lines *B, const struct strtab *tab,
		      long start_id, const char *del, const char *ins)
{
	struct op *ops = malloc((A->n + B->n + 1) * sizeof(*ops));
	size_t nops = 0, a = 0, b = 0, i, h0, h1, last;
	bool any = false;

	if (!ops)
		return -1;
	while (a < A->n || b < B->n) {
		ops[nops].a = a;
		ops[nops].b = b;
		if (a < A->n && del[a]) {
			ops[nops++].kind = OP_DEL;
			a++;
		} else if (b < B->n && ins[b]) {
			ops[nops++].kind = OP_INS;
			b++;
		} else {
			ops[nops++].kind = OP_SAME;
			a++;
			b++;
		}
	}
	for (i = 0; i < nops; i++) {
		if (ops[i].kind == OP_SAME)
			continue;
		if (!any) {
			out_str("--- ");
			out_str(A->name);
			out_str("\n+++ ");
			out_str(B->name);
			out_char('\n');
			any = true;
		}
		/* A hunk: changes no more than 2 * CONTEXT same lines apart. */
		h0 = i > CONTEXT ? i - CONTEXT : 0;
		for (last = i; i < nops; i++) {
			if (ops[i].kind != OP_SAME)
				last = i;
			else if (i - last > 2 * CONTEXT)
				break;
		}
		h1 = last + 1 + CONTEXT < nops ? last + 1 + CONTEXT : nops;
		print_hunk(A, B, tab, start_id, ops, h0, h1);
		i = h1 - 1;
	}
	free(ops);
	return any;
}

int cmd_diff(int argc, char **argv)
{
	struct lines A = { 0 }, B = { 0 };
	struct strtab tab = { 0 };
	char *del = NULL, *ins = NULL;
	struct session s;
	long start_id;
	int ret;

	/* A usage error or a map that cannot be read: trouble, as diff(1) says. */
	if (session_start(&s, argc, argv, OPT_MAP, 2)) {
		ret = EXIT_TROUBLE;
		goto out;
	}
	/* The first section has no marker: a name no marker text can have. */
	start_id = intern(&tab, "\n", 1);
	ret = start_id < 0 ? EXIT_TROUBLE : build(&s, &tab, start_id, s.paths[0], &A);
	if (!ret)
		ret = build(&s, &tab, start_id, s.paths[1], &B);
	if (ret)
		goto out;
	del = calloc(A.n + 1, 1);
	ins = calloc(B.n + 1, 1);
	if (!del || !ins || compare(&A, &B, del, ins)) {
		ret = -1;
		goto out;
	}
	ret = print_diff(&A, &B, &tab, start_id, del, ins);
	out_flush();
	/* Output that did not all get out is trouble, not "they differ" (main says why). */
	if (ret >= 0 && (fflush(stdout) || ferror(stdout)))
		ret = EXIT_TROUBLE;
out:
	if (ret < 0) {
		system_error("malloc");
		ret = EXIT_TROUBLE;
	}
	free(del);
	free(ins);
	lines_free(&A);
	lines_free(&B);
	strtab_free(&tab);
	session_end(&s);
	return ret;
}
