// SPDX-License-Identifier: GPL-2.0
/*
 * mmioctl fuzz: feed an unmodified driver chosen values for the reads its
 * probe makes of its real device, guided by kcov, and keep each crash as
 * an overrides file that replays it.
 *
 * One execution: the input, one value per read, goes to the kernel's feed
 * file; every register the probe read so far has an "= feed" rule, so its
 * reads take the feed's values in order (the device's own once it runs
 * dry); a child binds the driver and unbinds it with kcov on; the trace
 * tells what the driver saw and which registers it read that have no rule
 * yet (they get one); the kernel log tells whether it crashed. An input
 * that reaches new code joins the corpus, and is run once more collecting
 * comparison operands: where the driver compared a value it read with
 * something else, that something is tried in its place (kcov's
 * KCOV_TRACE_CMP, as syzkaller's hints). The state lives in a directory,
 * each file also copied to a journal (a serial port) before it counts, so
 * that a guest that died can be restarted from it: the input in flight
 * ("current") is the one that killed it.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "control/commands.h"
#include "control/tracer.h"
#include "readers/trace.h"

/* <linux/kcov.h>, which a static build may not have. */
#define KCOV_INIT_TRACE		_IOR('c', 1, unsigned long)
#define KCOV_ENABLE		_IO('c', 100)
#define KCOV_DISABLE		_IO('c', 101)
#define KCOV_TRACE_PC		0
#define KCOV_TRACE_CMP		1
#define KCOV_CMP_CONST		1
#define KCOV_WORDS		(256 * 1024)

#define MAX_KEYS	64		/* the kernel's rules */
#define MAX_SLOTS	4096		/* values of one input */
#define COVER_BITS	(1u << 16)
#define MAX_HINTS	256
#define MAX_DICT	256
/* Past the hung-task detector's 120 s, and nvme's CAP.TO wait of 127.5 s at most. */
#define HANG_SECONDS	180
#define EXIT_HANG	3		/* a bind never returned: restart the machine */

/* A register the driver reads: a rule of its own, "= feed". */
struct key {
	uint64_t addr;
	unsigned int width;
};

/* An input: the value of each read of a ruled register, in order. */
struct input {
	size_t n;
	uint64_t value[MAX_SLOTS];
	unsigned char key[MAX_SLOTS];	/* the register of each read */
};

/* A value to put in a slot: a comparison's other operand. */
struct hint {
	unsigned int slot;
	uint64_t value;
};

struct entry {
	struct input in;
	struct hint hint[MAX_HINTS];
	unsigned int nhints;
};

/* What one execution did. */
struct outcome {
	struct input seen;		/* what the driver read, ruled registers only */
	unsigned int ruled;		/* registers with a rule as it ran */
	unsigned int new_keys;
	bool new_cover;
	bool stuck;			/* the bind hung or its task died */
	char crash[256];		/* the first line of a report, or "" */
};

struct fuzzer {
	const char *driver, *bdf, *dir, *journal_path;
	char bind[PATH_MAX], unbind[PATH_MAX];
	struct { uint64_t start, len; } bar[6];
	struct key key[MAX_KEYS];
	unsigned int nkeys;
	uint64_t text_start, text_end;	/* the driver's module; 0, 0: anywhere */
	bool coverage;			/* --no-coverage: random values only */
	bool enabled;			/* we enabled the device */
	char bound_to[64];		/* its driver before, "" if none */
	int kcov, kmsg, trace, journal;
	uint64_t *area;
	unsigned char cover[COVER_BITS / 8];
	unsigned int covered;
	struct entry *corpus;
	unsigned int ncorpus;
	uint64_t dict[MAX_DICT];
	unsigned int ndict;
	uint64_t rng;
	int parent;			/* the corpus entry being mutated, or -1 */
	unsigned long execs;
	unsigned int crashes;
	char titles[32][256];		/* the crashes found, one of each */
};

static uint64_t next_random(struct fuzzer *f)
{
	f->rng ^= f->rng << 13;
	f->rng ^= f->rng >> 7;
	f->rng ^= f->rng << 17;
	return f->rng;
}

static unsigned int below(struct fuzzer *f, unsigned int n)
{
	return n ? next_random(f) % n : 0;
}

