# The flight recorder cleared before a reset comes back empty, recording;
# a second persistent instance, "phase", tells the boots apart.
TIER=quick
TESTS="boot/crash-cleared.bats"
DEPS="bats/boot/crash.sh"
COMMAND="bash /opt/mmio/bats/boot/crash.sh cleared"
ARGS="reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace mmiotrace.ranges=1M@$EDU_BAR0 reserve_mem=256k:2M:phase trace_instance=phase@phase"
REBOOT=yes
DEATH="sysrq: Resetting"
EST=60
