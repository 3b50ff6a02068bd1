#!/usr/bin/env bats
# mmioctl decode on a real driver's trace: "modprobe nvme" recorded with
# mmioctl record, as a user would. The guest's mmioctl has no register maps
# (it is static, and libxml2 would bring ICU into an image without libc),
# so the guest checks what needs no map and hands the trace to the host on
# the oracle's serial port, between DECODE lines that oracle.py skips;
# the host then decodes it with ctl-tool/maps/nvme.xml (harness/decode.sh).

load helpers

setup() {
	mmio_setup
	BDF=$(pci_bdf 0x1b36 0x0010)
	BAR=$(nvme_bar0)
	modprobe -r nvme 2>/dev/null || true
}

teardown() {
	modprobe -r nvme 2>/dev/null || true
	mmio_teardown
}

# The probe enables the controller from a workqueue after modprobe returns:
# the session lasts until the controller is live.
probe='modprobe nvme
for i in $(seq 100); do
	[ "$(cat /sys/class/nvme/nvme0/state 2>/dev/null)" = live ] && exit 0
	sleep 0.1
done
exit 1'

@test "decode: modprobe nvme recorded by mmioctl record, handed to the host to decode" {
	mmioctl add-pci "$BDF" 0
	mmioctl record -q -o "$BATS_TEST_TMPDIR/nvme.txt" -- sh -c "$probe"

	# The stock format, in order: the device's PCIDEV line with its BAR
	# (flag bits 4: 64-bit memory), then CC written with EN=1.
	grep -Eq "^PCIDEV [0-9a-f]{4} 1b360010 [0-9a-f]+ $(printf '%x' $((BAR + 4))) " "$BATS_TEST_TMPDIR/nvme.txt"
	grep -Eq "^W 4 [0-9.]+ [0-9]+ $(hex BAR+0x14) 0x[0-9a-f]*[13579bdf] 0x0 0$" "$BATS_TEST_TMPDIR/nvme.txt"
	# What needs no map: decode passes every line, stat counts CC (0x14).
	run mmioctl decode "$BATS_TEST_TMPDIR/nvme.txt"
	[ "$status" = 0 ]
	[ "$output" = "$(cat "$BATS_TEST_TMPDIR/nvme.txt")" ]
	run mmioctl stat "$BATS_TEST_TMPDIR/nvme.txt"
	[ "$status" = 0 ]
	echo "$output" | grep -Eq '^  0x0014  - +0 +[1-9]'
	run mmioctl decode --map /nonexistent.xml "$BATS_TEST_TMPDIR/nvme.txt"
	[ "$status" = 1 ]
	[[ "$output" == *"built without register maps"* ]]

	{
		echo "DECODE BEGIN nvme-probe"
		cat "$BATS_TEST_TMPDIR/nvme.txt"
		echo "DECODE END nvme-probe"
	} > "$ORACLE"
	echo "# nvme probe: $(grep -c '^[RW] ' "$BATS_TEST_TMPDIR/nvme.txt") accesses handed to the host" >&3
}
