#!/bin/bash
# The host half of bats/decode.bats: decode the "modprobe nvme" trace that
# the guest recorded (between the DECODE lines of OUTDIR/oracle.log) with
# the shipped map, and check what the driver did to the controller: CC
# written with EN=1, then CSTS read until RDY=1, a polling loop folded into
# one line ("... x523 (1.73 ms), then RDY=1"), or a single read when the
# controller is ready at once, as QEMU's is (it sets CSTS.RDY in the write
# that sets CC.EN).
# usage: decode.sh MMIOCTL MAPS OUTDIR   (prints ok/not ok lines)
set -u
mmioctl=$1 maps=$2 outdir=$3
trace=$outdir/nvme-probe.txt decoded=$outdir/nvme-probe.decoded
failed=0

result() { # result OK|FAIL DESCRIPTION [DETAIL]
	if [ "$1" = OK ]; then
		echo "ok - decode: $2"
	else
		echo "not ok - decode: $2"
		[ -n "${3:-}" ] && printf '%s\n' "$3" | sed 's/^/# /'
		failed=1
	fi
}

# The serial port turns each newline into CR LF.
awk '{ sub(/\r$/, "") } $0 == "DECODE BEGIN nvme-probe" { on = 1; next }
	$0 == "DECODE END nvme-probe" { on = 0 } on' "$outdir/oracle.log" > "$trace" 2>/dev/null
if [ ! -s "$trace" ]; then
	result FAIL "the guest handed over its nvme trace" "nothing in $outdir/oracle.log (bats/decode.bats)"
	exit 1
fi
if ! "$mmioctl" decode --fold --map "$maps/nvme.xml" "$trace" > "$decoded" 2> "$decoded.err" ||
	[ -s "$decoded.err" ]; then
	result FAIL "the guest's nvme trace decodes with ctl-tool/maps/nvme.xml" "$(cat "$decoded.err")"
	exit 1
fi
result OK "the guest's nvme trace decodes with ctl-tool/maps/nvme.xml ($decoded)"

# The write that enables the controller, then the first CSTS read after it.
enable=$(grep -m1 -n ' W4 NVME+0x0014 0x[0-9a-f]* CC <= EN=1 ' "$decoded")
if [ -z "$enable" ]; then
	result FAIL "CC written with EN=1" "no 'CC <= EN=1' line in $decoded"
	exit 1
fi
result OK "CC written with EN=1: ${enable#*:}"
ready=$(tail -n +"${enable%%:*}" "$decoded" | grep -m1 ' R4 NVME+0x001c ')
case $ready in
*" CSTS => RDY=0 "*" x"[0-9]*", then RDY=1"*)
	result OK "then CSTS polled until RDY=1, folded: $ready" ;;
*" CSTS => RDY=1 "*)
	result OK "then CSTS read with RDY=1 at once (no loop to fold: QEMU's controller is ready in the enabling write): $ready" ;;
*)
	result FAIL "then CSTS read until RDY=1" "after ${enable#*:}
next CSTS read: ${ready:-none}" ;;
esac
if "$mmioctl" decode --json --fold --map "$maps/nvme.xml" "$trace" |
	python3 -c 'import json, sys; [json.loads(line) for line in sys.stdin]' 2> "$decoded.err" &&
	"$mmioctl" stat --json --map "$maps/nvme.xml" "$trace" |
	python3 -c 'import json, sys; json.load(sys.stdin)' 2>> "$decoded.err"; then
	result OK "decode --json and stat --json of it read back as JSON"
else
	result FAIL "decode --json and stat --json of it read back as JSON" "$(cat "$decoded.err")"
fi
exit $failed
