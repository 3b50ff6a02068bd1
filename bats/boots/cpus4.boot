# Every CPU stays online on 4 CPUs too, and each one's accesses are traced.
TIER=quick
TESTS="cpus.bats"
CPUS=4
ORACLE=yes
EST=150
# 100000 reads beside read-modify-writes: 30 s alone, more beside another
# guest on two cores.
TEST_TIMEOUT=300
