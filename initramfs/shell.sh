#!/bin/sh
# Guest side of "make shell": what a person trying the tracer needs, set up
# as the tests set it up (the test module loaded, so that the devices can
# be poked from the shell), then a banner that says what to type first.
# usage: shell.sh setup     (sourced before "make shell CMD=..." too)
#        shell.sh banner
. /opt/mmio/pci.sh

setup() {
	[ -d /sys/kernel/debug/mmiotouch ] || insmod /opt/mmio/modules/mmiotouch.ko
}

# device NAME VENDOR DEVICE BAR: one line of the banner, if it is there.
device() {
	local bdf bar
	bdf=$(pci_bdf "$2" "$3") || return 0
	bar=$(pci_bar "$2" "$3" "$4")
	printf '  %-8s %s  BAR%s at %s (%s bytes)\n' "$1" "${bdf#0000:}" "$4" "$bar" \
		"$(pci_bar_size "$2" "$3" "$4")"
}

banner() {
	local edu
	echo "mmiotrace guest: Linux $(uname -r) with the runtime mmiotrace series, $(nproc) CPUs."
	echo "Devices:"
	device edu 0x1234 0x11e8 0
	device vga 0x1234 0x1111 2
	device ivshmem 0x1af4 0x1110 2
	device e1000 0x8086 0x100e 0
	device nvme 0x1b36 0x0010 0
	if edu=$(pci_bdf 0x1234 0x11e8); then
		echo "First, trace edu's registers while the test module reads and writes them:"
		echo "  mmioctl add-pci ${edu#0000:} 0"
		echo "  mmioctl record -o /tmp/trace.txt -- sh /opt/mmio/demo.sh accesses"
		echo "  cat /tmp/trace.txt"
	fi
	echo "Then: mmioctl --help, man mmioctl, trace-cmd, /opt/mmio/README.md;"
	echo "the test module: /sys/kernel/debug/mmiotouch/ctl (bats/module/mmiotouch.c)."
	echo "exit (or Ctrl-D) powers the guest off; Ctrl-a x ends QEMU."
}

case ${1:-} in
setup) setup ;;
banner) setup && banner ;;
*) echo "usage: shell.sh setup|banner" >&2; exit 2 ;;
esac
