#!/bin/bash
# The mmioctl package: the tool (built with Debian's hardening flags), its
# register maps, man page and bash completion, as `make install` lays them
# out under /usr, with the files Debian policy asks of a binary package.
# Version: mmioctl's own, +mmiotraceP for the series of P patches it
# drives. Written to OUT/mmioctl_VERSION_ARCH.deb.
# usage: mmioctl-deb.sh CTL_TOOL_DIR OUT PATCHES
set -eu
tool=$(cd "$1" && pwd) out=$2 patches=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$out/mmioctl-pkg
stage=$work/root
arch=$(dpkg --print-architecture)
upstream=$(sed -n 's/^#define VERSION[[:space:]]*"\(.*\)"$/\1/p' "$tool/mmioctl.c")
[ -n "$upstream" ] || { echo "deb: no VERSION in $tool/mmioctl.c" >&2; exit 1; }
version=$upstream+mmiotrace$patches-1
deb=$out/mmioctl_${version}_$arch.deb

rm -rf "$work" "$out"/mmioctl_*.deb
mkdir -p "$stage/DEBIAN"
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
CPPFLAGS=$(dpkg-buildflags --get CPPFLAGS) CFLAGS=$(dpkg-buildflags --get CFLAGS) \
LDFLAGS=$(dpkg-buildflags --get LDFLAGS) \
	make -s -C "$tool" O="$work/build" DESTDIR="$stage" PREFIX=/usr install > "$work/build.log" 2>&1 ||
	{ cat "$work/build.log"; echo "deb: building mmioctl failed" >&2; exit 1; }
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$stage/usr/bin/mmioctl"
gzip -9n "$stage/usr/share/man/man1/mmioctl.1"

doc=$stage/usr/share/doc/mmioctl
install -D -m 0644 "$here/mmioctl.copyright" "$doc/copyright"
install -D -m 0644 "$here/mmioctl.lintian-overrides" "$stage/usr/share/lintian/overrides/mmioctl"
date=$(git -C "$tool" log -1 --format=%aD 2>/dev/null || date -R)
printf '%s\n' "mmioctl ($version) unstable; urgency=medium" "" \
	"  * Built from the mmiotrace series of $patches patches." "" \
	" -- mmiotrace maintainers <maintainers@users.noreply.a-seed-a93b4e5c.example>  $date" |
	gzip -9n > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# dpkg-shlibdeps reads debian/control of the directory it runs in.
mkdir -p "$work/src/debian"
printf 'Source: mmioctl\n\nPackage: mmioctl\nArchitecture: any\n' > "$work/src/debian/control"
depends=$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/mmioctl" | sed -n 's/^shlibs:Depends=//p')
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@DEPENDS@/$depends/" \
	-e "s/@SIZE@/$size/" "$here/mmioctl.control" > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -printf '%P\n' | sort | sed 's|^|usr/|' | xargs md5sum) \
	> "$stage/DEBIAN/md5sums"
find "$stage" -type d -exec chmod 0755 {} +
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" > /dev/null
echo "deb: $deb"
