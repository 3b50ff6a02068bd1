# A malformed range set on the command line, the events on.
TIER=quick
TESTS="boot/badranges.bats"
ARGS="mmiotrace.ranges=oops trace_event=mmiotrace:*"
EST=35
