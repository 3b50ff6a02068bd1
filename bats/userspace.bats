#!/usr/bin/env bats
# User-space MMIO: a process maps edu's BAR0 through its sysfs resource0
# file, /dev/mem or UIO (uio_pci_generic bound through new_id) and
# accesses it, as SPDK, DPDK or a register-poking tool would. The range
# set traces it like a kernel mapping: a MAP with the user address and the
# process's pid, R and W lines with that pid, an UNMAP when it goes. The
# process sees what it sees untraced (the same output, the same signal),
# and its page table is given back exactly. barmap (bats/tools/barmap.c)
# is the process; QEMU's record is the oracle.

load helpers

setup() {
	require_arch x86_64 "user mappings (the tracer arms no user mapping on arm64)"
	mmio_setup
	EDU_DEV=$(pci_dev 0x1234 0x11e8)
	RES0=$EDU_DEV/resource0
	USER_MAPS=$BATS_TEST_TMPDIR/user-maps
}

teardown() {
	local bdf
	# A test that failed may leave its barmap waiting, or a hold set.
	for pid in $(pidof barmap); do kill -9 "$pid"; done
	[ ! -e "$TOUCH/ctl" ] || touch_dev hold_fork 0 0
	if [ -d /sys/kernel/debug/failslab ]; then
		echo 0 > /sys/kernel/debug/failslab/probability
		echo N > /sys/kernel/debug/failslab/task-filter
	fi
	tracer_off
	if [ -d "$TRACING/events/uprobes" ]; then
		echo 0 > "$TRACING/events/uprobes/enable"
		echo > "$TRACING/uprobe_events"
	fi
	bdf=$(basename "$EDU_DEV")
	if [ -e /sys/bus/pci/drivers/uio_pci_generic/"$bdf" ]; then
		echo "$bdf" > /sys/bus/pci/drivers/uio_pci_generic/unbind
		echo "1234 11e8" > /sys/bus/pci/drivers/uio_pci_generic/remove_id
	fi
	mmio_teardown
}

# The accesses of the program of the first tests: every width, edu's
# liveness register read back inverted, a 64-bit register (DMA source),
# and a factorial that edu computes while the program polls its status.
ACCESSES="r4 0x0 w4 0x4 0x12345678 r4 0x4 r1 0x0 r2 0x0 w1 0x4 0x5a w2 0x4 0x5a5a
r8 0x80 w8 0x80 0x1122334455667788 r8 0x80 fact 5"

# user_lines PID: the trace lines of that process, without timestamps.
user_lines() {
	trace_events | awk -v pid="$1" '$NF == pid'
}

# user_map_lines: the "mappings" lines of user mappings.
user_map_lines() {
	grep ' pid=' "$MMIOTRACE/mappings" || true
}

# barmap_pid FILE: the pid barmap printed first.
barmap_pid() {
	awk '$1 == "pid" { print $2; exit }' "$1"
}

# wait_said FILE LINE [N]: until barmap has printed LINE N times (ten seconds).
wait_said() {
	local i n=${3:-1}
	for i in $(seq 200); do
		[ "$(grep -c "^$2\$" "$1")" -ge "$n" ] && return 0
		sleep 0.05
	done
	echo "barmap did not say '$2' $n times: $(cat "$1")"
	return 1
}

# wait_ready FILE [N]: until barmap says it waits for SIGUSR1 (the Nth time).
wait_ready() {
	wait_said "$1" ready "${2:-1}"
}

