// SPDX-License-Identifier: GPL-2.0
/*
 * record: one recording session, as trace-cmd record runs one. Set the
 * buffer size, switch mmiotrace on, read trace_pipe, run COMMAND (or wait
 * for the duration, or for SIGINT/SIGTERM), stop recording, drain what the
 * buffer still holds, switch the tracer back and print a summary. On any
 * failure the tracer is left as it was found.
 *
 * record -e: the same through the mmiotrace events in a trace instance
 * (events.c), with the session's histograms for hist. The text of the
 * instance's trace_pipe is copied as the tracer's is; a FILE.dat is
 * written by "trace-cmd record -k -B NAME", which reads that instance only
 * and, with -k, leaves it in place. (trace-cmd extract would not do: in
 * trace-cmd 3.1.6 it reads, disables and clears the top-level buffer too,
 * and deletes the instance.)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/files.h"
#include "common/parse.h"
#include "control/commands.h"
#include "control/events.h"
#include "control/tracer.h"

/* How long trace-cmd may take to start recording, and to write its file. */
#define TRACE_CMD_START_TENTHS	300
#define TRACE_CMD_STOP_TENTHS	600

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
	bool events;			/* -e, or -i NAME */
	char **command;			/* NULL: none */
};

/* What the session changed, to put back. */
struct saved_state {
	struct tracer_state tracer;
	char buffer_kb[64];
	bool switched_on;
};

/*
 * Events by type: the tracer's from the start of each line of the trace,
 * the events' by classify_event_line() (EVENTS), which needs the line's
 * start, kept in LINE.
 */
struct event_counts {
	unsigned long long by_type[6], bytes;
	bool at_line_start, events;
	char line[256];
	size_t line_len;
};

static const char *const event_types[] = { "R ", "W ", "MAP ", "UNMAP ", "MARK ", "UNKNOWN " };

/* The line kept so far is whole: count it. */
static void count_event_line(struct event_counts *counts)
{
	int type;

	counts->line[counts->line_len] = '\0';
	type = classify_event_line(counts->line);
	if (type >= 0)
		counts->by_type[type]++;
	counts->line_len = 0;
}

