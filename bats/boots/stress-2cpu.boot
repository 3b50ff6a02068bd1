# make stress (and make check SANITIZE=1|kcsan): the whole fuzz corpus, then
# STRESS_SECONDS of concurrent stress, on 2 CPUs.
TIER=stress
TESTS="slow/fuzz.bats stress/concurrency.bats"
ENV="FUZZ_ROUNDS=2000 STRESS_SECONDS=${STRESS_SECONDS:-120}"
TIMEOUT=3600
TEST_TIMEOUT=3600
EST=600