static uint64_t width_mask(unsigned int width)
{
	return width == 8 ? ~0ULL : (1ULL << (8 * width)) - 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --- the state directory and its journal --- */

static int journal_record(struct fuzzer *f, const char *name, const char *text,
			  const char *base_name, const char *base);

/*
 * NAME's content TEXT, also to the journal, made durable before it
 * returns; if BASE_NAME (a file written before, whose content is BASE) is
 * given, the journal gets only the lines that differ from it: a serial
 * line is slow, and an input differs from its parent in a few values.
 */
static int save_file_from(struct fuzzer *f, const char *name, const char *text,
			  const char *base_name, const char *base)
{
	char path[PATH_MAX];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	out = fopen(path, "w");
	if (!out || fputs(text, out) == EOF || fflush(out) || fsync(fileno(out))) {
		if (out)
			fclose(out);
		return system_error(path);
	}
	fclose(out);
	return f->journal >= 0 ? journal_record(f, name, text, base_name, base) : 0;
}

static int save_file(struct fuzzer *f, const char *name, const char *text)
{
	return save_file_from(f, name, text, NULL, NULL);
}

/* The number of lines of TEXT, each ended by a newline. */
static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * "@@FILE NAME LENGTH", the text, "@@END"; or "@@DELTA NAME BASE LINES",
 * then "N TEXT" for each line N (from 1) that differs from BASE's, "@@END".
 */
static int journal_record(struct fuzzer *f, const char *name, const char *text,
			  const char *base_name, const char *base)
{
	const char *t = text, *b = base;
	size_t line;

	if (!base_name) {
		dprintf(f->journal, "@@FILE %s %zu\n%s@@END\n", name, strlen(text), text);
	} else {
		dprintf(f->journal, "@@DELTA %s %s %zu\n", name, base_name, count_lines(text));
		for (line = 1; *t; line++) {
			size_t tl = strcspn(t, "\n"), bl = b ? strcspn(b, "\n") : 0;

			if (!b || !*b || tl != bl || memcmp(t, b, tl))
				dprintf(f->journal, "%zu %.*s\n", line, (int)tl, t);
			t += tl + !!t[tl];
			if (b && *b)
				b += bl + !!b[bl];
		}
		dprintf(f->journal, "@@END\n");
	}
	if (isatty(f->journal) ? tcdrain(f->journal) : fsync(f->journal))
		return system_error(f->journal_path);
	return 0;
}

static void remove_file(struct fuzzer *f, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	unlink(path);
	if (f->journal >= 0) {
		dprintf(f->journal, "@@RM %s\n", name);
		if (isatty(f->journal))
			tcdrain(f->journal);
	}
}

/* An input as text, "BAR+OFFSET WIDTH VALUE" per read: it outlives the BAR's address. */
static char *format_input(const struct fuzzer *f, const struct input *in)
{
	char *text = malloc(in->n * 64 + 1), *p = text;
	size_t i;
	int b;

	if (!text)
		return NULL;
	*p = '\0';
	for (i = 0; i < in->n; i++) {
		const struct key *k = &f->key[in->key[i]];

		for (b = 0; b < 6 && !(k->addr >= f->bar[b].start &&
				       k->addr - f->bar[b].start < f->bar[b].len); b++)
			;
		p += sprintf(p, "%d+0x%" PRIx64 " %u 0x%" PRIx64 "\n", b,
			     k->addr - f->bar[b].start, k->width, in->value[i]);
	}
	return text;
}

static int key_index(struct fuzzer *f, uint64_t addr, unsigned int width, bool add)
{
	unsigned int i;

	for (i = 0; i < f->nkeys; i++)
		if (f->key[i].addr == addr && f->key[i].width == width)
			return i;
	if (!add || f->nkeys == MAX_KEYS)
		return -1;
	f->key[f->nkeys].addr = addr;
	f->key[f->nkeys].width = width;
	return f->nkeys++;
}

/* Is [ADDR, ADDR + WIDTH) in a memory BAR of the device? */
static bool in_bars(const struct fuzzer *f, uint64_t addr, unsigned int width)
{
	int b;

	for (b = 0; b < 6; b++)
		if (f->bar[b].len && addr >= f->bar[b].start &&
		    addr - f->bar[b].start <= f->bar[b].len - width)
			return true;
	return false;
}

/*
 * An input from a file: "BAR+OFFSET WIDTH VALUE" lines, or a trace, whose
 * reads inside the device's BARs are taken (mmioctl record of a probe).
 */
static int load_input(struct fuzzer *f, const char *path, struct input *in)
{
	char line[512], why[TRACE_WHY_MAX];
	unsigned int bar, width;
	uint64_t offset, value;
	struct trace_line t;
	FILE *file = fopen(path, "r");
	int k, lineno = 0;

	if (!file)
		return system_error(path);
	in->n = 0;
	while (fgets(line, sizeof(line), file)) {
		char b[2], o[32], w[8], v[32];

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (sscanf(line, "%1[0-5]+%31s %7s %31s", b, o, w, v) == 4) {
			bar = b[0] - '0';
			if (parse_u64(o, &offset) || parse_width(w, &width) || parse_u64(v, &value) ||
			    !f->bar[bar].len || offset > f->bar[bar].len - width)
				goto bad;
			offset += f->bar[bar].start;
		} else if (!trace_parse(line, strlen(line), &t, why)) {
			if (t.type != TRACE_READ || !in_bars(f, t.phys, t.width))
				continue;
			offset = t.phys, width = t.width, value = t.value;
		} else {
			goto bad;
		}
		k = key_index(f, offset, width, true);
		if (k < 0 || in->n == MAX_SLOTS)
			continue;
		in->key[in->n] = k;
		in->value[in->n++] = value & width_mask(width);
	}
	fclose(file);
	return 0;
bad:
	fclose(file);
	fprintf(stderr, "mmioctl: %s:%d: expected BAR+OFFSET WIDTH VALUE (0+0x40 4 0xffffffff) or a trace line, inside %s's BARs\n",
		path, lineno, f->bdf);
	return EXIT_USAGE;
}

/* --- the kernel's side: rules, feed, bind --- */

static int write_rules(struct fuzzer *f)
{
	char text[MAX_KEYS * 48 + 1], *p = text;
	unsigned int i;

	*p = '\0';
	for (i = 0; i < f->nkeys; i++)
		p += sprintf(p, "0x%" PRIx64 " %u = feed\n", f->key[i].addr, f->key[i].width);
	return write_file(control_path("overrides"), text, O_TRUNC);
}

int write_feed(const uint64_t *value, size_t n)
{
	const char *path = control_path("feed");
	ssize_t done;
	int fd;

	if (!path)
		return EXIT_REFUSED;
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return system_error(path);
	/* Little-endian u64s, in one write: this is the host's order on x86 and arm64. */
	done = n ? write(fd, value, n * sizeof(*value)) : 0;
	if (done < 0 || (size_t)done != n * sizeof(*value)) {
		close(fd);
		return system_error(path);
	}
	return close(fd) ? system_error(path) : 0;
}

/*
 * The lines the kernel logged since the last call; the first report's in
 * CRASH, in place of what the execution said of itself (a signal), which
 * the report explains.
 */
static void read_kmsg(struct fuzzer *f, char *crash, size_t size, FILE *log)
{
	static const char *const reports[] = {
		"WARNING:", "BUG:", "KASAN:", "UBSAN:", "Oops", "general protection",
		"kernel BUG at", "INFO: task", "Kernel panic", "watchdog:", "RCU detected",
	};
	char record[8192];	/* CONSOLE_EXT_LOG_MAX: a record /dev/kmsg can give */
	bool reported = false;
	ssize_t n;
	size_t i;

	while ((n = read(f->kmsg, record, sizeof(record) - 1)) > 0 ||
	       (n < 0 && (errno == EPIPE || errno == EINTR))) {
		char *text;

		if (n <= 0)
			continue;
		record[n] = '\0';
		text = strchr(record, ';');
		text = text ? text + 1 : record;
		text[strcspn(text, "\n")] = '\0';
		if (log)
			fprintf(log, "%s\n", text);
		for (i = 0; !reported && i < sizeof(reports) / sizeof(reports[0]); i++)
			if (strstr(text, reports[i])) {
				snprintf(crash, size, "%s", text);
				reported = true;
			}
	}
}

/*
 * A report's title, the same for every hit of one bug: "WARNING: CPU: 1
 * PID: 215 at FILE:LINE FUNC+0x8f/0xb0" loses its CPU and PID.
 */
static void crash_title(const char *report, char *title, size_t size)
{
	const char *at = strstr(report, " at "), *from = report, *p;
	size_t used = 0;

	if (!strncmp(report, "WARNING: CPU:", 13) && at && size > 8) {
		memcpy(title, "WARNING:", 8);
		used = 8;
		from = at;
	}
	/* What changes from one hit to the next: "[#N]", addresses, "task NAME:PID". */
	for (p = from; *p && used + 2 < size; p++) {
		size_t hex = strspn(p, "0123456789abcdefx");

		if (p[0] == '[' && p[1] == '#') {
			p += strcspn(p, "]");
			if (!*p)
				break;
		} else if (hex >= 8 && (p == from || !isalnum((unsigned char)p[-1]))) {
			title[used++] = '?';
			p += hex - 1;
		} else if (*p == ':' && isdigit((unsigned char)p[1]) && strstr(report, "INFO: task")) {
			p += strspn(p + 1, "0123456789");
		} else {
			title[used++] = *p;
		}
	}
	title[used] = '\0';
}

/*
 * Bind and unbind in a child, kcov on in MODE. A bind that never returns
 * is a hang; one whose task died (an oops) may have left the device
 * locked: either way *STUCK, and nothing more can run on the device.
 */
static int run_child(struct fuzzer *f, int mode, char *crash, size_t size, bool *stuck)
{
	double deadline = now() + HANG_SECONDS;
	int status;
	pid_t pid;

	/* A child killed when it hung, if the kernel let it go since. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	pid = fork();
	if (pid < 0)
		return system_error("fork");
	if (pid == 0) {
		int err = 0;

		if (f->coverage && ioctl(f->kcov, KCOV_ENABLE, mode))
			_exit(100 + (errno < 100 ? errno : 0));
		__atomic_store_n(&f->area[0], 0, __ATOMIC_RELAXED);
		if (try_write(f->bind, f->bdf, 0))
			err = 1;
		try_write(f->unbind, f->bdf, 0);
		if (f->coverage)
			ioctl(f->kcov, KCOV_DISABLE, 0);
		_exit(err);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now() > deadline) {
			snprintf(crash, size, "hang: binding %s took more than %d s", f->driver,
				 HANG_SECONDS);
			kill(pid, SIGKILL);
			*stuck = true;
			return 0;
		}
		usleep(1000);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) >= 100) {
		fprintf(stderr, "mmioctl: kcov: cannot enable it in the binding process: %s\n",
			strerror(WEXITSTATUS(status) - 100));
		return EXIT_REFUSED;
	}
	if (WIFSIGNALED(status)) {
		snprintf(crash, size, "the binding process died of signal %d", WTERMSIG(status));
		*stuck = true;
	}
	return 0;
}

/* --- coverage --- */

static bool in_text(const struct fuzzer *f, uint64_t pc)
{
	return !f->text_end || (pc >= f->text_start && pc < f->text_end);
}

/* New edges in the PCs kcov recorded (AFL's hash of the previous and the current). */
static bool take_cover(struct fuzzer *f)
{
	uint64_t n = __atomic_load_n(&f->area[0], __ATOMIC_RELAXED), i, prev = 0;
	bool new_cover = false;

	for (i = 0; i < n && i + 1 < KCOV_WORDS; i++) {
		uint64_t pc = f->area[i + 1], cur, edge;

		if (!in_text(f, pc))
			continue;
		cur = (pc * 0x9e3779b97f4a7c15ULL) >> 48;
		edge = (cur ^ prev) % COVER_BITS;
		prev = cur >> 1;
		if (!(f->cover[edge / 8] & 1 << edge % 8)) {
			f->cover[edge / 8] |= 1 << edge % 8;
			f->covered++;
			new_cover = true;
		}
	}
	return new_cover;
}

static void add_dict(struct fuzzer *f, uint64_t value)
{
	unsigned int i;

	for (i = 0; i < f->ndict; i++)
		if (f->dict[i] == value)
			return;
	if (f->ndict < MAX_DICT)
		f->dict[f->ndict++] = value;
}

/* Where a value the driver read met another in a comparison: that other, in its slot. */
static void take_hints(struct fuzzer *f, struct entry *e)
{
	uint64_t n = __atomic_load_n(&f->area[0], __ATOMIC_RELAXED), i;
	size_t s;

	e->nhints = 0;
	for (i = 0; i < n && 1 + (i + 1) * 4 <= KCOV_WORDS; i++) {
		const uint64_t *rec = &f->area[1 + i * 4];
		uint64_t mask = width_mask(1u << ((rec[0] >> 1) & 3)), a = rec[1] & mask,
			 b = rec[2] & mask;

		if (!in_text(f, rec[3]) || a == b)
			continue;
		if (rec[0] & KCOV_CMP_CONST)
			add_dict(f, a);
		for (s = 0; s < e->in.n && e->nhints < MAX_HINTS; s++) {
			uint64_t v = e->in.value[s];

			if ((v & mask) == b)
				e->hint[e->nhints++] = (struct hint){ s, (v & ~mask) | a };
			else if ((v & mask) == a && e->nhints < MAX_HINTS)
				e->hint[e->nhints++] = (struct hint){ s, (v & ~mask) | b };
		}
	}
}

/* --- one execution --- */

/* What the driver read, from the trace: ruled registers' values, and new registers. */
static void read_trace(struct fuzzer *f, struct outcome *o)
{
	static char buf[1 << 16];
	static size_t held;
	char why[TRACE_WHY_MAX];
	struct trace_line t;
	ssize_t n;

	while ((n = read(f->trace, buf + held, sizeof(buf) - 1 - held)) > 0) {
		char *line = buf, *end;

		held += n;
		while ((end = memchr(line, '\n', buf + held - line))) {
			int k;

			if (!trace_parse(line, end - line, &t, why) && t.type == TRACE_READ &&
			    in_bars(f, t.phys, t.width)) {
				k = key_index(f, t.phys, t.width, false);
				if (k < 0 && key_index(f, t.phys, t.width, true) >= 0)
					o->new_keys++;
				else if (k >= 0 && (unsigned int)k < o->ruled &&
					 o->seen.n < MAX_SLOTS) {
					o->seen.key[o->seen.n] = k;
					o->seen.value[o->seen.n++] = t.value;
				}
			}
			line = end + 1;
		}
		held = buf + held - line;
		memmove(buf, line, held);
		/* A line longer than the buffer is no trace line: drop it. */
		if (held == sizeof(buf) - 1)
			held = 0;
	}
}

/* Save NAME, journaled as a change of the corpus entry being mutated if any. */
static int save_from_parent(struct fuzzer *f, const char *name, const char *text)
{
	char base_name[32], *base;
	int ret;

	if (f->parent < 0 || f->journal < 0)
		return save_file(f, name, text);
	base = format_input(f, &f->corpus[f->parent].in);
	if (!base)
		return system_error("malloc");
	snprintf(base_name, sizeof(base_name), "corpus/%d", f->parent + 1);
	ret = save_file_from(f, name, text, base_name, base);
	free(base);
	return ret;
}

/* Read the trace of what is not an execution of ours, for nothing. */
static void drain_trace(struct fuzzer *f)
{
	struct outcome *o = calloc(1, sizeof(*o));

	if (o) {
		o->ruled = f->nkeys;
		read_trace(f, o);
	}
	free(o);
}

/* Run IN: saved as "current" first, so that a guest that dies keeps it. */
static int execute(struct fuzzer *f, const struct input *in, int mode, struct outcome *o, FILE *log)
{
	char *text = format_input(f, in);
	int ret;

	memset(o, 0, sizeof(*o));
	o->ruled = f->nkeys;
	if (!text)
		return system_error("malloc");
	ret = save_from_parent(f, "current", text);
	free(text);
	if (ret)
		return ret;
	ret = write_feed(in->value, in->n);
	if (!ret)
		ret = run_child(f, mode, o->crash, sizeof(o->crash), &o->stuck);
	if (ret) {
		remove_file(f, "current");	/* it never ran */
		return ret;
	}
	f->execs++;
	read_kmsg(f, o->crash, sizeof(o->crash), log);
	read_trace(f, o);
	if (f->coverage && mode == KCOV_TRACE_PC)
		o->new_cover = take_cover(f);
	/* A stuck execution's input stays in flight: keep_crash() takes it. */
	if (!o->stuck)
		remove_file(f, "current");
	if (o->new_keys && write_rules(f))
		return EXIT_REFUSED;
	return 0;
}

/* --- mutation --- */

static void mutate(struct fuzzer *f, const struct entry *parent, struct input *child)
{
	static const uint64_t special[] = { 0, 1, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
					    0x7fffffff, 0x80000000, 0xffffffff, ~0ULL };
	unsigned int rounds = 1 + below(f, 3), r;

	*child = parent->in;
	for (r = 0; r < rounds && child->n; r++) {
		unsigned int s = below(f, child->n), choice = below(f, f->coverage ? 8 : 5);
		uint64_t mask = width_mask(f->key[child->key[s]].width);

		switch (choice) {
		case 0:
			child->value[s] ^= 1ULL << below(f, 64);
			break;
		case 1:
			child->value[s] = special[below(f, sizeof(special) / sizeof(special[0]))];
			break;
		case 2:
			child->value[s] = next_random(f);
			break;
		case 3:
			child->value[s] += (int64_t)below(f, 33) - 16;
			break;
		case 4:
			child->n = below(f, child->n + 1);
			break;
		case 5:
			if (f->ndict)
				child->value[s] = f->dict[below(f, f->ndict)];
			break;
		default:
			if (parent->nhints) {
				const struct hint *h = &parent->hint[below(f, parent->nhints)];

				child->value[h->slot] = h->value;
				s = h->slot;
				mask = width_mask(f->key[child->key[s]].width);
			}
			break;
		}
		if (s < child->n)
			child->value[s] &= mask;
	}
}

/* --- crashes: minimize, replay, write the reproducer --- */

/* Does IN (with the fuzzer's rules) give a report of TITLE? */
static bool reproduces(struct fuzzer *f, const struct input *in, const char *title)
{
	struct outcome o;
	char t[256];

	if (execute(f, in, KCOV_TRACE_PC, &o, NULL) || o.stuck)
		return false;
	crash_title(o.crash, t, sizeof(t));
	return o.crash[0] && !strcmp(t, title);
}

/* The shortest prefix of IN that still crashes: the rest reads the device's values. */
static void minimize(struct fuzzer *f, struct input *in, const char *title)
{
	size_t lo = 0, hi = in->n;
	struct input *trial = malloc(sizeof(*trial));

	if (!trial)
		return;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		*trial = *in;
		trial->n = mid;
		if (reproduces(f, trial, title))
			hi = mid;
		else
			lo = mid + 1;
	}
	in->n = hi;
	free(trial);
}

/* Does IN read register KEY? */
static bool reads_key(const struct input *in, unsigned int key)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (in->key[i] == key)
			return true;
	return false;
}

