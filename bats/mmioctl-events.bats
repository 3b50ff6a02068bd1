#!/usr/bin/env bats
# mmioctl through the mmiotrace events: record -e (text, and trace.dat
# through trace-cmd), hist from the kernel's histograms, and --instance for
# the commands that set up, read and end a session.

load helpers

setup() {
	mmio_setup
	BDF=$(pci_bdf 0x1234 0x11e8)
	INVERSE=$(hex EDU+4)
	cd "$BATS_TEST_TMPDIR"
	mmioctl add-pci "$BDF" 0
}

teardown() {
	if [ -n "${RECORDER:-}" ]; then
		kill "$RECORDER" 2>/dev/null || true
		wait "$RECORDER" 2>/dev/null || true
	fi
	mmio_teardown
	rm -rf /run/mmioctl
}

# The session every test records: edu mapped, its id register read twice,
# 0x55 written to the inverse register and read back.
SESSION="echo 'map edu' > $TOUCH/ctl
	echo 'read edu 4 0x0' > $TOUCH/ctl
	echo 'read edu 4 0x0' > $TOUCH/ctl
	echo 'write edu 4 0x4 0x55' > $TOUCH/ctl
	echo 'read edu 4 0x4' > $TOUCH/ctl"

# Its accesses, as event_accesses prints them.
session_accesses() {
	printf '%s\n' "R 4 $EDU 0x10000ed" "R 4 $EDU 0x10000ed" "W 4 $INVERSE 0x55" \
		"R 4 $INVERSE 0xffffffaa"
}

# The summary record prints for it.
SUMMARY='^mmioctl: recorded 5 events \(R 3, W 1, MAP 1, UNMAP 0, MARK 0, UNKNOWN 0\), 0 lost, [0-9]+ bytes in [0-9.]+ s$'

# hist_of STATE: what hist prints for the session, running or finished.
hist_of() {
	echo "instance mmioctl, $1 session: 2 registers, 3 reads, 1 writes, 0 dropped"
	printf '  %-18s %10s %10s %10s  %s\n' phys count reads writes values \
		"$EDU" 2 2 0 "R 0x10000ed x2" "$INVERSE" 2 1 1 "R 0xffffffaa x1; W 0x55 x1"
}

# enables NAME: the five enable files of an instance, on one line.
enables() {
	cat "$TRACING/instances/$1"/events/mmiotrace/mmio_{read,write,unknown,map,unmap}/enable |
		tr '\n' ' '
}

@test "mmioctl events: record -e records exactly the command's accesses, as events" {
	run mmioctl record -e -o trace.txt -- sh -c "$SESSION"
	[ "$status" = 0 ]
	[[ "$output" =~ $SUMMARY ]] || { echo "$output"; false; }
	assert_eq "accesses" "$(session_accesses)" "$(event_accesses trace.txt)"
	assert_eq "the MAP event" 1 \
		"$(grep -Ec " mmio_map: map_id=[0-9]+ phys=$EDU virt=0x[0-9a-f]+ len=0x1000 pid=0$" trace.txt)"
	assert_eq "lines" 5 "$(wc -l < trace.txt)"
	# The session is over: its events off, nothing armed, the instance kept.
	assert_eq "events" "0 0 0 0 0 " "$(enables mmioctl)"
	assert_stat armed_bytes 0
}

