#!/bin/bash
# Build the guest image: busybox, bash and bats from Debian's packages, the
# project's test modules, tools and bats tests, and our init.
# usage: build.sh OUT.cpio.gz STAGING_DIR FILE...
#   FILE: a .ko goes to /opt/mmio/modules, a directory is a modules_install
#   root (its lib/modules, for modprobe), an executable goes to /usr/bin.
# ARCH_ROOT: another architecture's image (arm64): busybox, bash and
# trace-cmd with its libraries from Debian's packages of that architecture
# unpacked there (initramfs/arm64-debs.sh) instead of this machine's.
set -eu
out=$1 staging=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
arch_root=${ARCH_ROOT:+$(cd "$ARCH_ROOT" && pwd)}

rm -rf "$staging"
mkdir -p "$staging"
cd "$staging"
mkdir -p bin sbin usr/bin usr/sbin usr/lib usr/libexec etc root tmp proc sys dev \
	opt/mmio/modules
install -m 0755 "$arch_root/bin/busybox" bin/busybox
# The applets of this machine's busybox-static: another architecture's
# cannot run here, and Debian builds them alike.
for applet in $(/bin/busybox --list-full); do
	[ -e "$applet" ] || ln -s /bin/busybox "$applet"
done
install -m 0755 "$arch_root/bin/bash-static" bin/bash
cp -a /usr/lib/bats-core usr/lib/
cp -a /usr/libexec/bats-core usr/libexec/
install -m 0755 /usr/bin/bats usr/bin/bats

# copy_dynamic BINARY: a dynamically linked program from the host, with
# the shared libraries and the loader it needs, at the same paths.
copy_dynamic() {
	local lib
	install -D -m 0755 "$1" ".$1"
	for lib in $(ldd "$1" | awk '$2 == "=>" { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e ".$lib" ] || install -D -m 0755 "$lib" ".$lib"
	done
}

# copy_foreign BINARY: the same from ARCH_ROOT, whose programs ldd cannot
# run: the loader and the libraries that readelf names, found in its
# library directories, recursively.
copy_foreign() {
	local path=$1 lib dir found
	[ ! -e ".$path" ] || return 0
	install -D -m 0755 "$arch_root$path" ".$path"
	lib=$(readelf -l "$arch_root$path" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
	if [ -n "$lib" ] && [ ! -e ".$lib" ]; then
		mkdir -p ".$(dirname "$lib")"
		cp -a "$arch_root$lib" ".$lib"
		copy_foreign "$(dirname "$lib")/$(readlink "$arch_root$lib")"
	fi
	for lib in $(readelf -d "$arch_root$path" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		found=""
		for dir in /lib/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu; do
			[ -e "$arch_root$dir/$lib" ] && { found=$dir/$lib; break; }
		done
		[ -n "$found" ] || { echo "image: $path needs $lib, not in $arch_root" >&2; exit 1; }
		copy_foreign "$found"
	done
}
# trace-cmd, to record the mmiotrace events as users do.
if [ -n "$arch_root" ]; then copy_foreign /usr/bin/trace-cmd; else copy_dynamic /usr/bin/trace-cmd; fi

cat > etc/passwd <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
PASSWD
cat > etc/group <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP

install -m 0755 "$top/initramfs/init" init
install -m 0755 "$top/initramfs/demo.sh" opt/mmio/demo.sh
install -m 0644 "$top/initramfs/pci.sh" opt/mmio/pci.sh
# make shell's guest side, and mmioctl's man page rendered for its man.
install -m 0755 "$top/initramfs/shell.sh" opt/mmio/shell.sh
install -m 0644 "$top/initramfs/shellrc" opt/mmio/shellrc
mkdir -p usr/share/man/cat1
groff -man -Tascii -P-cbou "$top/docs/mmioctl.1" 2>/dev/null > usr/share/man/cat1/mmioctl.1
rm -f usr/bin/man
cat > usr/bin/man <<'MAN'
#!/bin/sh
# man NAME: the pages rendered when the image was built (mmioctl's).
page=/usr/share/man/cat1/$1.1
[ -r "$page" ] || { echo "man: no page for '$1' in this guest (only mmioctl's)" >&2; exit 1; }
if [ -t 1 ]; then exec less "$page"; else exec cat "$page"; fi
MAN
chmod 0755 usr/bin/man
# The README's commands and mmioctl's completion are tested in the guest.
install -m 0644 "$top/README.md" opt/mmio/README.md
install -D -m 0644 "$top/ctl-tool/mmioctl.bash-completion" \
	usr/share/bash-completion/completions/mmioctl
cp -a "$top/bats" "$top/bench" "$top/fuzz" opt/mmio/
rm -rf opt/mmio/bats/module opt/mmio/bats/tools
for f in "$@"; do
	if [ -d "$f" ]; then
		mkdir -p lib && cp -a "$f/lib/modules" lib/
		continue
	fi
	case $f in
	*.ko) install -m 0644 "$f" opt/mmio/modules/ ;;
	*) install -m 0755 "$f" usr/bin/ ;;
	esac
done

find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --owner=0:0 --quiet |
	gzip -n -6 > "$out.tmp"
mv "$out.tmp" "$out"
echo "image: $out ($(du -h "$out" | cut -f1))"
