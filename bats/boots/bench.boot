# The benchmark loop once with tiny counts (make bench, make stress): every
# figure is produced; no timing is asserted.
TIER=bench
TESTS="bench/bench.bats"
DEPS="bench/guest.sh"
EST=90
