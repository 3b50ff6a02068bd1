#!/bin/bash
# Debian packages of the patched kernel (the kernel's own bindeb-pkg: image,
# headers, libc-dev), built in OBJ from OBJ/.config (kernel-config.sh). The
# release is 6.12.N-mmiotrace, the version 6.12.N-1+mmiotraceP for a series
# of P patches. bindeb-pkg leaves the packages beside OBJ; they are moved
# to OUT, the previous ones removed.
# usage: kernel-deb.sh SRC OBJ OUT PATCHES JOBS
set -eu
src=$1 obj=$2 out=$3 patches=$4 jobs=$5
version=$(make -s -C "$src" kernelversion)
pkgversion=$version-1+mmiotrace$patches
parent=$(dirname "$obj")
log=$obj/deb-build.log
mkdir -p "$out"
rm -f "$parent"/linux-*.deb "$parent"/linux-*.changes "$parent"/linux-*.buildinfo \
	"$out"/linux-*.deb
echo "deb: building the kernel packages $pkgversion (log: $log)"
if ! make -s -C "$src" O="$obj" -j"$jobs" LOCALVERSION=-mmiotrace \
		KDEB_PKGVERSION="$pkgversion" DPKG_FLAGS=-d KBUILD_BUILD_USER=mmiotrace \
		KBUILD_BUILD_HOST=deb bindeb-pkg > "$log" 2>&1; then
	tail -n 30 "$log"
	echo "deb: the kernel's packaging failed, log: $log" >&2
	exit 1
fi
[ "$parent" = "$out" ] || mv "$parent"/linux-*.deb "$out"/
rm -f "$parent"/linux-*.changes "$parent"/linux-*.buildinfo
ls "$out"/linux-*.deb | sed 's/^/deb: /'
