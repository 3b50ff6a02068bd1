#!/bin/bash
# Host tests of decode, stat and diff: exact outputs on traces recorded in
# the guest (fixtures/, see fixtures/README.md) with the shipped maps
# (../maps), JSON read back with python3, and malformed maps and traces.
# Expected outputs are in expected/; after a deliberate change of the
# output, UPDATE=1 rewrites them (review the git diff before committing).
# usage: test_decode.sh MMIOCTL README   (prints ok/not ok lines)
set -u
mmioctl=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
readme=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
cd "$(dirname "$0")" || exit 1
maps=../maps
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ok() { echo "ok - mmioctl decode: $1"; }
not_ok() {
	echo "not ok - mmioctl decode: $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -n 20 | sed 's/^/# /'
	failures=$((failures + 1))
}

# run ARGS...: mmioctl's stdout in $work/out, stderr in $err, status in $status.
run() {
	"$mmioctl" "$@" > "$work/out" 2> "$work/err"
	status=$?
	err=$(cat "$work/err")
}

# exactly NAME EXPECTED_FILE ARGS...: status 0, stdout is the file, stderr empty.
exactly() {
	exactly_status 0 "$@"
}

# differs NAME EXPECTED_FILE ARGS...: the same for a diff that finds differences.
differs() {
	exactly_status 1 "$@"
}

exactly_status() {
	local want=$1 name=$2 file=expected/$3
	shift 3
	run "$@"
	if [ "${UPDATE:-0}" = 1 ]; then
		cp "$work/out" "$file"
	fi
	if [ "$status" = "$want" ] && [ -z "$err" ] && cmp -s "$work/out" "$file"; then
		ok "$name"
	else
		not_ok "$name (status $status)" "$err$(diff -u "$file" "$work/out" | head -n 30)"
	fi
}

# fails NAME STATUS MESSAGE ARGS...: exit STATUS, stderr is exactly MESSAGE.
fails() {
	local name=$1 want_status=$2 want=$3
	shift 3
	run "$@"
	if [ "$status" = "$want_status" ] && [ "$err" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name" "status $status (want $want_status); stderr: $err
expected: $want"
	fi
}

# has NAME LINE: the last output has LINE, whole.
has() {
	if grep -qxF -- "$2" "$work/out"; then
		ok "$1"
	else
		not_ok "$1" "no line: $2"
	fi
}

# --- decode on recorded traces ---
exactly "nvme probe decoded with the nvme map" nvme-probe.decode \
	decode --map $maps/nvme.xml fixtures/nvme-probe.txt
has "CC written with EN=1 and the NVM settings" \
	"21.206919 W4 NVME+0x0014 0x00460061 CC <= EN=1 CSS=ALL_IO MPS=0 AMS=RR SHN=NONE IOSQES=6 IOCQES=4 CRIME=0"
has "then CSTS read with RDY=1" \
	"21.208649 R4 NVME+0x001c 0x00000001 CSTS => RDY=1 CFS=0 SHST=NORMAL NSSRO=0 PP=0 ST=0"
has "a doorbell in the Q array" "21.244826 W4 NVME+0x1000 0x00000001 Q[0].SQTDBL <= 1"
has "a 64-bit register read in halves" \
	"21.202532 R4 NVME+0x0004 0x00401820 CAP+0x4 => DSTRD=0 NSSRS=0 CSS=0xc1 BPS=0 CPS=0 MPSMIN=0 MPSMAX=4 PMRS=0 CMBS=0 NSSS=0 CRMS=0 NSSES=0"
has "a line no map covers passes unchanged" \
	"PCIDEV 0030 1b360010 a feb70004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme"
exactly "edu session folded: the STATUS polling loop is one line" edu-session.fold \
	decode --fold --map $maps/edu.xml fixtures/edu-session.txt
has "the loop: how many reads, how long, the value it waited for" \
	"6.279066 R4 EDU+0x00020 0x00000001 STATUS => COMPUTING=1 IRQ_FACT=0 x47 (258 ms), then COMPUTING=0"
exactly "features map: every element, type and partial access" features.decode \
	decode --map maps/features.xml@0x10000000 fixtures/features.txt
exactly "features map, folded" features.fold \
	decode --fold --map maps/features.xml@0x10000000 fixtures/features.txt
run decode --map $maps/e1000.xml fixtures/e1000-link.txt
has "e1000: the receiver enabled at link up" \
	"9.640954 W4 E1000+0x00100 0x00008002 RCTL <= EN=1 SBP=0 UPE=0 MPE=0 LPE=0 LBM=0 RDMTS=0 MO=0 BAM=1 BSIZE=0 VFE=0 CFIEN=0 CFI=0 DPF=0 PMCF=0 BSEX=0 SECRC=0"
has "e1000: a PHY register written through MDIC" \
	"9.633368 W4 E1000+0x00020 0x04201140 MDIC <= DATA=0x1140 REGADD=0 PHYADD=1 OP=WRITE R=0 I=0 E=0"
has "e1000: the interrupts enabled, by name" \
	"9.646503 W4 E1000+0x000d0 0x0000009d IMS <= TXDW=1 TXQE=0 LSC=1 RXSEQ=1 RXDMT0=1 RXO=0 RXT0=1 MDAC=0 RXCFG=0 PHYINT=0 GPI_SDP6=0 GPI_SDP7=0 TXD_LOW=0 SRPD=0 INT_ASSERTED=0"
has "e1000: a receive address in the RA array" \
	"9.633697 W4 E1000+0x0540c 0x80000100 RA[1].RAH <= RAH=0x100 ASEL=0 AV=1"
has "e1000: STATUS, link up at 1000 Mb/s" \
	"9.633676 R4 E1000+0x00008 0x80080783 STATUS => FD=1 LU=1 FUNCID=0 TXOFF=0 TBIMODE=0 SPEED=1000 ASDV=3 MTXCKOK=1 PCI66=0 BUS64=0 PCIX_MODE=0 PCIXSPD=0 GIO_MASTER_ENABLE=1 ?=0x80000000"
run decode fixtures/nvme-probe.txt
if cmp -s "$work/out" fixtures/nvme-probe.txt && [ -z "$err" ]; then
	ok "without a map every line passes unchanged"
else
	not_ok "without a map every line passes unchanged" "$err"
fi

# Without --map, maps are found by the PCI IDs of the trace's PCIDEV lines:
# --map-dir, then $MMIOCTL_MAPS, then the installed directory (none here:
# the host tests' mmioctl is not installed).
bindings="mmioctl: 00:01.1 8086:7010: no map
mmioctl: 00:02.0 1234:1111: no map
mmioctl: 00:03.0 1234:11e8 BAR0: EDU from ../maps/edu.xml
mmioctl: 00:04.0 1af4:1110: no map
mmioctl: 00:05.0 8086:100e BAR0: E1000 from ../maps/e1000.xml
mmioctl: 00:06.0 1b36:0010 BAR0: NVME from ../maps/nvme.xml"
MMIOCTL_MAPS=$work/none:$maps run decode fixtures/nvme-probe.txt
if [ "$status" = 0 ] && cmp -s "$work/out" expected/nvme-probe.decode && [ "$err" = "$bindings" ]; then
	ok "MMIOCTL_MAPS: the maps found by PCI ID decode as --map does, and say what bound"
else
	not_ok "MMIOCTL_MAPS: maps found by PCI ID (status $status)" \
		"$err$(diff -u expected/nvme-probe.decode "$work/out" | head -n 20)"
fi
MMIOCTL_MAPS=$maps run decode --no-maps fixtures/nvme-probe.txt
if [ "$status" = 0 ] && cmp -s "$work/out" fixtures/nvme-probe.txt && [ -z "$err" ]; then
	ok "--no-maps: no map is looked for"
else
	not_ok "--no-maps: no map is looked for (status $status)" "$err"
fi
# A directory given first overrides a device's map; a file that does not
# load is skipped with a warning, the others still bind.
mkdir -p "$work/mine"
sed 's/name="NVME"/name="MYNVME"/' $maps/nvme.xml > "$work/mine/nvme.xml"
printf '<database><domain name="BROKEN">\n' > "$work/mine/broken.xml"
MMIOCTL_MAPS=$maps run decode --map-dir "$work/mine" fixtures/nvme-probe.txt
if [ "$status" = 0 ] && grep -q ' R4 MYNVME+0x001c 0x00000001 CSTS => ' "$work/out" && ! grep -q ' NVME+' "$work/out" &&
		[ "$(grep -c '^mmioctl: warning: map .*/mine/broken.xml skipped: ' "$work/err")" = 1 ] &&
		grep -qxF "mmioctl: 00:06.0 1b36:0010 BAR0: MYNVME from $work/mine/nvme.xml" "$work/err" &&
		grep -qxF "mmioctl: 00:03.0 1234:11e8 BAR0: EDU from ../maps/edu.xml" "$work/err"; then
	ok "--map-dir: its maps before \$MMIOCTL_MAPS, device by device; a broken map skipped"
else
	not_ok "--map-dir: its maps before \$MMIOCTL_MAPS (status $status)" "$err"
fi
fails "--no-maps with --map" 2 "mmioctl: decode: --no-maps and --map or --map-dir exclude each other
Try 'mmioctl --help'." \
	decode --no-maps --map $maps/nvme.xml fixtures/nvme-probe.txt
fails "--map with --map-dir" 2 "mmioctl: decode: --map names the maps, --map-dir where to find them: give one
Try 'mmioctl --help'." \
	decode --map-dir $maps --map $maps/nvme.xml fixtures/nvme-probe.txt
run decode - < fixtures/edu-session.txt
cp "$work/out" "$work/stdin"
run decode fixtures/edu-session.txt
if cmp -s "$work/out" "$work/stdin"; then ok "decode - reads standard input"; else not_ok "decode - reads standard input"; fi

# A live trace: lines are printed as they arrive, not at the end.
mkfifo "$work/pipe"
"$mmioctl" decode --map $maps/edu.xml - < "$work/pipe" > "$work/live" &
live=$!
exec 3> "$work/pipe"
cat fixtures/edu-session.txt >&3
for i in 1 2 3 4 5 6 7 8 9 10; do
	grep -q "LIVENESS <= 0x12345678" "$work/live" && break
	sleep 0.2
done
if grep -q "LIVENESS <= 0x12345678" "$work/live" && kill -0 $live 2>/dev/null; then
	ok "a live trace (record | decode -) is decoded as it comes"
else
	not_ok "a live trace (record | decode -) is decoded as it comes" "$(cat "$work/live")"
fi
exec 3>&-
wait $live

# --- polling loops: a controller that takes 1.7 ms to become ready ---
# QEMU's nvme is ready at once; this one reads CSTS.RDY=0 523 times first.
awk '{ print } /^W 4 21\.206919 4 0xfeb70014 0x460061 / {
	for (i = 0; i < 523; i++)
		printf "R 4 21.%06d 4 0xfeb7001c 0x0 0x0 0\n", 206920 + 3 * i }' \
	fixtures/nvme-probe.txt > "$work/slow-ready.txt"