@test "mmioctl events: hist prints the finished session per register, from the kernel's histograms" {
	mmioctl record -e -q -o trace.txt -- sh -c "$SESSION" 2>/dev/null
	run mmioctl hist
	[ "$status" = 0 ]
	assert_eq "hist" "$(hist_of finished)" "$output"
	# Its triggers are gone: the saved histograms are what hist read.
	assert_eq "triggers" 0 "$(grep -vc '^#' "$TRACING/instances/mmioctl/events/mmiotrace/mmio_read/trigger")"
	run mmioctl hist --json
	assert_eq "hist --json" "{\"instance\":\"mmioctl\",\"session\":\"finished\",\"reads\":3,\"writes\":1,\"dropped\":0,\"registers\":[{\"phys\":\"$EDU\",\"count\":2,\"reads\":2,\"writes\":0,\"read_values\":[{\"value\":\"0x10000ed\",\"count\":2}],\"read_values_other\":0,\"distinct_read\":1,\"written_values\":[],\"written_values_other\":0,\"distinct_written\":0},{\"phys\":\"$INVERSE\",\"count\":2,\"reads\":1,\"writes\":1,\"read_values\":[{\"value\":\"0xffffffaa\",\"count\":1}],\"read_values_other\":0,\"distinct_read\":1,\"written_values\":[{\"value\":\"0x55\",\"count\":1}],\"written_values_other\":0,\"distinct_written\":1}]}" "$output"
}

@test "mmioctl events: hist follows a running session, and keeps what it counted when it ends" {
	mmioctl on -i mmioctl
	sh -c "$SESSION"
	run mmioctl hist
	assert_eq "hist while running" "$(hist_of running)" "$output"
	touch_dev read edu 4 0x0
	run mmioctl hist
	assert_eq "a read later" "  $(printf '%-18s %10s %10s %10s  %s' "$EDU" 3 3 0 "R 0x10000ed x3")" \
		"$(sed -n 3p <<< "$output")"
	mmioctl off -i mmioctl
	assert_stat armed_bytes 0
	# Accesses after the end are not counted.
	touch_dev read edu 4 0x0
	run mmioctl hist
	assert_eq "hist after off" "instance mmioctl, finished session: 2 registers, 4 reads, 1 writes, 0 dropped" \
		"${lines[0]}"
}

@test "mmioctl events: record -e -o trace.dat writes what trace-cmd reports as the same accesses" {
	run mmioctl record -e -o trace.dat -- sh -c "$SESSION"
	[ "$status" = 0 ]
	[[ "$output" =~ $SUMMARY ]] || { echo "$output"; false; }
	trace-cmd report -i trace.dat > report 2>&1 || { cat report; false; }
	assert_eq "accesses" "$(session_accesses)" "$(event_accesses report)"
	assert_eq "MAP events" 1 "$(grep -c ' mmio_map: ' report)"
	# trace-cmd left the instance and its histograms to mmioctl.
	run mmioctl hist
	assert_eq "hist" "$(hist_of finished)" "$output"
	assert_eq "events" "0 0 0 0 0 " "$(enables mmioctl)"
	assert_stat armed_bytes 0
}

@test "mmioctl events: record -e runs next to the tracer, which keeps its trace" {
	tracer_on
	mmioctl record -e -q -o trace.dat -- sh -c "$SESSION" 2>/dev/null
	trace-cmd report -i trace.dat > report 2>&1
	assert_eq "the tracer" mmiotrace "$(cat "$TRACING/current_tracer")"
	assert_eq "the tracer's accesses" "$(session_accesses)" "$(tracer_accesses)"
	assert_eq "the events'" "$(session_accesses)" "$(event_accesses report)"
	# The tracer still arms the set.
	assert_stat armed_bytes 4096
}

@test "mmioctl events: on, mark, show, status and off -i act on one instance's events" {
	mmioctl on -i probe
	assert_eq "events" "1* 1* 1 1 1 " "$(enables probe)"
	run mmioctl status
	assert_eq "status" "events: on in instances probe" "$(grep '^events:' <<< "$output")"
	touch_dev map edu
	touch_dev read edu 4 0x0
	mmioctl mark -i probe after read
	mmioctl show -i probe > shown
	assert_eq "show -i" "R 4 $EDU 0x10000ed" "$(event_accesses shown)"
	assert_eq "the marker" 1 "$(grep -c ': tracing_mark_write: after read$' shown)"
	run mmioctl status -i probe
	assert_eq "status -i" "instance: probe
events: on
histograms: running
tracing_on: 1" "$(head -n 4 <<< "$output")"
	mmioctl off -i probe
	assert_eq "events after off" "0 0 0 0 0 " "$(enables probe)"
	assert_stat armed_bytes 0
	run mmioctl status -i probe
	assert_eq "status -i after off" "events: off
histograms: finished" "$(sed -n 2,3p <<< "$output")"
	# The tracer was never involved.
	assert_eq "the tracer" nop "$(cat "$TRACING/current_tracer")"
}

