#!/bin/bash
# Give SRC exactly the pristine tree plus every patch in SERIES, in order.
# usage: apply.sh SRC SERIES
# SRC is a git tree whose tag "pristine" is the unpacked linux-source; each
# patch becomes one commit, so "make series-check" can build every step.
# Work in SRC that is not in SERIES (commits, uncommitted changes) stops
# it, unless FORCE_APPLY=1: save it first with "make refresh-patches".
set -eu
src=$1 series=$2
dir=$(cd "$(dirname "$series")" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
unsaved=$("$here/applied.sh" unsaved "$src" "$series")
if [ -n "$unsaved" ] && [ "${FORCE_APPLY:-0}" != 1 ]; then
	echo "patches: $src holds work that is not in $series:" >&2
	echo "$unsaved" >&2
	echo "patches: save it with 'make refresh-patches', or discard it with FORCE_APPLY=1" >&2
	exit 1
fi
git -C "$src" am --abort >/dev/null 2>&1 || true
git -C "$src" reset -q --hard pristine
git -C "$src" clean -fdq
n=0
while read -r patch; do
	case $patch in ''|'#'*) continue ;; esac
	if ! git -C "$src" -c user.name=mmiotrace-build -c user.email=build@localhost \
		am -q --committer-date-is-author-date "$dir/$patch" > "$src/../am.log" 2>&1; then
		git -C "$src" am --abort >/dev/null 2>&1 || true
		echo "patches: $patch does not apply (log: $src/../am.log):" >&2
		tail -n 5 "$src/../am.log" >&2
		exit 1
	fi
	n=$((n + 1))
done < "$series"
"$here/applied.sh" record "$src"
echo "patches: $n applied to $src"
