#!/bin/bash
# Write patches/ from the commits of SRC on top of its tag "pristine": one
# git format-patch file per commit, the cover letter and the series file.
# The patches are generated, never edited by hand; the cover letter's
# subject and text come from cover-letter.txt (first line the subject),
# its shortlog and diffstat from the commits.
# usage: refresh.sh SRC PATCHDIR
set -eu
src=$1 dir=$2
branch=$(git -C "$src" symbolic-ref -q --short HEAD) ||
	{ echo "refresh-patches: $src is not on a branch" >&2; exit 1; }
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
	echo "refresh-patches: $src has uncommitted changes; commit them first" >&2
	exit 1
fi
count=$(git -C "$src" rev-list --count pristine..HEAD)
[ "$count" -gt 0 ] || { echo "refresh-patches: no commits on top of pristine in $src" >&2; exit 1; }

# format-patch takes the cover letter from the branch description.
git -C "$src" config "branch.$branch.description" "$(cat "$dir/cover-letter.txt")"
rm -f "$dir"/[0-9][0-9][0-9][0-9]-*.patch
git -C "$src" format-patch -q --zero-commit --cover-letter \
	--cover-from-description=subject -o "$(cd "$dir" && pwd)" pristine..HEAD
(cd "$dir" && ls [0-9][0-9][0-9][0-9]-*.patch | grep -v '^0000-') > "$dir/series"
"$(dirname "$0")/applied.sh" record "$src"
echo "refresh-patches: $count patches and the cover letter written to $dir"
