#!/bin/bash
# Host tests of the events side of mmioctl against a fake tree (--root):
# --instance for on, off, status, show, buffer, mark and reset, record -e
# (text, and .dat through a stand-in trace-cmd) and hist. faketracefs.so
# makes mkdir and rmdir of instances behave as tracefs does.
# usage: test_events.sh MMIOCTL FAKETRACEFS_SO FAKEFAIL_SO   (prints ok/not ok lines)
set -u
mmioctl=$1 faketracefs=$2 fakefail=$3
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LD_PRELOAD=$faketracefs

. "$(dirname "$0")/fake_tree.sh"

# The histograms of a session as the kernel prints them (hist files of
# mmio_read and mmio_write): the edu id register read 3 times, the
# inverse register written 0x55 and read back once.
read_hist='# event histogram
#
# trigger info: hist:keys=phys.hex:vals=hitcount:sort=hitcount:size=2048 [active]
#

{ phys: fea00004 } hitcount:          1
{ phys: fea00000 } hitcount:          3

Totals:
    Hits: 4
    Entries: 2
    Dropped: 0


# event histogram
#
# trigger info: hist:keys=phys.hex,value.hex:vals=hitcount:sort=hitcount:size=8192 [active]
#

{ phys: fea00004, value: ffffffaa } hitcount:          1
{ phys: fea00000, value: 10000ed } hitcount:          3

Totals:
    Hits: 4
    Entries: 2
    Dropped: 0'
write_hist='# event histogram
#
# trigger info: hist:keys=phys.hex,value.hex:vals=hitcount:sort=hitcount:size=8192 [active]
#

{ phys: fea00004, value: 55 } hitcount:          1

Totals:
    Hits: 1
    Entries: 1
    Dropped: 0


# event histogram
#
# trigger info: hist:keys=phys.hex:vals=hitcount:sort=hitcount:size=2048 [active]
#

{ phys: fea00004 } hitcount:          1

Totals:
    Hits: 1
    Entries: 1
    Dropped: 0'
# The trigger files of those histograms, as the kernel lists them.
listed_triggers='hist:keys=phys.hex:vals=hitcount:sort=hitcount:size=2048 [active]
hist:keys=phys.hex,value.hex:vals=hitcount:sort=hitcount:size=8192 [active]'
header='# Available triggers:
# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist'

# running_session NAME: an instance in a session: events on, histograms in.
running_session() {
	local dir=$tracing/instances/$1 event
	make_instance "$1"
	for event in "$dir"/events/mmiotrace/mmio_*; do
		echo 1 > "$event/enable"
	done
	echo "1*" > "$dir/events/mmiotrace/mmio_read/enable"
	echo "1*" > "$dir/events/mmiotrace/mmio_write/enable"
	printf '%s\n%s\n' "$header" "$listed_triggers" > "$dir/events/mmiotrace/mmio_read/trigger"
	printf '%s\n%s\n' "$header" "$listed_triggers" > "$dir/events/mmiotrace/mmio_write/trigger"
	echo "$read_hist" > "$dir/events/mmiotrace/mmio_read/hist"
	echo "$write_hist" > "$dir/events/mmiotrace/mmio_write/hist"
}

# enables NAME: the five enable files of an instance, on one line.
enables() {
	cat "$tracing/instances/$1"/events/mmiotrace/mmio_{read,write,unknown,map,unmap}/enable | tr '\n' ' '
}

# What mmioctl wrote to the trigger files of a session it started, and
# then of one it ended.
started='!hist:keys=phys.hex:vals=hitcount:size=2048
!hist:keys=phys.hex,value.hex:vals=hitcount:size=8192
hist:keys=phys.hex:vals=hitcount:size=2048:pause
hist:keys=phys.hex,value.hex:vals=hitcount:size=8192:pause
hist:keys=phys.hex:vals=hitcount:size=2048:cont
hist:keys=phys.hex,value.hex:vals=hitcount:size=8192:cont'
ended='hist:keys=phys.hex:vals=hitcount:size=2048:pause
hist:keys=phys.hex,value.hex:vals=hitcount:size=8192:pause
!hist:keys=phys.hex:vals=hitcount:size=2048
!hist:keys=phys.hex,value.hex:vals=hitcount:size=8192'

