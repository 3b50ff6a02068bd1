#!/bin/bash
# Make OBJ/.config for make deb KCONFIG=... (e.g. /boot/config-$(uname -r)):
# that configuration with kconfig/mmiotrace.config and packaging/needs.config
# merged in, checked that Kconfig kept every option of them. (Without
# KCONFIG, make deb takes the production kernel's fragments.)
# usage: kernel-config.sh SRC OBJ KCONFIG
set -eu
src=$1 obj=$2 kconfig=$3
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")

[ -r "$kconfig" ] || { echo "deb: KCONFIG=$kconfig: cannot read it" >&2; exit 1; }
grep -q '^CONFIG_X86_64=y' "$kconfig" ||
	{ echo "deb: KCONFIG=$kconfig: not an x86_64 kernel configuration" >&2; exit 1; }
mkdir -p "$obj/kconfig-tmp"
tmp=$(cd "$obj/kconfig-tmp" && pwd)
cp "$kconfig" "$tmp/.config"
"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" \
	"$top/kconfig/mmiotrace.config" "$here/needs.config" > "$tmp/log" 2>&1
if grep -q '^CONFIG_SYSTEM_REVOCATION_KEYS="..*"' "$tmp/.config"; then
	"$src/scripts/config" --file "$tmp/.config" --set-str SYSTEM_REVOCATION_KEYS ""
fi
make -s -C "$src" O="$tmp" olddefconfig >> "$tmp/log" 2>&1
dropped=$(grep -E '^CONFIG_[A-Z0-9_]+=' "$top/kconfig/mmiotrace.config" "$here/needs.config" |
	cut -d: -f2- | while read -r line; do grep -qxF "$line" "$tmp/.config" || echo "$line"; done)
if [ -n "$dropped" ]; then
	echo "deb: Kconfig dropped these options from $kconfig (missing dependency?):" >&2
	echo "$dropped" | sed 's/^/  /' >&2
	exit 1
fi
cmp -s "$tmp/.config" "$obj/.config" || cp "$tmp/.config" "$obj/.config"