run decode --fold --map $maps/nvme.xml "$work/slow-ready.txt"
has "nvme enable: the CSTS polling loop folded, ending with RDY=1" \
	"21.206920 R4 NVME+0x001c 0x00000000 CSTS => RDY=0 CFS=0 SHST=NORMAL NSSRO=0 PP=0 ST=0 x523 (1.73 ms), then RDY=1"
run stat --map $maps/nvme.xml "$work/slow-ready.txt"
has "stat finds that loop with its count" \
	"          loop at 21.206920 (line 101): RDY=0 CFS=0 SHST=NORMAL NSSRO=0 PP=0 ST=0 x523 (1.73 ms), then RDY=1"
run stat --json --map $maps/nvme.xml "$work/slow-ready.txt"
if python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
csts = [r for r in doc["regions"][0]["registers"] if r.get("register") == "CSTS"][0]
loop = csts["loops"][0]
assert (loop["count"], loop["value"], loop["final"], csts["loops_total"]) == (523, "0x0", "0x1", 1), loop
assert csts["reads"] == 526, csts["reads"]
' "$work/out" 2> "$work/py"; then
	ok "stat --json: the loop has count 523, value 0x0, final 0x1"
else
	not_ok "stat --json: the loop has count 523, value 0x0, final 0x1" "$(cat "$work/py")"
fi
run stat --map $maps/nvme.xml fixtures/nvme-probe.txt
if ! grep -q "loop at" "$work/out"; then
	ok "the recorded probe has no loop: QEMU's controller is ready at once"
else
	not_ok "the recorded probe has no loop: QEMU's controller is ready at once"
fi

run decode --fold --map maps/features.xml@0x10000000 fixtures/features.txt
has "a loop of two reads ends with the value it waited for" \
	"1.000062 R4 DEV+0xffc 0x00000001 LAST => 1 x2 (2 us), then 2"
has "a read followed by another value is no loop" "1.000065 R4 DEV+0xffc 0x00000003 LAST => 3"
has "a field the access covers only in part is not shown" "1.000067 R2 DEV+0x012 0xabcd BASE+0x2 => ?=0xabcd0000"

# --- stat ---
exactly "stat of the nvme probe" nvme-probe.stat stat --map $maps/nvme.xml fixtures/nvme-probe.txt
exactly "stat of the e1000 link up and down" e1000-link.stat \
	stat --map $maps/e1000.xml fixtures/e1000-link.txt
exactly "stat of the features trace" features.stat \
	stat --map maps/features.xml@0x10000000 fixtures/features.txt
exactly "stat without maps: per offset" edu-session.nomap.stat stat fixtures/edu-session.txt

# Regions: memory BARs of PCIDEV lines, not I/O port BARs (flag bit 0).
printf '%s\n' "PCIDEV 0028 8086100e a feb40000 c001 0 0 0 0 0 20000 40 0 0 0 0 0 e1000" \
	"MAP 1.000000 1 0xc000 0xffffc90000200000 0x40 0x0 0" "R 4 1.000001 1 0xc010 0x1 0x0 0" \
	"R 4 1.000002 1 0xfeb40008 0x2 0x0 0" "R 4 1.000003 1 0xc008 0x2 0x0 0" > "$work/io.txt"
run stat "$work/io.txt"
if grep -qx "map1: the mapping at 0xc000, 0x40 bytes (no PCIDEV line covers it)" "$work/out" &&
	grep -qx "8086:100e/0: 00:05.0 8086:100e BAR0 at 0xfeb40000, 0x20000 bytes" "$work/out"; then
	ok "an I/O port BAR is no region; a memory BAR is"
else
	not_ok "an I/O port BAR is no region; a memory BAR is" "$(cat "$work/out")"
fi
if ! grep -q "loop at" "$work/out"; then
	ok "the same offset in two regions is two registers: no loop"
else
	not_ok "the same offset in two regions is two registers: no loop" "$(cat "$work/out")"
fi

# --- JSON ---
exactly "decode --fold --json of the edu session" edu-session.json \
	decode --fold --json --map $maps/edu.xml fixtures/edu-session.txt
exactly "stat --json of the edu session" edu-session.stat.json \
	stat --json --map $maps/edu.xml fixtures/edu-session.txt
for trace in nvme-probe e1000-link features; do
	map=$maps/${trace%%-*}.xml
	[ "$trace" = features ] && map=maps/features.xml@0x10000000
	"$mmioctl" decode --fold --json --map $map fixtures/$trace.txt > "$work/$trace.json" 2>&1
	"$mmioctl" stat --json --map $map fixtures/$trace.txt > "$work/$trace.stat.json" 2>&1
	if python3 -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
for n, line in enumerate(lines, 1):
    obj = json.loads(line)
    assert obj["line"] >= n, (n, obj)
json.load(open(sys.argv[2]))
' "$work/$trace.json" "$work/$trace.stat.json" 2> "$work/py"; then
		ok "JSON of $trace (decode and stat) reads back with python3"
	else
		not_ok "JSON of $trace (decode and stat) reads back with python3" "$(cat "$work/py")"
	fi
done
if python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
cc = [o for o in objs if o.get("register") == "CC" and o["fields"]["EN"] == 1]
assert len(cc) == 1 and cc[0]["fields"]["IOSQES"] == 6 and cc[0]["enums"]["CSS"] == "ALL_IO", cc
assert cc[0]["offset"] == "0x14" and cc[0]["region"] == "NVME" and cc[0]["phys"] == "0xfeb70014"
pcidev = [o for o in objs if o["type"] == "PCIDEV" and o["device"] == "0x0010"][0]
assert pcidev["bdf"] == "00:06.0" and pcidev["resources"][0] == {"index": 0, "base": "0xfeb70000", "size": "0x4000", "io": False}, pcidev
' "$work/nvme-probe.json" 2> "$work/py"; then
	ok "decode --json: CC with EN=1 as fields, the enum by name, the PCIDEV BAR"
else
	not_ok "decode --json: CC with EN=1 as fields, the enum by name, the PCIDEV BAR" "$(cat "$work/py")"
fi
# JSON: every event line has its pid; a signed field is negative in
# "fields" as in "decoded"; a number past 2^53 is a hex string, which jq
# and JavaScript do not round.
{
	echo "MAP 1.000000 1 0x10000000 0x7f0000000000 0x1000 0x0 42"
	echo "R 8 1.000001 1 0x10000000 0x7fffffffffffffff 0x0 42"
} > "$work/user.txt"
run decode --json --map maps/wide-field.xml@0x10000000 "$work/user.txt"
if [ "$status" = 0 ] && python3 -c '
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1])]
assert [o["pid"] for o in objs] == [42, 42], objs
assert objs[1]["fields"] == {"VALUE": "0x7fffffffffffffff", "VALID": 0}, objs[1]
' "$work/out" 2> "$work/py"; then
	ok "decode --json: pid on every line, a 63-bit field as a hex string"
