#!/usr/bin/env bats
# Mappings made before the tracer was enabled: the kernel's vmalloc areas
# know every ioremap() mapping; a range set traces those it meets, an empty
# set only those made while tracing. The mappings file lists them all.

load helpers

# The mappings file's line for the newest live mapping of PHYS.
mapping_line() {
	awk -v phys="$1" '$2 == phys { line = $0 } END { print line }' "$MMIOTRACE/mappings"
}

@test "existing: a mapping made before the tracer is traced once a range selects it" {
	touch_dev map edu
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev read edu 4 0x0
	touch_dev write edu 4 0x4 0x1
	ID=$(mapping_id "$EDU")
	touch_dev unmap edu
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
W 4 $ID $(hex EDU+4) 0x1 0x0 0
UNMAP $ID 0x0 0"
	assert_stat maps_seen 0
	assert_stat maps_traced 1
}

@test "existing: with an empty set, a mapping made before the tracer is left alone" {
	touch_dev map edu
	tracer_on
	touch_dev read edu 4 0x0
	assert_stat armed_bytes 0
	touch_dev unmap edu
	assert_events "UNMAP -1 0x0 0"
}

@test "existing: a range written while tracing selects a live old mapping, MAP first" {
	touch_dev map edu
	tracer_on
	touch_dev read edu 4 0x0
	set_ranges "$EDU 16"
	touch_dev read edu 4 0x0
	touch_dev read edu 4 0x10
	ID=$(mapping_id "$EDU")
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0"
	# Removing it again stops its accesses, not its UNMAP.
	set_ranges "0x1000 4k"
	touch_dev read edu 4 0x0
	touch_dev unmap edu
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 0
R 4 $ID $EDU 0x10000ed 0x0 0
UNMAP $ID 0x0 0"
}

@test "existing: mappings lists every live mapping: id, range, traced, armed, caller" {
	touch_dev map edu
	touch_dev map vga
	caller='[a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[mmiotouch\]'
	# No id while tracing is off: a mapping has one once it takes part.
	[[ "$(mapping_line "$EDU")" =~ ^-\ $EDU\ 0x1000\ 0\ 0\ $caller$ ]] ||
		{ echo "edu: $(mapping_line "$EDU")"; false; }
	# The e1000 driver mapped its BAR at boot.
	[[ "$(mapping_line "$(e1000_bar0)")" =~ ^-\ $(e1000_bar0)\ 0x20000\ 0\ 0\ e1000_probe\+ ]] ||
		{ echo "e1000: $(mapping_line "$(e1000_bar0)")"; false; }
	set_ranges "$EDU 16"
	tracer_on
	[[ "$(mapping_line "$EDU")" =~ ^[0-9]+\ $EDU\ 0x1000\ 1\ 4096\ $caller$ ]] ||
		{ echo "edu, traced: $(mapping_line "$EDU")"; false; }
	[[ "$(mapping_line "$VGA")" =~ ^-\ $VGA\ 0x1000\ 0\ 0\ $caller$ ]] ||
		{ echo "vga: $(mapping_line "$VGA")"; false; }
	read_map "$EDU"
	assert_eq "edu's id" "$ID" "$(mapping_id "$EDU")"
	touch_dev unmap edu
	[ -z "$(mapping_line "$EDU")" ]
	# Every line: an id or "-", physical address, size, 0 or 1, bytes, caller.
	awk '!($1 ~ /^(-|[0-9]+)$/ && $2 ~ /^0x[0-9a-f]+$/ && $3 ~ /^0x[0-9a-f]+$/ &&
		$4 ~ /^[01]$/ && $5 ~ /^[0-9]+$/ && NF >= 6) { print "bad line: " $0; bad = 1 }
		END { exit bad }' "$MMIOTRACE/mappings"
}

@test "existing: a range over the HPET arms nothing and says why" {
	require_arch x86_64 "the HPET"
	dmesg_mark
	set_ranges "0xfed00000 1k"
	tracer_on
	assert_stat armed_bytes 0
	assert_stat maps_traced 0
	# The HPET's vmalloc area is a page: that is what is known of it.
	dmesg | tail -n +"$((DMESG_LINES + 1))" |
		grep -q 'not tracing 0xfed00000+0x1000 (hpet_enable+.*): the trace clock may read it'
	awk '$2 == "0xfed00000" && $4 != 0 { exit 1 }' "$MMIOTRACE/mappings"
}

@test "existing: enabling with a range arms old mappings; disabling leaves them untraced" {
	touch_dev map edu
	touch_dev map vga
	set_ranges "$EDU 4k
$VGA 4k"
	tracer_on
	assert_stat armed_bytes 8192
	tracer_off
	assert_stat armed_bytes 0
	awk '$4 != 0 || $5 != 0 { exit 1 }' "$MMIOTRACE/mappings"
	# And again: a new session logs the MAP events again, in the order
	# of the mappings' addresses, then the access.
	tracer_on
	touch_dev read edu 4 0x0
	read_map "$EDU"
	run trace_events
	assert_eq "events" 3 "${#lines[@]}"
	expected=$(printf '%s\n' "MAP $ID $EDU $VIRT 0x1000 0x0 0" \
		"MAP $(mapping_id "$VGA") $VGA $(touch_virt vga) 0x1000 0x0 0" | sort -k3)
	assert_eq "MAP events" "$expected" \
		"$(printf '%s\n' "${lines[0]}" "${lines[1]}" | sort -k3)"
	assert_eq "access" "R 4 $ID $EDU 0x10000ed 0x0 0" "${lines[2]}"
}
