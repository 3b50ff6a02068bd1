// SPDX-License-Identifier: GPL-2.0
/*
 * fuzzwrite: a seeded bad-input corpus for the control files. Each round
 * mutates a valid write (byte flips, truncation, huge numbers, signs,
 * suffixes, whitespace and control characters, long lines, many lines,
 * a write split in two), writes it, and checks:
 *   - a failed write fails with one of the file's documented errnos;
 *   - after a failed write the state reads back byte-identical;
 *   - "ranges" always reads back sorted, disjoint, non-adjacent ranges.
 * The state is restored after every round, so rounds are independent and
 * a failure reproduces from SEED and the round number.
 *
 * usage: fuzzwrite KIND FILE STATE SEED ROUNDS
 *   KIND   ranges | toggle | marker
 *   STATE  the file whose content must not change on failure (FILE itself
 *          for ranges and toggles; the stats file for the marker)
 * Prints one summary line; exits 1 on the first violation.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BUF_MAX (80 * 1024)

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: small, seeded, reproducible */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int pick(unsigned int n)
{
	return rnd() % n;
}

static const char *const ranges_seeds[] = {
	"0x1000 4k\n", "!0x2000 0x10\n", "0xfea00000 1M\n", "4096 16\n",
	"0x100000000 2G\n", "0 1\n", "0xfffffffffffffffe 1\n", "!0x0 0x1000\n",
	"0x1000 4k\n0x3000 0x1000\n",
};
static const char *const toggle_seeds[] = { "0\n", "1\n", "0", "1" };
static const char *const marker_seeds[] = { "hello\n", "after init", "x\n" };
static const char *const pieces[] = {
	"-", "+", "0", "00", "0x", "0X", "k", "K", "m", "G", "T", "q", " ", "\t", "\n",
	"\r", "\v", "\f", "!", "!!", "#", ",", ".", "18446744073709551615",
	"18446744073709551616", "0xffffffffffffffff", "0x10000000000000000",
	"99999999999999999999999", "17179869184G", "\x7f", "\x80", "\xff", "\x01",
};

struct kind {
	const char *name;
	const char *const *seeds;
	unsigned int nr_seeds;
	int errnos[4];		/* the documented ones, 0-terminated */
};

static const struct kind kinds[] = {
	{ "ranges", ranges_seeds, sizeof(ranges_seeds) / sizeof(*ranges_seeds),
	  { EINVAL, ENOSPC, ENOMEM, 0 } },
	{ "toggle", toggle_seeds, sizeof(toggle_seeds) / sizeof(*toggle_seeds),
	  { EINVAL, ENOMEM, 0 } },
	{ "marker", marker_seeds, sizeof(marker_seeds) / sizeof(*marker_seeds),
	  { EINVAL, ENODEV, ENOSPC, 0 } },
};

static size_t append(char *buf, size_t len, const char *s, size_t n)
{
	if (len + n > BUF_MAX)
		n = BUF_MAX - len;
	memcpy(buf + len, s, n);
	return len + n;
}

/* One mutation of buf[0..len), returning the new length. */
static size_t mutate(const struct kind *k, char *buf, size_t len)
{
	const char *piece;
	size_t at, i, n;

	switch (pick(9)) {
	case 0:	/* flip bits of a byte */
		if (len)
			buf[pick(len)] ^= 1 << pick(8);
		return len;
	case 1:	/* truncate */
		return len ? pick(len) : 0;
	case 2:	/* insert a piece */
		piece = pieces[pick(sizeof(pieces) / sizeof(*pieces))];
		n = strlen(piece);
		if (len + n > BUF_MAX)
			return len;
		at = len ? pick(len + 1) : 0;
		memmove(buf + at + n, buf + at, len - at);
		memcpy(buf + at, piece, n);
		return len + n;
	case 3:	/* replace a byte with a control character or NUL */
		if (len)
			buf[pick(len)] = (char)pick(32);
		return len;
	case 4:	/* a very long line */
		n = 60 + pick(200);
		for (i = 0; i < n && len < BUF_MAX; i++)
			buf[len++] = "0123456789abcdefx "[pick(18)];
		return len;
	case 5:	/* many lines in one write */
		n = 1 + pick(2000);
		for (i = 0; i < n; i++) {
			const char *seed = k->seeds[pick(k->nr_seeds)];

			len = append(buf, len, seed, strlen(seed));
		}
		return len;
	case 6:	/* delete a byte */
		if (!len)
			return 0;
		at = pick(len);
		memmove(buf + at, buf + at + 1, len - at - 1);
		return len - 1;
	case 7:	/* duplicate a span */
		if (!len)
			return 0;
		at = pick(len);
		n = pick(len - at) + 1;
		if (len + n > BUF_MAX)
			return len;
		memmove(buf + at + n, buf + at, len - at);
		return len + n;
	default: /* swap two bytes */
		if (len > 1) {
			char c;

			at = pick(len);
			i = pick(len);
			c = buf[at];
			buf[at] = buf[i];
			buf[i] = c;
		}
		return len;
	}
}