else
	not_ok "decode --json: pid on every line, a 63-bit field as a hex string" "$(cat "$work/py") $(cat "$work/out")"
fi
run decode --json --map maps/features.xml@0x10000000 fixtures/features.txt
if python3 -c '
import json, sys
ctrl = [json.loads(l) for l in open(sys.argv[1]) if "\"CTRL\"" in l][0]
assert "LEVEL=-1" in ctrl["decoded"] and ctrl["fields"]["LEVEL"] == -1, ctrl
' "$work/out" 2> "$work/py"; then
	ok "decode --json: a signed field is -1 in fields, as in decoded"
else
	not_ok "decode --json: a signed field is -1 in fields, as in decoded" "$(cat "$work/py")"
fi
printf 'MARK 1.000000 "quoted" \\ and caf\xc3\xa9 and \xff\n' > "$work/mark.txt"
run decode --json "$work/mark.txt"
if [ "$(cat "$work/out")" = '{"line":1,"type":"MARK","time":1.000000,"text":"\"quoted\" \\ and café and \ufffd"}' ] &&
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$work/out"; then
	ok "JSON strings: quotes, backslashes, UTF-8 kept, other bytes as U+FFFD"
else
	not_ok "JSON strings: quotes, backslashes, UTF-8 kept, other bytes as U+FFFD" "$(cat "$work/out")"
fi

# --- diff ---
differs "diff of two nvme probes: only what differs, by register" nvme-probe.diff \
	diff --map $maps/nvme.xml fixtures/nvme-probe.txt fixtures/nvme-reprobe.txt
run diff --map $maps/nvme.xml fixtures/nvme-probe.txt fixtures/nvme-reprobe.txt
[ "$status" = 1 ] && ok "diff exits 1 when the traces differ" || not_ok "diff exits 1 when the traces differ" "status $status"
# The same probe with the BAR elsewhere, as on another machine.
sed -e 's/ feb70004 / d0000004 /' -e 's/0xfeb7\([0-9a-f]\{4\}\) /0xd000\1 /g' \
	fixtures/nvme-probe.txt > "$work/moved.txt"
run diff --map $maps/nvme.xml fixtures/nvme-probe.txt "$work/moved.txt"
if [ "$status" = 0 ] && [ ! -s "$work/out" ] && grep -q 0xd0000014 "$work/moved.txt"; then
	ok "diff compares by BAR offset: the BAR elsewhere makes no difference"
else
	not_ok "diff compares by BAR offset: the BAR elsewhere makes no difference" "$(head "$work/out")"
fi
run diff fixtures/nvme-probe.txt "$work/moved.txt"
[ "$status" = 0 ] && ok "and so it does without a map" || not_ok "and so it does without a map" "$(head "$work/out")"
differs "diff of two edu sessions: sections by MARK, loops folded without their counts" \
	edu-session.diff diff --map $maps/edu.xml fixtures/edu-session.txt fixtures/edu-session2.txt
# Volatile registers are left out: two traces that differ only there are the same.
sed -e 's/^\(R 4 1.000004 1 0x10000004\) 0x3 /\1 0x2 /' fixtures/features.txt > "$work/volatile.txt"
run diff --map maps/features.xml@0x10000000 fixtures/features.txt "$work/volatile.txt"
[ "$status" = 0 ] && ok "diff leaves out a register the map marks volatile" ||
	not_ok "diff leaves out a register the map marks volatile" "$(cat "$work/out")"
run diff fixtures/features.txt "$work/volatile.txt"
[ "$status" = 1 ] && ok "which differs without the map" || not_ok "which differs without the map"
# A change deep in the second section: its hunk is headed by the marker.
sed -e '1214s/ 0x103f0f8 / 0x103f0fa /' fixtures/e1000-link.txt > "$work/e1000-txon.txt"
differs "diff: a hunk is headed by its section's marker" e1000-link.diff \
	diff --map $maps/e1000.xml fixtures/e1000-link.txt - < "$work/e1000-txon.txt"
# A section only one trace has.
awk '{ print } /^MARK 1.000017 poll/ { print "MARK 1.000018 extra"; print "W 4 1.000019 1 0x10000000 0x1 0x0 0" }' \
	fixtures/features.txt > "$work/section.txt"
differs "diff: a section only B has is added whole, under its marker" features-section.diff \
	diff --map maps/features.xml@0x10000000 fixtures/features.txt - < "$work/section.txt"

# --- timeline: the Chrome/Perfetto JSON trace format ---
exactly "edu session as a timeline" edu-session.timeline.json \
	timeline --map $maps/edu.xml fixtures/edu-session.txt
exactly "features as a timeline: loops, physical addresses, UNKNOWN" features.timeline.json \
	timeline --map maps/features.xml@0x10000000 fixtures/features.txt
# A process's accesses are its thread, beside the kernel's.
printf 'VERSION 20070824\nMAP 2.000000 1 0xfea00000 0x7f0000000000 0x1000 0x0 1234\nR 4 2.000001 1 0xfea00000 0x10000ed 0x0 1234\nW 4 2.000002 1 0xfea00004 0x1 0x0 0\n' > "$work/pids.txt"
run timeline --no-maps "$work/pids.txt"
has "timeline: a process's accesses are thread 'pid 1234'" \
	'{"ph":"M","pid":1,"tid":1234,"name":"thread_name","args":{"name":"pid 1234"}},'
has "timeline: the kernel's are thread 'kernel' in the same process" \
	'{"ph":"M","pid":1,"tid":0,"name":"thread_name","args":{"name":"kernel"}},'
has "timeline: the process's read is on its thread" \
	'{"ph":"i","pid":1,"tid":1234,"name":"R +0x000","ts":2000001,"s":"t","args":{"line":3,"value":"0x10000ed","width":4,"offset":"0x0","phys":"0xfea00000"}},'
# Read back: every access is an instant or one of a loop's reads, every
# track is named, markers and mappings are all there.
for trace in nvme-probe e1000-link edu-session features; do
	rm -f "$work/t.json"
	run timeline --map-dir $maps -o "$work/t.json" fixtures/$trace.txt
	if [ "$status" = 0 ] && [ ! -s "$work/out" ] && python3 -c '
import collections, json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
lines = [l.split() for l in open(sys.argv[2]) if l.strip()]
accesses = sum(1 for l in lines if l[0] in ("R", "W"))
marks = sum(1 for l in lines if l[0] == "MARK" and l[1] != "0.000000")
maps = sum(1 for l in lines if l[0] in ("MAP", "UNMAP"))
by = collections.defaultdict(list)
for e in events:
    by[e["ph"]].append(e)
instants = [e for e in by["i"] if e["name"][:2] in ("R ", "W ")]
loops = by["X"]
assert len(instants) + sum(e["args"]["count"] for e in loops) == accesses, "accesses"
assert len(by["C"]) == len(instants) + len(loops), "counters"
assert sum(1 for e in by["i"] if e["s"] == "g") == marks, "markers"
assert sum(1 for e in by["i"] if e["name"].split()[0] in ("MAP", "UNMAP")) == maps, "maps"
procs = {e["pid"] for e in by["M"] if e["name"] == "process_name"}
threads = {(e["pid"], e["tid"]) for e in by["M"] if e["name"] == "thread_name"}
for e in events:
    assert e["pid"] in procs, e
    if e["ph"] in "iX" and e["pid"]:
        assert (e["pid"], e["tid"]) in threads, e
assert all(e["dur"] >= 0 and e["args"]["count"] >= 2 for e in loops), "loops"
' "$work/t.json" fixtures/$trace.txt > "$work/py" 2>&1; then
		ok "timeline of $trace reads back: each access once, every track named"
	else
		not_ok "timeline of $trace reads back: each access once, every track named" \
			"status $status; $err$(cat "$work/py")"
	fi
done
printf 'VERSION 20070824\nR 4 1.000000 1 0x1000 0x1 0x0 0\nR 4 x 1 0x1000 0x1 0x0 0\nR 4 1.000002 1 0x1000 0x1 0x0 0\n' > "$work/bad.txt"
echo before > "$work/t.json"
fails "timeline of a malformed trace: refused" 1 \
	"mmioctl: $work/bad.txt:3: malformed timestamp 'x'" timeline --no-maps -o "$work/t.json" "$work/bad.txt"
if [ "$(cat "$work/t.json")" = before ] && [ "$(ls "$work" | grep -c '^t.json')" = 1 ]; then
	ok "timeline of a malformed trace leaves -o FILE as it was, no temporary file"