# --instance: the option and the name.
make_events_tree
make_instance x
check_exact "a bad instance name is a usage error naming it" 2 \
	"mmioctl: invalid instance name 'a/b': expected 1 to 64 letters, digits, '_', '-' or '.', not starting with '-' or '.'
Try 'mmioctl --help'." -- on -i a/b
check "an instance name starting with a dot is refused" 2 "invalid instance name '..'" -- status -i ..
check "-i without a name is a usage error" 2 "-i needs an instance NAME" -- status -i
check "two instances are a usage error" 2 "more than one instance given" -- status -i x --instance y
check "--instance=NAME is taken" 0 "instance: x" -- status --instance=x
check "-iNAME is taken" 0 "instance: x" -- status -ix
check "the instance may follow the command's own options" 0 '"instance":"x"' -- status --json -i x
check "a command without instances has no -i" 2 "usage: mmioctl list" -- list -i x
expect "no instance was made by the usage errors" same "$(ls "$tracing/instances")" x

# on -i, off -i
make_events_tree
check_exact "on -i makes the instance and starts a session" 0 "" -- on -i x
expect "all five events are on" same "$(enables x)" "1 1 1 1 1 "
expect "the histograms were installed paused, then continued once the events were on" same \
	"$(cat "$tracing/instances/x/events/mmiotrace/mmio_read/trigger")" "$header
$started"
expect "on mmio_write too" same \
	"$(grep -v '^#' "$tracing/instances/x/events/mmiotrace/mmio_write/trigger")" "$started"
expect "the buffer was cleared" same "$(cat "$tracing/instances/x/trace")" ""
check_exact "on -i when on already says so and changes nothing" 0 \
	"mmioctl: the mmiotrace events of instance x are on already" -- on -i x
expect "the triggers are as they were" same \
	"$(grep -vc '^#' "$tracing/instances/x/events/mmiotrace/mmio_read/trigger")" 6
echo 0 > "$tracing/instances/x/tracing_on"
for e in "$tracing"/instances/x/events/mmiotrace/mmio_*/enable; do echo 0 > "$e"; done
check_exact "on -i says when the instance's tracing_on is 0" 0 \
	"mmioctl: tracing_on of instance x is 0: nothing is recorded until it is 1" -- on -i x

make_events_tree
running_session x
check_exact "off -i ends the session" 0 "" -- off -i x
expect "the events are off" same "$(enables x)" "0 0 0 0 0 "
expect "the histograms were paused, then removed" same \
	"$(grep -v '^#' "$tracing/instances/x/events/mmiotrace/mmio_read/trigger")" \
	"$listed_triggers
$ended"
expect "and saved first, as the kernel printed them" same \
	"$(cat "$saved/x/mmio_read.hist")$(cat "$saved/x/mmio_write.hist")" "$read_hist$write_hist"
expect "the instance stays, with its buffer" same "$(wc -l < "$tracing/instances/x/trace")" 7
for e in mmio_read mmio_write; do
	printf '%s\n' "$header" > "$tracing/instances/x/events/mmiotrace/$e/trigger"
done
check_exact "off -i when off already says so" 0 \
	"mmioctl: the mmiotrace events of instance x are off already" -- off -i x
check_exact "off -i of a missing instance names it" 1 \
	"mmioctl: no instance y ($tracing/instances/y)" -- off -i y
make_tree
check_exact "on -i on a kernel without the events says so" 1 \
	"mmioctl: $tracing/events/mmiotrace not found: this kernel has no mmiotrace events" -- on -i x
expect "and made no instance" test ! -e "$tracing/instances/x"

# status -i, and the events in plain status
make_events_tree
running_session x
echo "0xfea00000 0x100000" > "$ctl/ranges"
check_exact "status -i prints the session's state" 0 "instance: x
events: on
histograms: running
tracing_on: 1
buffer_size_kb: 1410
entries: 5
lost: 3
ranges:
  0xfea00000 0x100000" -- status -i x
