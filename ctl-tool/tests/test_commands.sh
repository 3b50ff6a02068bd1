#!/bin/bash
# Host tests of every mmioctl command against a fake tree (--root), with no
# kernel: files stand in for the control files, fakefail.so makes chosen
# opens, reads or writes fail the way the kernel would.
# usage: test_commands.sh MMIOCTL FAKEFAIL_SO   (prints ok/not ok lines)
set -u
mmioctl=$1 fakefail=$2
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/fake_tree.sh"

make_tree
check "--help prints usage and exits 0" 0 "add-pci BDF [BAR]" -- --help
check "--version" 0 "mmioctl 0.2" -- --version
check "no command is a usage error" 2 "no command given" --
check "unknown command is a usage error" 2 "unknown command 'frob'" -- frob
check "unknown option is a usage error" 2 "unknown or incomplete option '--frob'" -- --frob list
check "--root=DIR is taken" 0 "" -- --root="$root" list
check "-- ends the options" 0 "" -- -- list
check "COMMAND --help prints that command's usage" 0 "usage: mmioctl add ADDR SIZE..." -- add --help
check "record --help too" 0 "usage: mmioctl record [-e] [-i NAME] [-o FILE]" -- record --help
check "a usage error names the program once" 2 "usage: mmioctl isa on|off" -- isa
expect "and not twice" lacks "$out" "mmioctl: usage"

check "add writes the normalized range" 0 "" -- add 0xe0000000 16k
expect "add appended one line" same "$(cat "$ctl/ranges")" "0xe0000000 0x4000"
check "add of several ranges is one write" 0 "" -- add 4096 1 0x2000 1M
expect "add appended both lines" same "$(cat "$ctl/ranges")" "0xe0000000 0x4000
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
expect "nothing was written after the usage errors" same "$(cat "$ctl/ranges")" ""

check "del writes a removal line" 0 "" -- del 0x1000 0x10
expect "del appended !ADDR SIZE" same "$(cat "$ctl/ranges")" "!0x1000 0x10"

make_tree
echo "0x1000 0x10" > "$ctl/ranges"
check "set replaces the set in one write" 0 "" -- set 0x2000 4k 0x8000 16
expect "set truncated, then wrote both lines" same "$(cat "$ctl/ranges")" "0x2000 0x1000
0x8000 0x10"
check "set checks every pair before writing" 2 "invalid size '0'" -- set 0x1000 4k 0x2000 0
expect "the refused set left the set" same "$(cat "$ctl/ranges")" "0x2000 0x1000
0x8000 0x10"

make_tree
printf '# BARs of interest\n0xfea00000 0x100000\n\n  !0xfea00000 16\n0x1000 4k\n' > "$work/set.txt"
check "load installs a file of ranges in one write" 0 "" -- load "$work/set.txt"
expect "load wrote the normalized lines" same "$(cat "$ctl/ranges")" "0xfea00000 0x100000
!0xfea00000 0x10
0x1000 0x1000"
make_tree
out=$(printf '0x1000 16\n' | "$mmioctl" --root "$root" load - 2>&1)
expect "load - reads standard input" same "$(cat "$ctl/ranges")" "0x1000 0x10"
printf '0x1000 16\n0x2000 4q\n' > "$work/bad.txt"
check "load names the bad line" 2 "$work/bad.txt:2: invalid range '0x2000 4q'" -- load "$work/bad.txt"
expect "the refused load wrote nothing" same "$(cat "$ctl/ranges")" "0x1000 0x10"
check "load of a missing file names it" 1 "$work/none.txt: No such file or directory" -- load "$work/none.txt"
"$mmioctl" --root "$root" list > "$work/listed.txt"
check "what list prints, load takes back" 0 "" -- load "$work/listed.txt"
expect "the set is the same after list and load" same "$(cat "$ctl/ranges")" "0x1000 0x10"

