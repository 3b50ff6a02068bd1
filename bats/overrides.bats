#!/usr/bin/env bats
# Overrides: a traced read answered with a chosen value, in whole or in
# part, a traced write kept from the device, for the next N accesses or for
# as long as tracing lasts. QEMU's record of what reached the device is the
# oracle: an access the rule kept from the device is not in it.

load helpers

# edu's registers: identification, the inverse of what was written last,
# the factorial (its argument written, its result read) and the status
# (bit 0: computing).
ID_REG=0x0
INVERSE=0x4
FACTORIAL=0x8
STATUS=0x20

# nvme's controller status register (bit 0: ready), in BAR0.
CSTS=0x1c

setup() {
	mmio_setup
	set_ranges "$EDU 4k"
	touch_dev map edu
}

teardown() {
	modprobe -r nvme 2>/dev/null || true
	mmio_teardown
}

# set_overrides LINES / add_overrides LINES: one write of LINES, through
# ">" (replace) or ">>" (add).
set_overrides() {
	printf '%s\n' "$1" > "$MMIOTRACE/overrides"
}

add_overrides() {
	printf '%s\n' "$1" >> "$MMIOTRACE/overrides"
}

# assert_overrides EXPECTED: the rules read back as exactly these lines.
assert_overrides() {
	assert_eq "overrides" "$1" "$(cat "$MMIOTRACE/overrides")"
}

# edu_factorial N: have edu compute N!, waiting while its status says it
# is computing; the value file holds the result read.
edu_factorial() {
	local i
	touch_dev write edu 4 "$FACTORIAL" "$1"
	for i in $(seq 100); do
		touch_dev read edu 4 "$STATUS"
		[ $(($(touch_value) & 1)) = 0 ] && break
	done
	touch_dev read edu 4 "$FACTORIAL"
}

# reg_accesses PHYS: the trace's accesses of one register, with the MARK
# lines that follow them, timestamps and map ids left out: "R VALUE" and
# "MARK TEXT".
reg_accesses() {
	trace_events | awk -v phys="$1" '
		($1 == "R" || $1 == "W") { mine = $4 == phys; if (mine) print $1, $5; next }
		$1 == "MARK" && mine { $1 = ""; print "MARK" $0 }
		{ mine = 0 }'
}

@test "overrides: rules read back as kept; > replaces, >> adds, ! removes, same key replaces" {
	set_overrides "$(hex EDU+8) 4 = 0x10
$(hex EDU) 4 drop count 2"
	assert_overrides "$(hex EDU) 4 drop count 2
$(hex EDU+8) 4 = 0x10 0xffffffff"
	add_overrides "$(hex EDU+4) 2 = 0x1 0x3 count 5"
	add_overrides "$(hex EDU+8) 4 = 0x20 0xf0"
	assert_overrides "$(hex EDU) 4 drop count 2
$(hex EDU+4) 2 = 0x1 0x3 count 5
$(hex EDU+8) 4 = 0x20 0xf0"
	# A removal names address, width and kind; a read rule and a write
	# rule of one register are two rules.
	add_overrides "$(hex EDU) 4 = 0x0
!$(hex EDU) 4 drop
!$(hex EDU+4) 2 ="
	assert_overrides "$(hex EDU) 4 = 0x0 0xffffffff
$(hex EDU+8) 4 = 0x20 0xf0"
	set_overrides "$(hex EDU+16) 8 = 0xffffffffffffffff"
	assert_overrides "$(hex EDU+16) 8 = 0xffffffffffffffff 0xffffffffffffffff"
	: > "$MMIOTRACE/overrides"
	assert_overrides ""
}

BAD_RULES=(
	'0x1000\n' '0x1000 4\n' '0x1000 4 =\n' '0x1000 3 = 0\n' '0x1000 16 = 0\n' '0x1000 0 drop\n'
	'0x1002 4 = 0\n' '0x1001 2 drop\n' '0x1000 1 = 0x100\n' '0x1000 4 = 0 0x100000000\n'
	'0x1000 4 = 0 0\n' '0x1000 4 = 0 count\n' '0x1000 4 = 0 count -1\n'
	'0x1000 4 = 0 count 2147483648\n' '0x1000 4 drop 5\n' '0x1000 4 drop count 1 extra\n'
	'0x1000 4 == 0\n' '0x1000 4 = zero\n' '0x1000 4 read 0\n' 'x 4 = 0\n' '0x1000 4 = 0 0x1 0x2\n'
	'0xfffffffffffffff8 8 = 0\n' '!0x1000\n' '!0x1000 4\n' '0x1000 4 = 0\0\n'
	'0x2000 4 = 0\nbad\n' "0x1000 4 = 0 0x1 count $(printf '0%.0s' $(seq 80))1\n"
	# Numbers as ranges reads them: no sign, no leading zero (octal).
	'+0x1000 4 = 0\n' '010 4 = 0\n' '0x1000 04 = 0\n' '0x1000 4 = 010\n' '0x1000 4 = +1\n'
	'0x1000 4 = 0 0x0f count 010\n'
)