/* printf at BUF + *USED, as much as fits in SIZE. */
static void appendf(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + n < size ? *used + n : size - 1;
}

/* Is every read of each register in IN given one value? Then rules with counts say it. */
static bool constant_per_key(const struct input *in)
{
	size_t i, j;

	for (i = 0; i < in->n; i++)
		for (j = i + 1; j < in->n; j++)
			if (in->key[j] == in->key[i] && in->value[j] != in->value[i])
				return false;
	return true;
}

/* The reproducer's rules (and feed line) as text, without register KEEP's rule if SKIP. */
static size_t format_reproducer(const struct fuzzer *f, const struct input *in, char *buf,
				size_t size, const bool *skip)
{
	bool constant = constant_per_key(in), done[MAX_KEYS] = { false };
	size_t used = 0, i, j;

	for (i = 0; i < in->n; i++) {
		const struct key *k = &f->key[in->key[i]];
		unsigned int count = 0;

		if (done[in->key[i]] || (skip && skip[in->key[i]]))
			continue;
		done[in->key[i]] = true;
		for (j = i; j < in->n; j++)
			count += in->key[j] == in->key[i];
		if (constant)
			appendf(buf, size, &used,
					 "0x%" PRIx64 " %u = 0x%" PRIx64 " count %u\n", k->addr,
					 k->width, in->value[i], count);
		else
			appendf(buf, size, &used, "0x%" PRIx64 " %u = feed\n",
					 k->addr, k->width);
	}
	if (!constant) {
		appendf(buf, size, &used, "feed");
		for (i = 0; i < in->n; i++)
			appendf(buf, size, &used, " 0x%" PRIx64, in->value[i]);
		appendf(buf, size, &used, "\n");
	}
	return used;
}