make_tree
check "add-pci adds every memory BAR" 0 "" -- add-pci 00:02.0
expect "add-pci wrote BAR0 and BAR2" same "$(cat "$ctl/ranges")" "0xfd000000 0x1000000
0xfeb10000 0x1000"
make_tree
check "add-pci with a BAR adds that one" 0 "" -- add-pci 0000:00:03.0 0
expect "add-pci wrote the edu BAR" same "$(cat "$ctl/ranges")" "0xfea00000 0x100000"
check "add-pci rejects an empty BAR" 1 "BAR 1 is empty" -- add-pci 00:02.0 1
check "add-pci rejects a BAR without an address" 1 "BAR 0 has no address assigned" -- add-pci 00:05.0 0
check "add-pci rejects a malformed BDF" 2 "invalid PCI address '00:03.0.1'" -- add-pci 00:03.0.1
check "add-pci rejects an absent device" 1 "no PCI device 0000:00:07.0" -- add-pci 00:07.0
check "add-pci rejects a BAR out of range" 2 "invalid BAR '6'" -- add-pci 00:03.0 6
expect "the refused add-pci wrote nothing more" same "$(cat "$ctl/ranges")" "0xfea00000 0x100000"
make_tree
check "add-pci with an I/O-port BAR adds it to the ports" 0 "" -- add-pci 00:02.0 4
expect "add-pci wrote the I/O BAR to ports" same "$(cat "$ctl/ports")" "0xc000 0x20"
expect "and nothing to ranges" same "$(cat "$ctl/ranges")" ""
check "add-pci without a BAR leaves the I/O BAR out" 0 "" -- add-pci 00:02.0
expect "only the memory BARs went to ranges" same "$(cat "$ctl/ports")" "0xc000 0x20"
make_device 0000:00:06.0 "0x0000000000010000 0x000000000001001f 0x0000000000040101"
check "add-pci refuses an I/O BAR past port 0xffff" 1 "BAR 0 is an I/O port BAR" -- add-pci 00:06.0 0

make_tree
check "add-port writes the normalized range to ports" 0 "" -- add-port 0x70 2
check "add-port of several ranges is one write" 0 "" -- add-port 0x3f8 8 1296 2
expect "add-port appended the lines" same "$(cat "$ctl/ports")" "0x70 0x2
0x3f8 0x8
0x510 0x2"
expect "add-port left ranges alone" same "$(cat "$ctl/ranges")" ""
check "add-port rejects a range past port 0xffff" 2 "ports 0xfffe 4 run past port 0xffff" -- add-port 0xfffe 4
check "add-port rejects a port above 0xffff" 2 "ports 0x10000 1 run past port 0xffff" -- add-port 0x10000 1
check "add-port rejects a missing size" 2 "add-port takes PORT SIZE pairs" -- add-port 0x70 2 0x3f8
check "add-port rejects a bad size" 2 "invalid size '2q'" -- add-port 0x70 2q
expect "the refused add-port wrote nothing" same "$(cat "$ctl/ports")" "0x70 0x2
0x3f8 0x8
0x510 0x2"
check "ports prints the port set" 0 "0x3f8 0x8" -- ports
check "del-port writes a removal line" 0 "" -- del-port 0x3fc 4
expect "del-port appended !PORT SIZE" same "$(tail -n 1 "$ctl/ports")" "!0x3fc 0x4"
check "clear-ports empties the port set" 0 "" -- clear-ports
expect "clear-ports truncated ports" same "$(cat "$ctl/ports")" ""

make_tree
check "add-pci skips a BAR without an address" 0 "" -- add-pci 00:05.0
expect "only the assigned BAR was added" same "$(cat "$ctl/ranges")" "0xfe000000 0x1000"
make_tree
check "add-pci takes lspci's short form" 0 "" -- add-pci 3.0
check "add-pci takes a bus without its leading zero" 0 "" -- add-pci 0:3.0 0
check "add-pci takes a domain above 0xffff" 0 "" -- add-pci 10000:00:03.0
expect "the short forms and the domain found their devices" same "$(cat "$ctl/ranges")" \
	"0xfea00000 0x100000
0xfea00000 0x100000
0xf0000000 0x4000"

make_tree
check "maps prints the mappings under a header" 0 \
	"     7 0xfea00000         0x1000          yes         4096 do_map+0x85/0x140 [mmiotouch]" -- maps
expect "the header names the columns" same "$(echo "$out" | head -n 1)" \
	"    ID PHYS               SIZE         TRACED        ARMED CALLER"

make_tree
echo "9 0xfea00000 0x1000 1 4096 pid=812 virt=0x7f52b911a000 comm=my driver" >> "$ctl/mappings"
check "maps shows a process's mapping with its pid and command" 0 \
	"     9 0xfea00000         0x1000          yes         4096 pid 812 (my driver) at 0x7f52b911a000" -- maps

