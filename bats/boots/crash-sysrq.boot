# The flight recorder: edu's accesses kept across sysrq b, an immediate reset
# (bats/boot/crash.sh: the guest dies, boots again, crash.bats judges).
TIER=quick
TESTS="boot/crash.bats"
DEPS="bats/boot/crash.sh"
COMMAND="bash /opt/mmio/bats/boot/crash.sh sysrq"
ARGS="reserve_mem=2M:2M:flight trace_instance=flight@flight,mmiotrace mmiotrace.ranges=1M@$EDU_BAR0"
REBOOT=yes
DEATH="sysrq: Resetting"
ORACLE=yes
EST=60