# expected_lines ID PID: the trace lines of $ACCESSES up to the factorial,
# for the mapping ID of process PID at edu's BAR0; the narrow reads give
# what edu answers to them, as the untraced run printed.
expected_lines() {
	local id=$1 pid=$2 r1 r2
	r1=$(awk '$1 == "r1" { print $4 }' "$BATS_TEST_TMPDIR/untraced")
	r2=$(awk '$1 == "r2" { print $4 }' "$BATS_TEST_TMPDIR/untraced")
	cat <<-EOF
	R 4 $id $EDU 0x10000ed 0x0 $pid
	W 4 $id $(hex EDU+4) 0x12345678 0x0 $pid
	R 4 $id $(hex EDU+4) 0xedcba987 0x0 $pid
	R 1 $id $EDU $r1 0x0 $pid
	R 2 $id $EDU $r2 0x0 $pid
	W 1 $id $(hex EDU+4) 0x5a 0x0 $pid
	W 2 $id $(hex EDU+4) 0x5a5a 0x0 $pid
	R 8 $id $(hex EDU+0x80) 0x0 0x0 $pid
	W 8 $id $(hex EDU+0x80) 0x1122334455667788 0x0 $pid
	R 8 $id $(hex EDU+0x80) 0x1122334455667788 0x0 $pid
	W 4 $id $(hex EDU+8) 0x5 0x0 $pid
	EOF
}

# run_accesses NAME FILE OFFSET: $ACCESSES through FILE at OFFSET, untraced
# then traced, on CPU 1; the traced run's events are exactly those of
# the untraced one's output, the factorial polls as QEMU saw, and the
# oracle gets them.
run_accesses() {
	local name=$1 file=$2 offset=$3 pid polls
	# shellcheck disable=SC2086
	taskset -c 1 barmap "$file" "$offset" 0x1000 w8 0x80 0 $ACCESSES > "$BATS_TEST_TMPDIR/untraced"
	set_ranges "$EDU 4k"
	tracer_on
	# shellcheck disable=SC2086
	taskset -c 1 barmap "$file" "$offset" 0x1000 w8 0x80 0 $ACCESSES > "$BATS_TEST_TMPDIR/traced"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/traced")
	assert_eq "what the program saw, traced" "$(grep -v '^pid' "$BATS_TEST_TMPDIR/untraced")" \
		"$(grep -v '^pid' "$BATS_TEST_TMPDIR/traced")"
	grep -qx 'fact 5 = 120' "$BATS_TEST_TMPDIR/traced"
	read_map "$EDU"
	user_lines "$pid" > "$BATS_TEST_TMPDIR/lines"
	assert_eq "MAP" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid" "$(sed -n 1p "$BATS_TEST_TMPDIR/lines")"
	assert_eq "the first write" "W 8 $ID $(hex EDU+0x80) 0x0 0x0 $pid" \
		"$(sed -n 2p "$BATS_TEST_TMPDIR/lines")"
	assert_eq "the accesses" "$(expected_lines "$ID" "$pid")" "$(sed -n '3,13p' "$BATS_TEST_TMPDIR/lines")"
	# Then edu computes: the status reads 1 until it is done, then 0.
	polls=$(sed -n '14,$p' "$BATS_TEST_TMPDIR/lines" | grep -c "^R 4 $ID $(hex EDU+0x20) 0x1 0x0 $pid$" || true)
	assert_eq "the end of the factorial" \
		"R 4 $ID $(hex EDU+0x20) 0x0 0x0 $pid
R 4 $ID $(hex EDU+8) 0x78 0x0 $pid
UNMAP $ID 0x0 $pid" "$(sed -n "$((14 + polls)),\$p" "$BATS_TEST_TMPDIR/lines")"
	echo "# $name: $((polls + 1)) status reads while edu computed" >&3
	assert_stat user_read $((6 + polls + 2))
	assert_stat user_write 6
	assert_stat user_maps 1
	oracle_record "user-$name" "$EDU" 0x1000 4
	assert_eq "user mappings left" "" "$(user_map_lines)"
}

@test "userspace: sysfs resource0, 1 to 8 bytes and a factorial, with the pid, as QEMU saw them" {
	run_accesses sysfs "$RES0" 0
}

@test "userspace: /dev/mem, the same accesses" {
	run_accesses devmem /dev/mem "$EDU"
}