make_tree
echo "0x1000 0x10" > "$ctl/ranges"
check "clear empties the set" 0 "" -- clear
expect "clear truncated ranges" same "$(cat "$ctl/ranges")" ""
expect "clear says nothing while the tracer is off" lacks "$out" "range set is empty"
echo mmiotrace > "$tracing/current_tracer"
check "clear while tracing says what an empty set means" 0 \
	"the range set is empty: every mapping made while tracing is traced" -- clear
echo "0x1000 0x10" > "$ctl/ranges"
check "list prints the set" 0 "0x1000 0x10" -- list

make_tree
check "on selects mmiotrace" 0 "" -- on
expect "current_tracer is mmiotrace" same "$(cat "$tracing/current_tracer")" mmiotrace
check "on when it is on says so" 0 "mmiotrace is on already" -- on
check "off selects nop" 0 "" -- off
expect "current_tracer is nop" same "$(cat "$tracing/current_tracer")" nop
check "off when it is off says so" 0 "mmiotrace is off already" -- off
echo function > "$tracing/current_tracer"
check "off leaves another tracer alone" 1 "the tracer is function, not mmiotrace: left alone" -- off
expect "the function tracer still runs" same "$(cat "$tracing/current_tracer")" function
check "on refuses while another tracer is on" 1 "the tracer function is on: switch it off first" -- on
expect "the function tracer still runs after on" same "$(cat "$tracing/current_tracer")" function
echo nop > "$tracing/current_tracer"
echo 0 > "$tracing/tracing_on"
check "on says when tracing_on is 0" 0 "tracing_on is 0: nothing is recorded until it is 1" -- on
echo nop > "$tracing/current_tracer"
echo "blk mmiotrace2 nop" > "$tracing/available_tracers"
check "on wants mmiotrace exactly" 1 "mmiotrace is not among the available tracers" -- on
echo "blk function nop" > "$tracing/available_tracers"
check "on without mmiotrace in the kernel says so" 1 "mmiotrace is not among the available tracers" -- on
expect "on changed nothing" same "$(cat "$tracing/current_tracer")" nop

make_tree
check "pc on writes 1" 0 "" -- pc on
expect "trace_pc is 1" same "$(cat "$ctl/trace_pc")" 1
check "isa off writes 0" 0 "" -- isa off
expect "trace_isa is 0" same "$(cat "$ctl/trace_isa")" 0
check "maps-only on writes 1" 0 "" -- maps-only on
expect "maps_only is 1" same "$(cat "$ctl/maps_only")" 1
check "pc rejects anything but on/off" 2 "pc takes 'on' or 'off', not 'yes'" -- pc yes

check "mark joins its words into one marker" 0 "" -- mark after init
expect "the marker file got one line" same "$(cat "$root/proc/mmio-marker")" "after init"
check "mark rejects an inner newline" 2 "without a newline" -- mark "$(printf 'a\nb')"
check "mark rejects 1025 bytes" 2 "longer than 1024" -- mark "$(printf 'x%.0s' $(seq 1 1025))"

make_tree
check "status shows the tracer" 0 "tracer: nop (mmiotrace off)" -- status
check "status shows tracing_on" 0 "tracing_on: 1" -- status
check "status shows an empty set as what it traces" 0 \
	"ranges: empty (every mapping made while tracing is traced)" -- status
check "status shows the counters" 0 "  lost 7" -- status
echo "0x1000 0x10" > "$ctl/ranges"
check "status --json gives the same facts as one object" 0 \
	'{"tracer":"nop","mmiotrace":false,"tracing_on":true,"buffer_size_kb":1408,"trace_pc":false,"trace_isa":true,"maps_only":false,"ranges":[[4096,16]],"stats":{"read":3,"write":1,"lost":7,"armed_bytes":4096},"events_top":false,"events_instances":[],"overrides":0}' \
	-- status --json
check "status --json is valid JSON" 0 "" -- status --json
expect "python reads it" python3 -c 'import json, sys; json.loads(sys.argv[1])' "$out"
check "status rejects other arguments" 2 "status takes no argument but --json" -- status --yaml

make_tree
check "show prints the buffer's events" 0 "R 4 1.000000 7 0xfea00000 0x10000ed 0x0 0" -- show
expect "show leaves the header out" lacks "$out" "# tracer"

