#!/bin/bash
# checkpatch --strict on one patch of the series: one TAP line on stdout, its log in LOG.
# usage: checkpatch.sh SRC PATCH LOG
# The tree is unpacked from linux-source without its history, so the
# commits that Fixes: tags name cannot be looked up in it: that one check
# is left to a kernel git tree.
# checkpatch validates SPDX lines with scripts/spdxcheck.py, which needs
# python3-ply and python3-git; a python3 ahead in PATH without them (pyenv)
# makes it fail quietly and accept any licence, so Debian's python3 goes
# first, and any output at all (a traceback included) fails the patch.
set -eu
src=$1 patch=$(cd "$(dirname "$2")" && pwd)/$(basename "$2") log=$3
name=$(basename "$patch")
if (cd "$src" && PATH=/usr/bin:$PATH \
	./scripts/checkpatch.pl --strict -q --ignore UNKNOWN_COMMIT_ID "$patch") > "$log" 2>&1 &&
	[ ! -s "$log" ]; then
	echo "ok - checkpatch: $name"
else
	echo "not ok - checkpatch: $name (log: $log)"
	head -n 20 "$log" | sed 's/^/# /'
fi
