# The flight recorder: edu's accesses kept across a panic, which panic=1 resets
# (bats/boot/crash.sh: the guest dies, boots again, crash.bats judges).
TIER=quick
TESTS="boot/crash.bats"
DEPS="bats/boot/crash.sh"
COMMAND="bash /opt/mmio/bats/boot/crash.sh panic"
ARGS="reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace mmiotrace.ranges=1M@$EDU_BAR0 panic=1"
REBOOT=yes
DEATH="sysrq: Trigger a crash"
ORACLE=yes
EST=60
