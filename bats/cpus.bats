#!/usr/bin/env bats
# Every CPU stays online while tracing, and the accesses of every CPU are
# traced, exactly once each, while the range set and the toggles change.
# make check runs this file on 2 CPUs and again on 4.

load helpers

ROUNDS=4
REPEAT=250

@test "cpus: enabling and disabling the tracer leaves every CPU online" {
	# CPUS: how many QEMU was given, so that a kernel capping them fails.
	[ "$(nproc)" = "${CPUS:?the CPUs QEMU has}" ]
	online=$(cat /sys/devices/system/cpu/online)
	[ "$online" = "0-$(($(nproc) - 1))" ]
	dmesg_mark
	tracer_on
	[ "$(cat /sys/devices/system/cpu/online)" = "$online" ]
	touch_dev map edu
	assert_edu_read_traced
	touch_dev unmap edu
	tracer_off
	[ "$(cat /sys/devices/system/cpu/online)" = "$online" ]
	! dmesg | tail -n +"$((DMESG_LINES + 1))" | grep -Ei 'cpu[0-9]* (is )?(down|offline)' || false
}

# reader CPU: ROUNDS times REPEAT reads of edu's id register, on CPU.
reader() {
	local round
	for round in $(seq 1 "$ROUNDS"); do
		taskset -c "$1" sh -c "echo 'repeat $REPEAT read edu 4 0x0' > $TOUCH/ctl"
	done
}

# changer: rewrite the set (every set holds edu's id register) and flip
# the toggles that do not stop logging, until killed.
changer() {
	while true; do
		set_ranges "$EDU 16"
		printf '%s 4k\n0x1000 4k\n' "$EDU" > "$MMIOTRACE/ranges"
		echo 1 > "$MMIOTRACE/trace_pc"
		echo 0 > "$MMIOTRACE/trace_isa"
		add_ranges "!0x1000 4k"
		echo 0 > "$MMIOTRACE/trace_pc"
		echo 1 > "$MMIOTRACE/trace_isa"
	done
}

@test "cpus: every CPU's reads of one traced page are logged once each while settings change" {
	cpus=$(nproc)
	set_ranges "$EDU 16"
	touch_dev map edu
	dmesg_mark
	tracer_on
	changer &
	changer_pid=$!
	pids=""
	for cpu in $(seq 0 $((cpus - 1))); do
		reader "$cpu" &
		pids="$pids $!"
	done
	for pid in $pids; do wait "$pid"; done
	kill "$changer_pid"
	wait "$changer_pid" || true
	ID=$(mapping_id "$EDU")
	for cpu in $(seq 0 $((cpus - 1))); do
		strip_timestamps < "$TRACING/per_cpu/cpu$cpu/trace" > "$BATS_TEST_TMPDIR/cpu$cpu"
		# Every R line of this CPU is a read of the id register.
		reads=$(grep -Ec "^R 4 $ID $EDU 0x10000ed 0x(0|[0-9a-f]+) 0$" "$BATS_TEST_TMPDIR/cpu$cpu" || true)
		others=$(grep -c '^[RWU]' "$BATS_TEST_TMPDIR/cpu$cpu" || true)
		echo "# cpu $cpu: $reads reads traced" >&3
		[ "$reads" = $((ROUNDS * REPEAT)) ] || { echo "cpu $cpu: $reads reads, expected $((ROUNDS * REPEAT))"; false; }
		[ "$others" = "$reads" ]
	done
	assert_stat read $((cpus * ROUNDS * REPEAT))
	assert_stat lost 0
	oracle_record "cpus-$cpus" "$EDU" 0x10 4
	tracer_off
	assert_stat armed_bytes 0
	assert_dmesg_clean
}

@test "cpus: a mapping selected while another CPU uses it logs its MAP before any access" {
	touch_dev map edu
	tracer_on
	stop=$BATS_TEST_TMPDIR/stop
	taskset -c 1 sh -c "while [ ! -e $stop ]; do echo 'repeat 20 read edu 4 0x0' > $TOUCH/ctl; done" &
	pid=$!
	sleep 0.5
	set_ranges "$EDU 4"
	sleep 0.5
	touch "$stop"
	wait "$pid"
	run trace_events
	[[ "${lines[0]}" =~ ^MAP\ $(mapping_id "$EDU")\ $EDU\  ]]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^MAP')" = 1 ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^R 4')" -ge 20 ]
}

# A read-modify-write of a traced page is single-stepped: the page stays
# armed all along, so that no other CPU's access gets through untraced.
# x86's OR to memory; arm64's LSE LDADD.
@test "cpus: 100000 reads beside another CPU's read-modify-writes of the page are all traced" {
	cpus=$(nproc)
	rmw=orl_stepped
	[ "$ARCH" != aarch64 ] || rmw=ldadd_w
	echo 16384 > "$TRACING/buffer_size_kb"
	# The reads' register is in the set, the one ORed beside it is not:
	# those are stepped all the same, but not logged.
	set_ranges "$EDU 4"
	touch_dev map edu
	dmesg_mark
	tracer_on
	stop=$BATS_TEST_TMPDIR/stop
	pids=""
	for cpu in $(seq 1 $((cpus - 1))); do
		# Paced: QEMU's log of every access is the bottleneck here.
		taskset -c "$cpu" sh -c "while [ ! -e $stop ]; do
			echo 'repeat 100 insn $rmw edu 0x4' > $TOUCH/ctl
			sleep 0.05; done" &
		pids="$pids $!"
	done
	taskset -c 0 sh -c "echo 'repeat 100000 read edu 4 0x0' > $TOUCH/ctl"
	touch "$stop"
	for pid in $pids; do wait "$pid"; done
	oracle_record "cpus-rmw-$cpus" "$EDU" 4 4
	ID=$(mapping_id "$EDU")
	assert_eq "reads traced on CPU 0" 100000 \
		"$(strip_timestamps < "$TRACING/per_cpu/cpu0/trace" |
			grep -c "^R 4 $ID $EDU 0x10000ed 0x0 0$")"
	assert_stat read 100000
	assert_stat lost 0
	assert_stat exposed 0
	[ "$(stat_of stepped)" -ge 200 ]
	echo "# $(stat_of stepped) read-modify-writes stepped on $((cpus - 1)) CPUs" \
		"beside 100000 traced reads" >&3
	tracer_off
	assert_stat armed_bytes 0
	assert_dmesg_clean
}
