# The boot parameters as defaults of the runtime controls; filter_offset
# names edu's BAR (EDU_BAR0: from the probe boot, build/check/pci.env).
TIER=quick
TESTS="boot/params.bats"
ARGS="mmiotrace.trace_pc=1 mmiotrace.nommiotrace=1 mmiotrace.trace_isa=0 mmiotrace.filter_offset=$EDU_BAR0 mmiotrace.ranges=64k@0xfe000000,oops mmiotrace.ports=2@0x70,4@0x510"
EST=40
