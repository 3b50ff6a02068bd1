#!/bin/sh
# Guest side of "make demo": trace QEMU's edu device with one mmioctl
# recording session around the test module's accesses, markers included.
# Only the trace goes to stdout; progress and the session's summary go to
# the kernel log.
set -eu
. /opt/mmio/pci.sh
ctl=/sys/kernel/debug/mmiotouch/ctl
say() { echo "demo: $*" > /dev/kmsg; }

# The accesses to record, run by "mmioctl record -- sh demo.sh accesses".
if [ "${1:-}" = accesses ]; then
	mmioctl mark "demo: edu accesses begin"
	echo "map edu" > "$ctl"
	echo "read edu 4 0x0" > "$ctl"
	say "edu id register reads $(cat /sys/kernel/debug/mmiotouch/value)"
	echo "write edu 4 0x4 0x12345678" > "$ctl"
	echo "read edu 4 0x4" > "$ctl"
	say "edu inverse register reads $(cat /sys/kernel/debug/mmiotouch/value)"
	echo "unmap edu" > "$ctl"
	mmioctl mark "demo: edu accesses end"
	exit 0
fi

insmod /opt/mmio/modules/mmiotouch.ko
mmioctl add-pci "$(pci_bdf 0x1234 0x11e8)" 0
mmioctl status > /dev/kmsg
mmioctl record -o /tmp/trace.txt -- sh "$0" accesses 2> /tmp/record.log
say "$(cat /tmp/record.log)"
cat /tmp/trace.txt
