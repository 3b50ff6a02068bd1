# The main run, the other half: faults, emulated instructions, huge
# pages, user mappings (and the kernel's x86 selftests beside one), markers
# and mmioctl in the guest (cpus.bats runs on 4 CPUs, in cpus4.boot);
# decode.bats's nvme trace is decoded on the host (bats/harness/decode.sh).
TIER=quick
TESTS="faults.bats markers.bats emulate.bats hugepages.bats scale.bats userspace.bats x86-selftests.bats decode.bats mmioctl.bats mmioctl-events.bats ports.bats fuzz.bats"
DEPS="README.md ctl-tool/mmioctl.bash-completion"
TIMEOUT=1200
ORACLE=yes
DECODE=yes
EST=560
