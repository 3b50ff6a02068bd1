#!/bin/bash
# The bash completion offers the commands, their options and arguments.
# usage: test_completion.sh COMPLETION MMIOCTL   (prints ok/not ok lines)
set -u
completion=$1 mmioctl=$2
maps=$(cd "$(dirname "$0")/../maps" && pwd)
fixtures=$(cd "$(dirname "$0")/fixtures" && pwd)
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
completes --root /tmp sta -- status stat
completes --r -- --root
completes pc o -- on off
completes status --j -- --json
completes status - -- -i --instance --json --help
completes record - -- -e -i -o -b -d -q -- --help
completes hist - -- -i --instance --json --help
completes on - -- -i --instance --help
completes reset --i -- --instance
fake=$(mktemp -d)
mkdir -p "$fake/sys/kernel/tracing/instances/mmioctl" "$fake/sys/kernel/tracing/instances/probe"
completes --root "$fake" hist -i "" -- mmioctl probe
completes --root "$fake" record -e --instance p -- probe
completes --root "$fake" last-boot -i "" -- mmioctl probe
MMIOCTL_ROOT=$fake completes off -i m -- mmioctl
rm -r "$fake"
completes record -o /dev/nul -- /dev/null
completes list - -- --help
completes de -- del del-port del-override del-drop decode
completes ov -- override overrides
completes cl -- clear clear-ports clear-overrides
completes override 0x1000 4 1 - -- --count --help
completes override - -- --count --from --help
completes fuzz --s -- --seed --stop-on-crash
completes drop 0x1000 4 --count "" --
completes drop --c -- --count
completes di -- diff
completes decode --f -- --fold
completes decode - -- --map --map-dir --no-maps --variant --fold --json --help
completes stat - -- --map --map-dir --no-maps --variant --sort --json --help
completes stat --sort re -- reads
completes decode --variant "" --
completes diff - -- --map --map-dir --no-maps --variant --help
completes decode --map "$maps/nv" -- "$maps/nvme.xml"
completes stat --map "$maps/ed" -- "$maps/edu.xml"
completes stat --map-dir "${maps%/maps}/map" -- "$maps"
completes diff "$fixtures/nvme-p" -- "$fixtures/nvme-probe.txt"
completes co -- convert
completes convert - -- - --help
completes convert "$fixtures/nvme-p" -- "$fixtures/nvme-probe.txt"
completes la -- last-boot
completes last-boot - -- -i --instance --clear --help
completes bo -- boot-params
completes boot-params - -- --flight --flight= -i --instance --help
completes boot-params --flight a -- add-pci
completes boot-params -i "" --
[ "$(complete -p mmioctl)" = "complete -F _mmioctl mmioctl" ] &&
	echo "ok - mmioctl completion: registered for mmioctl" ||
	{ echo "not ok - mmioctl completion: not registered"; failures=$((failures + 1)); }
[ "$failures" = 0 ]
