# The main run, the other half: the CPUs, faults, emulated instructions,
# huge pages, user mappings (and the kernel's x86 selftests beside one),
# and mmioctl in the guest;
# decode.bats's nvme trace is decoded on the host (bats/harness/decode.sh).
TIER=quick
TESTS="cpus.bats faults.bats emulate.bats hugepages.bats scale.bats userspace.bats x86-selftests.bats decode.bats mmioctl.bats mmioctl-events.bats"
DEPS="README.md ctl-tool/mmioctl.bash-completion"
TIMEOUT=1200
# 100000 reads beside read-modify-writes (cpus.bats): 30 s alone, twice that
# beside another guest on two cores.
TEST_TIMEOUT=300
ORACLE=yes
DECODE=yes
EST=560
