#!/bin/sh
# Rebuild mmioctl fuzz's state directory from its journal (--journal):
# "@@FILE NAME LENGTH", the file's text, "@@END"; "@@RM NAME". A file
# written again replaces the earlier copy; later records win. A record cut
# short (the machine died while writing it) is dropped, and the next
# record is read whole. Carriage returns a serial line added are dropped.
# POSIX sh and awk: it runs in the guest (busybox) and on the host (make
# fuzz's restarts).
# usage: journal.sh JOURNAL DIR
set -eu
[ $# -eq 2 ] || { echo "usage: $0 JOURNAL DIR" >&2; exit 2; }
mkdir -p "$2/corpus"
tr -d '\r' < "$1" | awk -v dir="$2" '
	function drop_partial() {
		if (part != "") { close(part); system("rm -f \"" part "\"") }
		part = ""
	}
	/^@@FILE [^ ]+ [0-9]+$/ {
		drop_partial(); name = dir "/" $2; part = name ".part"; printf "" > part; next
	}
	/^@@END$/ && part != "" {
		close(part); system("mv \"" part "\" \"" name "\""); part = ""; next
	}
	/^@@RM [^ ]+$/ { drop_partial(); system("rm -f \"" dir "/" $2 "\""); next }
	part != "" { print > part }
	END { drop_partial() }'