/* Replay RULES as a user would (override --from), and check the report's title. */
static bool replays(struct fuzzer *f, const char *rules, const char *title)
{
	char crash[256] = "", t[256];
	char *feed = strstr(rules, "feed ");
	bool stuck = false;
	size_t len = feed ? (size_t)(feed - rules) : strlen(rules);
	char *copy = strndup(rules, len);
	bool ok;

	if (!copy || write_file(control_path("overrides"), copy, O_TRUNC) || write_feed(NULL, 0)) {
		free(copy);
		return false;
	}
	free(copy);
	if (feed) {
		uint64_t value[MAX_SLOTS];
		size_t n = 0;
		char *p = feed + 4, *end;

		while (n < MAX_SLOTS && (value[n] = strtoull(p, &end, 0), end != p))
			n++, p = end;
		if (write_feed(value, n))
			return false;
	}
	if (run_child(f, KCOV_TRACE_PC, crash, sizeof(crash), &stuck) || stuck)
		return false;
	read_kmsg(f, crash, sizeof(crash), NULL);
	drain_trace(f);
	crash_title(crash, t, sizeof(t));
	ok = crash[0] && !strcmp(t, title);
	return ok;
}

/* The text of crash-N.txt: its title, how to replay it, the kernel's log, the rules. */
static char *crash_text(const struct fuzzer *f, const char *title, const char *how,
			const char *log_text, const char *rules)
{
	const char *line;
	size_t size;
	char *text;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		return NULL;
	fprintf(out, "# mmioctl fuzz: %s on %s: %s\n# %s\n", f->driver, f->bdf, title, how);
	fprintf(out, "# Replay, the device unbound and tracing on with its BARs in the ranges:\n"
		"#   mmioctl add-pci %s && mmioctl on\n"
		"#   mmioctl override --from %s/crash-%u.txt\n"
		"#   echo %s > /sys/bus/pci/drivers/%s/bind\n"
		"# The kernel's log:\n", f->bdf, f->dir, f->crashes, f->bdf, f->driver);
	for (line = log_text; *line; line += strcspn(line, "\n") + !!line[strcspn(line, "\n")])
		fprintf(out, "#   %.*s\n", (int)strcspn(line, "\n"), line);
	fputs(rules, out);
	return fclose(out) ? NULL : text;
}

