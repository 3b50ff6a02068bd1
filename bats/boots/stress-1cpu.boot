# make stress (and make check SANITIZE=1|kcsan): STRESS_SECONDS of concurrent
# stress on one CPU (maxcpus=1).
TIER=stress
TESTS="stress/concurrency.bats"
ENV="STRESS_SECONDS=${STRESS_SECONDS:-120}"
ARGS="maxcpus=1"
TIMEOUT=3600
TEST_TIMEOUT=3600
EST=300
