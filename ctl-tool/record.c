// SPDX-License-Identifier: GPL-2.0
/*
 * record: one recording session, as trace-cmd record runs one. Set the
 * buffer size, switch mmiotrace on, read trace_pipe, run COMMAND (or wait
 * for the duration, or for SIGINT/SIGTERM), stop recording, drain what the
 * buffer still holds, switch the tracer back and print a summary. On any
 * failure the tracer is left as it was found.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mmioctl.h"
#include "parse.h"

static volatile sig_atomic_t stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

struct record_options {
	const char *output;		/* NULL: standard output */
	unsigned long buffer_kb;	/* 0: as it is */
	unsigned long seconds;		/* 0: until the command ends or a signal */
	bool quiet;
	char **command;			/* NULL: none */
};

/* What the session changed, to put back. */
struct saved_state {
	struct tracer_state tracer;
	char buffer_kb[64];
	bool switched_on;
};

/* Events by type, counted from the start of each line of the trace. */
struct event_counts {
	unsigned long long by_type[6], bytes;
	bool at_line_start;
};

static const char *const event_types[] = { "R ", "W ", "MAP ", "UNMAP ", "MARK ", "UNKNOWN " };

static void count_events(struct event_counts *counts, const char *buf, size_t len)
{
	size_t i, t;

	for (i = 0; i < len; i++) {
		if (counts->at_line_start)
			for (t = 0; t < 6; t++)
				if (!strncmp(buf + i, event_types[t], strlen(event_types[t])) &&
				    i + strlen(event_types[t]) <= len)
					counts->by_type[t]++;
		counts->at_line_start = buf[i] == '\n';
	}
	counts->bytes += len;
}

static unsigned long long total_events(const struct event_counts *counts)
{
	unsigned long long total = 0;
	size_t t;

	for (t = 0; t < 6; t++)
		total += counts->by_type[t];
	return total;
}

/* Write it all, retrying after a signal unless the session is to stop. */
static int write_all(int fd, const char *buf, size_t len, const char *name)
{
	while (len) {
		ssize_t done = write(fd, buf, len);

		if (done < 0 && errno == EINTR && !stop_requested)
			continue;
		if (done < 0)
			return system_error(name);
		buf += done;
		len -= done;
	}
	return 0;
}

static int parse_record_options(int argc, char **argv, struct record_options *opt)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "buffer", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 'd' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:b:d:q", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			opt->output = optarg;
			break;
		case 'b':
			if (parse_positive(optarg, 1UL << 30, &opt->buffer_kb))
				return usage_error("invalid buffer size '%s': expected KiB per CPU",
						   optarg);
			break;
		case 'd':
			if (parse_positive(optarg, 1UL << 30, &opt->seconds))
				return usage_error("invalid duration '%s': expected whole seconds",
						   optarg);
			break;
		case 'q':
			opt->quiet = true;
			break;
		default:
			return usage_error("record: unknown or incomplete option '%s'",
					   argv[optind - 1]);
		}
	}
	if (optind < argc)
		opt->command = argv + optind;
	return 0;
}

/*
 * Take the tracer: mmiotrace must be available, and off or on already (a
 * session started on top of a running trace leaves it running).
 */
static int start_session(const struct record_options *opt, struct saved_state *saved)
{
	char kb[32];
	int ret;

	ret = check_mmiotrace_available();
	if (!ret)
		ret = read_tracer_state(&saved->tracer);
	if (!ret)
		ret = read_line(tracing_path("buffer_size_kb"), saved->buffer_kb,
				sizeof(saved->buffer_kb));
	if (ret)
		return ret;
	if (strcmp(saved->tracer.current, "mmiotrace") && strcmp(saved->tracer.current, "nop")) {
		fprintf(stderr, "mmioctl: the tracer %s is on: switch it off first\n",
			saved->tracer.current);
		return EXIT_REFUSED;
	}
	if (opt->buffer_kb) {
		snprintf(kb, sizeof(kb), "%lu\n", opt->buffer_kb);
		ret = write_file(tracing_path("buffer_size_kb"), kb, O_TRUNC);
		if (ret)
			return ret;
	}
	if (strcmp(saved->tracer.current, "mmiotrace")) {
		ret = write_file(tracing_path("current_tracer"), "mmiotrace\n", O_TRUNC);
		if (ret)
			return ret;
		saved->switched_on = true;
	}
	if (!saved->tracer.tracing_on)
		return write_file(tracing_path("tracing_on"), "1\n", O_TRUNC);
	return 0;
}

/* Put back what start_session() changed; reports but goes on on errors. */
static int end_session(const struct record_options *opt, const struct saved_state *saved)
{
	char kb[64];
	int ret = 0;

	if (saved->switched_on)
		ret |= switch_tracer_off();
	ret |= write_file(tracing_path("tracing_on"),
			  saved->tracer.tracing_on ? "1\n" : "0\n", O_TRUNC);
	if (opt->buffer_kb) {
		/* "7 (expanded: 1408)" before any tracer expanded the buffer */
		const char *expanded = strstr(saved->buffer_kb, "expanded: ");

		snprintf(kb, sizeof(kb), "%lu\n",
			 strtoul(expanded ? expanded + 10 : saved->buffer_kb, NULL, 10));
		ret |= write_file(tracing_path("buffer_size_kb"), kb, O_TRUNC);
	}
	return ret ? EXIT_REFUSED : 0;
}

