#!/bin/bash
# make check-deb: the packages in DEB_DIR (make deb, default configuration)
# looked at and used without installing anything on this machine. TAP
# lines, then "N passed, N failed"; fails unless all passed.
#  - the kernel image and headers packages hold what a machine needs;
#  - the mmioctl package holds exactly its files and lintian finds nothing;
#  - mmioctl installed with dpkg --root into a scratch root decodes a
#    fixture with the maps it installed, as the host tests expect;
#  - the packaged kernel boots with a guest image whose test module is
#    built against the headers package, its modules (nvme) from the image
#    package, and runs bats/boots/deb.boot's tests, QEMU's record the oracle.
# usage: check-deb.sh DEB_DIR BUILD_DIR
set -u
debs=$1 build=$2
top=$(cd "$(dirname "$0")/.." && pwd)
work=$debs/check
rm -rf "$work" && mkdir -p "$work"
results=$work/results.tap
: > "$results"

ok() { echo "ok - $1" | tee -a "$results"; }
not_ok() { echo "not ok - $1" | tee -a "$results"; shift; printf '#   %s\n' "$@" | tee -a "$results"; }
one() { # one PATTERN: the one package file that matches
	local found=("$debs"/$1)
	[ ${#found[@]} = 1 ] && [ -f "${found[0]}" ] && echo "${found[0]}"
}

# make deb KCONFIG=...: Debian's own configuration (linux-config-6.12)
# takes what the tracer needs; a file that is not an x86_64 configuration
# is refused before anything is built.
src=$build/linux
debian_config=/usr/src/linux-config-6.12/config.amd64_none_amd64.xz
if [ -r "$debian_config" ]; then
	xz -dc "$debian_config" > "$work/debian.config"
	if out=$("$top/packaging/kernel-config.sh" "$src" "$work/kconfig" "$work/debian.config" 2>&1) &&
			grep -qx CONFIG_MMIOTRACE=y "$work/kconfig/.config" &&
			grep -qx 'CONFIG_SYSTEM_TRUSTED_KEYS=""' "$work/kconfig/.config" &&
			grep -qx CONFIG_DEBUG_INFO_NONE=y "$work/kconfig/.config" &&
			[ "$(grep -c '=m$' "$work/kconfig/.config")" -gt 3000 ]; then
		ok "KCONFIG=Debian's config-6.12: merged with MMIOTRACE, debugfs, no trusted keys or debug info, its modules kept"
	else
		not_ok "KCONFIG=Debian's config-6.12 does not merge" "$out"
	fi
else
	not_ok "KCONFIG: $debian_config is not there (package linux-config-6.12)"
fi
printf 'CONFIG_ARM64=y\n' > "$work/arm64.config"
for bad in "$work/none.config" "$work/arm64.config"; do
	if out=$("$top/packaging/kernel-config.sh" "$src" "$work/kconfig-bad" "$bad" 2>&1); then
		not_ok "KCONFIG=$(basename "$bad") is refused" "it was taken"
	elif [ ! -e "$work/kconfig-bad/.config" ] && case $out in "deb: KCONFIG=$bad: "*) true ;; *) false ;; esac; then
		ok "KCONFIG=$(basename "$bad") is refused: ${out#deb: KCONFIG=$bad: }"
	else
		not_ok "KCONFIG=$(basename "$bad") is refused with a message, nothing written" "$out"
	fi
done

image_deb=$(one 'linux-image-*-mmiotrace_*.deb') headers_deb=$(one 'linux-headers-*-mmiotrace_*.deb')
tool_deb=$(one 'mmioctl_*.deb')
if [ -z "$image_deb" ] || [ -z "$headers_deb" ] || [ -z "$tool_deb" ]; then
	not_ok "packages: one kernel image, one headers and one mmioctl package in $debs" "$(ls "$debs")"
	echo "0 passed, 1 failed"
	exit 1
fi
release=$(dpkg-deb -f "$image_deb" Package | sed 's/^linux-image-//')

# has DEB PATH...: every PATH is in the package.
has() {
	local deb=$1 missing="" path
	shift
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|' > "$work/list"
	for path; do grep -qxF "$path" "$work/list" || missing="$missing $path"; done
	[ -z "$missing" ] || { echo "$missing"; return 1; }
}

if out=$(has "$image_deb" "/boot/vmlinuz-$release" "/boot/config-$release" \
		"/lib/modules/$release/kernel/drivers/nvme/host/nvme.ko" \
		"/lib/modules/$release/modules.dep"); then
	ok "linux-image-$release: kernel, configuration, nvme module, modules.dep"
else
	not_ok "linux-image-$release: missing:" "$out"
fi
dpkg-deb -x "$image_deb" "$work/image"
if grep -qx CONFIG_MMIOTRACE=y "$work/image/boot/config-$release" &&
		grep -qx '# CONFIG_PROVE_LOCKING is not set' "$work/image/boot/config-$release"; then
	ok "linux-image-$release: CONFIG_MMIOTRACE=y, no lockdep (the production configuration)"
