#!/usr/bin/env bats
# The second boot of a flight-recorder run (crash.sh, which says how the
# first one died: $CRASH_KIND): what the persistent instance "flight" kept
# of the first boot's accesses to edu. The last test clears it.

bats_require_minimum_version 1.5.0
load ../helpers

setup() {
	EDU=$(edu_bar0)
	VGA=$(vga_bar0)
}

teardown() {
	[ ! -d "$TOUCH" ] || { echo "unmap vga" > "$TOUCH/ctl"; } 2>/dev/null || true
	echo "!$VGA 4096" >> "$MMIOTRACE/ranges"
}

@test "flight: the instance came back holding the previous boot, tracing off in it" {
	[ "$(cat "$FLIGHT/tracing_on")" = 0 ]
	[ "$(dmesg | grep -c 'Tracing: boot instance flight holds events of the previous boot, tracing in it is off$')" = 1 ]
	# The boot-time range set, and tracing armed from boot for the instance.
	assert_ranges "$EDU 0x100000"
	[ "$(dmesg | grep -cx 'mmiotrace: enabled\.')" = 1 ]
}

@test "flight: the sequence is there, its last write last, nothing after it" {
	local expected actual
	expected=$(flight_accesses "$EDU")
	actual=$(event_accesses "$FLIGHT/trace")
	if [ "$actual" != "$expected" ]; then
		printf 'expected:\n%s\nactual:\n%s\n' "$expected" "$actual"
		return 1
	fi
	# One mapping, mapped before the first access and never unmapped.
	[ "$(event_lines "$FLIGHT/trace" | grep -c '^mmio_map ')" = 1 ]
	event_lines "$FLIGHT/trace" | head -n 1 | grep -Eqx "mmio_map map_id=[0-9]+ phys=$EDU virt=0x[0-9a-f]+ len=0x1000 pid=0"
	[ "$(event_lines "$FLIGHT/trace" | grep -c '^mmio_unmap ')" = 0 ]
	[ "$(event_lines "$FLIGHT/trace" | wc -l)" = 18 ]
	oracle_record_events "flight-$CRASH_KIND" "$EDU" 0x100000 4 "$FLIGHT" exact
}

@test "flight: the new boot's accesses stay out while it holds them" {
	local before
	before=$(event_lines "$FLIGHT/trace")
	load_touch_module
	echo "$VGA 4096" >> "$MMIOTRACE/ranges"
	touch_dev map vga
	touch_dev write vga 4 0x0 0x5a5a5a5a
	touch_dev unmap vga
	[ "$(event_lines "$FLIGHT/trace")" = "$before" ]
}

@test "flight: mmioctl last-boot prints it as stock text" {
	local expected actual map_id virt
	read -r map_id virt < <(event_lines "$FLIGHT/trace" | sed -nE '1s/^mmio_map map_id=([0-9]+) phys=[^ ]+ virt=([^ ]+) .*/\1 \2/p')
	expected=$(printf 'MAP %s %s %s 0x1000 0x0 0\n' "$map_id" "$EDU" "$virt"
		flight_accesses "$EDU" | awk -v id="$map_id" '{ print $1, $2, id, $3, $4, "0x0", 0 }')
	run --separate-stderr mmioctl last-boot
	[ "$status" = 0 ]
	[ "${lines[0]}" = "VERSION 20070824" ]
	actual=$(printf '%s\n' "$output" | strip_timestamps)
	if [ "$actual" != "$expected" ]; then
		printf 'expected:\n%s\nactual:\n%s\n' "$expected" "$actual"
		return 1
	fi
	[[ "$stderr" == *"instance flight"* ]]
}

@test "flight: cleared, the instance records this boot" {
	run mmioctl last-boot --clear
	[ "$status" = 0 ]
	[ "$(cat "$FLIGHT/tracing_on")" = 1 ]
	[ -z "$(event_lines "$FLIGHT/trace")" ]
	load_touch_module
	echo "$VGA 4096" >> "$MMIOTRACE/ranges"
	touch_dev map vga
	touch_dev write vga 4 0x0 0x5a5a5a5a
	[ "$(event_accesses "$FLIGHT/trace")" = "W 4 $VGA 0x5a5a5a5a" ]
	run mmioctl last-boot
	[ "$status" = 0 ]
}
