# Shared by the host tests of the commands: a fake tree of the kernel's
# files under $root (--root), and the checks. Needs $mmioctl, $work and
# $failures set by the test file that sources it.
# shellcheck shell=bash

make_tree() { # a fresh fake root in $root
	root=$work/root
	rm -rf "$root"
	mkdir -p "$root/proc" "$root/sys/kernel/debug/mmiotrace" "$root/sys/kernel/tracing"
	printf '%s\n' "debugfs /sys/kernel/debug debugfs rw,relatime 0 0" \
		"tracefs /sys/kernel/tracing tracefs rw,relatime 0 0" > "$root/proc/mounts"
	ctl=$root/sys/kernel/debug/mmiotrace
	tracing=$root/sys/kernel/tracing
	: > "$ctl/ranges"
	: > "$ctl/ports"
	: > "$ctl/overrides"
	: > "$ctl/feed"
	echo 0 > "$ctl/trace_pc"
	echo 1 > "$ctl/trace_isa"
	echo 0 > "$ctl/maps_only"
	printf 'read 3\nwrite 1\nlost 7\narmed_bytes 4096\n' > "$ctl/stats"
	printf '%s\n' "1 0xfed00000 0x400 0 0 hpet_enable+0xc1/0x3f0" \
		"7 0xfea00000 0x1000 1 4096 do_map+0x85/0x140 [mmiotouch]" > "$ctl/mappings"
	: > "$root/proc/mmio-marker"
	echo "blk mmiotrace function nop" > "$tracing/available_tracers"
	echo nop > "$tracing/current_tracer"
	echo 1 > "$tracing/tracing_on"
	echo "7 (expanded: 1408)" > "$tracing/buffer_size_kb"
	printf 'VERSION 20070824\nMAP 1.000000 7 0xfea00000 0xffffc90000035000 0x1000 0x0 0\nR 4 1.000000 7 0xfea00000 0x10000ed 0x0 0\n' \
		> "$tracing/trace_pipe"
	printf '# tracer: mmiotrace\n#\nR 4 1.000000 7 0xfea00000 0x10000ed 0x0 0\n' > "$tracing/trace"
	make_device 0000:00:03.0 "0x00000000fea00000 0x00000000feafffff 0x0000000000040200"
	# VGA: BAR0 memory, BAR1 empty, BAR2 memory, BAR4 I/O.
	make_device 0000:00:02.0 "0x00000000fd000000 0x00000000fdffffff 0x0000000000042208" \
		"" "0x00000000feb10000 0x00000000feb10fff 0x0000000000040200" "" \
		"0x000000000000c000 0x000000000000c01f 0x0000000000040101"
	# BAR0 never assigned: it reads as starting at 0. BAR2 assigned.
	make_device 0000:00:05.0 "0x0000000000000000 0x000000000001ffff 0x0000000000040200" \
		"" "0x00000000fe000000 0x00000000fe000fff 0x0000000000040200"
	# A PCI domain above 0xffff, as VMD makes them.
	make_device 10000:00:03.0 "0x00000000f0000000 0x00000000f0003fff 0x0000000000040200"
}

