#!/usr/bin/env bats
# Markers: /proc/mmio-marker writes exactly one MARK line, the same line
# trace_marker writes; bad text and a stopped tracer are refused.

load helpers

MARKER=/proc/mmio-marker

@test "markers: one write gives one MARK line, the same as trace_marker's" {
	tracer_on
	echo "driver init done" > "$MARKER"
	echo "driver init done" > "$TRACING/trace_marker"
	printf 'no newline' > "$MARKER"
	assert_events "MARK driver init done
MARK driver init done
MARK no newline"
	assert_stat mark 2
}

@test "markers: 1024 characters are accepted, 1025 are EINVAL" {
	tracer_on
	text=$(printf 'x%.0s' $(seq 1 1024))
	echo "$text" > "$MARKER"
	assert_events "MARK $text"
	assert_write_fails EINVAL "$MARKER" "${text}y\n"
	assert_events "MARK $text"
}

@test "markers: empty text, inner newlines and NUL are EINVAL and log nothing" {
	tracer_on
	assert_write_fails EINVAL "$MARKER" '\n'
	assert_write_fails EINVAL "$MARKER" 'two\nlines\n'
	assert_write_fails EINVAL "$MARKER" 'two\n\n'
	assert_write_fails EINVAL "$MARKER" 'nul\0byte\n'
	assert_events ""
	assert_stat mark 0
}

@test "markers: a write while mmiotrace is not the tracer is ENODEV" {
	assert_write_fails ENODEV "$MARKER" 'nobody listens\n'
	tracer_on
	assert_events ""
}

@test "markers: a write while tracing_on is 0 is EBADF and logs nothing" {
	tracer_on
	echo 0 > "$TRACING/tracing_on"
	assert_write_fails EBADF "$MARKER" 'not recording\n'
	echo 1 > "$TRACING/tracing_on"
	assert_events ""
	assert_stat mark 0
}

@test "markers: options/markers off refuses them, as trace_marker does" {
	tracer_on
	echo 0 > "$TRACING/options/markers"
	assert_write_fails EINVAL "$MARKER" 'not now\n'
	assert_write_fails EINVAL "$TRACING/trace_marker" 'not now\n'
	echo 1 > "$TRACING/options/markers"
	echo "now" > "$MARKER"
	assert_events "MARK now"
	assert_stat mark 1
}

@test "markers: options/stacktrace adds no stack entry to a marker" {
	tracer_on
	echo 1 > "$TRACING/options/stacktrace"
	echo "no stack" > "$MARKER"
	echo 0 > "$TRACING/options/stacktrace"
	assert_events "MARK no stack"
	grep -qx '# entries-in-buffer/entries-written: 1/1 .*' "$TRACING/trace" ||
		{ grep entries-in-buffer "$TRACING/trace"; false; }
}

@test "markers: a trigger on trace_marker's event fires on a marker" {
	tracer_on
	echo traceoff > "$TRACING/events/ftrace/print/trigger"
	echo "stop here" > "$MARKER"
	state=$(cat "$TRACING/tracing_on")
	echo '!traceoff' > "$TRACING/events/ftrace/print/trigger"
	assert_eq "tracing_on after the marker" 0 "$state"
	assert_events "MARK stop here"
}
