# The main run, half of the features (the files split so that the two
# halves take as long, run side by side): bats on 2 CPUs, QEMU logging
# every device access for the oracle (bats/harness/oracle.py).
TIER=quick
TESTS="ranges.bats overrides.bats events.bats badinput.bats concurrency.bats e1000.bats existing.bats isa.bats maplines.bats maps_only.bats mmiotouch.bats onoff.bats stats.bats subpage.bats trace_pc.bats unmap.bats usermode.bats"
TIMEOUT=1200
ORACLE=yes
EST=560
