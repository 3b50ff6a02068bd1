#!/bin/bash
# Host tests of convert, last-boot and boot-params against a fake tree
# (--root): an events trace in the stock format, the previous boot's
# capture of a boot-mapped instance, and the boot parameters of a flight
# recorder.
# usage: test_flight.sh MMIOCTL   (prints ok/not ok lines)
set -u
mmioctl=$1
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$(dirname "$0")" || exit 1
fixture=fixtures/flight-events.txt
expected=expected/flight-events.convert

. ./fake_tree.sh

# run ARGS...: stdout in $out, stderr in $err, the status in $status.
run() {
	"$mmioctl" --root "$root" "$@" > "$work/out" 2> "$work/err"
	status=$?
	out=$(cat "$work/out")
	err=$(cat "$work/err")
}

# outputs NAME STATUS STDOUT STDERR -- ARGS...: exactly these.
outputs() {
	local name=$1 want_status=$2 want_out=$3 want_err=$4
	shift 5
	run "$@"
	if [ "$status" = "$want_status" ] && [ "$out" = "$want_out" ] && [ "$err" = "$want_err" ]; then
		echo "ok - mmioctl: $name"
	else
		echo "not ok - mmioctl: $name (status $status, want $want_status)"
		diff <(printf '%s\n%s\n' "$want_out" "$want_err") <(printf '%s\n%s\n' "$out" "$err") |
			sed 's/^/# /'
		failures=$((failures + 1))
	fi
}

# convert_fails NAME LINE MESSAGE: a trace whose third line is LINE is refused, naming it.
convert_fails() {
	printf '# tracer: nop\n#\n%s\n' "$2" > "$work/bad.txt"
	outputs "convert refuses $1" 1 "VERSION 20070824" "mmioctl: $work/bad.txt:3: $3" -- \
		convert "$work/bad.txt"
}

make_tree
flight=$tracing/instances/flight

# --- convert ---
run convert "$fixture"
expect "convert prints the fixture in the stock format" \
	same "$status:$err:$out" "0::$(cat $expected)"
run convert - < "$fixture"
expect "convert reads standard input" same "$status:$out" "0:$(cat $expected)"
run convert < "$fixture"
expect "convert without TRACE reads standard input" same "$status:$out" "0:$(cat $expected)"
"$mmioctl" convert "$fixture" | "$mmioctl" stat - > "$work/stat" 2>&1
expect "stat reads what convert prints, every line of it" \
	same "$(head -n 1 "$work/stat")" "standard input: 18 lines, 3 reads, 3 writes, 1 MAP, 2 UNMAP, 6 MARK, 1 UNKNOWN, 0 other lines, 12 events lost, 12.345600 to 13.100000"
"$mmioctl" convert "$fixture" | "$mmioctl" decode - > "$work/decoded" 2>&1
expect "decode reads what convert prints, as it is" same "$(cat "$work/decoded")" "$(cat $expected)"
outputs "convert of a trace without events prints VERSION only" 0 "VERSION 20070824" "" -- \
	convert /dev/null
printf 'hello\nworld\n' > "$work/text.txt"
outputs "convert of a file with no event line refuses it" 1 "VERSION 20070824" \
	"mmioctl: $work/text.txt: not an events trace: no line is a trace event" -- convert "$work/text.txt"
outputs "convert of a stock trace says it is one" 1 "VERSION 20070824" \
	"mmioctl: fixtures/edu-session.txt: not an events trace: no line is a trace event (it is in the stock format: decode and stat read it)" -- \
	convert fixtures/edu-session.txt
printf '# tracer: nop\n#\n  sh-1  [000] d..1.  5.000001: sched_switch: prev_comm=sh\n' > "$work/other.txt"
outputs "convert of an events trace without mmiotrace events prints VERSION only" 0 \
	"VERSION 20070824" "" -- convert "$work/other.txt"