/*
 * Keep a crash of a title not seen yet: its input as crash-N.input; then
 * minimized, without each rule it does not need, replayed 3 times, as
 * crash-N.txt. A stuck one (a hang, a dead bind) is kept as it is, and the
 * machine must start again: EXIT_HANG.
 */
static int keep_crash(struct fuzzer *f, const struct input *in, const struct outcome *o,
		      const char *log_text)
{
	static char rules[MAX_KEYS * 64 + MAX_SLOTS * 20];
	struct input *min = malloc(sizeof(*min));
	bool skip[MAX_KEYS] = { false };
	unsigned int i, replayed = 0;
	char title[256], name[64], how[128], *text;
	int ret;

	crash_title(o->crash, title, sizeof(title));
	for (i = 0; i < f->crashes && i < 32 && !o->stuck; i++)
		if (!strcmp(f->titles[i], title)) {
			free(min);
			return 0;
		}
	if (!min)
		return system_error("malloc");
	f->crashes++;
	snprintf(f->titles[(f->crashes - 1) % 32], sizeof(f->titles[0]), "%s", title);
	snprintf(name, sizeof(name), "crash-%u.input", f->crashes);
	text = format_input(f, in);
	ret = text ? save_file(f, name, text) : system_error("malloc");
	free(text);
	fprintf(stderr, "mmioctl: fuzz: crash %u: %s\n", f->crashes, title);
	*min = *in;
	if (!ret && o->stuck) {
		format_reproducer(f, min, rules, sizeof(rules), NULL);
		snprintf(how, sizeof(how), "%zu reads fed; not replayed: the device is stuck.", in->n);
	} else if (!ret) {
		minimize(f, min, title);
		for (i = 0; constant_per_key(min) && i < f->nkeys; i++) {
			if (!reads_key(min, i))
				continue;
			skip[i] = true;
			format_reproducer(f, min, rules, sizeof(rules), skip);
			if (!replays(f, rules, title))
				skip[i] = false;
		}
		format_reproducer(f, min, rules, sizeof(rules), skip);
		for (i = 0; i < 3; i++)
			replayed += replays(f, rules, title);
		snprintf(how, sizeof(how), "%zu reads fed (of %zu), replayed %u of 3 times.", min->n,
			 in->n, replayed);
		ret = write_rules(f);
	}
	free(min);
	if (ret)
		return ret;
	text = crash_text(f, title, how, log_text, rules);
	snprintf(name, sizeof(name), "crash-%u.txt", f->crashes);
	ret = text ? save_file(f, name, text) : system_error("malloc");
	free(text);
	if (o->stuck)
		printf("crash %u: %s: %s/%s (stuck)\n", f->crashes, title, f->dir, name);
	else
		printf("crash %u: %s: %s/%s (replayed %u/3)\n", f->crashes, title, f->dir, name,
		       replayed);
	fflush(stdout);
	if (!ret && o->stuck) {
		remove_file(f, "current");
		ret = EXIT_HANG;
	}
	return ret;
}