@test "mmioctl events: off -i ends a recorder that joined the running session" {
	mmioctl on -i live
	mmioctl record -e -i live -o joined.txt 2> joined.err &
	RECORDER=$!
	sleep 1
	touch_dev map edu
	touch_dev write edu 4 0x4 0x55
	mmioctl off -i live
	wait "$RECORDER"
	RECORDER=
	assert_eq "the recorder's events" "W 4 $INVERSE 0x55" "$(event_accesses joined.txt)"
	[[ "$(cat joined.err)" =~ ^mmioctl:\ recorded\ [0-9]+\ events\ \(R\ 0,\ W\ 1, ]] ||
		{ cat joined.err; false; }
	assert_stat armed_bytes 0
}

@test "mmioctl events: reset -i stops a trace.dat recorder and removes its instance" {
	mmioctl record -e -i dat -o dat.dat -- sleep 60 2> dat.err &
	RECORDER=$!
	for i in $(seq 1 100); do
		# Recording: trace-cmd has it on, and the recorder its histograms.
		[ "$(cat "$TRACING/instances/dat/tracing_on" 2>/dev/null)" = 1 ] &&
			grep -q '^1' "$TRACING/instances/dat/events/mmiotrace/mmio_read/enable" &&
			grep -q '\[active\]$' "$TRACING/instances/dat/events/mmiotrace/mmio_read/trigger" &&
			break
		sleep 0.1
	done
	mmioctl reset -i dat
	assert_eq "the instance" "" "$(ls "$TRACING/instances")"
	wait "$RECORDER" || true
	RECORDER=
	! pgrep -x trace-cmd || false
	trace-cmd report -i dat.dat > /dev/null 2>&1 || { cat dat.err; false; }
	assert_stat armed_bytes 0
}

@test "mmioctl events: reset -i and reset remove the instances and the saved histograms" {
	mmioctl record -e -q -o trace.txt -- true 2>/dev/null
	[ -d "$TRACING/instances/mmioctl" ] && [ -f /run/mmioctl/mmioctl/mmio_read.hist ]
	mmioctl on -i other
	mmioctl reset -i other
	assert_eq "instances" mmioctl "$(ls "$TRACING/instances")"
	mmioctl reset
	assert_eq "instances after reset" "" "$(ls "$TRACING/instances")"
	[ ! -e /run/mmioctl/mmioctl ]
	run mmioctl hist
	[ "$status" = 1 ]
	assert_eq "hist" "mmioctl: no instance mmioctl ($TRACING/instances/mmioctl), and no histograms saved of one (/run/mmioctl/mmioctl)" "$output"
}

@test "mmioctl events: reset switches off events that others enabled, in any trace array" {
	touch_dev map edu
	new_instance theirs > /dev/null
	echo 1 > "$TRACING/instances/theirs/events/mmiotrace/mmio_read/enable"
	echo 'hist:keys=phys' >> "$EVENTS/mmio_write/trigger"
	assert_stat armed_bytes 4096
	mmioctl reset
	assert_stat armed_bytes 0
	assert_eq "their instance" theirs "$(ls "$TRACING/instances")"
	run mmioctl status
	assert_eq "status" "events: off" "$(grep '^events:' <<< "$output")"
}

@test "mmioctl events: hist of an instance without histograms names it" {
	new_instance bare > /dev/null
	run mmioctl hist -i bare
	[ "$status" = 1 ]
	assert_eq "message" "mmioctl: instance bare has no histograms of mmioctl's: start a session with mmioctl on -i bare or record -e -i bare" "$output"
}