@test "userspace: UIO (uio_pci_generic through new_id), the same accesses" {
	echo "1234 11e8" > /sys/bus/pci/drivers/uio_pci_generic/new_id
	[ -e "$EDU_DEV/driver" ]
	uio=$(basename "$EDU_DEV"/uio/uio*)
	run_accesses uio "/dev/$uio" 0
}

@test "userspace: a mapping made before the range set and the tracer is traced once they are" {
	taskset -c 1 barmap "$RES0" 0 0x1000 r4 0x0 wait r4 0x0 wait > "$BATS_TEST_TMPDIR/out" 3>&- &
	wait_ready "$BATS_TEST_TMPDIR/out"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	tracer_on
	assert_eq "user mappings with an empty set" "" "$(user_map_lines)"
	set_ranges "$EDU 4k"
	read_map "$EDU"
	assert_eq "mappings" "$ID $EDU 0x1000 1 4096 pid=$pid virt=$VIRT comm=barmap" "$(user_map_lines)"
	kill -USR1 "$pid"
	wait_ready "$BATS_TEST_TMPDIR/out" 2
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid" "$(user_lines "$pid")"
	kill -USR1 "$pid"
	wait "$!"
	assert_eq "UNMAP" "UNMAP $ID 0x0 $pid" "$(user_lines "$pid" | tail -n 1)"
	assert_eq "user mappings left" "" "$(user_map_lines)"
}

@test "userspace: a forked child's accesses are traced with its own pid" {
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 r4 0x0 fork r4 0x0 > "$BATS_TEST_TMPDIR/out"
	parent=$(sed -n 1p "$BATS_TEST_TMPDIR/out" | awk '{ print $2 }')
	child=$(grep '^pid ' "$BATS_TEST_TMPDIR/out" | sed -n 2p | awk '{ print $2 }')
	grep -qx 'child 0' "$BATS_TEST_TMPDIR/out"
	read_map "$EDU"
	parent_id=$(user_lines "$parent" | awk '$1 == "MAP" { print $2 }')
	child_id=$(user_lines "$child" | awk '$1 == "MAP" { print $2 }')
	[ "$child_id" != "$parent_id" ]
	virt=$(user_lines "$parent" | awk '$1 == "MAP" { print $4 }')
	assert_eq "the parent's events" "MAP $parent_id $EDU $virt 0x1000 0x0 $parent
R 4 $parent_id $EDU 0x10000ed 0x0 $parent
R 4 $parent_id $EDU 0x10000ed 0x0 $parent
UNMAP $parent_id 0x0 $parent" "$(user_lines "$parent")"
	assert_eq "the child's events" "MAP $child_id $EDU $virt 0x1000 0x0 $child
R 4 $child_id $EDU 0x10000ed 0x0 $child
UNMAP $child_id 0x0 $child" "$(user_lines "$child")"
	assert_eq "user mappings left" "" "$(user_map_lines)"
}