else
	not_ok "linux-image-$release: its configuration is not the production one" \
		"$(grep -E 'CONFIG_MMIOTRACE|CONFIG_PROVE_LOCKING' "$work/image/boot/config-$release")"
fi
hdr=/usr/src/linux-headers-$release
if out=$(has "$headers_deb" "$hdr/Makefile" "$hdr/include/config/auto.conf" "$hdr/Module.symvers" \
		"$hdr/scripts/mod/modpost" "$hdr/include/generated/autoconf.h"); then
	ok "linux-headers-$release: what building an out-of-tree module needs"
else
	not_ok "linux-headers-$release: missing:" "$out"
fi

# mmioctl: exactly these files, and lintian clean.
dpkg-deb -c "$tool_deb" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./|/|' | sort > "$work/tool.list"
cat > "$work/tool.expected" <<'LIST'
/usr/bin/mmioctl
/usr/share/bash-completion/completions/mmioctl
/usr/share/doc/mmioctl/changelog.Debian.gz
/usr/share/doc/mmioctl/copyright
/usr/share/lintian/overrides/mmioctl
/usr/share/man/man1/mmioctl.1.gz
/usr/share/mmioctl/maps/e1000.xml
/usr/share/mmioctl/maps/edu.xml
/usr/share/mmioctl/maps/nvme.xml
LIST
if out=$(diff "$work/tool.expected" "$work/tool.list"); then
	ok "mmioctl package: its 9 files"
else
	not_ok "mmioctl package: files differ from the expected list" "$out"
fi
if out=$(lintian --fail-on error,warning "$tool_deb" 2>&1 | grep -v 'running with root privileges'); [ -z "$out" ]; then
	ok "mmioctl package: lintian reports nothing"
else
	not_ok "mmioctl package: lintian:" "$out"
fi

# Installed into a scratch root, with dpkg's database of its own there.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: > "$root/var/lib/dpkg/status"
if out=$(dpkg --root="$root" --force-not-root --force-depends --log=/dev/null \
		--install "$tool_deb" 2>&1) &&
		[ "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' mmioctl)" = "install ok installed" ]; then
	ok "mmioctl package: dpkg --root installs it into a scratch root"
else
	not_ok "mmioctl package: dpkg --root failed" "$out"
fi
fixtures=$top/ctl-tool/tests
if (cd "$fixtures" && MMIOCTL_MAPS=$root/usr/share/mmioctl/maps "$root/usr/bin/mmioctl" decode \
		fixtures/nvme-probe.txt > "$work/decoded" 2> "$work/decode.err") &&
		out=$(diff "$fixtures/expected/nvme-probe.decode" "$work/decoded") &&
		grep -qxF "mmioctl: 00:06.0 1b36:0010 BAR0: NVME from $root/usr/share/mmioctl/maps/nvme.xml" \
			"$work/decode.err"; then
	ok "mmioctl package: the installed tool finds the installed nvme map by PCI ID and decodes the probe"
else
	not_ok "mmioctl package: decode with the installed maps differs from expected/nvme-probe.decode" \
		"$(cat "$work/decode.err")" "$(echo "${out:-}" | head -n 20)"
fi
if [ "$("$root/usr/bin/mmioctl" --version)" = "mmioctl $(dpkg-deb -f "$tool_deb" Version | sed 's/+.*//')" ]; then
	ok "mmioctl package: the installed tool runs, its version the package's"
else
	not_ok "mmioctl package: mmioctl --version" "$("$root/usr/bin/mmioctl" --version 2>&1)"
fi

# The kernel package booted: the test module built against the headers
# package (its scripts run here), the modules from the image package.
dpkg-deb -x "$headers_deb" "$work/headers"
mkdir -p "$work/module"
cp "$top/bats/module/mmiotouch.c" "$top/bats/module/fuzztarget.c" "$top/bats/module/Kbuild" "$work/module/"
if out=$(make -s -C "$work/headers$hdr" M="$work/module" modules 2>&1) &&
		[ "$(modinfo -F vermagic "$work/module/mmiotouch.ko" | cut -d' ' -f1)" = "$release" ]; then
	ok "linux-headers-$release: the test module builds against it, vermagic $release"
	tools=$(find "$build/tools" "$build/x86-selftests" -maxdepth 1 -type f -perm -u+x 2>/dev/null)
	"$top/initramfs/build.sh" "$work/guest.cpio.gz" "$work/guest-root" "$work/module/mmiotouch.ko" \
		"$work/image" $tools "$build/ctl-tool/static/mmioctl" > "$work/image.log" 2>&1 ||
		not_ok "guest image with the packaged kernel's modules" "$(tail -n 5 "$work/image.log")"
	HOST_MMIOCTL=$build/ctl-tool/mmioctl "$top/bats/harness/boot.sh" \
		"$work/image/boot/vmlinuz-$release" "$work/guest.cpio.gz" "$work" deb | tee -a "$results"
else
	not_ok "linux-headers-$release: the test module does not build against it" "$(echo "$out" | tail -n 10)"
fi

passed=$(grep -c '^ok ' "$results")
failed=$(grep -c '^not ok ' "$results")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