static pid_t run_command(char **command)
{
	pid_t pid = fork();

	if (pid < 0) {
		system_error("fork");
		return -1;
	}
	if (!pid) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(command[0], command);
		fprintf(stderr, "mmioctl: %s: %s\n", command[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Copy what trace_pipe holds now: 0 when it is empty, or an error. */
static int copy_available(int in, int out, const char *out_name, struct event_counts *counts)
{
	static char buf[65536];
	ssize_t got;
	int ret;

	for (;;) {
		got = read(in, buf, sizeof(buf));
		if (got < 0 && errno == EINTR && !stop_requested)
			continue;
		if (!got || (got < 0 && (errno == EAGAIN || errno == EINTR)))
			return 0;
		if (got < 0)
			return system_error(tracing_path("trace_pipe"));
		count_events(counts, buf, got);
		ret = write_all(out, buf, got, out_name);
		if (ret)
			return ret;
	}
}

/* Has someone switched mmiotrace off under the session? Then it is over. */
static bool tracer_still_on(void)
{
	char current[64];

	return read_line(tracing_path("current_tracer"), current, sizeof(current)) ||
	       !strcmp(current, "mmiotrace");
}

static void show_progress(const struct record_options *opt, const struct event_counts *counts)
{
	if (!opt->quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "\rmmioctl: recording, %llu events", total_events(counts));
}

/*
 * Read until the command ends, the time is up or a signal asks to stop;
 * then stop recording (tracing_on 0) and drain what the buffer holds.
 * Returns 0 or an error; *status gets the command's exit status.
 */
static int record_loop(int in, int out, const char *out_name, const struct record_options *opt,
		       pid_t child, int *status, struct event_counts *counts)
{
	const double deadline = opt->seconds ? now() + opt->seconds : 0;
	struct pollfd pfd = { .fd = in, .events = POLLIN };
	bool running = child > 0;
	double last_progress = 0;
	int ret = 0, wstatus = 0;

	while (!stop_requested && (child <= 0 || running) && !(deadline && now() >= deadline)) {
		if (poll(&pfd, 1, 100) > 0) {
			ret = copy_available(in, out, out_name, counts);
			if (ret)
				break;
		}
		if (running && waitpid(child, &wstatus, WNOHANG) == child)
			running = false;
		if (now() - last_progress > 0.5) {
			show_progress(opt, counts);
			last_progress = now();
			if (!tracer_still_on())
				break;
		}
	}
	if (running) {
		kill(child, SIGTERM);
		while (waitpid(child, &wstatus, 0) < 0 && errno == EINTR)
			;
	}
	if (child > 0)
		*status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
	if (!opt->quiet && isatty(STDERR_FILENO))
		fputc('\n', stderr);
	if (ret)
		return ret;
	/* Nothing new goes in; what is there comes out. */
	ret = write_file(tracing_path("tracing_on"), "0\n", O_TRUNC);
	stop_requested = 0;
	return ret ? ret : copy_available(in, out, out_name, counts);
}

static void print_summary(const struct event_counts *counts, unsigned long long lost,
			  double seconds)
{
	fprintf(stderr, "mmioctl: recorded %llu events (R %llu, W %llu, MAP %llu, UNMAP %llu, MARK %llu, UNKNOWN %llu), %llu lost, %llu bytes in %.1f s\n",
		total_events(counts), counts->by_type[0], counts->by_type[1], counts->by_type[2],
		counts->by_type[3], counts->by_type[4], counts->by_type[5], lost, counts->bytes,
		seconds);
}

int cmd_record(int argc, char **argv)
{
	struct record_options opt = { 0 };
	struct event_counts counts = { .at_line_start = true };
	struct sigaction stop = { .sa_handler = on_stop_signal };
	struct saved_state saved = { 0 };
	const char *out_name = "standard output";
	unsigned long long lost_before = 0, lost_after = 0;
	int in = -1, out = STDOUT_FILENO, ret, status = 0;
	char pipe_path[4096 + 64];
	const double start = now();
	pid_t child = 0;

	ret = parse_record_options(argc, argv, &opt);
	if (ret)
		return ret;
	/* Everything is checked before the output file is touched. */
	if (check_mmiotrace_available() || !tracing_path("trace_pipe"))
		return EXIT_REFUSED;
	if (opt.output) {
		out_name = opt.output;
		out = open(out_name, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			return system_error(out_name);
	}
	/* No SA_RESTART: a signal must interrupt a blocking read or write. */
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);

	ret = start_session(&opt, &saved);
	if (ret)
		goto restore;
	if (!saved.switched_on && read_stat("lost", &lost_before)) {
		ret = EXIT_REFUSED;
		goto restore;
	}
	snprintf(pipe_path, sizeof(pipe_path), "%s", tracing_path("trace_pipe"));
	in = open(pipe_path, O_RDONLY | O_NONBLOCK);
	if (in < 0) {
		ret = system_error(pipe_path);
		goto restore;
	}
	if (opt.command) {
		child = run_command(opt.command);
		if (child < 0) {
			ret = EXIT_REFUSED;
			goto restore;
		}
	}
	ret = record_loop(in, out, out_name, &opt, child, &status, &counts);
	if (!ret && read_stat("lost", &lost_after))
		ret = EXIT_REFUSED;
	if (!ret)
		print_summary(&counts, lost_after - lost_before, now() - start);
restore:
	if (in >= 0)
		close(in);
	ret |= end_session(&opt, &saved);
	if (out != STDOUT_FILENO && close(out) && !ret)
		ret = system_error(out_name);
	if (ret)
		return EXIT_REFUSED;
	return status;
}