# fork() copies the parent's mappings (dup_mmap()) before the child joins
# the task list. Tracing that starts in between arms the parent's copy,
# lists the processes without the child, and leaves the child's copy,
# made unarmed, to the end of copy_process(). The test module's hold_fork
# makes the fork wait 3 s there while tracing starts.
@test "userspace: a child forked while tracing starts is traced" {
	set_ranges "$EDU 4k"
	barmap "$RES0" 0 0x1000 wait fork r4 0x0 > "$BATS_TEST_TMPDIR/out" 3>&- &
	forking=$!
	wait_ready "$BATS_TEST_TMPDIR/out"
	parent=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	touch_dev hold_fork 3000 "$parent"
	kill -USR1 "$parent"
	sleep 0.5
	tracer_on
	# The walk is done, the fork is not: nobody has read yet.
	assert_eq "reads before the fork ended" "" "$(grep '^r4 ' "$BATS_TEST_TMPDIR/out")"
	wait "$forking"
	touch_dev hold_fork 0 0
	assert_value 0x1
	child=$(grep '^pid ' "$BATS_TEST_TMPDIR/out" | sed -n 2p | awk '{ print $2 }')
	grep -qx 'child 0' "$BATS_TEST_TMPDIR/out"
	read_map "$EDU"
	child_id=$(user_lines "$child" | awk '$1 == "MAP" { print $2 }')
	virt=$(user_lines "$parent" | awk '$1 == "MAP" { print $4 }')
	assert_eq "the child's events" "MAP $child_id $EDU $virt 0x1000 0x0 $child
R 4 $child_id $EDU 0x10000ed 0x0 $child
UNMAP $child_id 0x0 $child" "$(user_lines "$child")"
	assert_eq "the parent's reads" 1 "$(user_lines "$parent" | grep -c "^R 4 ")"
	assert_stat user_read 2
	assert_eq "user mappings left" "" "$(user_map_lines)"
}

# ptrace(PTRACE_PEEKDATA) and /proc/PID/mem reach a traced user page
# through the mapping's access method, generic_access_phys(), which maps
# the page with ioremap_prot() for the copy: that copy is traced as a
# kernel mapping's accesses (pid 0), and the process's page stays armed.
@test "userspace: a /proc/PID/mem read of a traced page is traced as a kernel mapping's" {
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 wait r4 0x0 > "$BATS_TEST_TMPDIR/out" 3>&- &
	reader=$!
	wait_ready "$BATS_TEST_TMPDIR/out"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	read_map "$EDU"
	user_id=$ID user_virt=$VIRT
	assert_eq "the ID register through /proc/$pid/mem" " 010000ed" \
		"$(dd if="/proc/$pid/mem" bs=4096 skip=$((user_virt / 4096)) count=1 2> /dev/null |
			od -A n -t x4 -N 4)"
	kernel=$(trace_events | awk -v phys="$EDU" '$1 == "MAP" && $3 == phys && $NF == 0')
	assert_eq "kernel MAP lines of the page" 1 "$(echo "$kernel" | grep -c .)"
	kernel_id=$(echo "$kernel" | awk '{ print $2 }')
	assert_eq "the copy's reads" 1024 "$(trace_events | grep -c "^R 4 $kernel_id ")"
	assert_eq "the copy's first read" "R 4 $kernel_id $EDU 0x10000ed 0x0 0" \
		"$(trace_events | grep -m 1 "^R 4 $kernel_id ")"
	assert_eq "the copy's UNMAP" "UNMAP $kernel_id 0x0 0" "$(trace_events | grep "^UNMAP $kernel_id ")"
	oracle_record user-procmem "$EDU" 0x1000 4
	kill -USR1 "$pid"
	wait "$reader"
	assert_eq "the process's read after it" "R 4 $user_id $EDU 0x10000ed 0x0 $pid" \
		"$(user_lines "$pid" | grep '^R ')"
	assert_stat user_read 1
	assert_stat user_released 0
}

# mprotect() rewrites the mapping's entries (pte_modify()): the armed ones
# come back present. They are armed again after it, and counted anew.
@test "userspace: a mapping stays traced across mprotect()" {
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 r4 0x0 protect r r4 0x0 protect none protect rw \
		w4 0x4 0x5a5a5a5a wait r4 0x4 > "$BATS_TEST_TMPDIR/out" 3>&- &
	mapper=$!
	wait_ready "$BATS_TEST_TMPDIR/out"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	assert_eq "the mapping's armed bytes" 4096 \
		"$(awk -v pid="pid=$pid" '$6 == pid { print $5 }' "$MMIOTRACE/mappings")"
	kill -USR1 "$pid"
	wait "$mapper"
	read_map "$EDU"
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid
W 4 $ID $(hex EDU+4) 0x5a5a5a5a 0x0 $pid
R 4 $ID $(hex EDU+4) 0xa5a5a5a5 0x0 $pid
UNMAP $ID 0x0 $pid" "$(user_lines "$pid")"
	assert_stat user_released 0
	oracle_record user-mprotect "$EDU" 0x1000 4
}

