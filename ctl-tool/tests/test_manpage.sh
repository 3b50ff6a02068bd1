#!/bin/bash
# The man page renders without a warning, its synopsis reads as intended,
# and it describes every command that "mmioctl --help" lists.
# usage: test_manpage.sh PAGE MMIOCTL   (prints ok/not ok lines)
set -u
page=$1 mmioctl=$2
failures=0

result() { # result OK|FAIL DESCRIPTION [DETAIL]
	if [ "$1" = OK ]; then
		echo "ok - mmioctl man page: $2"
	else
		echo "not ok - mmioctl man page: $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		failures=$((failures + 1))
	fi
}

warnings=$(groff -man -Tutf8 -ww "$page" 2>&1 >/dev/null)
[ -z "$warnings" ] && result OK "renders without warnings" ||
	result FAIL "renders without warnings" "$warnings"

# Rendered wide enough for each synopsis line to stay whole.
rendered=$(groff -man -Tascii -rLL=140n "$page" 2>/dev/null | col -bx)
synopsis=$(sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' <<< "$rendered" | sed '1d;$d' |
	sed -E 's/^ +//; s/ +/ /g' | grep .)
expected='mmioctl [--root=DIR] record [-e] [-i NAME] [-o FILE] [-b KB] [-d SECONDS] [-q] [-- COMMAND...]
mmioctl hist [-i NAME] [--json]
mmioctl decode [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [--fold] [--json] TRACE|-
mmioctl stat [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [--json] TRACE|-
mmioctl diff [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] A B
mmioctl timeline [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [-o FILE] TRACE|-
mmioctl plot [--map FILE[@ADDR[:DOMAIN]]... | --map-dir DIR... | --no-maps] [--variant NAME] [-o FILE] TRACE|-
mmioctl model [-o FILE] [--json] TRACE...
mmioctl convert [TRACE|-]
mmioctl last-boot [-i NAME] [--clear]
mmioctl boot-params [--flight[=SIZE]] [-i NAME] TARGET...
mmioctl [--root=DIR] command [argument...]
mmioctl command --help
mmioctl --help | --version'
[ "$synopsis" = "$expected" ] && result OK "synopsis" ||
	result FAIL "synopsis" "$(printf 'expected:\n%s\nrendered:\n%s' "$expected" "$synopsis")"

commands=$(sed -n '/^COMMANDS/,/^OPTIONS/p' <<< "$rendered")
missing=$("$mmioctl" --help | awk '/^  [a-z]/ { print $1 }' | while read -r command; do
	grep -Eq "^ {7}([a-z-]+ \| )?$command( |$)" <<< "$commands" || echo "$command"
done)
[ -z "$missing" ] && result OK "describes every command of --help" ||
	result FAIL "describes every command of --help" "missing: $missing"
[ "$failures" = 0 ]