make_tree
check "buffer prints the size" 0 "7 (expanded: 1408)" -- buffer
check "buffer sets the size" 0 "" -- buffer 4096
expect "buffer_size_kb is 4096" same "$(cat "$tracing/buffer_size_kb")" 4096
check "buffer rejects 0" 2 "invalid buffer size '0'" -- buffer 0

make_tree
echo mmiotrace > "$tracing/current_tracer"
echo "0x1000 0x10" > "$ctl/ranges"
echo 1 > "$ctl/trace_pc"
echo 0 > "$ctl/trace_isa"
echo 1 > "$ctl/maps_only"
echo 0 > "$tracing/tracing_on"
echo 64 > "$tracing/buffer_size_kb"
check "reset puts everything back" 0 "" -- reset
expect "reset: tracer off, set empty, toggles and buffer at their defaults" same \
	"$(cat "$tracing/current_tracer" "$ctl/ranges" "$ctl/trace_pc" "$ctl/trace_isa" \
		"$ctl/maps_only" "$tracing/tracing_on" "$tracing/buffer_size_kb")" "nop
0
1
0
1
1408"

# record: a whole session.
make_tree
check "record -- COMMAND records a session and sums it up" 0 \
	"recorded 2 events (R 1, W 0, MAP 1, UNMAP 0, MARK 0, UNKNOWN 0), 7 lost" \
	-- record -o "$work/out.txt" -- true
expect "record wrote the trace" same "$(cat "$work/out.txt")" "$(cat "$tracing/trace_pipe")"
expect "record switched the tracer off again" same "$(cat "$tracing/current_tracer")" nop
expect "record left tracing_on as it was" same "$(cat "$tracing/tracing_on")" 1
check "record -oFILE is taken" 0 "recorded 2 events" -- record -o"$work/out2.txt" -- true
check "record exits with the command's status" 3 "recorded 2 events" -- record -o "$work/out.txt" -- sh -c 'exit 3'
check "record -b sets the buffer for the session" 0 "" \
	-- record -b 4096 -o "$work/out.txt" -- sh -c "cat $tracing/buffer_size_kb > $work/during"
expect "the session had 4096 KiB" same "$(cat "$work/during")" 4096
expect "and the size went back after it" same "$(cat "$tracing/buffer_size_kb")" 1408
echo mmiotrace > "$tracing/current_tracer"
check "record on a running trace counts only its own losses" 0 "0 lost" \
	-- record -o "$work/out.txt" -- true
expect "and leaves the tracer on" same "$(cat "$tracing/current_tracer")" mmiotrace
echo function > "$tracing/current_tracer"
check "record refuses while another tracer is on" 1 "the tracer function is on" -- record -- true
check "record rejects an unknown option" 2 "record: unknown or incomplete option '-x'" -- record -x
check "record rejects a bad duration" 2 "invalid duration 'soon'" -- record -d soon
make_tree
start=$(date +%s)
check "record -d ends after the duration" 0 "recorded 2 events" -- record -q -d 1 -o "$work/out.txt"
expect "in about a second" test $(($(date +%s) - start)) -le 3
check "record to a full disk says so" 1 "/dev/full: No space left on device" \
	-- record -o /dev/full -- true
expect "and the tracer is off again" same "$(cat "$tracing/current_tracer")" nop

make_tree
echo "the previous trace" > "$work/kept.txt"
rm -r "$ctl"
check "record on a kernel without mmiotrace fails" 1 "this kernel has no runtime mmiotrace controls" \
	-- record -o "$work/kept.txt" -- true
expect "and leaves the previous trace alone" same "$(cat "$work/kept.txt")" "the previous trace"

# A stalled reader of record's output: SIGTERM still stops it.
make_tree
head -c 300000 /dev/zero | tr '\0' 'R' > "$tracing/trace_pipe"
"$mmioctl" --root "$root" record -q -- sleep 30 2>/dev/null | sleep 30 &
stalled_reader=$!
sleep 1
recorder=$(pgrep -n -f "record -q -- sleep 30" | head -n 1)
recorded_command=$(pgrep -P "$recorder" sleep)
kill -TERM "$recorder"
for i in $(seq 1 30); do kill -0 "$recorder" 2>/dev/null || break; sleep 0.1; done
expect "SIGTERM stops record while its output is blocked" sh -c "! kill -0 $recorder 2>/dev/null"
# Only this test's own sleeps: anything else on the machine is not ours.
kill $recorded_command "$stalled_reader" 2>/dev/null
wait "$stalled_reader" 2>/dev/null
expect "the stopped session switched the tracer off" same "$(cat "$tracing/current_tracer")" nop

