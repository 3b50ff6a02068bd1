#!/bin/sh
# Guest side of "make demo": trace QEMU's edu device while the test module
# reads and writes it, with markers around the accesses. Only the trace goes
# to stdout; progress goes to the kernel log.
set -eu
tracing=/sys/kernel/tracing
ctl=/sys/kernel/debug/mmiotouch/ctl
say() { echo "demo: $*" > /dev/kmsg; }

insmod /opt/mmio/modules/mmiotouch.ko
echo mmiotrace > "$tracing/current_tracer"
cat "$tracing/trace_pipe" > /tmp/trace.txt &
reader=$!

echo "demo: edu accesses begin" > "$tracing/trace_marker"
echo "map edu" > "$ctl"
echo "read edu 4 0x0" > "$ctl"
say "edu id register reads $(cat /sys/kernel/debug/mmiotouch/value)"
echo "write edu 4 0x4 0x12345678" > "$ctl"
echo "read edu 4 0x4" > "$ctl"
say "edu inverse register reads $(cat /sys/kernel/debug/mmiotouch/value)"
echo "unmap edu" > "$ctl"
echo "demo: edu accesses end" > "$tracing/trace_marker"

# The tracer cannot be switched while trace_pipe is open: let the reader
# drain, stop it, and take whatever it had not consumed from "trace".
sleep 1
kill "$reader"
wait "$reader" 2>/dev/null || true
grep -v '^#' "$tracing/trace" >> /tmp/trace.txt || true
echo nop > "$tracing/current_tracer"
cat /tmp/trace.txt