check_exact "status -i --json gives the same as one object" 0 \
	'{"instance":"x","events":["mmio_read","mmio_write","mmio_unknown","mmio_map","mmio_unmap"],"triggers_only":[],"histograms":"running","tracing_on":true,"buffer_size_kb":1410,"entries":5,"lost":3,"ranges":[[4271898624,1048576]]}' \
	-- status -i x --json
expect "python reads it" python3 -c 'import json, sys; json.loads(sys.argv[1])' "$out"
check "status shows where the events are on" 0 "tracing_on: 1
events: on in instances x
buffer_size_kb:" -- status
echo 1 > "$tracing/events/mmiotrace/mmio_map/enable"
check "status shows the top-level buffer too" 0 \
	"events: on in the top-level buffer and instances x" -- status
check "status --json lists them" 0 '"events_top":true,"events_instances":["x"],"overrides":0}' -- status --json
"$mmioctl" --root "$root" off -i x 2>/dev/null
for e in mmio_read mmio_write; do
	printf '%s\n' "$header" > "$tracing/instances/x/events/mmiotrace/$e/trigger"
done
echo "0*" > "$tracing/instances/x/events/mmiotrace/mmio_read/enable"
check "a trigger alone arms: status -i says so" 0 "events: off, armed by triggers: mmio_read
histograms: finished" -- status -i x
check "and status counts it" 0 "events: on in the top-level buffer and instances x" -- status
check_exact "status -i of a missing instance names it" 1 \
	"mmioctl: no instance y ($tracing/instances/y)" -- status -i y

# show -i, buffer -i, mark -i
make_events_tree
make_instance x
check_exact "show -i prints the instance's buffer, without its header" 0 \
	"$(cat "$tracing/instances/x/trace_pipe")" -- show -i x
check_exact "buffer -i prints the instance's size" 0 1410 -- buffer -i x
check_exact "buffer -i sets it" 0 "" -- buffer -i x 8192
expect "buffer_size_kb of x is 8192" same "$(cat "$tracing/instances/x/buffer_size_kb")" 8192
check_exact "buffer -i with a size makes the instance" 0 "" -- buffer -i new 64
expect "new has 64 KiB per CPU" same "$(cat "$tracing/instances/new/buffer_size_kb")" 64
check "buffer -i rejects 0 before it makes anything" 2 "invalid buffer size '0'" -- buffer -i other 0
expect "no instance 'other'" test ! -e "$tracing/instances/other"
check_exact "buffer -i of a missing instance names it" 1 \
	"mmioctl: no instance other ($tracing/instances/other)" -- buffer -i other
check_exact "mark -i writes into the instance's trace_marker" 0 "" -- mark -i x after init
check_exact "-- ends the options of mark" 0 "" -- mark -i x -- -i is text
expect "the markers, a line each" same "$(cat "$tracing/instances/x/trace_marker")" "after init
-i is text"
check_exact "mark -i of a missing instance names it" 1 \
	"mmioctl: no instance y ($tracing/instances/y)" -- mark -i y hello
expect "and /proc/mmio-marker got nothing" same "$(cat "$root/proc/mmio-marker")" ""

# reset -i, reset
make_events_tree
running_session x
mkdir -p "$saved/x"
echo old > "$saved/x/mmio_read.hist"
echo old > "$saved/x/mmio_write.hist"
check_exact "reset -i removes the instance" 0 "" -- reset -i x
expect "the instance is gone" test ! -e "$tracing/instances/x"
expect "and its saved histograms" test ! -e "$saved/x"
check_exact "reset -i of a missing instance says so and succeeds" 0 \
	"mmioctl: no instance x: nothing to reset" -- reset -i x
make_events_tree
running_session mmioctl
running_session tc
echo 1 > "$tracing/events/mmiotrace/mmio_read/enable"
echo "traceoff if phys == 0x1000 [active]" >> "$tracing/events/mmiotrace/mmio_write/trigger"
check_exact "reset turns the events off everywhere" 0 "" -- reset
expect "the default instance is gone" test ! -e "$tracing/instances/mmioctl"
expect "another instance stays, its events off" same "$(enables tc)" "0 0 0 0 0 "
expect "its triggers removed as listed, less size and state" same \
	"$(grep -v '^#' "$tracing/instances/tc/events/mmiotrace/mmio_read/trigger")" \
	"$listed_triggers
