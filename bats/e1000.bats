#!/usr/bin/env bats
# A real driver nobody here wrote: the in-tree e1000, bound at boot to
# QEMU's e1000 (on arm64, e1000e and QEMU's e1000e: NIC_DRIVER,
# NIC_DEVICE in helpers.bash), its BAR0 mapped since probe time. Traced as
# a user would: mmioctl add-pci, on, ip link up and down, off. The device
# oracle compares the accesses with QEMU's own record of them.

load helpers

E1000_STATUS=0x8
E1000_IMS=0xd0
E1000_RCTL=0x100
E1000_TCTL=0x400

setup() {
	mmio_setup
	BDF=$(pci_bdf 0x8086 "$NIC_DEVICE")
	BAR=$(e1000_bar0)
	BAR_SIZE=$(pci_bar_size 0x8086 "$NIC_DEVICE" 0)
	ip link set eth0 down
}

teardown() {
	ip link set eth0 down || true
	[ -e "/sys/bus/pci/devices/$BDF/driver" ] || echo "$BDF" > /sys/bus/pci/drivers/$NIC_DRIVER/bind
	mmio_teardown
}

# count_access TYPE OFFSET: how many TYPE (R or W) lines of the BAR at
# OFFSET the saved trace holds.
count_access() {
	grep -c "^$1 4 [0-9]* $(hex BAR+$2) " "$BATS_TEST_TMPDIR/events" || true
}

@test "e1000: link up and down traced on the bound driver's BAR, nothing outside it" {
	[ -e "/sys/bus/pci/devices/$BDF/driver" ]
	mmioctl add-pci "$BDF" 0
	mmioctl on
	# A mapping has an id once it takes part in tracing.
	ID=$(mapping_id "$BAR")
	ip link set eth0 up
	sleep 3
	ip link set eth0 down
	oracle_record e1000-link "$BAR" "$BAR_SIZE" 4
	trace_events > "$BATS_TEST_TMPDIR/events"
	mmioctl off

	head -n 1 "$BATS_TEST_TMPDIR/events" | grep -Eqx "MAP $ID $BAR 0x[0-9a-f]+ $BAR_SIZE 0x0 0"
	# Every access is the driver's mapping's, inside the BAR.
	awk -v id="$ID" -v lo="$(($BAR))" -v hi="$(($BAR + $BAR_SIZE))" '
		$1 == "R" || $1 == "W" { n++; if ($3 != id || $4 + 0 < lo || $4 + 0 >= hi) bad++ }
		$1 == "UNKNOWN" { bad++ }
		END { exit !(n > 0 && !bad) }' "$BATS_TEST_TMPDIR/events"
	[ "$(count_access R $E1000_STATUS)" -ge 1 ]
	[ "$(count_access W $E1000_RCTL)" -ge 2 ]
	[ "$(count_access W $E1000_TCTL)" -ge 2 ]
	[ "$(count_access W $E1000_IMS)" -ge 1 ]
	echo "# e1000 link up/down: $(grep -c '^R ' "$BATS_TEST_TMPDIR/events") reads," \
		"$(grep -c '^W ' "$BATS_TEST_TMPDIR/events") writes;" \
		"STATUS read $(count_access R $E1000_STATUS)x, RCTL written $(count_access W $E1000_RCTL)x," \
		"TCTL $(count_access W $E1000_TCTL)x, IMS $(count_access W $E1000_IMS)x" >&3
}

@test "e1000: unbinding and binding the driver while tracing gives its UNMAP and a new MAP" {
	mmioctl add-pci "$BDF" 0
	mmioctl on
	OLD=$(mapping_id "$BAR")
	echo "$BDF" > /sys/bus/pci/drivers/$NIC_DRIVER/unbind
	[ -z "$(mapping_id "$BAR")" ]
	echo "$BDF" > /sys/bus/pci/drivers/$NIC_DRIVER/bind
	NEW=$(mapping_id "$BAR")
	[ "$NEW" -gt "$OLD" ]
	oracle_record e1000-rebind "$BAR" "$BAR_SIZE" 4
	trace_events > "$BATS_TEST_TMPDIR/events"
	mmioctl off

	# The old mapping's MAP at enable, its UNMAP, then the new one's MAP
	# before any access of the probe that made it.
	awk -v new="$NEW" '
		$1 == "MAP" || $1 == "UNMAP" { print $1, $2 }
		($1 == "R" || $1 == "W") && $3 == new && !seen++ { print "first access of", $3 }
		' "$BATS_TEST_TMPDIR/events" > "$BATS_TEST_TMPDIR/order"
	run cat "$BATS_TEST_TMPDIR/order"
	[ "${lines[0]}" = "MAP $OLD" ]
	[ "${lines[1]}" = "UNMAP $OLD" ]
	[ "${lines[2]}" = "MAP $NEW" ]
	[ "${lines[3]}" = "first access of $NEW" ]
	grep -Eq "^MAP $NEW $BAR 0x[0-9a-f]+ $BAR_SIZE 0x0 0$" "$BATS_TEST_TMPDIR/events"
}