@test "userspace: two processes on two CPUs at once, each access in its CPU's buffer with its pid" {
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 pin 0 spin 0x0 3000 > "$BATS_TEST_TMPDIR/out0" 3>&- &
	first=$!
	barmap "$RES0" 0 0x1000 pin 1 spin 0x0 3000 > "$BATS_TEST_TMPDIR/out1" 3>&- &
	# Not a bare wait: bats has a job of its own.
	wait "$first" "$!"
	for cpu in 0 1; do
		pid=$(barmap_pid "$BATS_TEST_TMPDIR/out$cpu")
		assert_eq "reads of process $pid on CPU $cpu" 3000 \
			"$(strip_timestamps < "$TRACING/per_cpu/cpu$cpu/trace" |
				grep -c "^R 4 [0-9]* $EDU 0x10000ed 0x0 $pid$")"
	done
	assert_stat user_read 6000
	assert_stat lost 0
}

@test "userspace: kill -9 in a loop that reads the BAR leaves nothing behind" {
	set_ranges "$EDU 4k"
	tracer_on
	for i in $(seq 10); do
		barmap "$RES0" 0 0x1000 loop 0x0 > /dev/null 3>&- &
		sleep 0.2
		kill -9 $!
		# Waited for here, by the child's parent: run waits in a subshell,
		# and once gave 255 for a child that SIGKILL had ended.
		status=0
		wait $! || status=$?
		assert_eq "status of round $i" 137 "$status"
	done
	assert_eq "user mappings left" "" "$(user_map_lines)"
	assert_stat user_maps 10
	assert_stat map 10
	assert_stat unmap 10
	[ "$(stat_of user_read)" -gt 10 ]
}

@test "userspace: an exit without munmap() gives the UNMAP" {
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 r4 0x0 exit > "$BATS_TEST_TMPDIR/out"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	read_map "$EDU"
	assert_eq "events" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid
UNMAP $ID 0x0 $pid" "$(user_lines "$pid")"
	assert_eq "user mappings left" "" "$(user_map_lines)"
}

# same_status ARGS...: barmap's exit status is the same traced and untraced.
same_status() {
	run barmap "$@"
	untraced=$status
	set_ranges "$EDU 4k"
	tracer_on
	run barmap "$@"
	assert_eq "status traced, as untraced" "$untraced" "$status"
}

@test "userspace: a write to a read-only mapping is SIGSEGV, and reaches nothing" {
	same_status "$RES0" 0 0x1000 ro r4 0x0 w4 0x4 0x1
	assert_eq "status" 139 "$status"
	assert_eq "accesses traced" "R 4 $EDU 0x10000ed" "$(trace_events | awk '$1 == "R" || $1 == "W" { print $1, $2, $4, $5 }')"
	assert_stat user_write 0
}

@test "userspace: an access across the end of the mapping gets the signal it gets untraced" {
	same_status "$RES0" 0 0x1000 r4 0xffe
	assert_eq "status" 139 "$status"
	assert_stat user_read 0
}

@test "userspace: libc memcpy from the BAR gives the process the bytes, one UNKNOWN, the page given back" {
	barmap "$RES0" 0 0x1000 memcpy 0x0 64 > "$BATS_TEST_TMPDIR/untraced"
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 memcpy 0x0 64 r4 0x0 > "$BATS_TEST_TMPDIR/traced"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/traced")
	assert_eq "the sum" "$(grep memcpy "$BATS_TEST_TMPDIR/untraced")" "$(grep memcpy "$BATS_TEST_TMPDIR/traced")"
	assert_eq "UNKNOWN lines" 1 "$(user_lines "$pid" | grep -c "^UNKNOWN [0-9]* $EDU ")"
	assert_eq "reads traced after it" 0 "$(user_lines "$pid" | grep -c '^R ')"
	assert_stat user_unknown 1
	assert_stat user_released 1
}

