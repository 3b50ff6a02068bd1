#!/usr/bin/env bats
# Port I/O: the ports file, and the IN and OUT lines of the accesses to the
# selected ports, made by an in-tree driver (rtc_cmos), the test module's
# string I/O and processes given the ports with ioperm() or iopl(). QEMU's
# own record of the port accesses is the oracle (oracle_record_ports).
# QEMU's CMOS clock is at 0x70/0x71 (index, data), fw_cfg at 0x510 (a
# 16-bit selector) and 0x511 (the data, read byte by byte; item 0 is the
# signature "QEMU").

load helpers

PORTS=$MMIOTRACE/ports
CMOS_EQUIPMENT=0x14	# a CMOS byte that does not change

setup() {
	require_arch x86_64 "port I/O"
	mmio_setup
	dmesg_mark
}

teardown() {
	mmio_teardown
	modprobe -r rtc_cmos 2>/dev/null || true
	assert_dmesg_clean
}

assert_ports() {
	assert_eq "ports" "$1" "$(cat "$PORTS")"
}

# port_lines: the IN and OUT lines of the trace, without timestamps.
port_lines() {
	trace_events | grep -E '^(IN|OUT) ' || true
}

# pio_bg ARGS...: run the pio tool; its output in OUT, its pid in PID.
pio_bg() {
	pio "$@" > /tmp/pio.out &
	PID=$!
	wait "$PID"
	OUT=$(cat /tmp/pio.out)
}

@test "ports: takes port ranges with the grammar of ranges" {
	echo "0x70 2" > "$PORTS"
	printf '0x3f8 8\n' >> "$PORTS"
	assert_ports "0x70 0x2
0x3f8 0x8"
	echo '!0x3fc 4' >> "$PORTS"
	assert_ports "0x70 0x2
0x3f8 0x4"
	echo "0x72 2" >> "$PORTS"
	assert_ports "0x70 0x4
0x3f8 0x4"
	: > "$PORTS"
	assert_ports ""
}

@test "ports: bad input changes nothing, with errno and error_log" {
	echo "0x70 2" > "$PORTS"
	: > "$TRACING/error_log"
	assert_write_fails EINVAL "$PORTS" '0xfffe 4\n'
	assert_write_fails EINVAL "$PORTS" '0x10000 1\n'
	assert_write_fails EINVAL "$PORTS" '0x70\n'
	assert_write_fails EINVAL "$PORTS" '070 1\n'
	assert_write_fails EINVAL "$PORTS" '0x70 0\n'
	# 0x1 15 is 0x1, 0x2-0x3, 0x4-0x7, 0x8-0xb, 0xc-0xf: five windows.
	assert_write_fails ENOSPC "$PORTS" '0x1 15\n' ">"
	assert_write_fails ENOSPC "$PORTS" '0x80 1\n0x90 1\n0xa0 1\n0xb0 1\n'
	assert_ports "0x70 0x2"
	assert_eq "error_log" "mmiotrace:ports: error: Ends past port 0xffff
  Command: 0xfffe 4
                  ^
mmiotrace:ports: error: Ends past port 0xffff
  Command: 0x10000 1
                   ^
mmiotrace:ports: error: Missing a word
  Command: 0x70
               ^
mmiotrace:ports: error: Not a number: decimal or 0x hex, no sign, no leading 0
  Command: 070 1
           ^
mmiotrace:ports: error: Size 0 or past 2^64
  Command: 0x70 0
                ^
mmiotrace:ports: error: Needs more than 4 port windows (debug registers)
  Command: 
           ^
mmiotrace:ports: error: Needs more than 4 port windows (debug registers)
  Command: 
           ^" "$(error_log_lines)"
	: > "$TRACING/error_log"
	# Four windows are the most: 0x71 7 is 0x71, 0x72-0x73, 0x74-0x77.
	printf '0x71 7\n0x80 1\n' > "$PORTS"
	assert_ports "0x71 0x7
0x80 0x1"
}

error_log_lines() {
	sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$TRACING/error_log"
}

