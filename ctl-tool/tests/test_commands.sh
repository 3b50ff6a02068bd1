#!/bin/bash
# Host tests of every mmioctl command against a fake tree (--root), with no
# kernel: files stand in for the control files, fakefail.so makes chosen
# opens or writes fail the way the kernel would.
# usage: test_commands.sh MMIOCTL FAKEFAIL_SO   (prints ok/not ok lines)
set -u
mmioctl=$1 fakefail=$2
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

make_tree() { # a fresh fake root in $root
	root=$work/root
	rm -rf "$root"
	mkdir -p "$root/proc" "$root/sys/kernel/debug/mmiotrace" "$root/sys/kernel/tracing" \
		"$root/sys/bus/pci/devices/0000:00:03.0" "$root/sys/bus/pci/devices/0000:00:02.0"
	printf '%s\n' "debugfs /sys/kernel/debug debugfs rw,relatime 0 0" \
		"tracefs /sys/kernel/tracing tracefs rw,relatime 0 0" > "$root/proc/mounts"
	local ctl=$root/sys/kernel/debug/mmiotrace
	: > "$ctl/ranges"
	echo 0 > "$ctl/trace_pc"
	echo 1 > "$ctl/trace_isa"
	echo 0 > "$ctl/maps_only"
	printf 'read 3\nwrite 1\nlost 7\npages_armed 1\n' > "$ctl/stats"
	: > "$root/proc/mmio-marker"
	echo "mmiotrace blk function nop" > "$root/sys/kernel/tracing/available_tracers"
	echo nop > "$root/sys/kernel/tracing/current_tracer"
	echo 1408 > "$root/sys/kernel/tracing/buffer_size_kb"
	printf 'R 4 1.000000 1 0xfea00000 0x10000ed 0x0 0\n' > "$root/sys/kernel/tracing/trace_pipe"
	# edu: BAR0 memory; VGA: BAR0 memory, BAR1 empty, BAR2 memory, BAR4 I/O.
	printf '%s\n' "0x00000000fea00000 0x00000000feafffff 0x0000000000040200" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		> "$root/sys/bus/pci/devices/0000:00:03.0/resource"
	printf '%s\n' "0x00000000fd000000 0x00000000fdffffff 0x0000000000042208" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x00000000feb10000 0x00000000feb10fff 0x0000000000040200" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		"0x000000000000c000 0x000000000000c01f 0x0000000000040101" \
		"0x0000000000000000 0x0000000000000000 0x0000000000000000" \
		> "$root/sys/bus/pci/devices/0000:00:02.0/resource"
}

ctl() { cat "$root/sys/kernel/debug/mmiotrace/$1"; }

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

make_tree
check "--help prints usage and exits 0" 0 "add-pci BDF [BAR]" -- --help
check "--version" 0 "mmioctl 0.1" -- --version
check "no command is a usage error" 2 "no command given" --
check "unknown command is a usage error" 2 "unknown command 'frob'" -- frob
check "unknown option is a usage error" 2 "unknown option '--frob'" -- --frob list

check "add writes the normalized range" 0 "" -- add 0xe0000000 16k
expect "add appended one line" same "$(ctl ranges)" "0xe0000000 0x4000"
check "add of several ranges is one write" 0 "" -- add 4096 1 0x2000 1M
expect "add appended both lines" same "$(ctl ranges)" "0xe0000000 0x4000
0x1000 0x1
0x2000 0x100000"
make_tree
check "add rejects a bad size with its reason" 2 \
	"invalid size '16q': expected bytes, 0x hex, or a k/M/G suffix" -- add 0x1000 16q
check "add rejects a bad address" 2 "invalid address '0x1g'" -- add 0x1g 16
check "add rejects an octal-looking address" 2 "invalid address '010'" -- add 010 16
check "add rejects size 0" 2 "invalid size '0'" -- add 0x1000 0
check "add rejects a range past 2^64" 2 "runs past the end" -- add 0xffffffffffffffff 1
check "add rejects a missing size" 2 "add takes ADDR SIZE pairs" -- add 0x1000 4k 0x2000
check "add with one bad pair writes nothing" 2 "invalid size" -- add 0x1000 4k 0x2000 4q
expect "nothing was written after the usage errors" same "$(ctl ranges)" ""

check "del writes a removal line" 0 "" -- del 0x1000 0x10
expect "del appended !ADDR SIZE" same "$(ctl ranges)" "!0x1000 0x10"

make_tree
check "add-pci adds every memory BAR" 0 "" -- add-pci 00:02.0
expect "add-pci wrote BAR0 and BAR2" same "$(ctl ranges)" "0xfd000000 0x1000000
0xfeb10000 0x1000"
make_tree
check "add-pci with a BAR adds that one" 0 "" -- add-pci 0000:00:03.0 0
expect "add-pci wrote the edu BAR" same "$(ctl ranges)" "0xfea00000 0x100000"
check "add-pci rejects an I/O-port BAR" 1 "BAR 4 is an I/O port BAR" -- add-pci 00:02.0 4
check "add-pci rejects an empty BAR" 1 "BAR 1 is empty" -- add-pci 00:02.0 1
check "add-pci rejects a malformed BDF" 2 "invalid PCI address '00:3.0'" -- add-pci 00:3.0
check "add-pci rejects an absent device" 1 "no PCI device 0000:00:07.0" -- add-pci 00:07.0
check "add-pci rejects a BAR out of range" 2 "invalid BAR '6'" -- add-pci 00:03.0 6
expect "the refused add-pci wrote nothing more" same "$(ctl ranges)" "0xfea00000 0x100000"

