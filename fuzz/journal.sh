#!/bin/sh
# Rebuild mmioctl fuzz's state directory from its journal (--journal):
# "@@FILE NAME LENGTH", the file's text, "@@END"; "@@DELTA NAME BASE
# LINES", "N TEXT" for each line N that differs from file BASE's (written
# before), "@@END"; "@@RM NAME". A file written again replaces the earlier
# copy. A record cut short (the machine died while writing it) is dropped,
# and the next record is read whole. Carriage returns a serial line added
# are dropped. POSIX sh and awk: it runs in the guest (busybox) and on the
# host (make fuzz's restarts).
# usage: journal.sh JOURNAL DIR
set -eu
[ $# -eq 2 ] || { echo "usage: $0 JOURNAL DIR" >&2; exit 2; }
mkdir -p "$2/corpus"
tr -d '\r' < "$1" | awk -v dir="$2" '
	function drop_partial() {
		if (part != "") { close(part); system("rm -f \"" part "\"") }
		part = ""; base = ""
	}
	function begin(file) { drop_partial(); name = dir "/" file; part = name ".part"; printf "" > part }
	/^@@FILE [^ ]+ [0-9]+$/ { begin($2); next }
	/^@@DELTA [^ ]+ [^ ]+ [0-9]+$/ {
		begin($2); base = dir "/" $3; lines = $4; split("", changed); next
	}
	/^@@END$/ && part != "" {
		if (base != "") {
			for (i = 1; i <= lines; i++) {
				if ((getline old < base) <= 0) old = ""
				print (i in changed ? changed[i] : old) > part
			}
			close(base)
		}
		close(part); system("mv \"" part "\" \"" name "\""); part = ""; base = ""; next
	}
	/^@@RM [^ ]+$/ { drop_partial(); system("rm -f \"" dir "/" $2 "\""); next }
	part != "" && base != "" { n = $1; sub(/^[0-9]+ /, ""); changed[n] = $0; next }
	part != "" { print > part }
	END { drop_partial() }'