!hist:keys=phys.hex:vals=hitcount:sort=hitcount
!hist:keys=phys.hex,value.hex:vals=hitcount:sort=hitcount"
expect "the top level's events are off" same "$(cat "$tracing/events/mmiotrace/mmio_read/enable")" 0
expect "and its triggers gone" same "$(tail -n 1 "$tracing/events/mmiotrace/mmio_write/trigger")" \
	"!traceoff if phys == 0x1000"
expect "the tracer's controls were reset too" same "$(cat "$tracing/buffer_size_kb")" 1408

# A reader holding the instance: rmdir is busy until it closes.
make_events_tree
make_instance x
sleep 30 < "$tracing/instances/x/trace_pipe" &
reader=$!
check_exact "reset -i names another process holding the instance" 1 \
	"mmioctl: a file of $tracing/instances/x is open in process $reader (sleep): stop it first" \
	-- reset -i x
kill "$reader"
wait "$reader" 2>/dev/null
expect "the instance is still there" test -d "$tracing/instances/x"

# hist
make_events_tree
running_session mmioctl
hist_text='instance mmioctl, running session: 2 registers, 4 reads, 1 writes, 0 dropped
  phys                    count      reads     writes  values
  0xfea00000                  3          3          0  R 0x10000ed x3
  0xfea00004                  2          1          1  R 0xffffffaa x1; W 0x55 x1'
check_exact "hist prints each register of the running session" 0 "$hist_text" -- hist
check_exact "hist --json gives the same as one object" 0 \
	'{"instance":"mmioctl","session":"running","reads":4,"writes":1,"dropped":0,"registers":[{"phys":"0xfea00000","count":3,"reads":3,"writes":0,"read_values":[{"value":"0x10000ed","count":3}],"read_values_other":0,"distinct_read":1,"written_values":[],"written_values_other":0,"distinct_written":0},{"phys":"0xfea00004","count":2,"reads":1,"writes":1,"read_values":[{"value":"0xffffffaa","count":1}],"read_values_other":0,"distinct_read":1,"written_values":[{"value":"0x55","count":1}],"written_values_other":0,"distinct_written":1}]}' \
	-- hist --json
expect "python reads it" python3 -c 'import json, sys; json.loads(sys.argv[1])' "$out"
check_exact "hist -i NAME reads that instance" 1 \
	"mmioctl: no instance x ($tracing/instances/x), and no histograms saved of one ($saved/x)" \
	-- hist -i x
check "hist takes no other argument" 2 "hist takes no argument but -i NAME and --json" -- hist --yaml
"$mmioctl" --root "$root" off -i mmioctl
for e in mmio_read mmio_write; do
	printf '%s\n' "$header" > "$tracing/instances/mmioctl/events/mmiotrace/$e/trigger"
	: > "$tracing/instances/mmioctl/events/mmiotrace/$e/hist"
done
check_exact "hist prints a finished session from its saved histograms" 0 \
	"${hist_text/running/finished}" -- hist
rm -r "$tracing/instances/mmioctl"
check_exact "even when its instance is gone" 0 "${hist_text/running/finished}" -- hist
rm -r "$saved/mmioctl"
make_instance mmioctl
check_exact "an instance without histograms is named, with what to do" 1 \
	"mmioctl: instance mmioctl has no histograms of mmioctl's: start a session with mmioctl on -i mmioctl or record -e -i mmioctl" \
	-- hist

make_events_tree
running_session x
{
	echo "$read_hist"
	printf '\n\n%s\n' "# event histogram" "#" \
		"# trigger info: hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]" \
		"#" "" "{ common_pid:         50 } hitcount:          4" "" "Totals:" "    Hits: 4" \
		"    Entries: 1" "    Dropped: 0"
} > "$tracing/instances/x/events/mmiotrace/mmio_read/hist"
check "hist skips the histograms of others" 0 "0xfea00000                  3          3          0  R 0x10000ed x3" \
	-- hist -i x
# Five values read from one register, the values' histogram full.
cat > "$tracing/instances/x/events/mmiotrace/mmio_read/hist" <<'EOF'
# event histogram
#
# trigger info: hist:keys=phys.hex:vals=hitcount:sort=hitcount:size=2048 [active]
#