@test "ports: a process with ioperm(): its lines with its pid, its output as untraced" {
	pio_bg --ioperm 0x70 2 out 1 0x70 "$CMOS_EQUIPMENT" in 1 0x71
	untraced=$OUT
	echo "0x70 2" > "$PORTS"
	tracer_on
	pio_bg --ioperm 0x70 2 out 1 0x70 "$CMOS_EQUIPMENT" in 1 0x71
	assert_eq "output" "$untraced" "$OUT"
	assert_eq "lines" "OUT 1 0x70 $CMOS_EQUIPMENT 0x0 $PID
IN 1 0x71 $untraced 0x0 $PID" "$(port_lines)"
	assert_stat pio_write 1
	assert_stat pio_read 1
}

@test "ports: a process with iopl(3) and REP INSB: one line per byte" {
	pio_bg --iopl out 2 0x510 0 ins 1 0x511 4
	untraced=$OUT
	assert_eq "fw_cfg signature" "0x51 0x45 0x4d 0x55" "$(echo "$untraced" | tail -n 1)"
	echo "0x510 2" > "$PORTS"
	echo 1 > "$MMIOTRACE/trace_pc"
	tracer_on
	pio_bg --iopl out 2 0x510 0 ins 1 0x511 4
	assert_eq "output" "$untraced" "$OUT"
	actual=$(port_lines | awk '{ $5 = "PC"; print }')
	assert_eq "lines" "OUT 2 0x510 0x0 PC $PID
IN 1 0x511 0x51 PC $PID
IN 1 0x511 0x45 PC $PID
IN 1 0x511 0x4d PC $PID
IN 1 0x511 0x55 PC $PID" "$actual"
	# The four elements are one instruction: one PC, a user address.
	assert_eq "PCs of the INS" 1 "$(port_lines | awk '$1 == "IN" { print $5 }' | sort -u | wc -l)"
	assert_stat pio_missed 0
	oracle_record_ports "pio-user-insb" 0x510 2
}

@test "ports: a port not granted still gets SIGSEGV, traced or not" {
	echo "0x70 2" > "$PORTS"
	tracer_on
	run pio --ioperm 0x80 1 in 1 0x71
	assert_eq "status" 139 "$status"
	run pio --none in 1 0x70
	assert_eq "status" 139 "$status"
	assert_eq "lines" "" "$(port_lines)"
	assert_stat pio_read 0
}

@test "ports: a port outside the set is not trapped" {
	echo "0x70 1" > "$PORTS"
	tracer_on
	pio_bg --ioperm 0x70 2 in 1 0x71
	pio_bg --iopl out 2 0x510 0 ins 1 0x511 4
	assert_eq "lines" "" "$(port_lines)"
	assert_stat pio_read 0
	assert_stat pio_write 0
}

@test "ports: the kernel's REP INSB and OUTW, each element with its value" {
	echo "0x510 2" > "$PORTS"
	tracer_on
	touch_dev pio out 2 0x510 0
	touch_dev pio ins 1 0x511 4
	assert_eq "buffer" "51 45 4d 55" "$(cat "$TOUCH/buffer")"
	assert_eq "lines" "OUT 2 0x510 0x0 0x0 0
IN 1 0x511 0x51 0x0 0
IN 1 0x511 0x45 0x0 0
IN 1 0x511 0x4d 0x0 0
IN 1 0x511 0x55 0x0 0" "$(port_lines)"
	assert_stat pio_missed 0
	oracle_record_ports "pio-kernel-insb" 0x510 2
}

# cmos_reads: the time read through rtc_cmos on every CPU.
cmos_reads() {
	local cpu
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		taskset -c "$cpu" cat /sys/class/rtc/rtc0/time > /dev/null
	done
}