@test "userspace: the tracer switched off while a process reads gives its page table back exactly" {
	taskset -c 1 barmap "$RES0" 0 0x1000 pte wait pte poll 0x0 pte wait > "$BATS_TEST_TMPDIR/out" 3>&- &
	wait_ready "$BATS_TEST_TMPDIR/out"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	set_ranges "$EDU 4k"
	tracer_on
	kill -USR1 "$pid"
	# The armed entry is dumped before it polls: a loaded machine may take long.
	wait_said "$BATS_TEST_TMPDIR/out" polling
	sleep 0.3
	tracer_off
	sleep 0.1
	kill -USR1 "$pid"
	wait_ready "$BATS_TEST_TMPDIR/out" 2
	grep '^pte' "$BATS_TEST_TMPDIR/out" > "$BATS_TEST_TMPDIR/ptes"
	assert_eq "entries dumped" 3 "$(wc -l < "$BATS_TEST_TMPDIR/ptes")"
	before=$(sed -n 1p "$BATS_TEST_TMPDIR/ptes")
	armed=$(sed -n 2p "$BATS_TEST_TMPDIR/ptes")
	after=$(sed -n 3p "$BATS_TEST_TMPDIR/ptes")
	echo "# before: $before" >&3
	echo "# armed:  $armed" >&3
	assert_eq "the entry after tracing" "$before" "$after"
	echo "$before" | grep -q ' USR RW '
	! echo "$armed" | grep -q ' RW ' || false
	polled=$(awk '$1 == "polled" { print $2 }' "$BATS_TEST_TMPDIR/out")
	echo "# $polled reads, the tracer switched off among them" >&3
	[ "$polled" -gt "$(stat_of user_read)" ]
	[ "$(stat_of user_read)" -gt 0 ]
	kill -USR1 "$pid"
	status=0
	wait "$pid" || status=$?
	assert_eq "status" 0 "$status"
}

@test "userspace: with nothing armed, a process's page table does not change" {
	barmap "$RES0" 0 0x1000 pte wait pte > "$BATS_TEST_TMPDIR/out" 3>&- &
	wait_ready "$BATS_TEST_TMPDIR/out"
	set_ranges "$VGA 4k"
	tracer_on
	kill -USR1 "$(barmap_pid "$BATS_TEST_TMPDIR/out")"
	wait "$!"
	assert_eq "entries dumped" 2 "$(grep -c '^pte' "$BATS_TEST_TMPDIR/out")"
	assert_eq "the entry, traced" "$(grep '^pte' "$BATS_TEST_TMPDIR/out" | sed -n 1p)" \
		"$(grep '^pte' "$BATS_TEST_TMPDIR/out" | sed -n 2p)"
	assert_eq "user mappings" "" "$(user_map_lines)"
}

@test "userspace: a kernel driver and a process on the same BAR, told apart by the pid" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	barmap "$RES0" 0 0x1000 r4 0x0 wait r4 0x0 > "$BATS_TEST_TMPDIR/out" 3>&- &
	wait_ready "$BATS_TEST_TMPDIR/out"
	touch_dev read edu 4 0x0
	kill -USR1 "$(barmap_pid "$BATS_TEST_TMPDIR/out")"
	wait "$!"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	kid=$(mapping_id "$EDU")
	uid=$(user_lines "$pid" | awk '$1 == "MAP" { print $2 }')
	assert_eq "the reads" "R 4 $uid $EDU 0x10000ed 0x0 $pid
R 4 $kid $EDU 0x10000ed 0x0 0
R 4 $uid $EDU 0x10000ed 0x0 $pid" "$(trace_events | grep '^R ')"
}

