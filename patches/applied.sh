#!/bin/bash
# What build/linux holds beyond patches/, so that applying the series never
# throws away work that was not saved with "make refresh-patches".
# usage: applied.sh record SRC           remember SRC's HEAD as saved
#        applied.sh unsaved SRC SERIES   print what would be lost, if any
set -eu
cmd=$1 src=$2
stamp=$src/.git/mmiotrace-saved-head

patch_id() { git -C "$src" patch-id --stable | cut -d' ' -f1; }

case $cmd in
record)
	git -C "$src" rev-parse HEAD > "$stamp" ;;
unsaved)
	series=$3
	dir=$(cd "$(dirname "$series")" && pwd)
	[ -d "$src/.git" ] || exit 0
	git -C "$src" rev-parse -q --verify pristine >/dev/null || exit 0
	git -C "$src" status --porcelain | sed "s/^/  uncommitted: /"
	# Unchanged since the last apply or refresh: nothing new.
	[ "$(cat "$stamp" 2>/dev/null)" = "$(git -C "$src" rev-parse HEAD)" ] && exit 0
	saved=$(sed -e '/^#/d' -e '/^$/d' "$series" | while read -r patch; do
		patch_id < "$dir/$patch"; done)
	for commit in $(git -C "$src" rev-list --reverse pristine..HEAD); do
		id=$(git -C "$src" show "$commit" | patch_id)
		grep -qxF "$id" <<< "$saved" ||
			echo "  commit: $(git -C "$src" log -1 --format='%h %s' "$commit")"
	done ;;
*)
	echo "usage: applied.sh record SRC | unsaved SRC SERIES" >&2; exit 2 ;;
esac