{ phys: fea00020 } hitcount:         20

Totals:
    Hits: 20
    Entries: 1
    Dropped: 0


# event histogram
#
# trigger info: hist:keys=phys.hex,value.hex:vals=hitcount:sort=hitcount:size=8192 [active]
#

{ phys: fea00020, value: 5 } hitcount:          1
{ phys: fea00020, value: 3 } hitcount:          2
{ phys: fea00020, value: 4 } hitcount:          2
{ phys: fea00020, value: 1 } hitcount:          5
{ phys: fea00020, value: 2 } hitcount:          5

Totals:
    Hits: 20
    Entries: 5
    Dropped: 5
EOF
check_exact "hist shows four values, then how many; a full histogram is said" 0 \
	"instance x, running session: 2 registers, 20 reads, 1 writes, 5 dropped
  phys                    count      reads     writes  values
  0xfea00004                  1          0          1  W 0x55 x1
  0xfea00020                 20         20          0  R 0x1 x5, 0x2 x5, 0x3 x2, 0x4 x2, ... (5+ distinct)
mmioctl: the histograms of instance x were full and dropped 5 entries: registers or values are missing (+: values incomplete)" \
	-- hist -i x
sed -i 's/{ phys: fea00020 } hitcount:         20/{ phys: fea00020 } hitcount:         2O/' \
	"$tracing/instances/x/events/mmiotrace/mmio_read/hist"
check_exact "a malformed histogram line is named with its file and number" 1 \
	"mmioctl: $tracing/instances/x/events/mmiotrace/mmio_read/hist:6: not a histogram line: '{ phys: fea00020 } hitcount:         2O'" \
	-- hist -i x

# record -e, text
make_events_tree
check "record -e records the session in instance mmioctl, and sums it up" 0 \
	"mmioctl: recorded 5 events (R 2, W 1, MAP 1, UNMAP 0, MARK 1, UNKNOWN 0), 3 lost, 549 bytes in " \
	-- record -e -o "$work/out.txt" -- true
expect "the text is the instance's trace_pipe" same "$(cat "$work/out.txt")" \
	"$(cat "$work/instance-template/trace_pipe")"
expect "the session made the instance, started and ended its histograms" same \
	"$(grep -v '^#' "$tracing/instances/mmioctl/events/mmiotrace/mmio_read/trigger")" \
	"$started
hist:keys=phys.hex:vals=hitcount:size=2048:pause
hist:keys=phys.hex,value.hex:vals=hitcount:size=8192:pause
$ended"
expect "the events are off again" same "$(enables mmioctl)" "0 0 0 0 0 "
expect "tracing_on is back at 1" same "$(cat "$tracing/instances/mmioctl/tracing_on")" 1
expect "the histograms were saved for hist" test -f "$saved/mmioctl/mmio_write.hist"
check "record -e exits with the command's status" 3 "recorded 5 events" \
	-- record -e -o "$work/out.txt" -- sh -c 'exit 3'
check "record -i NAME records through the events of NAME" 0 "recorded 5 events" \
	-- record -i other -o "$work/out.txt" -- true
expect "in instance other" test -d "$tracing/instances/other"
check "record -e -b sets the instance's buffer" 0 "" \
	-- record -e -b 64 -o "$work/out.txt" -- sh -c "cat $tracing/instances/mmioctl/buffer_size_kb > $work/during"
expect "the session had 64 KiB" same "$(cat "$work/during")" 64
expect "and the size went back after it" same "$(cat "$tracing/instances/mmioctl/buffer_size_kb")" 1410
start=$(date +%s)
check "record -e -d ends after the duration" 0 "recorded 5 events" -- record -e -q -d 1 -o "$work/out.txt"
expect "in about a second" test $(($(date +%s) - start)) -le 3
check "record -e rejects a bad instance name" 2 "invalid instance name 'a b'" -- record -i "a b"

make_events_tree
running_session x
check "record -e on a running session joins it and counts only its own losses" 0 \
	"recorded 5 events (R 2, W 1, MAP 1, UNMAP 0, MARK 1, UNKNOWN 0), 4 lost" \
	-- record -e -i x -o "$work/out.txt" -- \
	sh -c "echo 'overrun: 6' > $tracing/instances/x/per_cpu/cpu0/stats"
