#!/usr/bin/env bats
# mmioctl against the real patched kernel: every command, the recording
# session, the README's own sequence run as written, and the exit status
# and message of each error class.

load helpers

setup() {
	mmio_setup
	BDF=$(pci_bdf 0x1234 0x11e8)
	cd "$BATS_TEST_TMPDIR"
}

teardown() {
	[ -z "${RECORDER:-}" ] || kill "$RECORDER" 2>/dev/null || true
	mmio_teardown
}

# The events of a recorded file, without timestamps, as trace_events prints.
recorded_events() {
	strip_timestamps < "$1"
}

@test "mmioctl: add, del, list and clear edit the range set" {
	mmioctl add 0xe0000000 16k 0x1000 1
	run mmioctl list
	[ "$status" = 0 ]
	[ "$output" = "0x1000 0x1
0xe0000000 0x4000" ]
	mmioctl del 0xe0001000 4k
	assert_ranges "0x1000 0x1
0xe0000000 0x1000
0xe0002000 0x2000"
	mmioctl clear
	assert_ranges ""
}

@test "mmioctl: set replaces the set, load takes back what list prints" {
	mmioctl add 0x1000 4k
	mmioctl set 0x2000 16 0x8000 1M
	assert_ranges "0x2000 0x10
0x8000 0x100000"
	mmioctl list > saved
	mmioctl clear
	mmioctl load saved
	assert_ranges "0x2000 0x10
0x8000 0x100000"
}

@test "mmioctl: add-pci adds the edu BAR, in every form lspci writes the address" {
	mmioctl add-pci "$BDF"
	assert_ranges "$EDU 0x100000"
	mmioctl clear
	mmioctl add-pci "${BDF#0000:}" 0
	assert_ranges "$EDU 0x100000"
	mmioctl clear
	short=${BDF#0000:00:}
	mmioctl add-pci "${short#0}"
	assert_ranges "$EDU 0x100000"
}

@test "mmioctl: on, mark and off give a trace of the edu accesses" {
	mmioctl add-pci "$BDF"
	mmioctl on
	[ "$(cat "$TRACING/current_tracer")" = mmiotrace ]
	mmioctl mark before map
	touch_dev map edu
	touch_dev read edu 4 0x0
	mmioctl mark after read
	read_map "$EDU"
	assert_events "MARK before map
MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
MARK after read"
	touch_dev unmap edu
	mmioctl off
	[ "$(cat "$TRACING/current_tracer")" = nop ]
}

@test "mmioctl: off switches mmiotrace off only, on wants no other tracer" {
	run mmioctl off
	[ "$status" = 0 ]
	[ "$output" = "mmioctl: mmiotrace is off already" ]
	mmioctl on
	run mmioctl on
	[ "$status" = 0 ]
	[ "$output" = "mmioctl: mmiotrace is on already" ]
	echo 0 > "$TRACING/tracing_on"
	mmioctl off
	run mmioctl on
	[ "$output" = "mmioctl: tracing_on is 0: nothing is recorded until it is 1" ]
}

@test "mmioctl: pc, isa and maps-only set their files" {
	mmioctl pc on
	mmioctl isa off
	mmioctl maps-only on
	[ "$(cat "$MMIOTRACE/trace_pc")$(cat "$MMIOTRACE/trace_isa")$(cat "$MMIOTRACE/maps_only")" = 101 ]
	mmioctl pc off
	mmioctl isa on
	mmioctl maps-only off
	[ "$(cat "$MMIOTRACE/trace_pc")$(cat "$MMIOTRACE/trace_isa")$(cat "$MMIOTRACE/maps_only")" = 010 ]
}

@test "mmioctl: status shows tracer, tracing_on, ranges, toggles and stats" {
	mmioctl add 0x1000 4k
	mmioctl on
	run mmioctl status
	[ "$status" = 0 ]
	[[ "$output" == *"tracer: mmiotrace (mmiotrace on)
tracing_on: 1"* ]]
	[[ "$output" == *"ranges:
  0x1000 0x1000"* ]]
	[[ "$output" == *"trace_isa: 1"* ]]
	[[ "$output" == *"  armed_bytes 0"* ]]
	echo "$output" | grep -qx 'overrides: 0'
	echo "$output" | grep -Eq '^buffer_size_kb: [0-9]+$'
	run mmioctl status --json
	[[ "$output" =~ ^\{\"tracer\":\"mmiotrace\",\"mmiotrace\":true,\"tracing_on\":true,\"buffer_size_kb\":[0-9]+,\"trace_pc\":false,\"trace_isa\":true,\"maps_only\":false,\"ranges\":\[\[4096,4096\]\],\"stats\":\{\"read\":0,.*\"maps_unrecorded\":0,\"overridden\":0,\"dropped\":0,.*\"armed_bytes\":0,.*\"user_released\":0,\"pio_read\":0,\"pio_write\":0,\"pio_missed\":0,\"syndrome\":0\},\"events_top\":false,\"events_instances\":\[\],\"overrides\":0\}$ ]]
}

@test "mmioctl: maps lists the mappings, the edu one with its caller" {
	touch_dev map edu
	mmioctl add-pci "$BDF" 0
	mmioctl on
	run mmioctl maps
	[ "${lines[0]}" = "    ID PHYS               SIZE         TRACED        ARMED CALLER" ]
	echo "$output" | grep -Eq "^ +[0-9]+ $EDU +0x1000 +yes +4096 [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[mmiotouch\]$"
}

@test "mmioctl: record -- COMMAND records the command's accesses, and nothing more" {
	mmioctl add-pci "$BDF" 0
	run mmioctl record -o trace.txt -- sh -c "echo 'map edu' > $TOUCH/ctl; echo 'write edu 4 0x4 0x1234' > $TOUCH/ctl; echo 'read edu 4 0x4' > $TOUCH/ctl; echo 'unmap edu' > $TOUCH/ctl"
	[ "$status" = 0 ]
	[[ "$output" =~ ^mmioctl:\ recorded\ 4\ events\ \(R\ 1,\ W\ 1,\ MAP\ 1,\ UNMAP\ 1,\ MARK\ 0,\ UNKNOWN\ 0\),\ 0\ lost,\ [0-9]+\ bytes\ in\ [0-9.]+\ s$ ]]
	head -n 1 trace.txt | grep -qx "VERSION 20070824"
	id=$(awk '$1 == "MAP" { print $3 }' trace.txt)
	[ "$(recorded_events trace.txt)" = "MAP $id $EDU $(awk '$1 == "MAP" { print $5 }' trace.txt) 0x1000 0x0 0
W 4 $id $(hex EDU+4) 0x1234 0x0 0
R 4 $id $(hex EDU+4) 0xffffedcb 0x0 0
UNMAP $id 0x0 0" ]
	# The session left the tracer as it found it.
	[ "$(cat "$TRACING/current_tracer")" = nop ]
	[ "$(cat "$TRACING/tracing_on")" = 1 ]
	# And exits with the command's status.
	run mmioctl record -q -o trace.txt -- sh -c 'exit 7'
	[ "$status" = 7 ]
}

# The "Using it" block of the README: its indented command lines.
readme_commands() {
	awk '/^## Using it/ { inside = 1; next } /^## / { inside = 0 }
		inside && /^    mmioctl / { sub(/^    /, ""); print }' /opt/mmio/README.md
}

@test "mmioctl: the README's sequence works as written" {
	readme_commands > readme.sh
	grep -q '^mmioctl record -o trace.txt -- modprobe mydriver' readme.sh
	grep -q '^mmioctl record -o trace.txt &' readme.sh
	grep -q '^mmioctl off' readme.sh
	# "mydriver", for this test: maps edu and uses it.
	mkdir bin
	printf '#!/bin/sh\necho "map edu" > %s\necho "read edu 4 0x0" > %s\n' "$TOUCH/ctl" "$TOUCH/ctl" > bin/modprobe
	chmod +x bin/modprobe
	# Line by line, with the pause a person makes after starting a job.
	PATH=$PWD/bin:$PATH bash -e -c 'while read -r line; do
		eval "$line"
		case $line in *"&"*) sleep 1 ;; esac
	done < readme.sh' > readme.out 2>&1 || { cat readme.out; false; }
	# The last recording: the manual session, stopped by "off".
	[ "$(cat "$TRACING/current_tracer")" = nop ]
	grep -qx 'MARK [0-9.]* after init' trace.txt
	grep -q '^tracer: mmiotrace (mmiotrace on)$' readme.out
	touch_dev unmap edu
}

@test "mmioctl: reset puts every control back" {
	mmioctl add 0x1000 4k
	mmioctl pc on
	mmioctl buffer 64
	mmioctl on
	mmioctl reset
	[ "$(cat "$TRACING/current_tracer")" = nop ]
	assert_ranges ""
	[ "$(cat "$MMIOTRACE/trace_pc")" = 0 ]
	# The kernel's 1408 KiB, rounded up to whole sub-buffers of 4080 bytes.
	[ "$(mmioctl buffer)" = 1410 ]
}

@test "mmioctl: usage errors exit 2 and name the argument" {
	run mmioctl add 0x1000 16q
	[ "$status" = 2 ]
	[[ "$output" == "mmioctl: invalid size '16q': expected bytes, 0x hex, or a k/M/G suffix"* ]]
	run mmioctl add-pci 00:3.0.1
	[ "$status" = 2 ]
	[[ "$output" == *"invalid PCI address '00:3.0.1'"* ]]
	run mmioctl pc maybe
	[ "$status" = 2 ]
	run mmioctl mark "$(printf 'a\nb')"
	[ "$status" = 2 ]
	assert_ranges ""
}

@test "mmioctl: kernel refusals exit 1 with the path and strerror" {
	run mmioctl mark "tracer is off"
	[ "$status" = 1 ]
	[ "$output" = "mmioctl: /proc/mmio-marker: No such device" ]
	set_text=$(for i in $(seq 0 1023); do printf '0x%x 1\n' $((i * 2)); done)
	printf '%s\n' "$set_text" > "$MMIOTRACE/ranges"
	run mmioctl add 0x100000 1
	[ "$status" = 1 ]
	[ "$output" = "mmioctl: $MMIOTRACE/ranges: No space left on device" ]
	run mmioctl add-pci 00:1f.0
	[ "$status" = 1 ]
	[[ "$output" == "mmioctl: no PCI device 0000:00:1f.0"* ]]
}

@test "mmioctl: a non-root user is refused with EACCES" {
	run as_nobody "mmioctl add 0x1000 4k"
	[ "$status" = 1 ]
	[[ "$output" == *"Permission denied"* ]]
	assert_ranges ""
}

@test "mmioctl: bash completes its commands" {
	. /usr/share/bash-completion/completions/mmioctl
	COMP_WORDS=(mmioctl rec)
	COMP_CWORD=1
	_mmioctl
	[ "${COMPREPLY[*]}" = record ]
}