else
	not_ok "timeline of a malformed trace leaves -o FILE as it was, no temporary file" "$(ls "$work")"
fi
fails "timeline -o into a missing directory" 1 \
	"mmioctl: $work/none/t.json: No such file or directory" \
	timeline --no-maps -o "$work/none/t.json" fixtures/edu-session.txt
fails "timeline -o with no FILE" 2 "mmioctl: timeline: -o needs a FILE
Try 'mmioctl --help'." \
	timeline --no-maps -o "" fixtures/edu-session.txt
fails "timeline refuses --fold" 2 "mmioctl: timeline: unknown or incomplete option '--fold'
Try 'mmioctl --help'." \
	timeline --fold fixtures/edu-session.txt
fails "timeline takes one trace" 2 \
	"mmioctl: timeline takes one trace (a file, or - for standard input)
Try 'mmioctl --help'." \
	timeline --no-maps fixtures/edu-session.txt fixtures/features.txt

# --- plot: a picture in SVG ---
exactly "edu session plotted" edu-session.svg \
	plot --map $maps/edu.xml fixtures/edu-session.txt
# The README's picture is what plot draws of the nvme probe.
run plot --map $maps/nvme.xml fixtures/nvme-probe.txt
if [ "$status" = 0 ] && [ -z "$err" ] && cmp -s "$work/out" ../../docs/nvme-probe.svg; then
	ok "plot of the nvme probe is docs/nvme-probe.svg, the README's picture"
else
	not_ok "plot of the nvme probe is docs/nvme-probe.svg, the README's picture" \
		"status $status; $err$(diff ../../docs/nvme-probe.svg "$work/out" | head -n 10)"
fi
# Read back: the hottest registers first, the counts add up to the
# trace's accesses, every drawn row has marks.
for trace in nvme-probe e1000-link edu-session features; do
	rm -f "$work/p.svg"
	run plot --map-dir $maps -o "$work/p.svg" fixtures/$trace.txt
	if [ "$status" = 0 ] && [ ! -s "$work/out" ] && python3 -c '