/* --- setup --- */

static int read_bars(struct fuzzer *f)
{
	char path[PATH_MAX], line[256];
	struct pci_bar res;
	FILE *file;
	int b;

	snprintf(path, sizeof(path), "%s", root_path("/sys/bus/pci/devices"));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s/resource", f->bdf);
	file = fopen(path, "r");
	if (!file)
		return system_error(path);
	for (b = 0; b < 6 && fgets(line, sizeof(line), file); b++)
		if (!parse_resource_line(line, &res) && res.end > res.start && res.flags & 0x200) {
			f->bar[b].start = res.start;
			f->bar[b].len = res.end - res.start + 1;
		}
	fclose(file);
	for (b = 0; b < 6 && !f->bar[b].len; b++)
		;
	if (b == 6) {
		fprintf(stderr, "mmioctl: %s has no memory BAR to fuzz\n", f->bdf);
		return EXIT_REFUSED;
	}
	return 0;
}

/*
 * A built-in driver's code: from its first to past its last text symbol
 * named DRIVER_... in /proc/kallsyms (the objects of a driver are linked
 * together, and name their functions after it, as e1000's do).
 */
static void find_builtin_text(struct fuzzer *f)
{
	unsigned long long addr, lo = ~0ULL, hi = 0, next = ~0ULL;
	char line[512], type, name[256];
	size_t prefix = strlen(f->driver);
	FILE *file = fopen(root_path("/proc/kallsyms"), "r");
	int pass;

	/* The driver's first and last symbols, then the first one after them. */
	for (pass = 0; file && pass < 2; pass++, rewind(file))
		while (fgets(line, sizeof(line), file)) {
			bool mine;

			if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr ||
			    (type != 't' && type != 'T') || strchr(line, '['))
				continue;
			mine = !strncmp(name, f->driver, prefix) && name[prefix] == '_';
			if (pass == 0 && mine) {
				lo = addr < lo ? addr : lo;
				hi = addr > hi ? addr : hi;
			} else if (pass == 1 && addr > hi && addr < next) {
				next = addr;
			}
		}
	if (file)
		fclose(file);
	if (hi && next != ~0ULL) {
		f->text_start = lo;
		f->text_end = next;
	}
}

/*
 * The driver's code, for kcov's PCs: a module's text from /proc/modules,
 * a built-in driver's from its symbols; else anywhere.
 */
static void find_text(struct fuzzer *f)
{
	char path[PATH_MAX], target[PATH_MAX], line[512], name[128];
	unsigned long long size, base;
	const char *module;
	ssize_t n;
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s/module", root_path("/sys/bus/pci/drivers"), f->driver);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0) {
		find_builtin_text(f);
		return;
	}
	target[n] = '\0';
	module = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	file = fopen(root_path("/proc/modules"), "r");
	while (file && fgets(line, sizeof(line), file))
		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &base) == 3 &&
		    !strcmp(name, module) && base) {
			f->text_start = base;
			f->text_end = base + size;
		}
	if (file)
		fclose(file);
	if (!f->text_end)
		find_builtin_text(f);
}

static int open_kcov(struct fuzzer *f)
{
	const char *path = root_path("/sys/kernel/debug/kcov");

	f->kcov = open(path, O_RDWR);
	if (f->kcov < 0) {
		fprintf(stderr, "mmioctl: %s: %s: this kernel has no kcov (CONFIG_KCOV); --no-coverage fuzzes without it\n",
			path, strerror(errno));
		return EXIT_REFUSED;
	}
	if (ioctl(f->kcov, KCOV_INIT_TRACE, (unsigned long)KCOV_WORDS))
		return system_error(path);
	f->area = mmap(NULL, KCOV_WORDS * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED,
		       f->kcov, 0);
	return f->area == MAP_FAILED ? system_error(path) : 0;
}

static int setup(struct fuzzer *f)
{
	char path[PATH_MAX], target[PATH_MAX], *argv[] = { "add-pci", (char *)f->bdf, NULL };
	ssize_t n;
	struct tracer_state state;
	int ret;

	snprintf(f->bind, sizeof(f->bind), "%s/%s/bind", root_path("/sys/bus/pci/drivers"),
		 f->driver);
	snprintf(f->unbind, sizeof(f->unbind), "%s/%s/unbind", root_path("/sys/bus/pci/drivers"),
		 f->driver);
	if (access(f->bind, W_OK)) {
		fprintf(stderr, "mmioctl: %s: %s: is the driver %s loaded?\n", f->bind,
			strerror(errno), f->driver);
		return EXIT_REFUSED;
	}
	ret = read_bars(f);
	if (ret)
		return ret;
	/* Unbound, whoever had it: bound again at the end. */
	snprintf(path, sizeof(path), "%s/%s/driver", root_path("/sys/bus/pci/devices"), f->bdf);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		snprintf(f->bound_to, sizeof(f->bound_to), "%s",
			 strrchr(target, '/') ? strrchr(target, '/') + 1 : target);
	}
	snprintf(path, sizeof(path), "%s/%s/driver/unbind", root_path("/sys/bus/pci/devices"),
		 f->bdf);
	try_write(path, f->bdf, 0);
	/*
	 * Enabled by us as well, for the whole run: a driver's enable and
	 * disable then only count, and each bind does not run the platform's
	 * interrupt routing again (ACPI's _PRT: 0.9 s of each bind and unbind
	 * under TCG).
	 */
	snprintf(path, sizeof(path), "%s/%s/enable", root_path("/sys/bus/pci/devices"), f->bdf);
	if (!try_write(path, "1", 0))
		f->enabled = true;
	find_text(f);
	if (f->coverage) {
		ret = open_kcov(f);
		if (ret)
			return ret;
	} else {
		static uint64_t no_area[1];

		f->area = no_area;
	}
	ret = cmd_add_pci(2, argv);
	if (!ret)
		ret = read_tracer_state(&state);
	if (!ret && strcmp(state.current, "mmiotrace"))
		ret = cmd_on(1, (char *[]){ "on", NULL });
	if (ret)
		return ret;
	f->trace = open(tracing_path("trace_pipe"), O_RDONLY | O_NONBLOCK);
	f->kmsg = open(root_path("/dev/kmsg"), O_RDONLY | O_NONBLOCK);
	if (f->trace < 0 || f->kmsg < 0)
		return system_error(f->trace < 0 ? "trace_pipe" : "/dev/kmsg");
	lseek(f->kmsg, 0, SEEK_END);
	drain_trace(f);		/* what came before */
	return 0;
}