# make_device BDF [RESOURCE_LINE]...: a device with up to 6 BARs.
make_device() {
	local dir=$root/sys/bus/pci/devices/$1 bar line
	shift
	mkdir -p "$dir"
	for bar in 0 1 2 3 4 5; do
		line=${1:-}
		[ $# -gt 0 ] && shift
		echo "${line:-0x0000000000000000 0x0000000000000000 0x0000000000000000}"
	done > "$dir/resource"
}

# check NAME EXPECTED_STATUS EXPECTED_OUTPUT_SUBSTRING -- ARGS...
check() {
	local name=$1 want_status=$2 want_text=$3
	shift 4
	out=$("$mmioctl" --root "$root" "$@" 2>&1)
	status=$?
	if [ "$status" = "$want_status" ] && [[ "$out" == *"$want_text"* ]]; then
		echo "ok - mmioctl: $name"
	else
		echo "not ok - mmioctl: $name (status $status, want $want_status; output: $out)"
		failures=$((failures + 1))
	fi
}

# expect NAME CONDITION...: a test on the fake tree after a command.
expect() {
	local name=$1
	shift
	if "$@"; then
		echo "ok - mmioctl: $name"
	else
		echo "not ok - mmioctl: $name"
		failures=$((failures + 1))
	fi
}

same() { [ "$1" = "$2" ] || { echo "# expected '$2', got '$1'"; false; }; }
lacks() { [[ "$1" != *"$2"* ]] || { echo "# '$1' has '$2'"; false; }; }

# check_exact NAME EXPECTED_STATUS EXPECTED_OUTPUT -- ARGS...: standard
# output and error, together, are exactly EXPECTED_OUTPUT.
check_exact() {
	local name=$1 want_status=$2 want_text=$3
	shift 4
	out=$("$mmioctl" --root "$root" "$@" 2>&1)
	status=$?
	if [ "$status" = "$want_status" ] && [ "$out" = "$want_text" ]; then
		echo "ok - mmioctl: $name"
	else
		echo "not ok - mmioctl: $name (status $status, want $want_status)"
		diff <(echo "$want_text") <(echo "$out") | sed 's/^/# /'
		failures=$((failures + 1))
	fi
}

# The files of a trace instance, in DIR: what a new one has (the kernel
# makes them with it), and a session's worth of events in its buffer.
make_instance_files() {
	local dir=$1 event cpu
	mkdir -p "$dir/events/mmiotrace"
	echo 1 > "$dir/tracing_on"
	echo 1410 > "$dir/buffer_size_kb"
	: > "$dir/trace_marker"
	echo 0 > "$dir/events/mmiotrace/enable"
	for event in mmio_read mmio_write mmio_unknown mmio_map mmio_unmap; do
		mkdir -p "$dir/events/mmiotrace/$event"
		echo 0 > "$dir/events/mmiotrace/$event/enable"
		printf '%s\n' "# Available triggers:" \
			"# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist" \
			> "$dir/events/mmiotrace/$event/trigger"
		: > "$dir/events/mmiotrace/$event/hist"
	done
	printf '%s\n' \
		"     kworker/1:1-37      [001] ...1.     7.830886: mmio_map: map_id=2 phys=0xfea00000 virt=0xffffc90000015000 len=0x1000" \
		"            bash-50      [001] d..2.     7.842583: mmio_read: phys=0xfea00000 value=0x10000ed width=4 map_id=2 pc=0x0" \
		"            bash-50      [001] d..2.     7.847946: mmio_write: phys=0xfea00004 value=0x55 width=4 map_id=2 pc=0x0" \
		"            bash-50      [001] d..2.     7.848988: mmio_read: phys=0xfea00004 value=0xffffffaa width=4 map_id=2 pc=0x0" \
		"            bash-50      [001] .....     7.850069: tracing_mark_write: hello" > "$dir/trace_pipe"
	{ printf '# tracer: nop\n#\n'; cat "$dir/trace_pipe"; } > "$dir/trace"
	for cpu in 0 1; do
		mkdir -p "$dir/per_cpu/cpu$cpu"
		printf '%s\n' "entries: $((cpu ? 0 : 5))" "overrun: $((cpu ? 0 : 2))" "commit overrun: 0" \
			"bytes: 300" "oldest event ts:     7.830886" "now ts:     8.000000" \
			"dropped events: $((cpu ? 1 : 0))" "read events: 0" > "$dir/per_cpu/cpu$cpu/stats"
	done
}

# make_events_tree: make_tree with the mmiotrace events at the top level,
# an empty instances directory and the template faketracefs.so copies
# into each instance it makes.
make_events_tree() {
	local event
	make_tree
	mkdir -p "$tracing/instances"
	for event in mmio_read mmio_write mmio_unknown mmio_map mmio_unmap; do
		mkdir -p "$tracing/events/mmiotrace/$event"
		echo 0 > "$tracing/events/mmiotrace/$event/enable"
		printf '%s\n' "# Available triggers:" > "$tracing/events/mmiotrace/$event/trigger"
	done
	rm -rf "$work/instance-template"
	make_instance_files "$work/instance-template"
	export FAKE_INSTANCE=$work/instance-template
	saved=$root/run/mmioctl
}

# make_instance NAME: an instance as the kernel would have made it.
make_instance() {
	make_instance_files "$tracing/instances/$1"
}
