#!/bin/bash
# Boot the test kernel with the guest image in QEMU and run one command in it.
# usage: run-qemu.sh [-A x86_64|arm64] [-t SECONDS] [-a auto|kvm|tcg] [-k KERNEL_ARGS] [-c CPUS]
#                    [-T] [-R] [-x QEMU_ARGS] [-d DEVICES] [-f FILE] [-i] KERNEL IMAGE OUTDIR COMMAND
# Writes OUTDIR/console.log (kernel messages), OUTDIR/output.log (the
# command's output), OUTDIR/oracle.log (what the guest writes to
# /dev/ttyS2, for the device oracle) and OUTDIR/status, and exits with the
# command's status, 124 when QEMU timed out, or 125 when the guest stopped
# without reporting. -T makes QEMU log every access a device model sees to
# OUTDIR/qemu-trace.log. -R lets the guest reset itself (a warm reset keeps
# its RAM): the boots go on, logging to the same files, until one powers
# off at the end of COMMAND. -x adds QEMU arguments (devices); -d names the
# test devices to give the guest (default: "edu vga ivshmem e1000 nvme").
# -f puts FILE in the guest's / (make fuzz's journal; may be repeated).
# -i (make shell): no COMMAND, an interactive shell on this terminal, which
# is the guest's console too (quiet: warnings and worse). ACCEL=auto
# (default) probes KVM once, caching the answer next to OUTDIR.
# GUEST_KERNEL_ARGS adds kernel arguments to every boot.
# -A arm64: qemu-system-aarch64 -M virt (GICv3, -cpu max, TCG), whose one
# UART (ttyAMA0) is the console: the command's output and the oracle's
# records go through virtio consoles instead (/dev/hvc0, /dev/hvc1; the
# guest's init and helpers.bash learn them from the kernel command line);
# vga is bochs-display, e1000 is e1000e, nvme has a 1M controller memory
# buffer (BAR2: an MMIO region that reads back what was written, at every
# width, and QEMU logs each access).
set -eu
timeout_s=${TIMEOUT:-600} accel=${ACCEL:-auto} extra_args="" cpus=2 qemu_trace=0 arch=x86_64
reboot_args=(-no-reboot) extra_qemu=() end_arg="" interactive=0
wanted_devices="edu vga ivshmem e1000 nvme"
extra_files=()
while getopts A:t:a:k:c:TRx:d:f:i opt; do
	case $opt in
	A) arch=$OPTARG ;;
	t) timeout_s=$OPTARG ;;
	a) accel=$OPTARG ;;
	k) extra_args=$OPTARG ;;
	c) cpus=$OPTARG ;;
	T) qemu_trace=1 ;;
	R) reboot_args=() end_arg=mmio_end=poweroff ;;
	x) read -r -a extra_qemu <<< "$OPTARG" ;;
	d) wanted_devices=$OPTARG ;;
	f) extra_files+=("$OPTARG") ;;
	i) interactive=1 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 4 ] || [ "$interactive$#" = 13 ] ||
	{ echo "usage: $0 [-A ARCH] [-t S] [-a ACCEL] [-k ARGS] [-c CPUS] [-T] [-R] [-x QEMU_ARGS] [-d DEVICES] [-f FILE] [-i] KERNEL IMAGE OUTDIR COMMAND" >&2; exit 2; }
kernel=$1 image=$2 outdir=$3 command=${4:-}
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")

probe_kvm() {
	local cache=$1
	if [ -w /dev/kvm ] && "$self" -a kvm -t 25 "$kernel" "$image" "$cache.d" true >/dev/null 2>&1; then
		echo kvm > "$cache"
	else
		echo tcg > "$cache"
	fi
}

