# The main run, half of the features: bats on 2 CPUs, QEMU logging every
# device access for the oracle (bats/harness/oracle.py).
TIER=quick
TESTS="ranges.bats overrides.bats badinput.bats concurrency.bats e1000.bats emulate.bats events.bats existing.bats isa.bats maplines.bats maps_only.bats markers.bats mmiotouch.bats onoff.bats stats.bats subpage.bats trace_pc.bats unmap.bats usermode.bats"
TIMEOUT=1200
ORACLE=yes
EST=480
