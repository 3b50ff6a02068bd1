#!/bin/bash
# Build the kernel after every patch of the series, in a worktree and object
# directory of their own, with the configuration of the test kernel.
# usage: series-check.sh SRC WORKDIR CONFIG
# FROM=N starts at patch N, after a run that stopped there.
set -eu
src=$1 work=$2 config=$3
mkdir -p "$work"
work=$(cd "$work" && pwd)
if [ ! -d "$work/src" ]; then
	echo "series-check: creating worktree $work/src"
	git -C "$src" worktree add -q --detach "$work/src" pristine
fi
mkdir -p "$work/obj"
n=0
for commit in $(git -C "$src" rev-list --reverse pristine..HEAD); do
	n=$((n + 1))
	[ "$n" -ge "${FROM:-1}" ] || continue
	subject=$(git -C "$src" log -1 --format=%s "$commit")
	git -C "$work/src" checkout -q --detach "$commit"
	cp "$config" "$work/obj/.config"
	log=$work/build-$n.log
	if ! { make -s -C "$work/src" O="$work/obj" olddefconfig &&
		make -s -C "$work/src" O="$work/obj" -j"$(nproc)" all; } > "$log" 2>&1; then
		tail -n 20 "$log"
		echo "series-check: the kernel does not build after patch $n: $subject (log: $log)"
		exit 1
	fi
	if grep -E 'warning:' "$log"; then
		echo "series-check: patch $n adds build warnings: $subject (log: $log)"
		exit 1
	fi
	echo "series-check: builds after patch $n: $subject"
done
echo "series-check: all $n patches build"
