#!/bin/bash
# Boot the arm64 kernel on qemu-system-aarch64 -M virt (TCG) with a
# busybox-only initramfs and check what issue 39's tests will stand on:
# an aarch64 guest on every CPU, the test devices on virt's PCIe, the
# tracing core up, and a kernel log without a splat (bats/splats.ere).
# usage: arm64-boot.sh IMAGE OUTDIR
# Writes OUTDIR/console.log; exits 1 with the reason on the first check
# that fails. busybox comes from Debian's arm64 busybox-static, fetched
# with apt-get download (multiarch is enabled for the download only: an
# arm64 package is never installed on the host).
set -eu
image=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
cpus=2
mkdir -p "$out"
out=$(cd "$out" && pwd)

fetch_busybox() {
	local debs=$out/debs
	[ -x "$out/busybox-root/bin/busybox" ] && return 0
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
	mkdir -p "$debs"
	if ! (cd "$debs" && apt-get download -q busybox-static:arm64 > /dev/null 2>&1); then
		apt-get update -q > /dev/null
		(cd "$debs" && apt-get download -q busybox-static:arm64 > /dev/null)
	fi
	rm -rf "$out/busybox-root"
	dpkg-deb -x "$debs"/busybox-static_*_arm64.deb "$out/busybox-root"
}

make_initramfs() {
	local root=$out/root
	rm -rf "$root"
	mkdir -p "$root"/{bin,dev,proc,sys}
	cp "$out/busybox-root/bin/busybox" "$root/bin/busybox"
	cat > "$root/init" <<-EOF
	#!/bin/busybox sh
	/bin/busybox --install -s /bin
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev
	mount -t tracefs tracefs /sys/kernel/tracing
	echo "ARM64 machine \$(uname -m)"
	echo "ARM64 cpus \$(grep -c ^processor /proc/cpuinfo)"
	for d in /sys/bus/pci/devices/*; do
		echo "ARM64 pci \$(cat \$d/vendor):\$(cat \$d/device)"
	done
	echo "ARM64 tracers \$(cat /sys/kernel/tracing/available_tracers)"
	echo "ARM64 done"
	poweroff -f
	EOF
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out/initramfs.cpio.gz"
}

fail() {
	echo "arm64-boot: $*; console: $out/console.log" >&2
	exit 1
}

fetch_busybox
make_initramfs
timeout 600 qemu-system-aarch64 -M virt,gic-version=3 -cpu max -accel tcg -smp "$cpus" -m 1024 \
	-nographic -no-reboot -kernel "$image" -initrd "$out/initramfs.cpio.gz" \
	-append "console=ttyAMA0 panic=-1 rdinit=/init" \
	-device edu -netdev user,id=n0 -device e1000e,netdev=n0 \
	< /dev/null > "$out/console.log" 2>&1 || fail "QEMU failed or timed out"
tr -d '\r' < "$out/console.log" > "$out/console.txt"

grep -qx 'ARM64 done' "$out/console.txt" || fail "the guest did not finish its script"
grep -qx 'ARM64 machine aarch64' "$out/console.txt" || fail "not an aarch64 guest"
grep -qx "ARM64 cpus $cpus" "$out/console.txt" || fail "not $cpus CPUs online"
grep -qx 'ARM64 pci 0x1234:0x11e8' "$out/console.txt" || fail "no edu device"
grep -qx 'ARM64 pci 0x8086:0x10d3' "$out/console.txt" || fail "no e1000e device"
grep -q '^ARM64 tracers .*function' "$out/console.txt" || fail "no function tracer"
if grep -Eq -f "$here/../bats/splats.ere" "$out/console.txt"; then
	fail "a splat in the kernel log: $(grep -E -m1 -f "$here/../bats/splats.ere" "$out/console.txt")"
fi
echo "arm64-boot: aarch64 guest up on $cpus CPUs with edu and e1000e, kernel log clean"
