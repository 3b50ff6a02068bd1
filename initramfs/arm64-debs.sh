#!/bin/bash
# Fetch Debian's arm64 packages that the arm64 guest image takes its
# programs from (busybox-static, bash-static, trace-cmd and the libraries
# it needs) and unpack them into OUTDIR/root. Multiarch is enabled for the
# download only (apt-get download, dpkg-deb -x): an arm64 package is never
# installed on this machine.
# usage: arm64-debs.sh OUTDIR PACKAGE...
set -eu
out=$1
shift
mkdir -p "$out/debs"
out=$(cd "$out" && pwd)
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
wanted=$(printf '%s:arm64 ' "$@")
# The package lists may not know arm64 yet: update once, then again.
if ! (cd "$out/debs" && apt-get download -q $wanted > "$out/download.log" 2>&1); then
	echo "image: apt-get update for arm64's package lists"
	apt-get update -q > /dev/null
	(cd "$out/debs" && apt-get download -q $wanted > "$out/download.log" 2>&1) ||
		{ cat "$out/download.log" >&2; echo "image: cannot download $wanted" >&2; exit 1; }
fi
rm -rf "$out/root"
for package in "$@"; do
	# The newest of any earlier downloads.
	deb=$(ls -t "$out/debs/${package}_"*_arm64.deb | head -n 1)
	dpkg-deb -x "$deb" "$out/root"
done
echo "image: arm64 packages unpacked in $out/root: $*"
