#!/bin/sh
# Guest side of "make demo": trace QEMU's edu device through mmioctl while
# the test module reads and writes it, with markers around the accesses.
# Only the trace goes to stdout; progress goes to the kernel log.
set -eu
ctl=/sys/kernel/debug/mmiotouch/ctl
say() { echo "demo: $*" > /dev/kmsg; }

edu=$(grep -l 0x11e8 /sys/bus/pci/devices/*/device | head -n 1)
edu=$(basename "$(dirname "$edu")")
insmod /opt/mmio/modules/mmiotouch.ko

mmioctl add-pci "$edu"
mmioctl on
mmioctl record -o /tmp/trace.txt 2> /tmp/record.log &
recorder=$!

mmioctl mark "demo: edu accesses begin"
echo "map edu" > "$ctl"
echo "read edu 4 0x0" > "$ctl"
say "edu id register reads $(cat /sys/kernel/debug/mmiotouch/value)"
echo "write edu 4 0x4 0x12345678" > "$ctl"
echo "read edu 4 0x4" > "$ctl"
say "edu inverse register reads $(cat /sys/kernel/debug/mmiotouch/value)"
echo "unmap edu" > "$ctl"
mmioctl mark "demo: edu accesses end"

# Let the recorder drain trace_pipe, stop it, then turn the tracer off.
sleep 1
kill -INT "$recorder"
wait "$recorder"
say "$(cat /tmp/record.log)"
mmioctl status > /dev/kmsg
mmioctl off
cat /tmp/trace.txt
