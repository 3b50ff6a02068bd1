#!/bin/bash
# Make OBJ/.config: tinyconfig plus the fragments, then check that Kconfig
# kept every option the fragments ask for. .config is replaced only when it
# changes, so an unchanged configuration rebuilds nothing.
# usage: merge.sh SRC OBJ FRAGMENT...
set -eu
src=$1 obj=$2
shift 2
mkdir -p "$obj/kconfig-tmp"
tmp=$(cd "$obj/kconfig-tmp" && pwd)
make -s -C "$src" O="$tmp" tinyconfig > "$tmp/log" 2>&1
"$src/scripts/kconfig/merge_config.sh" -m -O "$tmp" "$tmp/.config" "$@" >> "$tmp/log" 2>&1
make -s -C "$src" O="$tmp" olddefconfig >> "$tmp/log" 2>&1
# Each option as the last fragment that sets it has it: a later fragment
# (a sanitizer's) may change what an earlier one says.
dropped=$(cat "$@" | grep -E '^(CONFIG_[A-Z0-9_]+=|# CONFIG_[A-Z0-9_]+ is not set)' |
	awk '{ opt = $1 == "#" ? $2 : substr($0, 1, index($0, "=") - 1); last[opt] = $0
		if (!(opt in seen)) { seen[opt] = 1; order[++n] = opt } }
		END { for (i = 1; i <= n; i++) print last[order[i]] }' |
	while read -r line; do
		case $line in
		'# '*) opt=${line#\# }; opt=${opt%% *}
			grep -q "^$opt=" "$tmp/.config" && echo "$line" ;;
		*) grep -qxF "$line" "$tmp/.config" || echo "$line" ;;
		esac
	done)
if [ -n "$dropped" ]; then
	echo "kconfig: these options from kconfig/ were dropped by Kconfig (missing dependency?):" >&2
	echo "$dropped" | sed 's/^/  /' >&2
	exit 1
fi
if ! cmp -s "$tmp/.config" "$obj/.config"; then
	cp "$tmp/.config" "$obj/.config"
	echo "kconfig: $obj/.config updated"
fi
