#!/bin/sh
# Rebuild mmioctl fuzz's state directory from its journal (--journal):
# "@@FILE NAME LENGTH", the file's text, "@@END"; "@@RM NAME". A file
# written again replaces the earlier copy; later records win. Carriage
# returns a serial line added are dropped. POSIX sh and awk: it runs in
# the guest (busybox) and on the host (make fuzz's restarts).
# usage: journal.sh JOURNAL DIR
set -eu
[ $# -eq 2 ] || { echo "usage: $0 JOURNAL DIR" >&2; exit 2; }
mkdir -p "$2/corpus"
tr -d '\r' < "$1" | awk -v dir="$2" '
	/^@@FILE [^ ]+ [0-9]+$/ && !name { name = dir "/" $2; printf "" > name; next }
	/^@@END$/ && name { close(name); name = ""; next }
	/^@@RM [^ ]+$/ && !name { system("rm -f \"" dir "/" $2 "\""); next }
	name { print > name }'