case $arch in
x86_64|arm64) ;;
*) echo "run-qemu: unknown architecture '$arch' (x86_64 or arm64)" >&2; exit 2 ;;
esac
# No KVM for another architecture's guest.
[ "$arch" = x86_64 ] || [ "$accel" != auto ] || accel=tcg
if [ "$accel" = auto ]; then
	cache=${ACCEL_CACHE:-$(dirname "$outdir")/accel}
	[ -s "$cache" ] || probe_kvm "$cache"
	accel=$(cat "$cache")
fi
case $accel in
kvm) accel_args="-accel kvm" ;;
tcg) accel_args="-accel tcg" ;;
*) echo "run-qemu: unknown accelerator '$accel' (auto, kvm or tcg)" >&2; exit 2 ;;
esac

rm -rf "$outdir"
mkdir -p "$outdir/cmd"
printf '%s\n' "$command" > "$outdir/cmd/run-command"
for file in ${extra_files[@]+"${extra_files[@]}"}; do
	cp "$file" "$outdir/cmd/"
done
(cd "$outdir/cmd" && ls | cpio -o -H newc --owner=0:0 --quiet) > "$outdir/cmd.cpio"
# The kernel looks for an appended uncompressed archive only at a 4-byte
# aligned offset; zeros in between are skipped.
pad=$(( (4 - $(stat -c %s "$image") % 4) % 4 ))
{ cat "$image"; head -c "$pad" /dev/zero; cat "$outdir/cmd.cpio"; } > "$outdir/initrd.img"

# Pin the guest clock to the host's TSC rate: unpinned, some boots fall back
# to a jiffies clocksource and every timing is off.
if [ "$arch" = x86_64 ]; then
	khz=$(awk -F': *' '/^cpu MHz/ { printf "%d", $2 * 1000; exit }' /proc/cpuinfo)
	cmdline="console=ttyS0 rdinit=/init panic=-1 oops=panic tsc_early_khz=$khz tsc=reliable"
else
	cmdline="console=ttyAMA0 rdinit=/init panic=-1 oops=panic mmio_results=/dev/hvc0 mmio_oracle=/dev/hvc1"
fi
cmdline="$cmdline ${GUEST_KERNEL_ARGS:-} $extra_args $end_arg"

# The devices the tests trace: std VGA (a 16M BAR that ioremap() maps with
# 2M pages), edu, ivshmem with a 1G BAR (1G pages, as the CPU has pdpe1gb)
# and e1000, whose in-tree driver binds at boot. Its network goes nowhere;
# it has no option ROM, which the firmware would run and which would touch
# the device before the kernel (bats/boot/capture.bats).
# nvme, a controller with no namespace, for its in-tree driver, a module
# that tests load under the tracer.
devices=(-cpu qemu64,+pdpe1gb)
[ "$arch" = x86_64 ] || devices=(-M virt,gic-version=3 -cpu max)
for device in $wanted_devices; do
	case $arch:$device in
	x86_64:vga) devices+=(-vga std) ;;
	arm64:vga) devices+=(-device bochs-display) ;;
	*:edu) devices+=(-device edu) ;;
	*:ivshmem) devices+=(-object memory-backend-ram,id=shm,size=1G -device ivshmem-plain,memdev=shm) ;;
	x86_64:e1000) devices+=(-netdev user,id=net0,restrict=on -device e1000,netdev=net0,romfile=) ;;
	arm64:e1000) devices+=(-netdev user,id=net0,restrict=on -device e1000e,netdev=net0,romfile=) ;;
	x86_64:nvme) devices+=(-device nvme,serial=mmiotrace0) ;;
	arm64:nvme) devices+=(-device nvme,serial=mmiotrace0,cmb_size_mb=1) ;;
	*) echo "run-qemu: unknown device '$device' (edu, vga, ivshmem, e1000, nvme)" >&2; exit 2 ;;
	esac
done
# The channels to the host: x86's second and third UARTs, or arm64's
# virtio consoles (hvc0, hvc1), each into a file.
if [ "$arch" = x86_64 ]; then
	qemu=qemu-system-x86_64 memory=512M
	channels=(-serial "file:$outdir/serial1.log" -serial "file:$outdir/oracle.log")