@test "overrides: malformed rules are EINVAL and change nothing (> and >>)" {
	set_overrides "$(hex EDU) 4 = 0x1"
	for data in "${BAD_RULES[@]}"; do
		assert_write_fails EINVAL "$MMIOTRACE/overrides" "$data" ">>"
		assert_write_fails EINVAL "$MMIOTRACE/overrides" "$data" ">"
	done
	assert_overrides "$(hex EDU) 4 = 0x1 0xffffffff"
}

@test "overrides: 64 rules are accepted, the 65th is ENOSPC and changes nothing" {
	rules=$(for i in $(seq 0 63); do echo "$(hex 0x100000+4*i) 4 drop"; done)
	set_overrides "$rules"
	assert_eq "rules" 64 "$(wc -l < "$MMIOTRACE/overrides")"
	assert_write_fails ENOSPC "$MMIOTRACE/overrides" '0x200000 4 drop\n'
	# Replacing one of them needs no room.
	add_overrides "0x100000 4 drop count 1"
	assert_eq "rules" 64 "$(wc -l < "$MMIOTRACE/overrides")"
}

@test "overrides: a read answered in whole never reaches the device; count 2, then the device" {
	set_overrides "$(hex EDU+ID_REG) 4 = 0x12345678 count 2"
	tracer_on
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x12345678
	touch_dev read edu 4 "$ID_REG"
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x10000ed
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x12345678 0x0 0
MARK override R 4 $EDU: the device was not read
R 4 $ID $EDU 0x12345678 0x0 0
MARK override R 4 $EDU: the device was not read
R 4 $ID $EDU 0x10000ed 0x0 0"
	assert_overrides "$EDU 4 = 0x12345678 0xffffffff count 0"
	assert_stat read 3
	assert_stat overridden 2
	assert_stat dropped 0
	oracle_record overrides-replaced "$EDU" 0x1000 4
}

@test "overrides: a mask takes its bits from the rule, the others from the device" {
	set_overrides "$(hex EDU+ID_REG) 4 = 0xab000f00 0xff000f00"
	tracer_on
	touch_dev read edu 4 "$ID_REG"
	# The device gives 0x010000ed.
	assert_value 0xab000fed
	assert_eq "accesses" "R 0xab000fed
MARK override R 4 $EDU: the device gave 0x10000ed" "$(reg_accesses "$EDU")"
	assert_stat overridden 1
	oracle_record overrides-mixed "$EDU" 0x1000 4
}

@test "overrides: a dropped write of the factorial never reaches edu; the old result stays" {
	tracer_on
	edu_factorial 5
	assert_value 0x78
	set_overrides "$(hex EDU+FACTORIAL) 4 drop"
	edu_factorial 6
	assert_value 0x78
	: > "$MMIOTRACE/overrides"
	edu_factorial 6
	assert_value 0x2d0
	assert_eq "factorial accesses" "W 0x5
R 0x78
W 0x6
MARK override W 4 $(hex EDU+FACTORIAL): the write was dropped
R 0x78
W 0x6
R 0x2d0" "$(reg_accesses "$(hex EDU+FACTORIAL)")"
	assert_stat dropped 1
	assert_stat overridden 0
	oracle_record overrides-dropped "$EDU" 0x1000 4
}

@test "overrides: a rule outside the traced ranges is accepted and changes nothing" {
	set_ranges "$VGA 4k"
	set_overrides "$(hex EDU+ID_REG) 4 = 0x0"
	tracer_on
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x10000ed
	assert_overrides "$EDU 4 = 0x0 0xffffffff"
	assert_stat overridden 0
	# Nor does a rule act while nothing traces.
	tracer_off
	set_ranges "$EDU 4k"
	set_overrides "$(hex EDU+ID_REG) 4 = 0x0"
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x10000ed
}

@test "overrides: the rules go when the tracer and the events are all off" {
	tracer_on
	echo 1 > "$EVENTS/mmio_read/enable"
	set_overrides "$(hex EDU+ID_REG) 4 = 0x0"
	tracer_off
	assert_overrides "$EDU 4 = 0x0 0xffffffff"
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x0
	echo 0 > "$EVENTS/mmio_read/enable"
	assert_overrides ""
	echo 1 > "$EVENTS/mmio_read/enable"
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x10000ed
}

@test "overrides: the events say what an override made of the access" {
	set_overrides "$(hex EDU+ID_REG) 4 = 0xab000000 0xff000000
$(hex EDU+INVERSE) 4 drop"
	echo 1 > "$EVENTS/enable"
	touch_dev read edu 4 "$ID_REG"
	touch_dev write edu 4 "$INVERSE" 0x5
	id=$(mapping_id "$EDU")
	assert_eq "events" "mmio_read: phys=$EDU value=0xab0000ed width=4 map_id=$id pc=0x0 override=mixed
mmio_write: phys=$(hex EDU+INVERSE) value=0x5 width=4 map_id=$id pc=0x0 override=dropped" \
		"$(grep -oE 'mmio_(read|write): .*' "$TRACING/trace")"
	echo 1 > "$TRACING/options/fields"
	grep -qF "device=0x10000ed (16777453) map_id=" "$TRACING/trace" ||
		{ grep mmio_read "$TRACING/trace"; false; }
}

