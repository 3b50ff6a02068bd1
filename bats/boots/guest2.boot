# The main run, the other half: the CPUs, faults, huge pages and user
# mappings, and mmioctl in the guest; decode.bats's nvme trace is decoded
# on the host (bats/harness/decode.sh).
TIER=quick
TESTS="cpus.bats faults.bats hugepages.bats scale.bats userspace.bats decode.bats mmioctl.bats mmioctl-events.bats"
DEPS="README.md ctl-tool/mmioctl.bash-completion"
TIMEOUT=1200
ORACLE=yes
DECODE=yes
EST=470