/* The input of a guest that died: "current" of the state directory. */
static int take_current(struct fuzzer *f)
{
	char path[PATH_MAX];
	struct input *in;
	int ret;

	snprintf(path, sizeof(path), "%s/current", f->dir);
	if (access(path, F_OK))
		return 0;
	in = malloc(sizeof(*in));
	if (!in)
		return system_error("malloc");
	ret = load_input(f, path, in);
	if (!ret) {
		char name[64], *text = format_input(f, in);

		f->crashes++;
		snprintf(name, sizeof(name), "crash-%u.input", f->crashes);
		ret = text ? save_file(f, name, text) : system_error("malloc");
		free(text);
		printf("crash %u: the previous run died during this input: %s/%s\n", f->crashes,
		       f->dir, name);
		fflush(stdout);
		remove_file(f, "current");
	}
	free(in);
	return ret;
}

/* --- the loop --- */

/* Add IN to the corpus, with its hints; SAVE: as the corpus file of its number. */
static int add_entry(struct fuzzer *f, const struct input *in, bool save)
{
	struct entry *e;
	struct outcome *o;
	char name[64], *text;
	int ret = 0;

	f->corpus = realloc(f->corpus, (f->ncorpus + 1) * sizeof(*f->corpus));
	o = malloc(sizeof(*o));
	if (!f->corpus || !o)
		return system_error("malloc");
	e = &f->corpus[f->ncorpus++];
	e->in = *in;
	e->nhints = 0;
	/* Once more collecting comparisons: what it reads now, with every rule. */
	if (f->coverage) {
		ret = execute(f, in, KCOV_TRACE_CMP, o, NULL);
		if (!ret) {
			if (o->seen.n >= in->n)
				e->in = o->seen;
			take_hints(f, e);
		}
	}
	free(o);
	if (ret || !save)
		return ret;
	snprintf(name, sizeof(name), "corpus/%u", f->ncorpus);
	text = format_input(f, &e->in);
	ret = text ? save_from_parent(f, name, text) : system_error("malloc");
	free(text);
	return ret;
}

/*
 * The crashes an earlier run left in the state directory: numbered on
 * from, each title known so that it is not kept again.
 */
static void resume_crashes(struct fuzzer *f)
{
	char path[PATH_MAX], line[512];
	unsigned int n;
	FILE *file;

	for (n = 1;; n++) {
		snprintf(path, sizeof(path), "%s/crash-%u.input", f->dir, n);
		if (access(path, F_OK))
			break;
		f->crashes = n;
		snprintf(path, sizeof(path), "%s/crash-%u.txt", f->dir, n);
		/* "# mmioctl fuzz: DRIVER on BDF: TITLE" */
		file = fopen(path, "r");
		if (file && fgets(line, sizeof(line), file)) {
			const char *on = strstr(line, " on "), *title = on ? strstr(on, ": ") : NULL;

			line[strcspn(line, "\n")] = '\0';
			if (title)
				snprintf(f->titles[(n - 1) % 32], sizeof(f->titles[0]), "%s",
					 title + 2);
		}
		if (file)
			fclose(file);
	}
}

/* The corpus an earlier run left (*RESUMED: how many inputs), joining this one. */
static int resume_corpus(struct fuzzer *f, unsigned int *resumed)
{
	char path[PATH_MAX];
	struct input *in;
	unsigned int n;
	int ret = 0;

	in = malloc(sizeof(*in));
	if (!in)
		return system_error("malloc");
	for (n = 1, *resumed = 0; !ret; n++) {
		snprintf(path, sizeof(path), "%s/corpus/%u", f->dir, n);
		if (access(path, F_OK))
			break;
		ret = load_input(f, path, in);
		if (!ret && !(ret = write_rules(f)))
			ret = add_entry(f, in, false);
		*resumed += !ret;
	}
	free(in);
	return ret;
}

struct fuzz_options {
	double seconds;
	unsigned long runs;
	bool stop_on_crash;
	const char *seed_file;
};

static void progress(struct fuzzer *f, double start)
{
	double took = now() - start;

	printf("fuzz: %lu execs in %.0f s (%.1f/s), coverage %u, corpus %u, registers %u, crashes %u\n",
	       f->execs, took, took > 0 ? f->execs / took : 0.0, f->covered, f->ncorpus, f->nkeys,
	       f->crashes);
	fflush(stdout);
}

static int campaign(struct fuzzer *f, const struct fuzz_options *opt)
{
	double start = now(), last = start;
	struct input *child = malloc(sizeof(*child));
	struct outcome *o = malloc(sizeof(*o));
	char *log_text = malloc(1 << 16);
	int ret = 0;

	if (!child || !o || !log_text)
		return system_error("malloc");
	while (!ret && (!opt->seconds || now() - start < opt->seconds) &&
	       (!opt->runs || f->execs < opt->runs)) {
		const struct entry *parent;
		FILE *log;

		f->parent = below(f, f->ncorpus);
		parent = &f->corpus[f->parent];
		log_text[0] = '\0';
		log = fmemopen(log_text, 1 << 16, "w");

		mutate(f, parent, child);
		ret = execute(f, child, KCOV_TRACE_PC, o, log);
		if (log)
			fclose(log);
		if (ret)
			break;
		/*
		 * What the driver read is the input from now on: the prefix it
		 * took, the device's values past the feed's end, each read
		 * with its register.
		 */
		if (o->crash[0] || o->stuck) {
			ret = keep_crash(f, &o->seen, o, log_text);
			if (opt->stop_on_crash)
				break;
		} else if (f->coverage && (o->new_cover || o->new_keys)) {
			ret = add_entry(f, &o->seen, true);
		}
		f->parent = -1;
		if (now() - last >= 10) {
			progress(f, start);
			last = now();
		}
	}
	progress(f, start);
	free(child);
	free(o);
	free(log_text);
	return ret;
}