# nvme_probe_setup: the nvme driver unloaded, its whole BAR0 in the range
# set, a buffer for the thousands of status reads of a controller that
# never becomes ready, the tracer on.
nvme_probe_setup() {
	NVME=$(nvme_bar0)
	NVME_SIZE=$(pci_bar_size 0x1b36 0x0010 0)
	modprobe -r nvme 2>/dev/null || true
	set_ranges "$NVME $NVME_SIZE"
	echo 16384 > "$TRACING/buffer_size_kb"
	tracer_on
	dmesg_mark
}

# wait_for_dmesg TEXT SECONDS: the kernel logs a line ending in TEXT.
wait_for_dmesg() {
	local i
	for i in $(seq $(($2 * 10))); do
		dmesg | tail -n +"$((DMESG_LINES + 1))" | grep -qF -- "$1" && return 0
		sleep 0.1
	done
	echo "no kernel message: $1"
	dmesg | tail -n +"$((DMESG_LINES + 1))"
	return 1
}

@test "overrides: nvme never ready: the in-tree driver times out and says so" {
	nvme_probe_setup
	set_overrides "$(hex NVME+CSTS) 4 = 0x0"
	modprobe nvme
	wait_for_dmesg "nvme nvme0: Device not ready; aborting initialisation, CSTS=0x0" 60
	# Every status read was answered by the rule, none by the device.
	reads=$(reg_accesses "$(hex NVME+CSTS)" | grep -c '^R ')
	[ "$reads" -ge 3 ] || { echo "$reads status reads"; false; }
	assert_eq "status reads" "$reads" "$(reg_accesses "$(hex NVME+CSTS)" |
		grep -cFx "MARK override R 4 $(hex NVME+CSTS): the device was not read")"
	assert_eq "status values" "R 0x0" "$(reg_accesses "$(hex NVME+CSTS)" | grep '^R ' | sort -u)"
	assert_stat overridden "$reads"
	assert_stat lost 0
	echo "# nvme: $reads status reads answered 0 until the driver gave up" >&3
	oracle_record overrides-nvme-not-ready "$NVME" "$NVME_SIZE" 1
}

@test "overrides: nvme not ready three times, then ready: the driver binds" {
	nvme_probe_setup
	set_overrides "$(hex NVME+CSTS) 4 = 0x0 count 3"
	modprobe nvme
	for i in $(seq 100); do
		[ "$(cat /sys/class/nvme/nvme0/state 2>/dev/null)" = live ] && break
		sleep 0.1
	done
	assert_eq "controller state" live "$(cat /sys/class/nvme/nvme0/state)"
	not_read="MARK override R 4 $(hex NVME+CSTS): the device was not read"
	assert_eq "first status reads" "R 0x0
$not_read
R 0x0
$not_read
R 0x0
$not_read
R 0x1" "$(reg_accesses "$(hex NVME+CSTS)" | head -n 7)"
	assert_overrides "$(hex NVME+CSTS) 4 = 0x0 0xffffffff count 0"
	assert_stat overridden 3
	oracle_record overrides-nvme-count "$NVME" "$NVME_SIZE" 1
}

@test "overrides: mmioctl sets rules by BAR offset, lists them with why they are inert, removes them" {
	bdf=$(pci_bdf 0x1234 0x11e8)
	mmioctl override "$bdf:0+0x0" 4 0x12345678 --count 1
	mmioctl drop "$bdf:0+$FACTORIAL" 4
	run mmioctl overrides
	assert_eq "status" 0 "$status"
	assert_eq "listing, tracing off" "$EDU 4 = 0x12345678 0xffffffff count 1  # inert: tracing is off
$(hex EDU+FACTORIAL) 4 drop  # inert: tracing is off" "$output"
	tracer_on
	run mmioctl override "$(hex VGA)" 4 0x1
	assert_eq "status" 0 "$status"
	assert_eq "note" "mmioctl: note: the rule at $VGA is inert for now: outside the traced ranges" \
		"$output"
	run mmioctl overrides
	# In address order: VGA's BAR0 is below edu's.
	assert_eq "listing, tracing" "$VGA 4 = 0x1 0xffffffff  # inert: outside the traced ranges
$EDU 4 = 0x12345678 0xffffffff count 1
$(hex EDU+FACTORIAL) 4 drop" "$output"
	touch_dev read edu 4 "$ID_REG"
	assert_value 0x12345678
	mmioctl del-drop "$bdf:0+$FACTORIAL" 4
	mmioctl del-override "$(hex VGA)" 4
	assert_overrides "$EDU 4 = 0x12345678 0xffffffff count 0"
	run mmioctl override "$bdf:0+0x2" 4 0x1
	assert_eq "status" 2 "$status"
	mmioctl clear-overrides
	assert_overrides ""
	assert_stat overridden 1
}