@test "userspace: the events carry the pid, and the MAP event says it" {
	set_ranges "$EDU 4k"
	echo 1 > "$EVENTS/enable"
	barmap "$RES0" 0 0x1000 r4 0x0 > "$BATS_TEST_TMPDIR/out"
	echo 0 > "$EVENTS/enable"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/out")
	grep -E "^ +barmap-$pid +\[[0-9]+\] .* mmio_read: phys=$EDU value=0x10000ed width=4 map_id=[0-9]+ pc=0x0$" "$TRACING/trace"
	grep -E " mmio_map: map_id=[0-9]+ phys=$EDU virt=0x[0-9a-f]+ len=0x1000 pid=$pid$" "$TRACING/trace"
	: > "$TRACING/trace"
}

# A process that steps itself over a traced read, as a debugger's stepi
# does: the trap after the read comes where it comes untraced, after the
# read, and the read is traced once.
@test "userspace: a process single-stepping over its traced read gets every trap where it gets it untraced" {
	barmap "$RES0" 0 0x1000 ro step 0x0 > "$BATS_TEST_TMPDIR/untraced"
	assert_eq "untraced" "step 0x0 = 0x10000ed traps nop1 nop2 nop3 end" \
		"$(grep -v '^pid' "$BATS_TEST_TMPDIR/untraced")"
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 ro step 0x0 > "$BATS_TEST_TMPDIR/traced"
	assert_eq "traced" "step 0x0 = 0x10000ed traps nop1 nop2 nop3 end" \
		"$(grep -v '^pid' "$BATS_TEST_TMPDIR/traced")"
	pid=$(barmap_pid "$BATS_TEST_TMPDIR/traced")
	read_map "$EDU"
	assert_eq "lines" "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid
UNMAP $ID 0x0 $pid" "$(user_lines "$pid")"
	assert_stat user_released 0
}

# A hardware breakpoint on the instruction after a traced read fires as
# it does untraced: the fault's frame has RF set, which must not outlive
# the emulated read.
@test "userspace: a breakpoint on the instruction after a traced read fires once, as untraced" {
	barmap "$RES0" 0 0x1000 ro hwbp 0x0 > "$BATS_TEST_TMPDIR/untraced"
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 ro hwbp 0x0 > "$BATS_TEST_TMPDIR/traced"
	assert_eq "untraced" "hwbp 0x0 = 0x10000ed hits 1" "$(grep -v '^pid' "$BATS_TEST_TMPDIR/untraced")"
	assert_eq "traced" "hwbp 0x0 = 0x10000ed hits 1" "$(grep -v '^pid' "$BATS_TEST_TMPDIR/traced")"
	assert_stat user_read 1
}

# A uprobe on a traced MOV: uprobes steps a copy of the MOV out of line,
# with TF; kmmio emulates the copy, and the process must go on after the
# original, where a RIP-relative load and a call work.
@test "userspace: a uprobe on a traced MMIO read fires, and the process goes on after the read" {
	offset=$(barmap "$RES0" 0 0x1000 ro xol-offset | awk '$1 == "xol-offset" { print $2 }')
	echo "p:mmioread /usr/bin/barmap:$offset" > "$TRACING/uprobe_events"
	echo 1 > "$TRACING/events/uprobes/mmioread/enable"
	set_ranges "$EDU 4k"
	tracer_on
	run barmap "$RES0" 0 0x1000 ro xol 0x0
	hits=$(awk '$2 == "mmioread" { print $3 }' "$TRACING/uprobe_profile")
	pid=$(echo "$output" | awk '$1 == "pid" { print $2 }')
	# Before the probe goes: removing an event clears every buffer.
	reads=$(user_lines "$pid" | awk '$1 == "R" { print $1, $2, $4, $5, $NF }')
	echo 0 > "$TRACING/events/uprobes/mmioread/enable"
	echo > "$TRACING/uprobe_events"
	assert_eq "barmap's status" 0 "$status"
	assert_eq "what barmap saw" "xol 0x0 = 0x10000ed riprel 0xc0ffee01 called 1" "$(echo "$output" | grep -v '^pid')"
	assert_eq "uprobe hits" 1 "$hits"
	assert_eq "reads" "R 4 $EDU 0x10000ed $pid" "$reads"
	assert_stat user_released 0
}

