#!/usr/bin/env bats
# Run by make check in a boot of its own, with
#   mmiotrace.ranges=64k@<e1000 BAR0>,64K@<BAR0 + 64k> trace_event=mmiotrace:*
# and by make check-arm64 likewise on e1000e (NIC_DRIVER, helpers.bash).
# The driver is built in and the NIC has no option ROM (run-qemu.sh): the
# kernel's probe is the first thing that touches the device, and is traced
# from its first access.

load ../helpers

E1000_LEN=0x20000
# The register through which the probe reads the MAC address from the
# EEPROM: e1000's 82540 clocks it bit by bit through EECD, e1000e's 82574
# writes each word's address to EERD; either, many more than 64 writes.
if [ "$NIC_DRIVER" = e1000e ]; then EEPROM_REG=0x14; else EEPROM_REG=0x10; fi

setup() {
	E1000=$(e1000_bar0)
}

# The boot's trace is the subject: no test resets it (helpers' teardown
# would); the last one switches the events off.
teardown() { :; }

@test "capture: the range set and the events come from the command line" {
	assert_ranges "$E1000 $E1000_LEN"
	[ "$(cat "$TRACING/events/mmiotrace/enable")" = 1 ]
	# Tracing started before the driver's probe: at arch_initcall time.
	local enabled probed
	enabled=$(dmesg | grep -n 'mmiotrace: enabled\.$' | cut -d: -f1)
	probed=$(dmesg | grep -n "$NIC_DRIVER [^ ]* [^ ]*: (PCI" | cut -d: -f1)
	[ -n "$enabled" ] && [ -n "$probed" ] && [ "$enabled" -lt "$probed" ]
}

@test "capture: the trace begins with e1000's MAP and its probe's accesses" {
	local first id
	first=$(event_lines | head -n 1)
	[[ "$first" =~ ^mmio_map\ map_id=([0-9]+)\ phys=$E1000\ virt=0x[0-9a-f]+\ len=$E1000_LEN\ pid=0$ ]]
	id=${BASH_REMATCH[1]}
	# Every other event is an access of that mapping, to its BAR.
	[ "$(event_lines | tail -n +2 | grep -Evc "^mmio_(read|write) phys=0x[0-9a-f]+ value=0x[0-9a-f]+ width=[1248] map_id=$id pc=0x0$")" = 0 ]
	[ "$(event_accesses | awk -v reg="$(hex $((E1000 + EEPROM_REG)))" '$1 == "W" && $3 == reg' | wc -l)" -gt 64 ]
	oracle_record_events capture "$E1000" "$E1000_LEN" 1 "$TRACING" first
}

@test "capture: the events off, the BAR is disarmed and untraced" {
	echo 0 > "$TRACING/events/mmiotrace/enable"
	assert_stat armed_bytes 0
	[ "$(awk -v phys="$E1000" '$2 == phys { print $1, $4, $5 }' "$MMIOTRACE/mappings")" = "- 0 0" ]
}