check "clear empties the set" 0 "" -- clear
expect "clear truncated ranges" same "$(ctl ranges)" ""
echo "0x1000 0x10" > "$root/sys/kernel/debug/mmiotrace/ranges"
check "list prints the set" 0 "0x1000 0x10" -- list

check "on selects mmiotrace" 0 "" -- on
expect "current_tracer is mmiotrace" same "$(cat "$root/sys/kernel/tracing/current_tracer")" mmiotrace
check "off selects nop" 0 "" -- off
expect "current_tracer is nop" same "$(cat "$root/sys/kernel/tracing/current_tracer")" nop
echo "blk function nop" > "$root/sys/kernel/tracing/available_tracers"
check "on without mmiotrace in the kernel says so" 1 "mmiotrace is not among the available tracers" -- on

check "pc on writes 1" 0 "" -- pc on
expect "trace_pc is 1" same "$(ctl trace_pc)" 1
check "isa off writes 0" 0 "" -- isa off
expect "trace_isa is 0" same "$(ctl trace_isa)" 0
check "maps-only on writes 1" 0 "" -- maps-only on
expect "maps_only is 1" same "$(ctl maps_only)" 1
check "pc rejects anything but on/off" 2 "pc takes 'on' or 'off', not 'yes'" -- pc yes
check "isa needs an argument" 2 "usage: mmioctl isa on|off" -- isa

check "mark joins its words into one marker" 0 "" -- mark after init
expect "the marker file got one line" same "$(cat "$root/proc/mmio-marker")" "after init"
check "mark rejects an inner newline" 2 "without a newline" -- mark "$(printf 'a\nb')"
check "mark rejects 1025 bytes" 2 "longer than 1024" -- mark "$(printf 'x%.0s' $(seq 1 1025))"

make_tree
check "status shows the tracer, toggles, ranges and stats" 0 "tracer: nop (mmiotrace off)" -- status
check "status shows an empty set as tracing everything" 0 "ranges: empty (every mapping is traced)" -- status
check "status shows the counters" 0 "  lost 7" -- status

check "record copies trace_pipe and reports lost events" 0 "7 events lost" -- record -o "$work/out.txt"
expect "record wrote the trace" same "$(cat "$work/out.txt")" "R 4 1.000000 1 0xfea00000 0x10000ed 0x0 0"
check "record rejects other arguments" 2 "record takes no argument but -o FILE" -- record -x
check "record to a full disk says so" 1 "/dev/full: No space left on device" -- record -o /dev/full

# Error classes from the system and the "kernel".
make_tree
rm "$root/sys/kernel/debug/mmiotrace/ranges"
check "a missing control file is reported with its path" 1 "mmiotrace/ranges: No such file or directory" -- add 0x1000 4k
make_tree
rm -r "$root/sys/kernel/debug/mmiotrace"
check "a kernel without the controls is named" 1 "mmiotrace not found: this kernel has no runtime mmiotrace controls" -- list
make_tree
echo "sysfs /sys sysfs rw 0 0" > "$root/proc/mounts"
check "debugfs not mounted is named" 1 "debugfs is not mounted" -- list
make_tree
export LD_PRELOAD=$fakefail
FAKEFAIL="write:mmiotrace/ranges:22" check "a kernel EINVAL is reported with path and strerror" 1 \
	"mmiotrace/ranges: Invalid argument" -- add 0x1000 4k
FAKEFAIL="open:mmiotrace/trace_pc:30" check "a read-only file is reported" 1 \
	"mmiotrace/trace_pc: Read-only file system" -- pc on
FAKEFAIL="write:proc/mmio-marker:19" check "ENODEV from the marker is reported" 1 \
	"mmio-marker: No such device" -- mark hello
FAKEFAIL="read:tracing/trace_pipe:4:1" check "record goes on reading after an EINTR" 0 \
	"7 events lost" -- record -o "$work/eintr.txt"
expect "record lost nothing to the EINTR" same "$(cat "$work/eintr.txt")" "$(cat "$root/sys/kernel/tracing/trace_pipe")"
FAKEFAIL="write:eintr.txt:4:1" check "record goes on writing after an EINTR" 0 \
	"7 events lost" -- record -o "$work/eintr.txt"
expect "record wrote everything after the EINTR" same "$(cat "$work/eintr.txt")" "$(cat "$root/sys/kernel/tracing/trace_pipe")"
FAKEFAIL="write:mmiotrace/ranges:28" check "ENOSPC from ranges is reported" 1 \
	"No space left on device" -- add 0x1000 4k
unset LD_PRELOAD
expect "no refused write reached the fake files" same "$(ctl ranges)$(ctl trace_pc)" "0"

[ "$failures" = 0 ]