static void count_events(struct event_counts *counts, const char *buf, size_t len)
{
	size_t i, t;

	if (counts->events) {
		for (i = 0; i < len; i++) {
			if (buf[i] == '\n')
				count_event_line(counts);
			else if (counts->line_len < sizeof(counts->line) - 1)
				counts->line[counts->line_len++] = buf[i];
		}
		counts->bytes += len;
		return;
	}
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
		{ "events", no_argument, NULL, 'e' },
		{ "instance", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+o:b:d:qei:", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			opt->events = true;
			break;
		case 'i':
			if (check_instance_name(optarg))
				return usage_error("invalid instance name '%s': expected 1 to %d letters, digits, '_', '-' or '.', not starting with '-' or '.'",
						   optarg, INSTANCE_NAME_MAX);
			if (instance)
				return usage_error("more than one instance given");
			instance = optarg;
			opt->events = true;
			break;
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

/* Where a session's text comes from and goes. */
struct session_io {
	int in;				/* -1: trace-cmd reads */
	char in_name[PATH_SIZE];
	int out;
	const char *out_name;
	struct event_counts counts;
};

/* Copy what the trace pipe holds now: 0 when it is empty, or an error. */
static int copy_available(struct session_io *io)
{
	static char buf[65536];
	ssize_t got;
	int ret;

	for (;;) {
		got = read(io->in, buf, sizeof(buf));
		if (got < 0 && errno == EINTR && !stop_requested)
			continue;
		if (!got || (got < 0 && (errno == EAGAIN || errno == EINTR)))
			return 0;
		if (got < 0)
			return system_error(io->in_name);
		count_events(&io->counts, buf, got);
		ret = write_all(io->out, buf, got, io->out_name);
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

/* The instance of an events session: has someone switched its events off? */
static const char *session_instance;

static bool events_still_on(void)
{
	return events_on(session_instance);
}

static void show_progress(const struct record_options *opt, const struct session_io *io)
{
	if (!opt->quiet && isatty(STDERR_FILENO) && io->in >= 0)
		fprintf(stderr, "\rmmioctl: recording, %llu events", total_events(&io->counts));
}

/*
 * Read until the command ends, the time is up, a signal asks to stop, the
 * session is switched off (STILL_ON) or trace-cmd (HELPER) ends. Returns
 * 0 or an error; *status gets the command's exit status, *HELPER 0 when
 * it ended.
 */
static int record_loop(struct session_io *io, const struct record_options *opt, pid_t child,
		       int *status, bool (*still_on)(void), pid_t *helper, int *helper_status)
{
	const double deadline = opt->seconds ? now() + opt->seconds : 0;
	struct pollfd pfd = { .fd = io->in, .events = POLLIN };
	bool running = child > 0;
	double last_progress = 0;
	int ret = 0, wstatus = 0;

	while (!stop_requested && (child <= 0 || running) && !(deadline && now() >= deadline)) {
		if (io->in < 0)
			poll(NULL, 0, 100);
		else if (poll(&pfd, 1, 100) > 0) {
			ret = copy_available(io);
			if (ret)
				break;
		}
		if (running && waitpid(child, &wstatus, WNOHANG) == child)
			running = false;
		if (helper && *helper && waitpid(*helper, helper_status, WNOHANG) == *helper) {
			*helper = 0;
			break;
		}
		if (now() - last_progress > 0.5) {
			show_progress(opt, io);
			last_progress = now();
			if (!still_on())
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
	if (!opt->quiet && isatty(STDERR_FILENO) && io->in >= 0)
		fputc('\n', stderr);
	stop_requested = 0;
	return ret;
}

static void print_summary(const struct event_counts *counts, unsigned long long lost,
			  double seconds)
{
	fprintf(stderr, "mmioctl: recorded %llu events (R %llu, W %llu, MAP %llu, UNMAP %llu, MARK %llu, UNKNOWN %llu), %llu lost, %llu bytes in %.1f s\n",
		total_events(counts), counts->by_type[0], counts->by_type[1], counts->by_type[2],
		counts->by_type[3], counts->by_type[4], counts->by_type[5], lost, counts->bytes,
		seconds);
}

/* Open the output (standard output without -o), truncating it. */
static int open_output(const struct record_options *opt, struct session_io *io)
{
	io->out = STDOUT_FILENO;
	io->out_name = "standard output";
	if (!opt->output)
		return 0;
	io->out_name = opt->output;
	io->out = open(io->out_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return io->out < 0 ? system_error(io->out_name) : 0;
}

static void catch_stop_signals(void)
{
	struct sigaction stop = { .sa_handler = on_stop_signal };

	/* No SA_RESTART: a signal must interrupt a blocking read or write. */
	sigemptyset(&stop.sa_mask);
	sigaction(SIGINT, &stop, NULL);
	sigaction(SIGTERM, &stop, NULL);
}

/* record through the tracer: trace_pipe of the top-level buffer. */
static int record_tracer(struct record_options *opt)
{
	struct session_io io = { .in = -1, .counts = { .at_line_start = true } };
	struct saved_state saved = { 0 };
	unsigned long long lost_before = 0, lost_after = 0;
	const double start = now();
	int ret, status = 0;
	pid_t child = 0;

	/* Everything is checked before the output file is touched. */
	if (check_mmiotrace_available() || !tracing_path("trace_pipe"))
		return EXIT_REFUSED;
	ret = open_output(opt, &io);
	if (ret)
		return ret;
	catch_stop_signals();

	ret = start_session(opt, &saved);
	if (ret)
		goto restore;
	if (!saved.switched_on && read_stat("lost", &lost_before)) {
		ret = EXIT_REFUSED;
		goto restore;
	}
	snprintf(io.in_name, sizeof(io.in_name), "%s", tracing_path("trace_pipe"));
	io.in = open(io.in_name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (io.in < 0) {
		ret = system_error(io.in_name);
		goto restore;
	}
	if (opt->command) {
		child = run_command(opt->command);
		if (child < 0) {
			ret = EXIT_REFUSED;
			goto restore;
		}
	}
	ret = record_loop(&io, opt, child, &status, tracer_still_on, NULL, NULL);
	/* Nothing new goes in; what is there comes out. */
	if (!ret)
		ret = write_file(tracing_path("tracing_on"), "0\n", O_TRUNC);
	if (!ret)
		ret = copy_available(&io);
	if (!ret && read_stat("lost", &lost_after))
		ret = EXIT_REFUSED;
	if (!ret)
		print_summary(&io.counts, lost_after - lost_before, now() - start);
restore:
	if (io.in >= 0)
		close(io.in);
	ret |= end_session(opt, &saved);
	if (io.out != STDOUT_FILENO && close(io.out) && !ret)
		ret = system_error(io.out_name);
	if (ret)
		return EXIT_REFUSED;
	return status;
}

/* The full path of PROGRAM in PATH, into FOUND (PATH_SIZE bytes); 0 or -1. */
static int find_program(const char *program, char *found)
{
	const char *path = getenv("PATH"), *dir, *end;

	for (dir = path ? path : "/usr/bin:/bin"; *dir; dir = *end ? end + 1 : end) {
		end = strchr(dir, ':');
		if (!end)
			end = dir + strlen(dir);
		snprintf(found, PATH_SIZE, "%.*s/%s", (int)(end - dir), end == dir ? "." : dir,
			 program);
		if (end == dir)
			snprintf(found, PATH_SIZE, "./%s", program);
		if (!access(found, X_OK))
			return 0;
	}
	return -1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* Run ARGV with its output into LOG (a file descriptor), in a process group of its own. */
static pid_t spawn(char *const argv[], int log)
{
	pid_t pid = fork();

	if (pid < 0) {
		system_error("fork");
		return -1;
	}
	if (!pid) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		dup2(log, STDOUT_FILENO);
		dup2(log, STDERR_FILENO);
		execv(argv[0], argv);
		fprintf(stderr, "mmioctl: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return pid;
}

/* Print what trace-cmd said, after it failed. */
static void show_log(int log)
{
	char buf[4096];
	ssize_t got;

	if (lseek(log, 0, SEEK_SET) < 0)
		return;
	while ((got = read(log, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, got, stderr);
}

static int waited_status(int wstatus)
{
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus);
}

/*
 * Start "trace-cmd record -k -q -B NAME -e mmiotrace -o FILE" and wait
 * until it has the events on and tracing_on at 1 (at 0 before): from then
 * on, it records. 0, or an error with what trace-cmd said.
 */
static int start_trace_cmd(const char *program, const char *name, const char *file, int log,
			   pid_t *pid)
{
	char *argv[] = { (char *)program, "record", "-k", "-q", "-B", (char *)name, "-e",
			 "mmiotrace", "-o", (char *)file, NULL };
	char path[PATH_SIZE], on[16];
	int i, wstatus;

	*pid = spawn(argv, log);
	if (*pid < 0)
		return EXIT_REFUSED;
	instance_file(path, name, "tracing_on");
	for (i = 0; i < TRACE_CMD_START_TENTHS; i++) {
		if (waitpid(*pid, &wstatus, WNOHANG) == *pid) {
			*pid = 0;
			fprintf(stderr, "mmioctl: %s record failed (exit status %d):\n", program,
				waited_status(wstatus));
			show_log(log);
			return EXIT_REFUSED;
		}
		if (!try_read_line(path, on, sizeof(on)) && !strcmp(on, "1") && events_on(name))
			return 0;
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
	fprintf(stderr, "mmioctl: %s record did not start recording in %d s\n", program,
		TRACE_CMD_START_TENTHS / 10);
	return EXIT_REFUSED;
}

/*
 * Stop trace-cmd as Ctrl-C would, and wait for it to write the file; kill
 * it if it does not. It runs in a process group of its own (spawn()): a
 * SIGKILL to the group, not to trace-cmd alone, whose per-CPU recorders
 * would otherwise live on with the instance's files open.
 */
static int stop_trace_cmd(const char *program, pid_t pid, int log)
{
	int i, wstatus = 0;

	kill(pid, SIGINT);
	for (i = 0; i < TRACE_CMD_STOP_TENTHS; i++) {
		if (waitpid(pid, &wstatus, WNOHANG) == pid)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 100000000 }, NULL);
	}
	if (i == TRACE_CMD_STOP_TENTHS) {
		kill(-pid, SIGKILL);
		waitpid(pid, &wstatus, 0);
		fprintf(stderr, "mmioctl: %s record did not stop in %d s: killed\n", program,
			TRACE_CMD_STOP_TENTHS / 10);
		return EXIT_REFUSED;
	}
	if (waited_status(wstatus)) {
		fprintf(stderr, "mmioctl: %s record failed (exit status %d):\n", program,
			waited_status(wstatus));
		show_log(log);
		return EXIT_REFUSED;
	}
	return 0;
}

/* The events of FILE.dat by type, from "trace-cmd report -i FILE". */
static int count_dat(const char *program, const char *file, struct event_counts *counts)
{
	char *argv[] = { (char *)program, "report", "-i", (char *)file, NULL };
	char buf[65536];
	int fds[2], wstatus, ret = 0;
	struct stat st;
	ssize_t got;
	pid_t pid;

	if (pipe(fds))
		return system_error("pipe");
	pid = spawn(argv, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return EXIT_REFUSED;
	}
	while ((got = read(fds[0], buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = system_error("pipe");
			break;
		}
		count_events(counts, buf, got);
	}
	close(fds[0]);
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (!ret && waited_status(wstatus)) {
		fprintf(stderr, "mmioctl: %s report -i %s failed (exit status %d)\n", program, file,
			waited_status(wstatus));
		ret = EXIT_REFUSED;
	}
	counts->bytes = !ret && !stat(file, &st) ? (unsigned long long)st.st_size : 0;
	return ret;
}

/* What an events session found, to put back. */
struct events_saved {
	bool created;		/* the instance was made for the session */
	bool joined;		/* its events were on: a session running already */
	char tracing_on[16];
	char buffer_kb[64];
};

/*
 * record -e: a session through the events in instance NAME (by default
 * DEFAULT_INSTANCE). A new one starts from an empty buffer and fresh
 * histograms and ends as "off -i" does, the histograms saved for hist; on
 * an instance whose events are on already, the session joins the running
 * one and leaves it running, as record does on a running tracer.
 */
static int record_events(struct record_options *opt)
{
	const char *name = instance ? instance : DEFAULT_INSTANCE;
	const bool dat = opt->output && ends_with(opt->output, ".dat");
	struct session_io io = { .in = -1, .counts = { .events = true } };
	struct events_saved saved = { 0 };
	struct buffer_stats before = { 0 }, after;
	char program[PATH_SIZE], path[PATH_SIZE], kb[32];
	int ret, status = 0, log = -1, hold = -1, helper_status = 0;
	const double start = now();
	pid_t child = 0, helper = 0;

	/* Everything is checked before the output file is touched. */
	ret = check_events_available();
	if (ret)
		return ret;
	if (dat && find_program("trace-cmd", program)) {
		fprintf(stderr, "mmioctl: %s: a .dat file is written by trace-cmd, which is not in PATH (text: -o FILE without .dat)\n",
			opt->output);
		return EXIT_REFUSED;
	}
	saved.joined = instance_exists(name) && events_on(name);
	if (dat && saved.joined) {
		fprintf(stderr, "mmioctl: the events of instance %s are on already: trace-cmd needs an instance of its own for %s (-i OTHER)\n",
			name, opt->output);
		return EXIT_REFUSED;
	}
	ret = open_output(opt, &io);
	if (ret)
		return ret;
	if (dat) {
		/* trace-cmd writes the file; it is there and empty until then. */
		FILE *temp = tmpfile();

		close(io.out);
		io.out = -1;
		if (!temp) {
			ret = system_error("tmpfile");
			goto out;
		}
		log = fcntl(fileno(temp), F_DUPFD_CLOEXEC, 0);
		fclose(temp);
		if (log < 0) {
			ret = system_error("tmpfile");
			goto out;
		}
	}
	catch_stop_signals();
	session_instance = name;

	ret = make_instance(name, &saved.created);
	if (!ret)
		ret = read_line(instance_file(path, name, "tracing_on"), saved.tracing_on,
				sizeof(saved.tracing_on));
	if (!ret)
		ret = read_line(instance_file(path, name, "buffer_size_kb"), saved.buffer_kb,
				sizeof(saved.buffer_kb));
	if (ret)
		goto restore;
	if (opt->buffer_kb) {
		snprintf(kb, sizeof(kb), "%lu\n", opt->buffer_kb);
		ret = write_file(instance_file(path, name, "buffer_size_kb"), kb, O_TRUNC);
		if (ret)
			goto restore;
	}
	if (saved.joined) {
		ret = read_buffer_stats(name, &before);
	} else {
		/* trace-cmd enables the events itself, and wants tracing_on at 0 first. */
		ret = begin_events_session(name, !dat);
		if (!ret)
			ret = write_file(instance_file(path, name, "tracing_on"), dat ? "0\n" : "1\n",
					 O_TRUNC);
	}
	if (ret)
		goto restore;
	if (dat) {
		/* Held open, the instance is busy: "reset" finds the recorder by it. */
		hold = open(instance_file(path, name, "tracing_on"), O_RDONLY | O_CLOEXEC);
		if (hold < 0) {
			ret = system_error(path);
			goto restore;
		}
		ret = start_trace_cmd(program, name, opt->output, log, &helper);
		if (!ret)
			ret = pause_hists(name, false);
	} else {
		instance_file(io.in_name, name, "trace_pipe");
		io.in = open(io.in_name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (io.in < 0)
			ret = system_error(io.in_name);
	}
	if (ret)
		goto restore;
	if (opt->command) {
		child = run_command(opt->command);
		if (child < 0) {
			ret = EXIT_REFUSED;
			goto restore;
		}
	}
	ret = record_loop(&io, opt, child, &status, events_still_on, dat ? &helper : NULL,
			  &helper_status);
	if (dat && !helper && !ret) {
		fprintf(stderr, "mmioctl: %s record ended early (exit status %d):\n", program,
			waited_status(helper_status));
		show_log(log);
		ret = EXIT_REFUSED;
	}
	/* The histograms stop counting; nothing new goes in; what is there comes out. */
	if (!ret && !saved.joined && hists_installed(name))
		ret = pause_hists(name, true);
	if (!ret)
		ret = write_file(instance_file(path, name, "tracing_on"), "0\n", O_TRUNC);
	if (!ret && !dat)
		ret = copy_available(&io);
	if (!ret)
		ret = read_buffer_stats(name, &after);
	if (!ret && dat) {
		ret = stop_trace_cmd(program, helper, log);
		helper = 0;
		if (!ret)
			ret = count_dat(program, opt->output, &io.counts);
	}
	if (!ret) {
		if (io.counts.line_len)
			count_event_line(&io.counts);
		print_summary(&io.counts, after.lost - before.lost, now() - start);
	}
restore:
	/* A failed session still lets trace-cmd stop and write its file. */
	if (helper > 0)
		stop_trace_cmd(program, helper, log);
	/*
	 * The pipe and the held file stay open until the session is put back:
	 * "reset" waits for that. An instance made for a failed session is
	 * removed, which they would keep busy.
	 */
	if (saved.created && ret) {
		if (io.in >= 0)
			close(io.in);
		if (hold >= 0)
			close(hold);
		io.in = hold = -1;
		remove_instance(name);
	} else if (instance_exists(name)) {
		if (!saved.joined)
			ret |= end_events_session(name);
		if (instance_exists(name)) {
			ret |= write_file(instance_file(path, name, "tracing_on"),
					  strcmp(saved.tracing_on, "0") ? "1\n" : "0\n", O_TRUNC);
			if (opt->buffer_kb) {
				snprintf(kb, sizeof(kb), "%lu\n", strtoul(saved.buffer_kb, NULL, 10));
				ret |= write_file(instance_file(path, name, "buffer_size_kb"), kb,
						  O_TRUNC);
			}
		}
	}
	if (io.in >= 0)
		close(io.in);
	if (hold >= 0)
		close(hold);
out:
	if (log >= 0)
		close(log);
	if (io.out >= 0 && io.out != STDOUT_FILENO && close(io.out) && !ret)
		ret = system_error(io.out_name);
	if (ret)
		return EXIT_REFUSED;
	return status;
}

int cmd_record(int argc, char **argv)
{
	struct record_options opt = { 0 };
	int ret;

	ret = parse_record_options(argc, argv, &opt);
	if (ret)
		return ret;
	return opt.events ? record_events(&opt) : record_tracer(&opt);
}