static ssize_t read_all(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t got, total = 0;

	if (fd < 0)
		return -1;
	while ((got = read(fd, buf + total, size - 1 - total)) > 0)
		total += got;
	close(fd);
	if (got < 0)
		return -1;
	buf[total] = '\0';
	return total;
}

/* The documented shape of "ranges": sorted, disjoint, not adjacent. */
static int ranges_well_formed(const char *text)
{
	uint64_t start, size, prev_end = 0;
	int first = 1, used;

	while (*text) {
		if (sscanf(text, "0x%" SCNx64 " 0x%" SCNx64 "\n%n", &start, &size, &used) != 2 ||
		    !size || start + size < start || (!first && start <= prev_end))
			return 0;
		prev_end = start + size;
		first = 0;
		text += used;
	}
	return 1;
}

static int errno_allowed(const struct kind *k, int err)
{
	const int *e;

	for (e = k->errnos; *e; e++)
		if (*e == err)
			return 1;
	return 0;
}

static void dump(const char *what, const char *buf, size_t len)
{
	size_t i;

	fprintf(stderr, "%s (%zu bytes): ", what, len);
	for (i = 0; i < len && i < 200; i++)
		fprintf(stderr, buf[i] >= 32 && buf[i] < 127 ? "%c" : "\\x%02x",
			(unsigned char)buf[i]);
	fprintf(stderr, "%s\n", len > 200 ? "..." : "");
}

static int restore(const char *path, const char *saved)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t len = strlen(saved);

	if (fd < 0)
		return -1;
	if (len && write(fd, saved, len) != len) {
		close(fd);
		return -1;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	static char buf[BUF_MAX + 1], before[BUF_MAX], after[BUF_MAX];
	unsigned long rounds, round, accepted = 0, rejected = 0;
	const struct kind *k = NULL;
	const char *file, *state;
	size_t i;

	if (argc != 6) {
		fprintf(stderr, "usage: fuzzwrite ranges|toggle|marker FILE STATE SEED ROUNDS\n");
		return 2;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
		if (!strcmp(argv[1], kinds[i].name))
			k = &kinds[i];
	if (!k)
		return 2;
	file = argv[2];
	state = argv[3];
	rng_state = strtoull(argv[4], NULL, 0) | 1;
	rounds = strtoul(argv[5], NULL, 0);

	for (round = 0; round < rounds; round++) {
		const char *seed = k->seeds[pick(k->nr_seeds)];
		size_t len = strlen(seed), split, mutations = 1 + pick(4);
		int fd, flags = O_WRONLY | (pick(2) ? O_TRUNC : O_APPEND);
		ssize_t first, second = 0;
		int err = 0;

		memcpy(buf, seed, len);
		for (i = 0; i < mutations; i++)
			len = mutate(k, buf, len);
		if (!len)
			continue;
		/* A quarter of the writes go in two parts. */
		split = pick(4) ? len : pick(len) + 1;

		if (read_all(state, before, sizeof(before)) < 0) {
			perror(state);
			return 1;
		}
		fd = open(file, flags);
		if (fd < 0) {
			perror(file);
			return 1;
		}
		first = write(fd, buf, split);
		if (first < 0)
			err = errno;
		else if (split < len && (second = write(fd, buf + split, len - split)) < 0)
			err = errno;
		close(fd);

		if (err && !errno_allowed(k, err)) {
			fprintf(stderr, "fuzzwrite: %s: seed %s round %lu: undocumented errno %d (%s)\n",
				file, argv[4], round, err, strerror(err));
			dump("input", buf, len);
			return 1;
		}
		if (read_all(state, after, sizeof(after)) < 0) {
			perror(state);
			return 1;
		}
		/* Only a failing first write must leave everything as it was. */
		if (first < 0 && strcmp(before, after)) {
			fprintf(stderr, "fuzzwrite: %s: seed %s round %lu: failed write changed the state\n",
				file, argv[4], round);
			dump("input", buf, len);
			dump("before", before, strlen(before));
			dump("after", after, strlen(after));
			return 1;
		}
		if (!strcmp(k->name, "ranges") && !ranges_well_formed(after)) {
			fprintf(stderr, "fuzzwrite: %s: seed %s round %lu: malformed set read back\n",
				file, argv[4], round);
			dump("input", buf, len);
			dump("after", after, strlen(after));
			return 1;
		}
		if (err)
			rejected++;
		else
			accepted++;
		if (strcmp(k->name, "marker") && strcmp(before, after) && restore(file, before)) {
			perror(file);
			return 1;
		}
	}
	printf("fuzzwrite: %s: %lu rounds, %lu accepted, %lu rejected, seed %s\n",
	       file, rounds, accepted, rejected, argv[4]);
	return 0;
}
