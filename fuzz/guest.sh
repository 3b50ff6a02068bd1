#!/bin/sh
# make fuzz's guest side: mmioctl fuzz on DRIVER's device for SECONDS,
# its state rebuilt from the journal a dead guest left (/fuzz-journal, put
# in by fuzz/campaign.sh), every file it writes copied to /dev/ttyS2 as it
# is written (the host's OUTDIR/oracle.log).
# usage: guest.sh DRIVER SECONDS
set -eu
driver=$1 seconds=$2
. /opt/mmio/pci.sh
case $driver in
e1000) bdf=$(pci_bdf 0x8086 0x100e) ;;
# nvme waits 60 s for an admin command that a fuzzed value left without an
# answer: 5 s keeps such an input from taking a minute.
nvme) modprobe nvme_core admin_timeout=5 io_timeout=5; modprobe nvme; bdf=$(pci_bdf 0x1b36 0x0010) ;;
fuzztarget) insmod /opt/mmio/modules/fuzztarget.ko; bdf=$(pci_bdf 0x1234 0x11e8) ;;
*) echo "fuzz: no device of this guest has driver '$driver' (e1000, nvme, fuzztarget)" >&2; exit 2 ;;
esac
state=/tmp/fuzz-$driver
[ ! -s /fuzz-journal ] || /opt/mmio/fuzz/journal.sh /fuzz-journal "$state"
stty -F /dev/ttyS2 raw 2>/dev/null || true
exec mmioctl fuzz --time "$seconds" --journal /dev/ttyS2 -o "$state" "$driver" "$bdf"