# Tracing starts and stops for the processes' mappings whatever atomic
# allocation fails: walking the processes needs none. failslab, with its
# task filter, fails every slab allocation that cannot sleep in the
# subshells that start and stop the tracer.
@test "userspace: starting and stopping with every atomic allocation failing" {
	local failslab=/sys/kernel/debug/failslab
	[ -d "$failslab" ] || skip "needs CONFIG_FAILSLAB"
	taskset -c 1 barmap "$RES0" 0 0x1000 r4 0x0 wait r4 0x0 wait r4 0x0 > "$BATS_TEST_TMPDIR/out" 3>&- &
	pid=$!
	wait_ready "$BATS_TEST_TMPDIR/out"
	set_ranges "$EDU 4k"
	echo Y > "$failslab/ignore-gfp-wait"
	echo Y > "$failslab/task-filter"
	echo 0 > "$failslab/verbose"
	echo 1 > "$failslab/interval"
	echo -1 > "$failslab/times"
	echo 100 > "$failslab/probability"
	( echo 1 > /proc/self/make-it-fail; echo mmiotrace > "$TRACING/current_tracer" )
	assert_eq "the process's mapping, traced" "$EDU 0x1000 1 4096 pid=$pid" \
		"$(user_map_lines | awk '{ print $2, $3, $4, $5, $6 }')"
	kill -USR1 "$pid"
	wait_ready "$BATS_TEST_TMPDIR/out" 2
	read_map "$EDU"
	assert_events "MAP $ID $EDU $VIRT 0x1000 0x0 $pid
R 4 $ID $EDU 0x10000ed 0x0 $pid"
	( echo 1 > /proc/self/make-it-fail; echo nop > "$TRACING/current_tracer" )
	echo 0 > "$failslab/probability"
	echo N > "$failslab/task-filter"
	assert_eq "user mappings left" "" "$(user_map_lines)"
	assert_stat armed_bytes 0
	kill -USR1 "$pid"
	wait "$pid"
	assert_eq "what the process read" "r4 0x0 = 0x10000ed
r4 0x0 = 0x10000ed
r4 0x0 = 0x10000ed" "$(grep '^r4' "$BATS_TEST_TMPDIR/out")"
}

# A debugger's watchpoint on a traced register: the CPU reports a data
# breakpoint after the access, at the user address; kmmio performs the
# access through its alias, and must report it as the CPU would. edu's
# liveness register (0x4) reads back what was written, inverted.
@test "userspace: a data breakpoint on a traced register counts its reads and writes, as untraced" {
	barmap "$RES0" 0 0x1000 watch 0x4 rw watch 0x4 w > "$BATS_TEST_TMPDIR/untraced"
	set_ranges "$EDU 4k"
	tracer_on
	barmap "$RES0" 0 0x1000 watch 0x4 rw watch 0x4 w > "$BATS_TEST_TMPDIR/traced"
	assert_eq "untraced" "$(grep -v '^pid' "$BATS_TEST_TMPDIR/untraced")" \
		"$(grep -v '^pid' "$BATS_TEST_TMPDIR/traced")"
	assert_eq "hits" "watch 0x4 rw hits 2
watch 0x4 w hits 1" "$(grep -v '^pid' "$BATS_TEST_TMPDIR/traced" | sed 's/ = 0x[0-9a-f]*//')"
	assert_stat user_read 2
	assert_stat user_write 2
}
