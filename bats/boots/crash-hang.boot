# The flight recorder: edu's accesses kept across a hang that QEMU's
# i6300esb watchdog resets (bats/boot/crash.sh: the guest dies, boots
# again, crash.bats judges).
TIER=quick
TESTS="boot/crash.bats"
DEPS="bats/boot/crash.sh"
COMMAND="bash /opt/mmio/bats/boot/crash.sh hang"
ARGS="reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace mmiotrace.ranges=1M@$EDU_BAR0 i6300esb.heartbeat=2"
QEMU="-device i6300esb -action watchdog=reset"
REBOOT=yes
DEATH="mmiotouch: hanging with interrupts off"
ORACLE=yes
EST=60