import re, sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
lines = [l.split() for l in open(sys.argv[2]) if l.strip()]
accesses = sum(1 for l in lines if l[0] in ("R", "W"))
texts = svg.findall(ns + "text")
header = int(texts[1].text.split()[0])
assert header == accesses, (header, accesses)
counts = [int(t.text) for t in texts if t.get("fill") == "#666"]
assert counts == sorted(counts, reverse=True) and len(counts) <= 32, counts
note = [t.text for t in texts if t.text and t.text.startswith("and ")]
more = int(re.match(r"and \d+ more registers \((\d+) accesses\)", note[0]).group(1)) if note else 0
assert sum(counts) + more == accesses, (sum(counts), more, accesses)
rows = {int(r.get("y")) for r in svg.findall(ns + "rect") if r.get("height") == "6" and int(r.get("y")) >= 48}
assert len({(y - 51) // 18 for y in rows}) == len(counts), "a row without marks"
' "$work/p.svg" fixtures/$trace.txt > "$work/py" 2>&1; then
		ok "plot of $trace reads back: hottest first, counts add up, every row marked"
	else
		not_ok "plot of $trace reads back: hottest first, counts add up, every row marked" \
			"status $status; $err$(cat "$work/py")"
	fi
done
# Rendered as a picture (rsvg-convert, librsvg): a PNG of the SVG's size.
if rsvg-convert ../../docs/nvme-probe.svg -o "$work/p.png" 2> "$work/py" && python3 -c '
import struct, sys
png = open(sys.argv[1], "rb").read(24)
assert png[:8] == b"\x89PNG\r\n\x1a\n"
assert struct.unpack(">II", png[16:24]) == (976, 684), struct.unpack(">II", png[16:24])
' "$work/p.png" >> "$work/py" 2>&1; then
	ok "docs/nvme-probe.svg renders (rsvg-convert) as a 976x684 picture"
else
	not_ok "docs/nvme-probe.svg renders (rsvg-convert) as a 976x684 picture" "$(cat "$work/py")"
fi
printf 'VERSION 20070824\nMAP 1.000000 1 0xfea00000 0xffffc90000100000 0x1000 0x0 0\nMARK 1.000001 nothing here\n' > "$work/none.txt"
echo before > "$work/p.svg"
fails "plot of a trace without accesses: refused" 1 \
	"mmioctl: $work/none.txt: no access to plot" plot --no-maps -o "$work/p.svg" "$work/none.txt"
if [ "$(cat "$work/p.svg")" = before ]; then
	ok "plot of a trace without accesses leaves -o FILE as it was"
else
	not_ok "plot of a trace without accesses leaves -o FILE as it was"
fi
fails "plot refuses --json" 2 "mmioctl: plot: unknown or incomplete option '--json'
Try 'mmioctl --help'." plot --json fixtures/edu-session.txt

# --- model: a register map inferred from traces ---
exactly "model of the nvme probe" nvme-probe.model.xml model fixtures/nvme-probe.txt
exactly "model of two edu sessions, added up" edu-sessions.model.xml \
	model fixtures/edu-session.txt fixtures/edu-session2.txt
# What each inference says, on a trace written for it.
printf 'VERSION 20070824\nMAP 1.000000 1 0x10000000 0xffffc90000100000 0x1000 0x0 0\nR 4 1.000001 1 0x10000000 0x5 0x0 0\nW 4 1.000002 1 0x10000000 0x4 0x0 0\nR 4 1.000003 1 0x10000000 0x1 0x0 0\nW 4 1.000004 1 0x10000004 0x12345678 0x0 0\nR 4 1.000005 1 0x10000004 0xedcba987 0x0 0\nR 4 1.000006 1 0x10000008 0x1 0x0 0\nR 4 1.000007 1 0x10000008 0x1 0x0 0\nR 4 1.000008 1 0x10000008 0x1 0x0 0\nR 4 1.000009 1 0x10000008 0x0 0x0 0\nR 2 1.000010 1 0x1000000c 0xbeef 0x0 0\nR 4 1.000011 1 0x1000000c 0xdeadbeef 0x0 0\nUNMAP 1.000012 1 0x0 0\nR 4 1.000013 -1 0x20000000 0x1 0x0 0\n' > "$work/m.txt"
run model -o "$work/m.xml" "$work/m.txt"
if [ "$status" = 0 ] && [ "$err" = "mmioctl: model: 1 access outside every BAR and mapping left out" ]; then
	ok "model: an access outside every BAR and mapping is left out, and said"
else
	not_ok "model: an access outside every BAR and mapping is left out, and said" "status $status; $err"
fi
cp "$work/m.xml" "$work/out"
has "model: a mapping is a domain to bind at its address" \
	'	<doc>A mapping at 0x10000000: bind it with --map FILE@0x10000000.</doc>'
has "model: a write of set bits that a read then has clear is write-1-to-clear" \
	'		<doc>2 reads, 1 write; first read 0x00000005; bits changed 0x00000005; write-1-to-clear? bits 0x00000004.</doc>'
has "model: a read-back register is not write-1-to-clear, and a number has no bitfields" \
	'		<doc>1 read, 1 write; first read 0xedcba987 (after a write); bits changed 0xffffffff.</doc>'
has "model: a polled register, the bit it waited on" \
	'		<doc>4 reads, 0 writes; first read 0x00000001; bits changed 0x00000001; changed with no write in between; polled 1 time; waiting on bits 0x00000001.</doc>'
has "model: a bit that changed is a bitfield" '		<bitfield name="B2" pos="2"/>'
has "model: the widest access names the register, the others are said; a narrower read is no change" \
	'		<doc>2 reads, 0 writes; widths 2 4; first read 0x0000beef.</doc>'
has "model: a register only read is access=r" '	<reg32 offset="0x008" name="R008" access="r">'
exactly "model --json of two edu sessions, added up" edu-sessions.model.json \
	model --json fixtures/edu-session.txt fixtures/edu-session2.txt
# The JSON says what the XML says: the nvme probe's registers, offsets and access.
run model --json fixtures/nvme-probe.txt
json_regs=$(python3 -c 'import json, sys
d = json.load(sys.stdin)["devices"][0]
print(d["name"], d["vendor"], d["device"], d["bar"], len(d["registers"]),
      sum(r["reads"] + r["writes"] for r in d["registers"]),
      " ".join(r["offset"] + ":" + r["access"] for r in d["registers"][:4]))' < "$work/out")
xml_regs=$("$mmioctl" model fixtures/nvme-probe.txt | grep -c '^	<reg')
[ "$status" = 0 ] && [ "$json_regs" = "PCI_1B36_0010_BAR0 1b36 0010 0 $xml_regs 241 0x0:r 0x4:r 0x8:r 0x14:w" ] &&
	ok "model --json of the nvme probe: the XML's $xml_regs registers, all 241 accesses" ||
	not_ok "model --json of the nvme probe: the XML's $xml_regs registers, all 241 accesses" "$status $json_regs"
# The model loads back: decode names every access of the trace it came from.
run decode --map "$work/m.xml@0x10000000" "$work/m.txt"
named=$(grep -cE '^[0-9.]+ [RW][0-9] MAP_10000000\+0x[0-9a-f]+ 0x[0-9a-f]+ R0[0-9a-f]+ ' "$work/out")
if [ "$status" = 0 ] && [ "$named" = 11 ]; then
	ok "model loads back bound by --map FILE@ADDR: decode names all 11 accesses of the mapping"
else
	not_ok "model loads back bound by --map FILE@ADDR: decode names all 11 accesses of the mapping" \
		"status $status, $named named; $err"
fi
run model -o "$work/nvme.xml" fixtures/nvme-probe.txt
run decode --map "$work/nvme.xml" fixtures/nvme-probe.txt
named=$(grep -cE '^[0-9.]+ [RW][0-9] PCI_1B36_0010_BAR0\+0x[0-9a-f]+ 0x[0-9a-f]+ R[0-9a-f]+ ' "$work/out")
if [ "$status" = 0 ] && [ "$named" = 241 ]; then
	ok "model of the nvme probe binds by its <pci>: decode names all 241 accesses"
else
	not_ok "model of the nvme probe binds by its <pci>: decode names all 241 accesses" \
		"status $status, $named named; $err"
fi
printf 'VERSION 20070824\nR 4 1.000000 -1 0x20000000 0x1 0x0 0\n' > "$work/phys.txt"
rm -f "$work/m.xml"
fails "model of accesses outside every device: refused, no file" 1 \
	"mmioctl: model: no access to a device or a mapping in the trace" \
	model -o "$work/m.xml" "$work/phys.txt"
if [ -e "$work/m.xml" ]; then
	not_ok "model refused writes no file"
else
	ok "model refused writes no file"
fi
fails "model takes a trace" 2 "mmioctl: model takes one trace or more
Try 'mmioctl --help'." model -o "$work/m.xml"
fails "model reads standard input once" 2 "mmioctl: model: only one trace can be standard input
Try 'mmioctl --help'." model - -
fails "model takes no map" 2 "mmioctl: model: unknown or incomplete option '--map'
Try 'mmioctl --help'." model --map $maps/nvme.xml fixtures/nvme-probe.txt

# --- -o FILE: written whole or not at all, never the trace, never a device ---
cp fixtures/edu-session.txt "$work/same.txt"
fails "-o FILE that is the trace is refused" 2 "mmioctl: plot: -o $work/same.txt is a trace it reads
Try 'mmioctl --help'." plot --no-maps -o "$work/same.txt" "$work/same.txt"
if cmp -s fixtures/edu-session.txt "$work/same.txt"; then
	ok "-o FILE that is the trace leaves the trace as it was"
else
	not_ok "-o FILE that is the trace leaves the trace as it was"
fi
echo precious > "$work/keep.json"
run timeline --no-maps -o "$work/keep.json" "$work/nosuch.txt"
if [ "$status" = 1 ] && [ "$(cat "$work/keep.json")" = precious ]; then
	ok "-o FILE of a trace that cannot be read is left as it was"
else
	not_ok "-o FILE of a trace that cannot be read is left as it was" "status $status; $err"
fi
mkfifo "$work/fifo"
cat "$work/fifo" > "$work/from-fifo" &
run timeline --map $maps/edu.xml -o "$work/fifo" fixtures/edu-session.txt
wait
if [ "$status" = 0 ] && [ -p "$work/fifo" ] && cmp -s "$work/from-fifo" expected/edu-session.timeline.json; then
	ok "-o FILE that is no regular file (a FIFO) is written directly, and stays"
else
	not_ok "-o FILE that is no regular file (a FIFO) is written directly, and stays" "status $status; $err"
fi
cat "$work/fifo" > /dev/null &
run plot --no-maps -o "$work/fifo" "$work/none.txt"
wait
if [ "$status" = 1 ] && [ -p "$work/fifo" ]; then
	ok "-o FILE that is no regular file is not removed when the trace is refused"
else
	not_ok "-o FILE that is no regular file is not removed when the trace is refused" "status $status"
fi
fails "a short option in a cluster is named by its letter" 2 \
	"mmioctl: model: unknown or incomplete option '-j'
Try 'mmioctl --help'." model -jo "$work/m.xml" fixtures/edu-session.txt

# --- plot: well-formed whatever the markers say, and where they are ---
{
	printf 'VERSION 20070824\nMAP 1.000000 1 0x10000000 0xffffc90000100000 0x1000 0x0 0\n'
	printf 'MARK 1.000000 bad \377\376 bytes & <tags> "quoted"\n'
	printf 'R 4 2.000000 1 0x10000000 0x1 0x0 0\n'
	printf 'MARK 2.500000 %s\303\251 cut inside a character\n' "$(printf 'a%.0s' $(seq 62))"
	printf 'R 4 3.000000 1 0x10000000 0x1 0x0 0\nMARK 9.000000 after the last access\n'
} > "$work/marks.txt"
run plot --no-maps "$work/marks.txt"
if [ "$status" = 0 ] && python3 -c '
import sys, xml.etree.ElementTree as ET
svg = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
marks = [l for l in svg.iter(ns + "line") if l.find(ns + "title") is not None]
assert [m.find(ns + "title").text for m in marks] == ["a" * 62], [m.find(ns + "title").text for m in marks]
assert all(200 <= int(l.get("x1")) <= 920 for l in svg.iter(ns + "line")), "a line off the axis"
' "$work/out" > "$work/py" 2>&1; then
	ok "plot: markers outside the accesses are not drawn, a cut marker keeps whole characters, XML well-formed"
else
	not_ok "plot: markers outside the accesses are not drawn, a cut marker keeps whole characters, XML well-formed" \
		"status $status; $err$(cat "$work/py")"
fi

# --- model: what decode loads, whatever the trace ---
run model -o "$work/f.xml" fixtures/features.txt
run decode --map "$work/f.xml@0x10000000" fixtures/features.txt
if [ "$status" = 0 ] && grep -qx '1.000003 R2 MAP_10000000+0x002 0x03ab R000+0x2 => 0x3ab' "$work/out"; then
	ok "model: a register read at two widths and offsets is one register decode loads"
else
	not_ok "model: a register read at two widths and offsets is one register decode loads" "status $status; $err"
fi
printf 'VERSION 20070824\nMAP 1.000000 1 0xfe000000 0xffffc90000015000 0x100 0x0 0\nR 4 1.000001 1 0xfe000000 0x1 0x0 0\nUNMAP 1.000002 1 0x0 0\nMAP 1.000003 2 0xfe000000 0xffffc90000015000 0x1000 0x0 0\nR 4 1.000004 2 0xfe000800 0x1 0x0 0\n' > "$work/grow.txt"
cp "$work/grow.txt" "$work/a--b.txt"
run model -o "$work/g.xml" "$work/a--b.txt"
run decode --map "$work/g.xml@0xfe000000" "$work/grow.txt"
if [ "$status" = 0 ] && grep -qx '1.000004 R4 MAP_FE000000+0x800 0x00000001 R800 => 1' "$work/out"; then
	ok "model: a mapping seen longer later, and a path with '--', give a map decode loads"
else
	not_ok "model: a mapping seen longer later, and a path with '--', give a map decode loads" "status $status; $err"
fi
printf 'VERSION 20070824\nPCIDEV 0030 1b360010 a feb70004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme\nPCIDEV 0038 1b360010 a feb80004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme\nR 4 1.000001 1 0xfeb7001c 0x0 0x0 0\nR 4 1.000002 2 0xfeb8001c 0x1 0x0 0\nR 4 1.000003 1 0xfeb7001c 0x0 0x0 0\nR 4 1.000004 1 0xfeb70000 0x12345678 0x0 0\nR 1 1.000005 1 0xfeb70000 0x78 0x0 0\nR 4 1.000006 1 0xfeb70000 0x12345678 0x0 0\n' > "$work/two.txt"
run model "$work/two.txt"
has "model: two devices of one kind add up, each followed in its own order" \
	'		<doc>3 reads, 0 writes; first read 0x00000000.</doc>'
has "model: a register read at two widths did not change" \
	'		<doc>3 reads, 0 writes; widths 1 4; first read 0x12345678.</doc>'

# --- the README shows what decode prints ---
excerpt=$(sed -n '/<!-- decode excerpt: ctl-tool\/tests\/expected\/nvme-probe.decode -->/,/<!-- end of the excerpt -->/p' "$readme" |
	grep '^    [0-9]' | sed 's/^    //')
if [ -n "$excerpt" ] && grep -qF -- "$excerpt" expected/nvme-probe.decode &&
	[ "$(grep -cxF -f <(printf '%s\n' "$excerpt") expected/nvme-probe.decode)" = "$(printf '%s\n' "$excerpt" | wc -l)" ]; then
	ok "the README's decoded nvme excerpt is decode's output"
else
	not_ok "the README's decoded nvme excerpt is decode's output" "$excerpt"
fi

# --- the README shows what model writes ---
if python3 -c '
import re, sys
readme, expected = open(sys.argv[1]).read(), open(sys.argv[2]).read()
m = re.search(r"<!-- model excerpt: ctl-tool/tests/expected/nvme-probe.model.xml -->\n(.*?)<!-- end of the excerpt -->", readme, re.S)
assert m, "no excerpt"
parts = m.group(1).split("    ...\n")
assert len(parts) == 2, "the excerpt is two parts around ..."
at = 0
for part in parts:
    text = "".join(l[4:].replace("  ", "\t") + "\n" for l in part.splitlines())
    at = expected.index(text, at) + len(text)
' "$readme" expected/nvme-probe.model.xml 2> "$work/py"; then
	ok "the README's model excerpt is model's output"
else
	not_ok "the README's model excerpt is model's output" "$(cat "$work/py")"
fi

# --- bad input: usage (2), bad data (1), never a crash ---
fails "no trace is a usage error" 2 "mmioctl: decode takes one trace (a file, or - for standard input)
Try 'mmioctl --help'." decode --fold
fails "an unknown option is a usage error" 2 "mmioctl: stat: unknown or incomplete option '--fold'
Try 'mmioctl --help'." stat --fold fixtures/edu-session.txt
fails "diff of standard input twice is a usage error" 2 "mmioctl: diff: only one trace can be standard input
Try 'mmioctl --help'." diff - -
fails "a missing trace is named" 1 "mmioctl: fixtures/none.txt: No such file or directory" \
	decode fixtures/none.txt
fails "a missing map is named" 1 "mmioctl: maps/none.xml: No such file or directory" \
	decode --map maps/none.xml fixtures/edu-session.txt
fails "diff: trouble is 2, as diff(1) has it" 2 "mmioctl: fixtures/none.txt: No such file or directory" \
	diff fixtures/edu-session.txt fixtures/none.txt

bad_map() { # bad_map FILE MESSAGE
	fails "map refused: $1" 1 "mmioctl: maps/$1:$2" decode --map "maps/$1" fixtures/edu-session.txt
	[ -s "$work/out" ] && not_ok "nothing printed after a refused map ($1)"
}
bad_map malformed.xml "5: malformed XML: Opening and ending tag mismatch: reg32 line 4 and domain"
bad_map empty.xml "1: malformed XML: Document is empty"
bad_map not-rnndb.xml "2: the top element is <html>, not <database>"
bad_map overlap.xml "6: C at 0xc overlaps B (line 5, 0x8-0xf)"
bad_map overlap-by-one.xml "5: BYTE at 0x3 overlaps WORD (line 4, 0x0-0x3)"
bad_map overlap-array.xml "4: Q: its contents (0xa bytes) do not fit its stride 0x8"
bad_map overlap-bitfield.xml "6: bitfield ENABLE (bits 3-3) overlaps MODE (bits 0-3)"
bad_map wide-bitfield.xml "4: register CTRL: bitfield HIGH (bits 12-19) is wider than its 16 bits"
bad_map unknown-type.xml "5: unknown type 'no_such_enum'"
bad_map bad-pci-id.xml "4: <pci> vendor='12345' is not a PCI ID (up to 4 hex digits, as lspci -n prints it)"
bad_map unsupported.xml "4: <reg32> variants='NV50-' without a varset (prefix= or varset= on it or around it)"
bad_map bad-number.xml "4: <reg32> offset='010' is not a number (decimal or 0x hex)"
fails "two maps for the same BAR are refused" 1 \
	"mmioctl: maps/same-bar.xml:3: domain OTHER_NVME binds 1b36:0010 BAR0, as NVME does ($maps/nvme.xml:50)" \
	decode --map $maps/nvme.xml --map maps/same-bar.xml fixtures/nvme-probe.txt
# PCI IDs are hex with or without 0x, as lspci -n prints them:
# vendor="1b36" is nvme's vendor, as vendor="0x1b36" is.
fails "IDs without 0x are hex" 1 \
	"mmioctl: maps/lspci-ids.xml:3: domain OTHER_NVME binds 1b36:0010 BAR0, as NVME does ($maps/nvme.xml:50)" \
	decode --map $maps/nvme.xml --map maps/lspci-ids.xml fixtures/nvme-probe.txt
# A recording cut short ends in a partial line with no newline: the rest
# of the trace stands, and a warning names the line. A bad line that is
# not the last (or ends in a newline) still refuses the trace.
head -n 65 fixtures/edu-session.txt > "$work/whole.txt"
{ cat "$work/whole.txt"; head -n 66 fixtures/edu-session.txt | tail -n 1 | head -c 20; } > "$work/cut.txt"
run stat "$work/whole.txt"
whole=$(sed "s|$work/whole.txt|TRACE|" "$work/out")
for command in stat decode; do
	run $command "$work/cut.txt"
	if [ "$status" = 0 ] && [ "$err" = "mmioctl: $work/cut.txt:66: truncated R line: 5 of 8 fields: the last line, cut short, is left out" ]; then
		ok "$command: a last line cut short is left out with a warning"
	else
		not_ok "$command: a last line cut short is left out with a warning" "status $status; $err"
	fi
done
run stat "$work/cut.txt"
[ "$(sed "s|$work/cut.txt|TRACE|" "$work/out")" = "$whole" ] &&
	ok "stat of a trace cut short counts the lines before the cut" ||
	not_ok "stat of a trace cut short counts the lines before the cut" "$(cat "$work/out")"
{ cat "$work/cut.txt"; echo; } > "$work/cut-nl.txt"
fails "a cut line that ends in a newline still refuses the trace" 1 \
	"mmioctl: $work/cut-nl.txt:66: truncated R line: 5 of 8 fields" stat "$work/cut-nl.txt"

# A polling loop whose last read is timed before its first (CPUs' clocks
# apart) says so, instead of an unsigned wrap (1.84e+13 s).
awk 'NR >= 18 && $5 == "0xfea00020" { n++; if (n == 48) $3 = "6.000000" } { print }' \
	fixtures/edu-session.txt > "$work/backwards.txt"
run stat "$work/backwards.txt"
has "stat: a loop whose timestamps go backwards" \
	"           loop at 6.279066 (line 18): 0x1 x47 (timestamps go backwards by 279066 us), then 0x0"

# Two unrelated traces of 200 000 accesses each: about 400 000 edits. The
# shortest script took 108 s here; past 1024 edits a split settles for the
# furthest point reached (GNU diff's heuristic): under a second.
for seed in 1 2; do
	awk -v seed=$seed 'BEGIN { srand(seed); print "VERSION 20070824"
		print "MAP 1.000000 1 0xfea00000 0xffffc90000015000 0x100000 0x0 0"
		for (i = 0; i < 200000; i++)
			printf "%s 4 %.6f 1 0x%x 0x%x 0x0 0\n", rand() < 0.7 ? "R" : "W", 1 + i / 1e6,
				0xfea00000 + int(rand() * 1024) * 4, int(rand() * 16) }' > "$work/random$seed.txt"
done
start=$(date +%s%N)
timeout 20 "$mmioctl" diff "$work/random1.txt" "$work/random2.txt" > "$work/out" 2> "$work/err"
status=$? ms=$((($(date +%s%N) - start) / 1000000))
removed=$(grep -c '^-[RW]' "$work/out") added=$(grep -c '^+[RW]' "$work/out")
if [ "$status" = 1 ] && [ "$ms" -lt 10000 ] && [ "$removed" -gt 150000 ] && [ "$added" -gt 150000 ]; then
	ok "diff of two unrelated 200000-line traces in at most 10 s ($ms ms, -$removed +$added)"
else
	not_ok "diff of two unrelated 200000-line traces in at most 10 s" "status $status, $ms ms, -$removed +$added"
fi

# diff's output that cannot be written is trouble (2), not "they differ" (1).
"$mmioctl" diff fixtures/edu-session.txt fixtures/edu-session2.txt > /dev/full 2> "$work/err"
status=$?
if [ "$status" = 2 ] && [ "$(cat "$work/err")" = "mmioctl: standard output: No space left on device" ]; then
	ok "diff to a full disk exits 2, as diff(1) does for trouble"
else
	not_ok "diff to a full disk exits 2, as diff(1) does for trouble" "status $status; $(cat "$work/err")"
fi

# stat --sort: e1000's 384 registers by reads, the hot one first.
run stat --sort reads fixtures/e1000-link.txt
rows=$(awk '$1 ~ /^0x[0-9a-f]+$/ && $2 == "-" { print $1 ":" $3 }' "$work/out" | head -n 4 | tr '\n' ' ')
[ "$status" = 0 ] && [ "$rows" = "0x00008:526 0x00020:53 0x00010:23 0x000c0:11 " ] &&
	ok "stat --sort reads puts the most read registers first" ||
	not_ok "stat --sort reads puts the most read registers first" "$rows"
run stat --sort first fixtures/e1000-link.txt
firsts=$(awk '$1 ~ /^0x[0-9a-f]+$/ && $2 == "-" { print $5 }' "$work/out")
[ "$status" = 0 ] && [ "$(echo "$firsts" | wc -l)" = 384 ] && [ "$firsts" = "$(echo "$firsts" | sort -n)" ] &&
	ok "stat --sort first orders the 384 registers by their first access" ||
	not_ok "stat --sort first orders the 384 registers by their first access" "$(echo "$firsts" | head -5)"
fails "stat --sort with an unknown key" 2 "mmioctl: stat: unknown sort key 'hot': offset, accesses, reads, writes, first or last
Try 'mmioctl --help'." stat --sort hot fixtures/e1000-link.txt

# Options after the trace, as GNU tools take them; -h for one command.
run stat --json fixtures/edu-session.txt
before=$(cat "$work/out")
run stat fixtures/edu-session.txt --json
if [ "$status" = 0 ] && [ -n "$before" ] && [ "$(cat "$work/out")" = "$before" ]; then
	ok "an option after the trace (stat TRACE --json) is an option"
else
	not_ok "an option after the trace (stat TRACE --json) is an option" "status $status; $err"
fi
run decode -h
if [ "$status" = 0 ] && [ -z "$err" ] && [ "$(head -n 1 "$work/out")" = \
	"usage: mmioctl decode [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [--fold] [--json] TRACE|-" ]; then
	ok "decode -h prints decode's usage"
else
	not_ok "decode -h prints decode's usage" "status $status; $(cat "$work/out") $err"
fi
run decode --map maps/entity.xml@0x1000 fixtures/edu-session.txt
[ "$status" = 0 ] && ! grep -q root: "$work/out" && ok "an external entity in a map is not read" ||
	not_ok "an external entity in a map is not read"
fails "@ADDR wants a map of one domain" 1 \
	"mmioctl: $maps: @0x1000 binds one domain, and the map has 3: name it, as $maps@0x1000:E1000" decode --map $maps@0x1000 fixtures/edu-session.txt
run decode --map $maps fixtures/nvme-probe.txt
cp "$work/out" "$work/dir"
run decode --map $maps/nvme.xml fixtures/nvme-probe.txt
cmp -s "$work/out" "$work/dir" && ok "--map DIR reads every map in it" || not_ok "--map DIR reads every map in it"
fails "a map that applies to nothing is noted" 0 \
	"mmioctl: note: no map applied to fixtures/features.txt: no PCIDEV line for NVME's 1b36:0010;" \
	decode --map $maps/nvme.xml fixtures/features.txt

bad_trace() { # bad_trace NAME CONTENT MESSAGE
	printf "$2" > "$work/bad.txt"
	fails "trace refused: $1" 1 "mmioctl: $work/bad.txt:$3" decode "$work/bad.txt"
	fails "stat refuses it too: $1" 1 "mmioctl: $work/bad.txt:$3" stat "$work/bad.txt"
}
bad_trace "a truncated line" 'R 4 1.000000 1 0xfea00000 0x1 0x0 0\nR 4 1.000001 1 0xfea00000\n' \
	"2: truncated R line: 5 of 8 fields"
bad_trace "garbage" 'VERSION 20070824\nthis is not a trace\n' \
	"2: not a trace line: it starts with 'this'"
bad_trace "a NUL" 'R 4 1.000000 1 0xfea00000 0x1 0x0 0\0\n' \
	"1: control character or NUL in a field"
bad_trace "binary" '\x7fELF\x02\x01\x01\n' "1: control character or NUL"
bad_trace "a bad width" 'W 3 1.000000 1 0xfea00000 0x1 0x0 0\n' \
	"1: width is not 1, 2, 4 or 8: '3'"
bad_trace "another version" 'VERSION 20250101\n' \
	"1: unsupported trace version (mmioctl reads 20070824): '20250101'"
head -c 70000 /dev/zero | tr '\0' A > "$work/long.txt"
fails "a line too long" 1 "mmioctl: $work/long.txt:1: line longer than 65536 bytes" decode "$work/long.txt"
run decode fixtures/edu-session.txt
printf 'VERSION 20070824\nR 4 1.0 1 0xfea00000 0x1 0x0 0\n' > "$work/bad.txt"
fails "decode prints what came before the bad line" 1 "mmioctl: $work/bad.txt:2: malformed timestamp '1.0'" \
	decode "$work/bad.txt"
[ "$(cat "$work/out")" = "VERSION 20070824" ] && ok "and only that" || not_ok "and only that" "$(cat "$work/out")"

printf 'EVENT 1.000000 something new\n# a comment\n\nR 4 1.000000 1 0xfea00000 0x1 0x0 0\n' > "$work/other.txt"
run decode "$work/other.txt"
cmp -s "$work/out" "$work/other.txt" && [ "$status" = 0 ] && ok "unknown line types, comments and blank lines pass through" ||
	not_ok "unknown line types, comments and blank lines pass through" "$err"
sed 's/$/\r/' fixtures/edu-session.txt > "$work/crlf.txt"
run decode --map $maps/edu.xml "$work/crlf.txt"
cmp -s "$work/out" <("$mmioctl" decode --map $maps/edu.xml fixtures/edu-session.txt) && [ "$status" = 0 ] &&
	ok "CRLF line ends are read as LF" || not_ok "CRLF line ends are read as LF" "$err"
: > "$work/empty.txt"
run decode "$work/empty.txt"
[ "$status" = 0 ] && [ ! -s "$work/out" ] && ok "an empty trace decodes to nothing" || not_ok "an empty trace decodes to nothing"
run stat --json "$work/empty.txt"
[ "$status" = 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["lines"] == 0 and d["regions"] == []' "$work/out" &&
	ok "stat --json of an empty trace: zero lines, no region" || not_ok "stat --json of an empty trace: zero lines, no region"
run diff "$work/empty.txt" "$work/empty.txt"
[ "$status" = 0 ] && ok "two empty traces are the same" || not_ok "two empty traces are the same"

# --- constant memory: the peak RSS on a 19 MB trace is that on a small one ---
awk 'BEGIN {
	print "VERSION 20070824"
	print "PCIDEV 0030 1b360010 a feb70004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme"
	for (i = 0; i < 500000; i++)
		printf "R 4 %d.%06d 4 0x%x 0x%x 0x0 0\n", i / 1000000, i % 1000000, 4273405952 + (i % 64) * 4, i % 7
}' > "$work/big.txt"
head -n 1000 "$work/big.txt" > "$work/small.txt"
# peak_kb FILE ARGS...: the peak resident size of mmioctl ARGS... FILE, in KiB
peak_kb() {
	python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$mmioctl" "${@:2}" "$1"
}
for command in "decode --fold --map $maps/nvme.xml" "decode --json --map $maps/nvme.xml" "stat --map $maps/nvme.xml"; do
	# shellcheck disable=SC2086
	small=$(peak_kb "$work/small.txt" $command) big=$(peak_kb "$work/big.txt" $command)
	if [ -n "$small" ] && [ -n "$big" ] && [ "$big" -lt $((small + 2048)) ]; then
		ok "${command%% --map*} of a 19 MB trace in the memory of a 1000-line one (${small} KiB, ${big} KiB)"
	else
		not_ok "${command%% --map*} of a 19 MB trace in the memory of a 1000-line one (${small} KiB, ${big} KiB)"
	fi
done

# --- variants=, groups, a register's own bits: one map, three variants ---
for v in V1 V2 V3; do
	exactly "variants: --variant $v keeps what its variants= take" variants-$v.txt \
		decode --variant $v --map maps/variants.xml@0x1000 fixtures/variants.txt
done
fails "a --variant that is not a value of the varset is refused" 1 \
	"mmioctl: maps/variants.xml: --variant V9 is not a value of its varset gen (V1 V2 V3)" \
	decode --variant V9 --map maps/variants.xml@0x1000 fixtures/variants.txt
fails "--variant with --no-maps is a usage error" 2 \
	"mmioctl: decode: --variant chooses what maps describe: not with --no-maps
Try 'mmioctl --help'." decode --variant V1 --no-maps fixtures/variants.txt

# --- a database of several files, looked up as envytools' lookup does ---
imp=maps/imports
exactly "imports: groups of one name, arrays that hold, overlapping stripes, first bitfields; two databases share an import" \
	imports.txt decode --map $imp/lookup.xml@0x10000 --map $imp/other.xml@0x20000 fixtures/imports.txt
run decode --map $imp/order.xml@0x10000 fixtures/imports.txt
[ "$status" = 0 ] && [ "$(sed -n 9p "$work/out")" = "0.000008 R4 DEV+0x10 0x00000000 SUB => 0" ] &&
	ok "imports: a file is read where it is imported, so its register is the first defined" ||
	not_ok "imports: a file is read where it is imported, so its register is the first defined" "$status $err"
fails "imports: a domain inside itself is refused" 1 "mmioctl: $imp/self.xml:6: domain D inside itself" \
	decode --map $imp/self.xml@0x10000 fixtures/imports.txt
fails "imports: @ADDR on a database without a domain says so" 1 \
	"mmioctl: $imp/nodomain.xml: @0x10000 binds one domain, and the map has none" \
	decode --map $imp/nodomain.xml@0x10000 fixtures/imports.txt
# 2^29 overlapping repetitions: each lookup stops after a few thousand tries.
start=$(date +%s%N)
run decode --map $imp/unbounded.xml@0x10000 fixtures/unbounded.txt
ms=$((($(date +%s%N) - start) / 1000000))
[ "$status" = 0 ] && [ "$ms" -lt 2000 ] && [ "$(tail -n 1 "$work/out")" = "0.001001 R4 FAR+0x00000ff08 0x00000000 FAR[1] => 0" ] &&
	ok "imports: 1000 lookups in a stripe of unbounded length take $ms ms, not hours" ||
	not_ok "imports: 1000 lookups in a stripe of unbounded length take $ms ms, not hours" "$status $err"

# --- envytools' rnndb as it is: nv_mmio.xml and its 96 imports, unmodified ---
envy=fixtures/envytools
fails "envytools' database without --variant asks for one" 1 \
	"mmioctl: $envy/rnndb/bus/pmc.xml:56: <bitfield> variants='NV1': the database has variants, choose one with --variant NAME (a value of enum chipset)" \
	decode --map $envy/rnndb/nv_mmio.xml@0xe0000000 $envy/g80-trace.txt
run decode --variant NV50 --map $envy/rnndb/nv_mmio.xml@0xe0000000 $envy/g80-trace.txt
[ "$status" = 1 ] && [[ "$err" = "mmioctl: $envy/rnndb/nv_mmio.xml: --variant NV50 is not a value of its varsets chipset (NV1 NV3 NV3T NV4 NV5 NV6 NVA NV10 ...); obj-class ("* ]] &&
	ok "a --variant that no varset has is refused, naming the varsets" ||
	not_ok "a --variant that no varset has is refused, naming the varsets" "$status $err"
exactly "envytools' database, chipset G80: PMC.ID and PGRAPH.INTR decoded" envytools-g80.txt \
	decode --variant G80 --map $envy/rnndb/nv_mmio.xml@0xe0000000 fixtures/envytools-g80.txt
run decode --map $envy/rnndb/nv_mmio.xml@0xe0000000 fixtures/envytools-g80.txt
[ "$status" = 0 ] && cmp -s "$work/out" expected/envytools-g80.txt &&
	[ "$err" = "mmioctl: $envy/rnndb/nv_mmio.xml: chipset G80, of the trace's PMC.ID 0x050200a2 (--variant NAME chooses)" ] &&
	ok "without --variant, the chipset is the trace's PMC.ID's, and said so" ||
	not_ok "without --variant, the chipset is the trace's PMC.ID's, and said so" "$status $err"
printf 'MAP 0.000000 1 0xe0000000 0xffffc90000000000 0x1000000 0x0 0\nR 4 0.000001 1 0xe0000000 0x3ff000a1 0x0 0\n' > "$work/nochip.txt"
fails "a PMC.ID whose chipset envytools does not name asks for --variant" 1 \
	"mmioctl: $envy/rnndb/bus/pmc.xml:56: the trace's PMC.ID 0x3ff000a1 is chipset 0x1ff, which enum chipset does not name: give --variant NAME" \
	decode --map $envy/rnndb/nv_mmio.xml@0xe0000000 "$work/nochip.txt"
run decode --map $envy/rnndb/nv_mmio.xml@0xe0000000 --map fixtures/freedreno/adreno/a6xx.xml@0x10000000:A6XX \
	fixtures/envytools-g80.txt
[ "$status" = 1 ] && [ "$(sed -n 2p "$work/err")" = "mmioctl: fixtures/freedreno/adreno/a6xx.xml:2226: <bitfield> variants='A7XX-': the database has variants, choose one with --variant NAME (a value of enum chip)" ] &&
	ok "the chipset of one database's PMC.ID is not another database's variant" ||
	not_ok "the chipset of one database's PMC.ID is not another database's variant" "$status $err"
printf 'MAP 0.000000 1 0xe0000000 0xffffc90000000000 0x1000000 0x0 0\nR 4 0.000001 1 0xe0000000 0xffffffff 0x0 0\n' > "$work/broken.txt"
fails "a PMC.ID of a broken BAR0 (all ones) tells no chipset" 1 \
	"mmioctl: $envy/rnndb/bus/pmc.xml:56: the trace's PMC.ID 0xffffffff does not tell the chipset (before NV10, or BAR0 broken): give --variant NAME" \
	decode --map $envy/rnndb/nv_mmio.xml@0xe0000000 "$work/broken.txt"
# The register names of 163 accesses against those envytools' own decoder
# (rnndec_decodeaddr, as lookup calls it) gives; its indices are hex.
run decode --variant G80 --map $envy/rnndb/nv_mmio.xml@0xe0000000 $envy/g80-trace.txt
same_names=$(paste -d' ' <(grep -v '^MAP' "$work/out" | awk '{ print ($5 == "" || $5 == "=>" ? "-" : $5) }') \
	$envy/g80-lookup.txt | python3 -c '
import re, sys
norm = lambda n: re.sub(r"\[(0x[0-9a-f]+|[0-9]+)\]", lambda m: "[%d]" % int(m.group(1), 0), n)
pairs = [line.split() for line in sys.stdin]
print(sum(ours == norm(theirs) for ours, _, theirs in pairs), "of", len(pairs))')
[ "$status" = 0 ] && [ -z "$err" ] && [ "$same_names" = "163 of 163" ] &&
	ok "envytools' database names 163 of 163 registers as its lookup does" ||
	not_ok "envytools' database names 163 of 163 registers as its lookup does" "$status $err $same_names"

# --- Mesa's freedreno a6xx.xml as it is, and its variants ---
fd=fixtures/freedreno/adreno/a6xx.xml
fails "a map of several domains bound without naming one says how" 1 \
	"mmioctl: $fd: @0xe0000000 binds one domain, and the map has 69: name it, as $fd@0xe0000000:A6XX" \
	decode --variant A6XX --map $fd@0xe0000000 fixtures/freedreno-a6xx.txt
fails "a domain the map does not have is refused" 1 "mmioctl: $fd: no domain A8XX" \
	decode --variant A6XX --map $fd@0xe0000000:A8XX fixtures/freedreno-a6xx.txt
exactly "freedreno a6xx.xml, variant A6XX: CP_RB, no LPAC bits, CP_APERTURE_CNTL_HOST plain" \
	freedreno-a6xx.txt decode --variant A6XX --map $fd@0xe0000000:A6XX fixtures/freedreno-a6xx.txt
exactly "freedreno a6xx.xml, variant A7XX: PM4CPINTERRUPT, the aperture's fields" \
	freedreno-a7xx.txt decode --variant A7XX --map $fd@0xe0000000:A6XX fixtures/freedreno-a6xx.txt

# --- port accesses: IN and OUT lines (Documentation/trace/mmiotrace.rst, Port I/O) ---
exactly "IN and OUT lines pass through decode" ports.decode decode --no-maps fixtures/ports.txt
exactly "decode --json gives IN and OUT their fields" ports.json decode --no-maps --json fixtures/ports.txt
exactly "stat counts IN and OUT after the other totals" ports.stat stat --no-maps fixtures/ports.txt
differs "diff shows the IN line whose value changed" ports.diff diff --no-maps fixtures/ports.txt fixtures/ports2.txt

# --- 2 M distinct addresses (a frame buffer's), each read once: at most 256 MB ---
awk 'BEGIN {
	print "VERSION 20070824"
	for (i = 0; i < 2000000; i++)
		printf "R 4 %d.%06d 1 0x%x 0x%x 0x0 0\n", i / 1000000, i % 1000000, 1073741824 + i * 4, i % 7
}' > "$work/distinct.txt"
kb=$(peak_kb "$work/distinct.txt" stat)
rm -f "$work/distinct.txt"
if [ -n "$kb" ] && [ "$kb" -le 262144 ]; then
	ok "stat of 2 M distinct addresses in at most 256 MB (${kb} KiB)"
else
	not_ok "stat of 2 M distinct addresses in at most 256 MB (${kb} KiB)"
fi

[ "$failures" = 0 ]
