#!/bin/bash
# make check: host unit tests, checkpatch, harness self-tests, then one guest
# boot running every bats file; ends with "N passed, N failed".
# usage: check.sh KERNEL IMAGE OUTDIR SRC [PATCH...]
set -u
kernel=$1 image=$2 outdir=$3 src=$4
shift 4
top=$(cd "$(dirname "$0")/../.." && pwd)
# A slower kernel (SANITIZE=1) stretches every timeout by TIMEOUT_SCALE.
scale=${TIMEOUT_SCALE:-1}
case $scale in
''|*[!0-9]*|0) echo "check: TIMEOUT_SCALE must be a positive integer, not '$scale'" >&2; exit 2 ;;
esac
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
rm -rf "${outdir:?}"/*
results=$outdir/results.tap
: > "$results"

# Append TAP lines to the results; show each failure with its "#" lines
# (expected and actual, and the log to open).
record() {
	tee -a "$results" |
		awk '/^not ok/ { show = 1; print; next } /^#/ { if (show) print; next } { show = 0 }'
}

# boot NAME SECONDS COMMAND [RUN-QEMU OPTION...]: one guest boot running
# COMMAND, judged by verdict.sh; its logs go to OUTDIR/NAME. DEATH: the
# kernel message from which on a boot dies on purpose (verdict.sh).
boot() {
	local name=$1 seconds=$2 command=$3
	shift 3
	"$top/initramfs/run-qemu.sh" -t "$seconds" "$@" "$kernel" "$image" "$outdir/$name" "$command"
	"$top/bats/harness/verdict.sh" "$outdir/$name" "$name" "${DEATH:-}" | record
}

# The tests' tools in the guest; first the BAR the boot-parameter run needs.
bats_run="BATS_TEST_TIMEOUT=$((120 * scale)) bats --formatter tap"

echo "check: host unit tests"
make -s -C "$top/ctl-tool" O="$(dirname "$outdir")/ctl-tool" test > "$outdir/host-tests.log" 2>&1
host_status=$?
grep -E '^(not )?ok ' "$outdir/host-tests.log" | record
if [ "$host_status" != 0 ] && ! grep -q '^not ok' "$outdir/host-tests.log"; then
	echo "not ok - host unit tests did not run (log: $outdir/host-tests.log)" | record
fi

# The tree is unpacked from linux-source without its history, so the
# commits that Fixes: tags name cannot be looked up in it: that one check
# is left to a kernel git tree.
# checkpatch validates SPDX lines with scripts/spdxcheck.py, which needs
# python3-ply and python3-git; a python3 ahead in PATH without them (pyenv)
# makes it fail quietly and accept any licence, so Debian's python3 goes
# first, and any output at all (a traceback included) fails the patch.
echo "check: checkpatch --strict on $# patches"
for patch in "$@"; do
	name=$(basename "$patch")
	log=$outdir/checkpatch-$name.log
	if (cd "$src" && PATH=/usr/bin:$PATH \
		./scripts/checkpatch.pl --strict -q --ignore UNKNOWN_COMMIT_ID "$top/$patch") \
		> "$log" 2>&1 && [ ! -s "$log" ]; then
		echo "ok - checkpatch: $name" | record
	else
		echo "not ok - checkpatch: $name (log: $log)" | record
	fi
done

"$top/bats/harness/selftest.sh" "$kernel" "$image" "$outdir/selftest" | record

echo "check: guest tests (bats in QEMU, QEMU logging the device accesses)"
# Besides the TAP stream, the guest reports where the edu BAR is.
boot guest $((1200 * scale)) \
	". /opt/mmio/pci.sh; echo edu_bar0 \$(edu_bar0); echo e1000_bar0 \$(e1000_bar0)
CPUS=2 $bats_run --timing /opt/mmio/bats" -T

# The device oracle: what the tests traced against what QEMU saw.
echo "check: the traces against QEMU's record of the device accesses"
"$top/bats/harness/oracle.py" "$outdir/guest" | record

# bats/decode.bats recorded "modprobe nvme" in the guest: the host decodes
# it with the shipped map (the guest's static mmioctl has no libxml2).
echo "check: the guest's nvme trace decoded on the host"
"$top/bats/harness/decode.sh" "$(dirname "$outdir")/ctl-tool/mmioctl" "$top/ctl-tool/maps" \
	"$outdir/guest" | record

# Every CPU stays online on 4 CPUs too, and each one's accesses are traced.
echo "check: guest tests on 4 CPUs"
boot cpus4 $((300 * scale)) "CPUS=4 $bats_run /opt/mmio/bats/cpus.bats" -c 4 -T
"$top/bats/harness/oracle.py" "$outdir/cpus4" | record

# The boot parameters as defaults of the runtime controls, in a boot of
# their own; the edu BAR sits where the main run found it.
edu=$(sed -n 's/^edu_bar0 //p' "$outdir/guest/output.log")
echo "check: guest boot with mmiotrace boot parameters"
boot bootparams $((300 * scale)) "$bats_run /opt/mmio/bats/boot/params.bats" \
	-k "mmiotrace.trace_pc=1 mmiotrace.nommiotrace=1 mmiotrace.trace_isa=0 mmiotrace.filter_offset=${edu:-0} mmiotrace.ranges=64k@0xfe000000,oops"

# A built-in driver traced from boot: e1000's probe, against QEMU's record
# of the device from its first access.
e1000=$(sed -n 's/^e1000_bar0 //p' "$outdir/guest/output.log")
echo "check: guest boot tracing e1000 from boot"
# Its 128k BAR as two halves, which the set merges.
e1000_half=$(printf '0x%x' $((${e1000:-0} + 0x10000)))
boot capture $((300 * scale)) "$bats_run /opt/mmio/bats/boot/capture.bats" -T \
	-k "mmiotrace.ranges=64k@${e1000:-0},64K@$e1000_half trace_event=mmiotrace:*"
"$top/bats/harness/oracle.py" "$outdir/capture" | record
echo "check: guest boot with a malformed range set and the events on"
boot badranges $((300 * scale)) "$bats_run /opt/mmio/bats/boot/badranges.bats" \
	-k "mmiotrace.ranges=oops trace_event=mmiotrace:*"

# The flight recorder: accesses to edu kept across the three ways a
# machine dies, each a boot that resets and boots again (bats/boot/crash.sh).
flight_args="reserve_mem=2M:4096:flight trace_instance=flight@flight,mmiotrace mmiotrace.ranges=1M@${edu:-0}"
echo "check: flight recorder, sysrq b"
DEATH='sysrq: Resetting' boot crash-sysrq $((300 * scale)) "bash /opt/mmio/bats/boot/crash.sh sysrq" \
	-T -R -k "$flight_args"
"$top/bats/harness/oracle.py" "$outdir/crash-sysrq" | record
echo "check: flight recorder, panic"
DEATH='sysrq: Trigger a crash' boot crash-panic $((300 * scale)) "bash /opt/mmio/bats/boot/crash.sh panic" \
	-T -R -k "$flight_args panic=1"
"$top/bats/harness/oracle.py" "$outdir/crash-panic" | record
echo "check: flight recorder, a hang that a watchdog resets"
DEATH='mmiotouch: hanging with interrupts off' boot crash-hang $((300 * scale)) \
	"bash /opt/mmio/bats/boot/crash.sh hang" -T -R -k "$flight_args i6300esb.heartbeat=2" \
	-x "-device i6300esb -action watchdog=reset"
"$top/bats/harness/oracle.py" "$outdir/crash-hang" | record
echo "check: flight recorder, cleared before a reset"
DEATH='sysrq: Resetting' boot crash-cleared $((300 * scale)) "bash /opt/mmio/bats/boot/crash.sh cleared" \
	-R -k "$flight_args reserve_mem=256k:4096:phase trace_instance=phase@phase"

# The stress set: the whole fuzz corpus and concurrent stress, on two CPUs
# and on one (maxcpus=1).
if [ "${STRESS:-0}" = 1 ]; then
	stress_run="FUZZ_ROUNDS=2000 STRESS_SECONDS=${STRESS_SECONDS:-120} BATS_TEST_TIMEOUT=$((3600 * scale)) bats --formatter tap"
	echo "check: stress, 2 CPUs"
	boot stress-2cpu $((3600 * scale)) "$stress_run /opt/mmio/bats/fuzz.bats /opt/mmio/bats/stress"
	echo "check: stress, maxcpus=1"
	boot stress-1cpu $((3600 * scale)) "$stress_run /opt/mmio/bats/stress" -k maxcpus=1
fi

skipped=$(grep -c '^ok .*# skip' "$results")
passed=$(($(grep -c '^ok ' "$results") - skipped))
failed=$(grep -c '^not ok ' "$results")
[ "$failed" -gt 0 ] && echo "check: FAILED, results in $results"
summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
