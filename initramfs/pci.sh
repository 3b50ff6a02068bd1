# PCI devices as the guest's sysfs shows them; sourced by the tests
# (bats/helpers.bash), the bench and the demo (POSIX sh: the demo is ash).
# Files are read with the shell's read: every test's setup looks devices
# up, and a fork and exec cost much under TCG.

# pci_dev VENDOR DEVICE: the sysfs directory of the first such device.
pci_dev() {
	local dev vendor device
	for dev in /sys/bus/pci/devices/*; do
		read -r vendor < "$dev/vendor" && read -r device < "$dev/device" || continue
		if [ "$vendor" = "$1" ] && [ "$device" = "$2" ]; then
			echo "$dev"
			return 0
		fi
	done
	return 1
}

# pci_bdf VENDOR DEVICE: its address, as in "0000:00:03.0".
pci_bdf() {
	local dev
	dev=$(pci_dev "$1" "$2") || return 1
	basename "$dev"
}

# pci_resource VENDOR DEVICE BAR: "START END FLAGS" of a BAR from sysfs.
pci_resource() {
	local dev line n=0
	dev=$(pci_dev "$1" "$2") || return 1
	while read -r line; do
		[ "$n" = "$3" ] && { echo "$line"; return 0; }
		n=$((n + 1))
	done < "$dev/resource"
}

# pci_bar VENDOR DEVICE BAR: physical start of a BAR, as 0x%x.
pci_bar() {
	set -- $(pci_resource "$1" "$2" "$3") || return 1
	[ $# -eq 3 ] || return 1
	printf '0x%x\n' "$1"
}

# pci_bar_size VENDOR DEVICE BAR: its size, as 0x%x.
pci_bar_size() {
	set -- $(pci_resource "$1" "$2" "$3") || return 1
	[ $# -eq 3 ] || return 1
	printf '0x%x\n' "$(($2 - $1 + 1))"
}

# The devices the tests use, by name: ID and the BAR that matters.
edu_bar0() { pci_bar 0x1234 0x11e8 0; }
vga_bar0() { pci_bar 0x1234 0x1111 0; }
ivshmem_bar2() { pci_bar 0x1af4 0x1110 2; }
# The NIC: e1000's, or NIC_DEVICE's (bats/helpers.bash: e1000e on arm64).
e1000_bar0() { pci_bar 0x8086 "${NIC_DEVICE:-0x100e}" 0; }
nvme_bar0() { pci_bar 0x1b36 0x0010 0; }
