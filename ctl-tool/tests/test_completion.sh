#!/bin/bash
# The bash completion offers the commands, their options and arguments.
# usage: test_completion.sh COMPLETION MMIOCTL   (prints ok/not ok lines)
set -u
completion=$1 mmioctl=$2
failures=0
# shellcheck source=/dev/null
. "$completion"

# completes WORDS... -- EXPECTED: completing the last of WORDS offers EXPECTED.
completes() {
	local words=() expected
	while [ "$1" != "--" ]; do words+=("$1"); shift; done
	shift
	expected="$*"
	COMP_WORDS=("$mmioctl" "${words[@]}")
	COMP_CWORD=${#words[@]}
	COMPREPLY=()
	_mmioctl
	if [ "${COMPREPLY[*]}" = "$expected" ]; then
		echo "ok - mmioctl completion: '${words[*]}' offers '$expected'"
	else
		echo "not ok - mmioctl completion: '${words[*]}' offers '${COMPREPLY[*]}', expected '$expected'"
		failures=$((failures + 1))
	fi
}

completes re -- record reset
completes ma -- maps maps-only mark
completes --root /tmp st -- status
completes --r -- --root
completes pc o -- on off
completes status --j -- --json
completes record - -- -o -b -d -q -- --help
completes record -o /dev/nul -- /dev/null
completes list - -- --help
[ "$(complete -p mmioctl)" = "complete -F _mmioctl mmioctl" ] &&
	echo "ok - mmioctl completion: registered for mmioctl" ||
	{ echo "not ok - mmioctl completion: not registered"; failures=$((failures + 1)); }
[ "$failures" = 0 ]
