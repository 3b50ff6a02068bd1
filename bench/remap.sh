#!/bin/bash
# Guest side of "make bench STOCK=1", in the short boots that alternate
# between the kernels: ioremap()+iounmap() of 4K of the VGA BAR with
# nothing tracing, and the floor (a page fault ended by its fixup, the
# same code in both kernels) in the same rounds. One boot of each kernel
# cannot compare them to 5%: from boot to boot the same kernel differs by
# more than that under TCG. The lines are those of guest.sh:
#   RESULT remap_off_ns <ns>, RESULT remap_floor_ns <ns> (one per round)
# usage: remap.sh COUNT REPEATS
set -eu
count=$1 repeats=$2
touch=/sys/kernel/debug/mmiotouch
[ -d "$touch" ] || insmod /opt/mmio/modules/mmiotouch.ko
for i in $(seq 1 "$repeats"); do
	echo "remap $count vga" > "$touch/ctl"
	echo "RESULT remap_off_ns $(( $(cat "$touch/elapsed_ns") / count ))"
	echo "fault $count" > "$touch/ctl"
	echo "RESULT remap_floor_ns $(( $(cat "$touch/elapsed_ns") / count ))"
done