static int parse_fuzz_args(int argc, char **argv, struct fuzzer *f, struct fuzz_options *opt)
{
	uint64_t n;
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--no-coverage")) {
			f->coverage = false;
		} else if (!strcmp(a, "--stop-on-crash")) {
			opt->stop_on_crash = true;
		} else if (!strcmp(a, "--time") || !strcmp(a, "--runs") || !strcmp(a, "--seed") ||
			   !strcmp(a, "-o") || !strcmp(a, "--corpus") || !strcmp(a, "--journal")) {
			if (!v)
				return usage_error("%s needs a value", a);
			i++;
			if (!strcmp(a, "-o"))
				f->dir = v;
			else if (!strcmp(a, "--corpus"))
				opt->seed_file = v;
			else if (!strcmp(a, "--journal"))
				f->journal_path = v;
			else if (parse_u64(v, &n) || (strcmp(a, "--seed") && !n))
				return usage_error("%s: invalid number '%s'", a, v);
			else if (!strcmp(a, "--time"))
				opt->seconds = n;
			else if (!strcmp(a, "--runs"))
				opt->runs = n;
			else
				f->rng = n * 0x9e3779b97f4a7c15ULL | 1;
		} else if (a[0] == '-') {
			return usage_error("fuzz: unknown option '%s'", a);
		} else if (!f->driver) {
			f->driver = a;
		} else if (!f->bdf) {
			f->bdf = a;
		} else {
			return usage_error("fuzz: unexpected argument '%s'", a);
		}
	}
	if (!f->driver || !f->bdf)
		return usage_error("fuzz needs DRIVER BDF");
	if (strchr(f->driver, '/') || !f->driver[0])
		return usage_error("invalid driver name '%s'", f->driver);
	return 0;
}

int cmd_fuzz(int argc, char **argv)
{
	static struct fuzzer fz;
	struct fuzzer *f = &fz;
	struct fuzz_options opt = { 0 };
	char bdf[32], corpus[PATH_MAX];
	unsigned int resumed = 0;
	struct input *seed;
	int ret;

	f->coverage = true;
	f->rng = 0x9e3779b97f4a7c15ULL;
	f->dir = "fuzz";
	f->journal = f->kcov = f->kmsg = f->trace = f->parent = -1;
	ret = parse_fuzz_args(argc, argv, f, &opt);
	if (ret)
		return ret;
	if (parse_bdf(f->bdf, bdf, sizeof(bdf)))
		return usage_error("invalid device '%s': expected [[DOMAIN:]BUS:]DEV.FN", f->bdf);
	f->bdf = strdup(bdf);
	snprintf(corpus, sizeof(corpus), "%s/corpus", f->dir);
	if ((mkdir(f->dir, 0755) && errno != EEXIST) || (mkdir(corpus, 0755) && errno != EEXIST))
		return system_error(f->dir);
	if (f->journal_path) {
		f->journal = open(f->journal_path, O_WRONLY | O_APPEND | O_NOCTTY);
		if (f->journal < 0)
			return system_error(f->journal_path);
	}
	ret = setup(f);
	/* The input in flight first: anything run overwrites it. */
	if (!ret) {
		resume_crashes(f);
		ret = take_current(f);
	}
	if (!ret)
		ret = resume_corpus(f, &resumed);
	seed = malloc(sizeof(*seed));
	if (!seed)
		return system_error("malloc");
	if (!ret && opt.seed_file && !resumed)
		ret = load_input(f, opt.seed_file, seed);
	if (!ret && !opt.seed_file && !resumed) {
		/* No corpus: what a clean probe reads, recorded. */
		struct outcome *o = malloc(sizeof(*o));

		ret = o ? write_rules(f) : system_error("malloc");
		seed->n = 0;
		if (!ret)
			ret = execute(f, seed, KCOV_TRACE_PC, o, NULL);
		if (!ret)
			ret = execute(f, seed, KCOV_TRACE_PC, o, NULL);
		if (!ret)
			*seed = o->seen;
		free(o);
	}
	if (!ret)
		ret = write_rules(f);
	if (!ret && !resumed)
		ret = add_entry(f, seed, true);
	free(seed);
	if (!ret) {
		printf("fuzz: %s on %s, %u registers, %s %zu reads, coverage %s\n", f->driver,
		       f->bdf, f->nkeys, resumed ? "corpus resumed, its first input of" :
		       "seed input of", f->corpus[0].in.n, !f->coverage ? "off" :
		       f->text_end ? "of the driver's code" : "of all the code the bind runs");
		ret = campaign(f, &opt);
	}
	if (f->trace >= 0)
		close(f->trace);
	/* After a hang the device lock is held: touching the device would hang too. */
	if (f->enabled && ret != EXIT_HANG) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/enable", root_path("/sys/bus/pci/devices"),
			 f->bdf);
		try_write(path, "0", 0);
	}
	/* Not after a hang: the device is stuck, and so would this be. */
	if (f->bound_to[0] && ret != EXIT_HANG) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s/bind", root_path("/sys/bus/pci/drivers"),
			 f->bound_to);
		if (try_write(path, f->bdf, 0))
			fprintf(stderr, "mmioctl: note: %s could not be bound to %s again\n", f->bdf,
				f->bound_to);
	}
	write_feed(NULL, 0);
	try_write(control_path("overrides"), "", O_TRUNC);
	return ret;
}
