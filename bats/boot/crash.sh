#!/bin/bash
# The flight recorder, run by make check as the command of a boot that the
# guest ends itself (run-qemu.sh -R: a warm reset keeps the guest's RAM and
# boots it again, with the same command line), with
#   reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace
#   mmiotrace.ranges=1M@<edu BAR0>
# usage: crash.sh sysrq|panic|hang|cleared
# First boot, the instance "flight" empty: mmiotouch makes the accesses of
# flight_sequence (helpers.bash) to edu, then the machine dies KIND's way:
#   sysrq    echo b > /proc/sysrq-trigger: an immediate reset
#   panic    echo c > /proc/sysrq-trigger: a panic, which panic=1 resets
#   hang     a CPU spins with interrupts off: i6300esb's watchdog resets
#            (i6300esb.heartbeat=2 on the command line)
#   cleared  the instance cleared, then sysrq b: it must come back empty,
#            recording; a second persistent instance, "phase" (add
#            reserve_mem=256k:2M:phase trace_instance=phase@phase), tells
#            the second boot from the first
# Second boot: crash.bats (crash-cleared.bats) judges what the instance
# kept; the guest powers off afterwards (mmio_end=poweroff).
kind=$1
flight=/sys/kernel/tracing/instances/flight
phase=/sys/kernel/tracing/instances/phase
case $kind in
sysrq|panic|hang|cleared) ;;
*) echo "crash.sh: unknown way to die '$kind'"; exit 2 ;;
esac
[ -d "$flight" ] || { echo "crash.sh: no instance flight (reserve_mem=, trace_instance=?)"; exit 1; }
[ "$kind" != cleared ] || [ -d "$phase" ] || { echo "crash.sh: no instance phase"; exit 1; }

export CRASH_KIND=$kind
if [ "$kind" = cleared ]; then
	if grep -q 'tracing_mark_write: died$' "$phase/trace"; then
		exec bats --formatter tap /opt/mmio/bats/boot/crash-cleared.bats
	fi
elif grep -q ': mmio_' "$flight/trace"; then
	exec bats --formatter tap /opt/mmio/bats/boot/crash.bats
fi

# On the last CPU, not the boot CPU: its buffer in the instance is only
# looked at when it comes up in the next boot.
taskset -p 2 $$ > /dev/null || exit 1
insmod /opt/mmio/modules/mmiotouch.ko || exit 1
. /opt/mmio/bats/helpers.bash
flight_sequence | while read -r command; do
	echo "$command" > "$TOUCH/ctl" || exit 1
done || exit 1
case $kind in
sysrq) echo b > /proc/sysrq-trigger ;;
cleared)
	echo > "$flight/trace"
	echo died > "$phase/trace_marker"
	echo b > /proc/sysrq-trigger ;;
panic) echo c > /proc/sysrq-trigger ;;
hang)
	# Opening the device starts it (i6300esb.heartbeat=2 on the command
	# line), here, before the hang: nothing pings it again.
	exec 3> /dev/watchdog || exit 1
	echo hang > "$TOUCH/ctl" ;;
esac
echo "crash.sh: the machine survived '$kind'"
exit 1