else
	qemu=qemu-system-aarch64 memory=1G
	channels=(-device virtio-serial-pci
		-chardev "file,id=results,path=$outdir/serial1.log" -device virtconsole,chardev=results
		-chardev "file,id=oracle,path=$outdir/oracle.log" -device virtconsole,chardev=oracle)
fi
# QEMU's own trace of the device accesses, through a filter: under TCG the
# guest's local APIC (xAPIC, "apic-msi") and the consoles' UART ("serial")
# are device models too, and would fill hundreds of MB with accesses no
# test traces; on arm64's virt, the UART ("pl011"), the GIC's distributor
# and redistributors ("gicv3_*") and ITS ("control", "translation"), and the
# virtio consoles ("virtio-pci-*") likewise.
trace_args=()
if [ "$qemu_trace" = 1 ]; then
	mkfifo "$outdir/qemu-trace.fifo"
	if [ "$arch" = x86_64 ]; then
		trace_names="name '(apic-msi|serial)'"
	else
		trace_names="name '(pl011|gicv3[^']*|control|translation|virtio-[^']*)'"
	fi
	grep -v -E "$trace_names" < "$outdir/qemu-trace.fifo" > "$outdir/qemu-trace.log" &
	trace_filter=$!
	trace_args=(-trace "enable=memory_region_ops_*,file=$outdir/qemu-trace.fifo")
fi

if [ "$interactive" = 1 ]; then
	echo "guest: $accel, $cpus CPUs, devices: $wanted_devices; exit or Ctrl-D powers it off" >&2
	exec $qemu $accel_args -m $memory -smp "$cpus" \
		-nodefaults -no-reboot -display none "${devices[@]}" "${extra_qemu[@]}" \
		-kernel "$kernel" -initrd "$outdir/initrd.img" -append "$cmdline quiet mmio_shell=1" \
		-serial mon:stdio "${channels[@]}"
fi
echo "guest: $accel, $cpus CPUs, timeout ${timeout_s}s, log $outdir/console.log"
set +e
timeout -k 5 "$timeout_s" $qemu $accel_args -m $memory -smp "$cpus" \
	-nodefaults "${reboot_args[@]}" -display none "${devices[@]}" "${extra_qemu[@]}" "${trace_args[@]}" \
	-kernel "$kernel" -initrd "$outdir/initrd.img" -append "$cmdline" \
	-serial "file:$outdir/console.log" "${channels[@]}" \
	-monitor none < /dev/null > "$outdir/qemu.log" 2>&1
qemu_status=$?
# A QEMU that never started leaves the filter waiting for a writer: be one.
if [ "$qemu_trace" = 1 ]; then
	kill -0 "$trace_filter" 2>/dev/null && timeout 5 sh -c ': > "$1"' sh "$outdir/qemu-trace.fifo"
	wait "$trace_filter"
	rm -f "$outdir/qemu-trace.fifo"
fi
set -e

tr -d '\r' < "$outdir/serial1.log" > "$outdir/serial1.txt" 2>/dev/null || : > "$outdir/serial1.txt"
# The status line may follow output that did not end in a newline.
report=$(sed -n 's/.*@@MMIO-EXIT \([0-9]*\)@@$/\1/p' "$outdir/serial1.txt" | tail -n 1)
sed 's/@@MMIO-EXIT [0-9]*@@$//' "$outdir/serial1.txt" > "$outdir/output.log"
if [ "$qemu_status" -eq 124 ] || [ "$qemu_status" -eq 137 ]; then
	echo timeout > "$outdir/status"
	exit 124
fi
if [ -z "$report" ]; then
	echo "noreport (qemu exit $qemu_status)" > "$outdir/status"
	exit 125
fi
echo "$report" > "$outdir/status"
exit "$report"
