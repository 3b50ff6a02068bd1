#!/bin/bash
# Host side of "make bench": how fast mmioctl reads a trace. Generates a
# trace of LINES lines (default 10 million: PCIDEV lines of the devices the
# shipped maps describe, then their registers written and read, with
# polling loops and markers), then times, on one core, mmioctl decode
# (plain, --fold, --json), stat and stat --json, timeline, plot, model and
# diff (the trace with itself) with the maps, and awk
# printing only the address column of the same file, in the same run: the
# best of three runs each, the trace in the page cache. Writes
# OUTDIR/decode.md and prints it.
# usage: decode.sh MMIOCTL MAPS OUTDIR [LINES]
set -eu
mmioctl=$1 maps=$2 outdir=$3 lines=${4:-10000000}
trace=$outdir/decode-trace.txt
mkdir -p "$outdir"

echo "bench: generating a trace of $lines lines ($trace)"
awk -v lines="$lines" 'BEGIN {
	print "VERSION 20070824"
	print "PCIDEV 0018 123411e8 b fea00000 0 0 0 0 0 0 100000 0 0 0 0 0 0 "
	print "PCIDEV 0028 8086100e a feb40000 c001 0 0 0 0 feb00000 20000 40 0 0 0 0 40000 e1000"
	print "PCIDEV 0030 1b360010 a feb70004 0 0 0 0 0 0 4000 0 0 0 0 0 0 nvme"
	print "MAP 1.000000 1 0xfeb70000 0xffffc9000018a000 0x4000 0x0 0"
	print "MAP 1.000000 2 0xfeb40000 0xffffc90000160000 0x20000 0x0 0"
	print "MAP 1.000000 3 0xfea00000 0xffffc90000015000 0x1000 0x0 0"
	# nvme CC, CSTS, doorbells; e1000 STATUS, RCTL, IMS, RA; edu STATUS, FACTORIAL
	split("W 2 0x14 0x460061|R 1 0x1c 0x1|W 1 0x1000 0x5|W 1 0x1004 0x5|R 2 0x8 0x80080783|" \
	      "W 2 0x100 0x8002|W 2 0xd0 0x9d|W 2 0x5408 0x3333|R 3 0x20 0x1|W 3 0x8 0x5", op, "|")
	base[1] = 4273405952; base[2] = 4273209344; base[3] = 4271898624
	us = 1000000; n = 7
	while (n < lines) {
		split(op[int(rand() * 10) + 1], f, " ")
		addr = sprintf("0x%x", base[f[2]] + f[3])
		if (rand() < 0.02) {			# a polling loop of 2 to 40 reads
			k = 2 + int(rand() * 39)
			for (i = 0; i < k && n < lines; i++) {
				us += 2
				printf "R 4 %d.%06d %d %s 0x0 0x0 0\n", us / 1000000, us % 1000000, f[2], addr
				n++
			}
			continue
		}
		us += 3
		if (rand() < 0.0001) {
			printf "MARK %d.%06d step %d\n", us / 1000000, us % 1000000, n
			n++
			continue
		}
		printf "%s 4 %d.%06d %d %s %s 0x0 0\n", f[1], us / 1000000, us % 1000000, f[2], addr,
			f[1] == "R" ? f[4] : sprintf("0x%x", int(rand() * 65536))
		n++
	}
}' > "$trace"
cat "$trace" > /dev/null	# into the page cache

pin=""
command -v taskset > /dev/null && pin="taskset -c 0"

# best NAME COMMAND...: the best of three wall-clock times, in seconds.
best() {
	local name=$1 i t0 t1 ns best=
	shift
	for i in 1 2 3; do
		t0=$(date +%s%N)
		$pin "$@" > /dev/null
		t1=$(date +%s%N)
		ns=$((t1 - t0))
		if [ -z "$best" ] || [ "$ns" -lt "$best" ]; then best=$ns; fi
	done
	echo "$name $best"
}

echo "bench: timing mmioctl and awk on one core, best of 3"
{
	best "awk_print_address_column" awk '{ print $5 }' "$trace"
	best "decode" "$mmioctl" decode --map "$maps" "$trace"
	best "decode_fold" "$mmioctl" decode --fold --map "$maps" "$trace"
	best "decode_json" "$mmioctl" decode --json --map "$maps" "$trace"
	best "stat" "$mmioctl" stat --map "$maps" "$trace"
	best "stat_json" "$mmioctl" stat --json --map "$maps" "$trace"
	best "decode_without_maps" "$mmioctl" decode "$trace"
	best "timeline" "$mmioctl" timeline --map "$maps" "$trace"
	best "plot" "$mmioctl" plot --map "$maps" "$trace"
	best "model" "$mmioctl" model "$trace"
	best "diff_with_itself" "$mmioctl" diff --map "$maps" "$trace" "$trace"
} > "$outdir/decode.times"

size=$(stat -c %s "$trace")
{
	echo "# Reading a trace: mmioctl against awk"
	echo
	echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, one used;" \
		"a generated trace of $lines lines ($((size / 1000000)) MB) in the page cache;" \
		"best of 3 runs, output to /dev/null. Target: 1 million lines/s."
	echo
	echo "| what | seconds | lines/s | vs awk |"
	echo "|---|---|---|---|"
	awk_ns=$(awk '$1 == "awk_print_address_column" { print $2 }' "$outdir/decode.times")
	while read -r name ns; do
		printf '| %s | %.2f | %.2fM | %.2f |\n' "$name" "$(echo "$ns / 1000000000" | bc -l)" \
			"$(echo "$lines * 1000 / $ns" | bc -l)" "$(echo "$awk_ns / $ns" | bc -l)"
	done < "$outdir/decode.times"
} > "$outdir/decode.md"
cat "$outdir/decode.md"
[ "${KEEP_TRACE:-0}" = 1 ] || rm -f "$trace"
