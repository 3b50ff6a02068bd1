# The slow tier: make check runs it, make check-quick does not. Long loops
# whose short versions the other boots run: 200 rounds of the bad-input
# corpus per file, 20 enable/disable cycles, range sets rewritten round
# after round beside huge mappings in use.
TIER=slow
TESTS="slow/fuzz.bats slow/onoff.bats slow/hugepages.bats"
TIMEOUT=900
EST=150