expect "and leaves it running: events on, histograms untouched" same \
	"$(enables x)$(grep -v '^#' "$tracing/instances/x/events/mmiotrace/mmio_read/trigger")" \
	"1* 1* 1 1 1 $listed_triggers"
expect "nothing was saved" test ! -e "$saved/x"

make_tree
echo "the previous trace" > "$work/kept.txt"
check_exact "record -e on a kernel without the events fails" 1 \
	"mmioctl: $tracing/events/mmiotrace not found: this kernel has no mmiotrace events" \
	-- record -e -o "$work/kept.txt" -- true
expect "and leaves the previous trace alone" same "$(cat "$work/kept.txt")" "the previous trace"

# record -e -o FILE.dat, through a stand-in trace-cmd
make_events_tree
mkdir -p "$work/bin"
cat > "$work/bin/trace-cmd" <<'EOF'
#!/bin/bash
# trace-cmd's stand-in: logs its arguments; "record -k -q -B NAME -e
# mmiotrace -o FILE" switches the events and tracing_on of NAME on as
# trace-cmd does, and writes FILE when SIGINT stops it; "report" prints
# FAKE_REPORT.
echo "$*" >> "$FAKE_LOG"
case $1 in
record)
	[ -z "${FAKE_FAIL:-}" ] || { echo "trace-cmd: $FAKE_FAIL" >&2; exit 1; }
	dir=$FAKE_TRACING/instances/$5
	for enable in "$dir"/events/mmiotrace/mmio_*/enable; do echo 1 > "$enable"; done
	echo 1 > "$dir/tracing_on"
	# A per-CPU recorder, which only trace-cmd's own stop ends.
	sleep 1000 &
	echo $! > "$FAKE_LOG.recorder"
	# FAKE_BREAK: the session breaks once it records ("reset" removed its triggers).
	[ -z "${FAKE_BREAK:-}" ] || { rm "$dir/events/mmiotrace/mmio_read/trigger"
		mkdir "$dir/events/mmiotrace/mmio_read/trigger"; }
	trap "kill $!; wait; echo 'trace.dat of $5' > '$9'; exit 0" INT
	while :; do sleep 0.1; done ;;
report)
	cat "$FAKE_REPORT" ;;
esac
EOF
chmod +x "$work/bin/trace-cmd"
printf '%s\n' "cpus=2" \
	"mmioctl:      kworker/1:1-37    [001]     7.830886: mmio_map:             map_id=2 phys=0xfea00000 virt=0xffffc90000015000 len=0x1000" \
	"mmioctl:             bash-50    [001]     7.842583: mmio_read:            phys=0xfea00000 value=0x10000ed width=4 map_id=2 pc=0x0" \
	"mmioctl:             bash-50    [001]     7.847946: mmio_write:           phys=0xfea00004 value=0x55 width=4 map_id=2 pc=0x0" \
	"mmioctl:             bash-50    [001]     7.850069: print:                tracing_mark_write: hello" \
	> "$work/report.txt"
export FAKE_LOG=$work/trace-cmd.log FAKE_TRACING=$tracing FAKE_REPORT=$work/report.txt
PATH=$work/bin:$PATH check "record -e -o FILE.dat records through trace-cmd" 0 \
	"mmioctl: recorded 4 events (R 1, W 1, MAP 1, UNMAP 0, MARK 1, UNKNOWN 0), 3 lost, 21 bytes in " \
	-- record -e -o "$work/x.dat" -- true
expect "trace-cmd recorded instance mmioctl, kept it, and reported the file" same \
	"$(cat "$work/trace-cmd.log")" "record -k -q -B mmioctl -e mmiotrace -o $work/x.dat
report -i $work/x.dat"
expect "the file is trace-cmd's" same "$(cat "$work/x.dat")" "trace.dat of mmioctl"
expect "the session ended: events off, histograms saved and removed" same \
	"$(enables mmioctl)$(tail -n 2 "$tracing/instances/mmioctl/events/mmiotrace/mmio_read/trigger")" \
	"0 0 0 0 0 !hist:keys=phys.hex:vals=hitcount:size=2048