# Output that cannot be written is a failure.
make_tree
check_stdout() { # check_stdout NAME REDIRECTION ARGS...
	local name=$1 redirect=$2 status
	shift 2
	if [ "$redirect" = full ]; then
		"$mmioctl" --root "$root" "$@" > /dev/full 2> "$work/err"
	else
		"$mmioctl" --root "$root" "$@" >&- 2> "$work/err"
	fi
	status=$?
	if [ "$status" = 1 ] && grep -q "standard output" "$work/err"; then
		echo "ok - mmioctl: $name"
	else
		echo "not ok - mmioctl: $name (status $status: $(cat "$work/err"))"
		failures=$((failures + 1))
	fi
}
check_stdout "--help to a full disk fails" full --help
check_stdout "--version to a closed stdout fails" closed --version
echo "0x1000 0x10" > "$ctl/ranges"
check_stdout "list to a full disk fails" full list
check_stdout "status to a closed stdout fails" closed status

# Error classes from the system and the "kernel".
make_tree
rm "$ctl/ranges"
check "a missing control file is reported with its path" 1 "mmiotrace/ranges: No such file or directory" -- add 0x1000 4k
make_tree
rm -r "$ctl"
check "a kernel without the controls is named" 1 "mmiotrace not found: this kernel has no runtime mmiotrace controls" -- list
make_tree
echo "sysfs /sys sysfs rw 0 0" > "$root/proc/mounts"
check "debugfs not mounted is named" 1 "debugfs is not mounted" -- list
make_tree
export LD_PRELOAD=$fakefail
FAKEFAIL="write:mmiotrace/ranges:22" check "a kernel EINVAL is reported with path and strerror" 1 \
	"mmiotrace/ranges: Invalid argument" -- add 0x1000 4k
FAKEFAIL="write:mmiotrace/ports:28" check "a port set past the debug registers says so" 1 \
	"the port set needs more than 4 aligned windows of 1, 2 or 4 ports (debug registers)" -- add-port 0x1 15
FAKEFAIL="write:mmiotrace/ports:16" check "debug registers in use are named" 1 \
	"the debug registers are in use (a debugger, perf or kgdb)" -- add-port 0x70 2
FAKEFAIL="open:mmiotrace/trace_pc:30" check "a read-only file is reported" 1 \
	"mmiotrace/trace_pc: Read-only file system" -- pc on
FAKEFAIL="write:proc/mmio-marker:19" check "ENODEV from the marker is reported" 1 \
	"mmio-marker: No such device" -- mark hello
FAKEFAIL="read:mmiotrace/trace_pc:5" check "a read error of a control file fails status" 1 \
	"mmiotrace/trace_pc: Input/output error" -- status
FAKEFAIL="read:tracing/available_tracers:5" check "a read error is not 'mmiotrace unavailable'" 1 \
	"available_tracers: Input/output error" -- on
FAKEFAIL="read:tracing/trace_pipe:4:1" check "record goes on reading after an EINTR" 0 \
	"recorded 2 events" -- record -o "$work/eintr.txt" -- true
expect "record lost nothing to the EINTR" same "$(cat "$work/eintr.txt")" "$(cat "$tracing/trace_pipe")"
FAKEFAIL="write:eintr.txt:4:1" check "record goes on writing after an EINTR" 0 \
	"recorded 2 events" -- record -o "$work/eintr.txt" -- true
expect "record wrote everything after the EINTR" same "$(cat "$work/eintr.txt")" "$(cat "$tracing/trace_pipe")"
FAKEFAIL="write:mmiotrace/ranges:28" check "ENOSPC from ranges is reported" 1 \
	"No space left on device" -- add 0x1000 4k
FAKEFAIL="write:tracing/current_tracer:16:1" check "record leaves the tracer as found when it fails" 1 \
	"current_tracer: Device or resource busy" -- record -b 64 -o "$work/out.txt" -- true
unset LD_PRELOAD
expect "the failed record put the buffer back" same "$(cat "$tracing/buffer_size_kb")" 1408
expect "no refused write reached the fake files" same "$(cat "$ctl/ranges")$(cat "$ctl/trace_pc")" "0"

[ "$failures" = 0 ]