# A user mapping's lines carry its process's pid, from its MAP's pid=, as
# the tracer's PID column does.
{
	echo "# tracer: nop"
	echo "  barmap-42  [001] d..1.  5.000001: mmio_map: map_id=3 phys=0xfea00000 virt=0x7f0000000000 len=0x1000 pid=42"
	echo "  barmap-42  [001] d..1.  5.000002: mmio_read: phys=0xfea00000 value=0x10000ed width=4 map_id=3 pc=0x0"
	echo "  barmap-42  [001] d..1.  5.000003: mmio_unmap: map_id=3"
} > "$work/user.txt"
outputs "convert gives a user mapping's lines its process's pid" 0 "VERSION 20070824
MAP 5.000001 3 0xfea00000 0x7f0000000000 0x1000 0x0 42
R 4 5.000002 3 0xfea00000 0x10000ed 0x0 42
UNMAP 5.000003 3 0x0 42" "" -- convert "$work/user.txt"
outputs "convert of a missing file says so" 1 "" "mmioctl: $work/none: No such file or directory" -- \
	convert "$work/none"
outputs "convert takes no option" 2 "" "mmioctl: convert takes a TRACE file or '-', not '--json'
Try 'mmioctl --help'." -- convert --json
outputs "convert takes one TRACE" 2 "" "usage: mmioctl convert [TRACE|-]
  an events trace (an instance's trace) in the stock format" -- convert a b
ev='  sh-1  [000] d..1.  5.000001:'
convert_fails "a missing field" "$ev mmio_read: phys=0x1000 value=0x1 width=4 pc=0x0" "no map_id= field"
convert_fails "a bad width" "$ev mmio_read: phys=0x1000 value=0x1 width=3 map_id=1 pc=0x0" \
	"width 3 is not 1, 2, 4 or 8"
convert_fails "a value wider than the access" \
	"$ev mmio_write: phys=0x1000 value=0x100 width=1 map_id=1 pc=0x0" "value 0x100 wider than 1 bytes"
convert_fails "a malformed number" "$ev mmio_write: phys=0xfg value=0x1 width=1 map_id=1 pc=0x0" \
	"malformed phys= field '0xfg'"
convert_fails "an unknown override" \
	"$ev mmio_read: phys=0x1000 value=0x1 width=4 map_id=1 pc=0x0 override=maybe" \
	"malformed override= field 'maybe'"
convert_fails "a dropped read" \
	"$ev mmio_read: phys=0x1000 value=0x1 width=4 map_id=1 pc=0x0 override=dropped" \
	"override=dropped on a read"
convert_fails "a replaced write" \
	"$ev mmio_write: phys=0x1000 value=0x1 width=4 map_id=1 pc=0x0 override=(2)" \
	"override=replaced on a write"
convert_fails "an empty mapping" "$ev mmio_map: map_id=1 phys=0x1000 virt=0x0 len=0x0" \
	"mapping of 0x0 bytes at 0x1000 is empty or runs past the end of the address space"
convert_fails "bad opcode bytes" "$ev mmio_unknown: phys=0x1000 opcode=0f,b7 map_id=1 pc=0x0" \
	"malformed opcode= field '0f,b7'"
convert_fails "a map id out of range" "$ev mmio_unmap: map_id=2147483648" \
	"malformed map_id= field '2147483648'"
convert_fails "an event without a timestamp" "  sh-1  [000] d..1.  5: mmio_unmap: map_id=1" \
	"no timestamp (secs.usecs) before the event's name"

# --- last-boot ---
outputs "last-boot without the instance says how to make one" 1 "" \
	"mmioctl: no trace instance flight: boot with reserve_mem=SIZE:2M:flight trace_instance=flight@flight,mmiotrace (see mmioctl boot-params --flight)" -- last-boot
outputs "last-boot -i NAME names it in the advice" 1 "" \
	"mmioctl: no trace instance box: boot with reserve_mem=SIZE:2M:box trace_instance=box@box,mmiotrace (see mmioctl boot-params --flight -i box)" -- last-boot -i box
make_instance_files "$flight"
outputs "last-boot refuses an ordinary instance" 1 "" \
	"mmioctl: instance flight is not a persistent (boot-mapped) instance: it has no last_boot_info" -- last-boot
printf 'text delta:\t0\ndata delta:\t0\n' > "$flight/last_boot_info"
echo 0 > "$flight/tracing_on"
printf '# tracer: nop\n#\n%s\n' "             cat-90      [000] .....    13.100000: tracing_mark_write: hello" \
	> "$flight/trace"
outputs "last-boot of an instance with only a marker says it has no events" 1 "" \
	"mmioctl: instance flight holds no mmiotrace events" -- last-boot
printf '%s\n' "$ev mmio_map: map_id=1 phys=0x1000 virt=0x0 len=0x1000" \
	"$ev mmio_read: phys=0x1000 value=0x1 width=3 map_id=1 pc=0x0" > "$flight/trace"
outputs "last-boot of a bad line prints nothing, names the line" 1 "" \
	"mmioctl: $flight/trace:2: width 3 is not 1, 2, 4 or 8" -- last-boot
cp "$fixture" "$flight/trace"
outputs "last-boot prints the previous boot's events, says how many" 0 "$(cat $expected)" \
	"mmioctl: 7 accesses and 1 mapping from the previous boot, instance flight" -- last-boot
expect "last-boot leaves the instance as it was" same "$(cat "$flight/tracing_on"):$(cmp "$fixture" "$flight/trace")" "0:"
outputs "last-boot takes no argument but --clear" 2 "" \
	"mmioctl: last-boot takes no argument but --clear and -i NAME, not '--clean'
Try 'mmioctl --help'." -- last-boot --clean
"$mmioctl" --root "$root" last-boot --clear > /dev/full 2> "$work/err"
expect "last-boot --clear into a full disk fails and clears nothing" \
	same "$?:$(tail -n 2 "$work/err" | paste -sd:):$(cat "$flight/tracing_on"):$(cmp "$fixture" "$flight/trace")" \
	"1:mmioctl: instance flight left as it was: its events did not all reach standard output:mmioctl: standard output: No space left on device:0:"
outputs "last-boot --clear prints, then empties the instance and records again" 0 "$(cat $expected)" \
	"mmioctl: 7 accesses and 1 mapping from the previous boot, instance flight
mmioctl: instance flight emptied, recording again (tracing_on 1)" -- last-boot --clear
expect "--clear truncated the trace and set tracing_on" \
	same "$(wc -c < "$flight/trace"):$(cat "$flight/tracing_on")" "0:1"
cp "$fixture" "$flight/trace"
outputs "last-boot with tracing_on 1 says some events may be of this boot" 0 "$(cat $expected)" \
	"mmioctl: 7 accesses and 1 mapping recorded, instance flight: its tracing_on is 1, some may be of this boot" -- last-boot

# --- boot-params ---
note="mmioctl: the BAR addresses are those this boot assigned: they stay while the firmware and the slots do"
outputs "boot-params: add-pci, every memory BAR" 0 \
	"mmiotrace.ranges=16M@0xfd000000,4k@0xfeb10000 trace_event=mmiotrace:*" "$note" -- \
	boot-params add-pci 00:02.0
outputs "boot-params: add-pci BDF BAR, then ADDR SIZE" 0 \
	"mmiotrace.ranges=1M@0xfea00000,100@0xfed00000,3G@0x100000000 trace_event=mmiotrace:*" \
	"$note" -- boot-params add-pci 0000:00:03.0 0 0xfed00000 100 0x100000000 3G
outputs "boot-params: ADDR SIZE, no note" 0 \
	"mmiotrace.ranges=1025@0x1000,16k@0x2000 trace_event=mmiotrace:*" "" -- \
	boot-params 0x1000 1025 8192 0x10k
outputs "boot-params --flight: 2M in instance flight" 0 \
	"mmiotrace.ranges=4k@0xfeb10000 reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace" \
	"$note" -- boot-params --flight add-pci 0:2.0 2
outputs "boot-params --flight=SIZE -i NAME" 0 \
	"mmiotrace.ranges=1k@0xfed00000 reserve_mem=1G:2M:box trace_instance=box@box,mmiotrace" "" -- \
	boot-params --flight=0x400M -i box 0xfed00000 1024
usage="Try 'mmioctl --help'."
outputs "boot-params: a bad flight SIZE" 2 "" "mmioctl: invalid flight recorder size '2x': expected bytes, 0x hex, or a k/M/G suffix, a multiple of 4k
$usage" -- boot-params --flight=2x 0x1000 4096
outputs "boot-params: a flight SIZE not of whole pages" 2 "" "mmioctl: invalid flight recorder size '1000': expected bytes, 0x hex, or a k/M/G suffix, a multiple of 4k
$usage" -- boot-params --flight=1000 0x1000 4096
outputs "boot-params: an empty flight SIZE" 2 "" "mmioctl: invalid flight recorder size '': expected bytes, 0x hex, or a k/M/G suffix, a multiple of 4k
$usage" -- boot-params --flight= 0x1000 4096
outputs "boot-params: NAME with a slash" 2 "" "mmioctl: invalid instance name 'a/b': expected 1 to 64 letters, digits, '_', '-' or '.', not starting with '-' or '.'
$usage" -- boot-params --flight -i a/b 0x1000 4096
outputs "boot-params: NAME with a comma" 2 "" "mmioctl: invalid instance name 'a,b': expected 1 to 64 letters, digits, '_', '-' or '.', not starting with '-' or '.'
$usage" -- boot-params --flight -i a,b 0x1000 4096
outputs "boot-params: NAME too long for reserve_mem" 2 "" "mmioctl: instance name 'abcdefghijklmnop' is longer than 15 bytes, what reserve_mem= keeps
$usage" -- boot-params --flight -i abcdefghijklmnop 0x1000 4096
outputs "boot-params: NAME starting with a digit" 2 "" "mmioctl: instance name '9box' starts with a digit: trace_instance= would read it as an address
$usage" -- boot-params --flight -i 9box 0x1000 4096
outputs "boot-params: -i without --flight" 2 "" "mmioctl: -i NAME names the flight recorder's instance: give --flight too
$usage" -- boot-params -i box 0x1000 4096
outputs "boot-params: no TARGET" 2 "" "mmioctl: boot-params needs a TARGET: add-pci BDF [BAR], or ADDR SIZE
$usage" -- boot-params --flight
outputs "boot-params: ADDR without SIZE" 2 "" "mmioctl: address '0x1000' without a SIZE
$usage" -- boot-params 0x1000
outputs "boot-params: a bad ADDR" 2 "" "mmioctl: invalid address '010': expected decimal or 0x hex
$usage" -- boot-params 010 4096
outputs "boot-params: a bad SIZE" 2 "" "mmioctl: invalid size '0': expected bytes, 0x hex, or a k/M/G suffix
$usage" -- boot-params 0x1000 0
outputs "boot-params: a range past the end" 2 "" "mmioctl: range 0xffffffffffffffff 2 runs past the end of the address space
$usage" -- boot-params 0xffffffffffffffff 2
outputs "boot-params: an unknown option" 2 "" "mmioctl: unknown option '--fligth'
$usage" -- boot-params --fligth 0x1000 4096
outputs "boot-params: add-pci without BDF" 2 "" "mmioctl: add-pci needs a BDF
$usage" -- boot-params 0x1000 4096 add-pci
outputs "boot-params: add-pci with a bad BDF" 2 "" "mmioctl: invalid PCI address 'xyz': expected [[DOMAIN:]BUS:]DEV.FN
$usage" -- boot-params add-pci xyz
outputs "boot-params: add-pci of a missing device" 1 "" \
	"mmioctl: no PCI device 0000:00:09.0 ($root/sys/bus/pci/devices/0000:00:09.0/resource)" -- \
	boot-params add-pci 9.0
outputs "boot-params: add-pci of an I/O BAR" 1 "" "mmioctl: 0000:00:02.0 BAR 4 is an I/O port BAR, not memory" -- \
	boot-params add-pci 2.0 4
outputs "boot-params: add-pci of a BAR without an address" 1 "" \
	"mmioctl: 0000:00:05.0 BAR 0 has no address assigned" -- boot-params add-pci 5.0 0
# N ranges of 15 bytes ("100@0x100001000"), commas, 40 more: 16 N + 40 bytes.
set -- $(for i in $(seq 1 126); do printf '0x%x 100 ' $((0x100000000 + i * 0x1000)); done)
outputs "boot-params: a line too long for the kernel command line" 2 "" "mmioctl: the parameters take 2056 bytes, more than the 2047 of the x86 kernel command line
$usage" -- boot-params "$@"
set -- $(for i in $(seq 1 125); do printf '0x%x 100 ' $((0x100000000 + i * 0x1000)); done)
run boot-params "$@"
expect "boot-params: a line of up to 2047 bytes is printed" same "$status:${#out}:$err" "0:2040:"
expect "boot-params changed nothing in the tree" same "$(cat "$ctl/ranges")" ""

[ "$failures" = 0 ]