!hist:keys=phys.hex,value.hex:vals=hitcount:size=8192"
expect "the histograms continued only once trace-cmd had the events on" same \
	"$(grep -c ':cont$' "$tracing/instances/mmioctl/events/mmiotrace/mmio_read/trigger")" 2
PATH=$work/bin:$PATH FAKE_FAIL="no such buffer" check_exact \
	"a trace-cmd that fails is shown, and the session undone" 1 \
	"mmioctl: $work/bin/trace-cmd record failed (exit status 1):
trace-cmd: no such buffer" -- record -e -i y -o "$work/y.dat" -- true
expect "the instance it made is gone" test ! -e "$tracing/instances/y"
PATH=$work/bin:$PATH FAKE_BREAK=1 check_exact \
	"a session that breaks once trace-cmd records is shown, and undone" 1 \
	"mmioctl: $tracing/instances/b/events/mmiotrace/mmio_read/trigger: Is a directory
mmioctl: $tracing/instances/b/events/mmiotrace/mmio_read/trigger: Is a directory" \
	-- record -e -i b -o "$work/b.dat" -- sleep 1000
expect "trace-cmd was stopped as Ctrl-C would, and wrote its file" same \
	"$(cat "$work/b.dat")" "trace.dat of b"
expect "no recorder of trace-cmd's is left behind" \
	test ! -e "/proc/$(cat "$FAKE_LOG.recorder")"
running_session x
PATH=$work/bin:$PATH check_exact "record -e -o FILE.dat refuses a running session" 1 \
	"mmioctl: the events of instance x are on already: trace-cmd needs an instance of its own for $work/z.dat (-i OTHER)" \
	-- record -e -i x -o "$work/z.dat" -- true
echo "the previous trace" > "$work/kept.dat"
PATH=/nonexistent check_exact "record -e -o FILE.dat without trace-cmd says so" 1 \
	"mmioctl: $work/kept.dat: a .dat file is written by trace-cmd, which is not in PATH (text: -o FILE without .dat)" \
	-- record -e -o "$work/kept.dat" -- true
expect "and leaves the file alone" same "$(cat "$work/kept.dat")" "the previous trace"

# Refusals from the "kernel": the session is undone.
make_events_tree
LD_PRELOAD="$faketracefs $fakefail" FAKEFAIL="write:mmio_read/trigger:22" check_exact \
	"a refused histogram fails on -i with the path and strerror" 1 \
	"mmioctl: $tracing/instances/x/events/mmiotrace/mmio_read/trigger: Invalid argument" -- on -i x
expect "and the instance it made is gone" test ! -e "$tracing/instances/x"
make_instance x
LD_PRELOAD="$faketracefs $fakefail" FAKEFAIL="write:mmio_map/enable:16:1" check_exact \
	"a refused event fails record -e with the path and strerror" 1 \
	"mmioctl: $tracing/instances/x/events/mmiotrace/mmio_map/enable: Device or resource busy" \
	-- record -e -i x -o "$work/kept.txt" -- true
expect "the instance it found stays, its events off, the histograms gone" same \
	"$(enables x)$(grep -v '^#' "$tracing/instances/x/events/mmiotrace/mmio_read/trigger" | tail -n 2)" \
	"0 0 0 0 0 !hist:keys=phys.hex:vals=hitcount:size=2048
!hist:keys=phys.hex,value.hex:vals=hitcount:size=8192"

# A recorder holding the default instance: plain reset stops it.
make_events_tree
"$mmioctl" --root "$root" record -e -q -o "$work/bg.txt" -- sleep 30 2>"$work/bg.err" &
recorder=$!
for i in $(seq 1 50); do [ -e "$tracing/instances/mmioctl" ] && break; sleep 0.1; done
sleep 0.5
check_exact "reset stops a recorder of the default instance, then removes it" 0 "" -- reset
expect "the recorder ended" sh -c "! kill -0 $recorder 2>/dev/null"
wait "$recorder" 2>/dev/null
expect "the instance is gone" test ! -e "$tracing/instances/mmioctl"

[ "$failures" = 0 ]