# assert_cmos_lines: every line an OUT of an index to 0x70 or an IN of
# 0x71 by the kernel, on each CPU, and at least one of each.
assert_cmos_lines() {
	local cpu lines
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		lines=$(strip_timestamps < "$TRACING/per_cpu/cpu$cpu/trace" | grep -E '^(IN|OUT) ' || true)
		assert_eq "cpu $cpu: lines other than OUT 1 0x70 and IN 1 0x71 by the kernel" "" \
			"$(echo "$lines" | grep -Ev '^(OUT 1 0x70|IN 1 0x71) 0x[0-9a-f]+ 0x0 0$' || true)"
		echo "$lines" | grep -q '^OUT 1 0x70 ' || { echo "cpu $cpu: no OUT"; return 1; }
		echo "$lines" | grep -q '^IN 1 0x71 ' || { echo "cpu $cpu: no IN"; return 1; }
	done
}

@test "ports: rtc_cmos bound before tracing starts, every CPU, as QEMU saw it" {
	modprobe rtc_cmos
	echo "0x70 2" > "$PORTS"
	tracer_on
	cmos_reads
	assert_cmos_lines
	oracle_record_ports "rtc-cmos-bound-before" 0x70 2
}

@test "ports: rtc_cmos bound while tracing: its probe, then every CPU, as QEMU saw it" {
	echo "0x70 2" > "$PORTS"
	tracer_on
	modprobe rtc_cmos
	cmos_reads
	assert_cmos_lines
	oracle_record_ports "rtc-cmos-bound-after" 0x70 2
}

@test "ports: a change of the set while tracing applies at once" {
	echo "0x70 2" > "$PORTS"
	tracer_on
	pio_bg --ioperm 0x70 2 out 1 0x70 "$CMOS_EQUIPMENT" in 1 0x71
	echo "0x510 2" > "$PORTS"
	pio_bg --ioperm 0x70 2 out 1 0x70 "$CMOS_EQUIPMENT" in 1 0x71
	touch_dev pio out 2 0x510 1
	assert_eq "lines" "1 OUT 1 0x70
1 IN 1 0x71
1 OUT 2 0x510" "$(port_lines | awk '{ print $1, $2, $3 }' | uniq -c | awk '{ $1 = $1; print }')"
	tracer_off
	touch_dev pio out 2 0x510 1
	assert_stat pio_write 2
}

@test "ports: the pio events, with a filter, in an instance" {
	echo "0x70 2" > "$PORTS"
	new_instance ports > /dev/null
	echo 'port == 0x71' > "$TRACING/instances/ports/events/mmiotrace/pio_read/filter"
	echo 1 > "$TRACING/instances/ports/events/mmiotrace/pio_read/enable"
	echo 1 > "$TRACING/instances/ports/events/mmiotrace/pio_write/enable"
	pio_bg --ioperm 0x70 2 out 1 0x70 "$CMOS_EQUIPMENT" in 1 0x71
	actual=$(grep -o 'pio_[a-z]*: .*' "$TRACING/instances/ports/trace")
	assert_eq "events" "pio_write: port=0x70 value=$CMOS_EQUIPMENT width=1 pc=0x0 pid=$PID
pio_read: port=0x71 value=$OUT width=1 pc=0x0 pid=$PID" "$actual"
	events_off_in "$TRACING/instances/ports"
	rmdir "$TRACING/instances/ports"
}

@test "ports: the README's example, and add-pci of an I/O BAR past the limit" {
	modprobe rtc_cmos
	mmioctl add-port 0x70 2
	mmioctl on
	cat /sys/class/rtc/rtc0/time > /dev/null
	assert_eq "the first two port lines" "OUT 1 0x70 0x0 0x0 0
IN 1 0x71" "$(port_lines | head -n 2 | sed '2s/ 0x[0-9a-f]* 0x0 0$//')"
	mmioctl off
	# e1000's I/O BAR: 64 ports are 16 windows of 4, past the four registers.
	e1000=$(basename "$(readlink -f /sys/bus/pci/drivers/e1000/0000:*)")
	run mmioctl add-pci "$e1000" 1
	assert_eq "status" 1 "$status"
	assert_eq "message" "mmioctl: /sys/kernel/debug/mmiotrace/ports: No space left on device
mmioctl: the port set needs more than 4 aligned windows of 1, 2 or 4 ports (debug registers)" "$output"
	assert_ports "0x70 0x2"
}
