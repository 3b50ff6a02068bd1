#!/usr/bin/env bats
# Device-input fuzzing: override rules whose read values come from the
# feed file or from a seeded sequence, and mmioctl fuzz, which binds a
# driver again and again with fuzzed reads, guided by kcov. Its target is
# bats/module/fuzztarget.c, a driver for edu with a bug behind a
# two-register magic check: WARN "fuzztarget: bad index N" (the harness
# does not count that report as a splat; any other fails the run).

load helpers

ID_REG=0x0
STATUS=0x20
FUZZ_DIR=/tmp/fuzz-test
FUZZ_DRIVERS=/sys/bus/pci/drivers/fuzztarget

setup() {
	mmio_setup
	set_ranges "$EDU 4k"
	EDU_BDF=$(pci_bdf 0x1234 0x11e8)
	rm -rf "$FUZZ_DIR"
	dmesg_mark
}

teardown() {
	if [ -d "$FUZZ_DRIVERS" ]; then
		echo "$EDU_BDF" > "$FUZZ_DRIVERS/unbind" 2>/dev/null || true
		rmmod fuzztarget
	fi
	rm -rf "$FUZZ_DIR"
	mmio_teardown
}

# feed_escape VALUE...: the feed's bytes for onewrite, little-endian u64s.
feed_escape() {
	local v b out=""
	for v in "$@"; do
		for b in 0 1 2 3 4 5 6 7; do
			out+=$(printf '\\x%02x' $(((v >> (8 * b)) & 0xff)))
		done
	done
	echo "$out"
}

# feed VALUE...: replace the feed, in one write.
feed() {
	onewrite -t "$MMIOTRACE/feed" "$(feed_escape "$@")"
}

assert_feed() {
	assert_eq "feed" "values $1
used $2
dry $3" "$(cat "$MMIOTRACE/feed")"
}

# read_edu OFFSET...: a traced 4-byte read of each, the values on one line.
read_edu() {
	local offset values=()
	for offset in "$@"; do
		touch_dev read edu 4 "$offset"
		values+=("$(touch_value)")
	done
	echo "${values[*]}"
}

# planted_reports: the lines of the planted bug's WARN since dmesg_mark.
planted_reports() {
	dmesg | tail -n +"$((DMESG_LINES + 1))" | grep -E -c '^fuzztarget: bad index [0-9]+$' || true
}

# assert_dmesg_clean_but_planted: no splat since dmesg_mark but the
# planted bug's WARN blocks (from its message to the end of its trace).
assert_dmesg_clean_but_planted() {
	if dmesg | tail -n +"$((DMESG_LINES + 1))" |
		awk '/^fuzztarget: bad index [0-9]+$/ { skip = 1 } !skip { print } /---\[ end trace/ { skip = 0 }' |
		grep -E -f "$SPLATS"; then
		echo "the kernel log shows a splat besides the planted bug's"
		return 1
	fi
}

# caret N: error_log's caret under the N-th character of a command.
caret() {
	printf '%*s^\n' $((11 + $1)) ''
}

load_fuzztarget() {
	insmod "$MODULES/fuzztarget.ko"
	echo "$EDU_BDF" > "$FUZZ_DRIVERS/unbind"
}

@test "fuzz: '= feed' reads take the feed's values in order, then the device's, logged as overridden" {
	touch_dev map edu
	printf '%s\n' "$(hex EDU) 4 = feed" "$(hex EDU+STATUS) 4 = feed 0xff" > "$MMIOTRACE/overrides"
	assert_eq "overrides" "$(hex EDU) 4 = feed 0xffffffff
$(hex EDU+STATUS) 4 = feed 0xff" "$(cat "$MMIOTRACE/overrides")"
	feed 0xaabbccdd 0x12345678 0x1
	assert_feed 3 0 0
	tracer_on
	# A fed value is cut to the read's width; the status's other bits
	# are the device's (0: not computing); once dry, the device answers.
	assert_eq "values read" "0xaabbccdd 0x78 0x1 0x10000ed" \
		"$(read_edu "$ID_REG" "$STATUS" "$ID_REG" "$ID_REG")"
	assert_feed 3 3 1
	assert_stat overridden 3
	read_map "$EDU"
	assert_eq "trace" "R 4 $ID $(hex EDU) 0xaabbccdd 0x0 0
MARK override R 4 $(hex EDU): the device was not read
R 4 $ID $(hex EDU+STATUS) 0x78 0x0 0
MARK override R 4 $(hex EDU+STATUS): the device gave 0x0
R 4 $ID $(hex EDU) 0x1 0x0 0
MARK override R 4 $(hex EDU): the device was not read
R 4 $ID $(hex EDU) 0x10000ed 0x0 0" "$(strip_timestamps < "$TRACING/trace" | grep -E '^(R|MARK) ')"
	# The feed goes with the rules when tracing stops.
	tracer_off
	assert_feed 0 0 0
	assert_eq "overrides" "" "$(cat "$MMIOTRACE/overrides")"
}

@test "fuzz: '= random SEED' reads SplitMix64's sequence for SEED, again when the rule is written again" {
	touch_dev map edu
	tracer_on
	echo "$(hex EDU) 4 = random 7" > "$MMIOTRACE/overrides"
	assert_eq "overrides" "$(hex EDU) 4 = random 0x7 0xffffffff" "$(cat "$MMIOTRACE/overrides")"
	assert_eq "values" "0x59320dd7" "$(read_edu 0)"
	# Another rule added (>>) leaves the sequence where it was.
	echo "$(hex EDU+4) 4 = 0x1" >> "$MMIOTRACE/overrides"
	assert_eq "values" "0xf43c661c 0xbab12a02" "$(read_edu 0 0)"
	echo "!$(hex EDU) 4 = random" >> "$MMIOTRACE/overrides"
	assert_eq "overrides" "$(hex EDU+4) 4 = 0x1 0xffffffff" "$(cat "$MMIOTRACE/overrides")"
	echo "$(hex EDU) 4 = random 7 0xff count 2" > "$MMIOTRACE/overrides"
	# The mask's bits from the sequence, the others from the device, for
	# two reads; the third is the device's.
	assert_eq "values" "0x10000d7 0x100001c 0x10000ed" "$(read_edu 0 0 0)"
	assert_eq "overrides" "$(hex EDU) 4 = random 0x7 0xff count 0" "$(cat "$MMIOTRACE/overrides")"
}

@test "fuzz: feed and random refused where they do not fit, with the reason; nothing changes" {
	: > "$TRACING/error_log"
	echo "$(hex EDU) 4 = 0x5" > "$MMIOTRACE/overrides"
	assert_write_fails EINVAL "$MMIOTRACE/overrides" "$(hex EDU) 4 drop feed\n"
	assert_write_fails EINVAL "$MMIOTRACE/overrides" "$(hex EDU) 4 = random\n"
	assert_write_fails EINVAL "$MMIOTRACE/overrides" "$(hex EDU) 4 = feed 0x100000000\n"
	feed 0x5
	# Not whole values; more than 65536; a second write of one open.
	assert_write_fails EINVAL "$MMIOTRACE/feed" '\x01\x02\x03'
	head -c $((65537 * 8)) /dev/zero > /tmp/feed-too-long
	run dd if=/tmp/feed-too-long of="$MMIOTRACE/feed" bs=$((65537 * 8)) count=1 conv=notrunc
	rm -f /tmp/feed-too-long
	assert_eq "status" 1 "$status"
	assert_eq "errno" EINVAL "$(errno_of "$output")"
	assert_feed 1 0 0
	# Two writes of one open: the second is refused, the first stays.
	run bash -c 'exec 3>> "$1"; printf "\x07\x00\x00\x00\x00\x00\x00\x00" >&3 &&
		printf "\x08\x00\x00\x00\x00\x00\x00\x00" >&3' sh "$MMIOTRACE/feed"
	assert_eq "errno" EINVAL "$(errno_of "$output")"
	assert_feed 1 0 0
	# An open is for reading or for writing.
	run bash -c 'exec 3<> "$1"' sh "$MMIOTRACE/feed"
	assert_eq "errno" EINVAL "$(errno_of "$output")"
	touch_dev map edu
	tracer_on
	echo "$(hex EDU) 4 = feed" > "$MMIOTRACE/overrides"
	assert_eq "the value the first write left" 0x7 "$(read_edu 0)"
	tracer_off
	echo "$(hex EDU) 4 = 0x5" > "$MMIOTRACE/overrides"
	local drop_line="$(hex EDU) 4 drop feed" random_line="$(hex EDU) 4 = random"
	local wide_line="$(hex EDU) 4 = feed 0x100000000"
	assert_eq "error_log" "mmiotrace:overrides: error: Values are for reads: a write rule is drop
  Command: $drop_line
$(caret $((${#drop_line} - 4)))
mmiotrace:overrides: error: Missing a word
  Command: $random_line
$(caret ${#random_line})
mmiotrace:overrides: error: Wider than the width
  Command: $wide_line
$(caret $((${#wide_line} - 11)))
mmiotrace:feed: error: Not a whole number of 8-byte values
  Command: 
$(caret 0)
mmiotrace:feed: error: More than 65536 values
  Command: 
$(caret 0)
mmiotrace:feed: error: A feed is one write
  Command: 
$(caret 0)" "$(sed -E 's/^\[ *[0-9]+\.[0-9]+\] //' "$TRACING/error_log")"
	assert_eq "overrides" "$(hex EDU) 4 = 0x5 0xffffffff" "$(cat "$MMIOTRACE/overrides")"
	: > "$TRACING/error_log"
}

@test "fuzz: feeds written concurrently each land whole; a read takes one writer's value, never a mix" {
	touch_dev map edu
	tracer_on
	echo "$(hex EDU) 4 = feed" > "$MMIOTRACE/overrides"
	local a b i writer_a writer_b
	a=$(feed_escape 0x11110000 0x11110001 0x11110002 0x11110003)
	b=$(feed_escape 0x22220000 0x22220001 0x22220002 0x22220003)
	for i in $(seq 100); do onewrite -t "$MMIOTRACE/feed" "$a"; done &
	writer_a=$!
	for i in $(seq 100); do onewrite -t "$MMIOTRACE/feed" "$b"; done &
	writer_b=$!
	local values=() mixed=0 fed=0 v
	for i in $(seq 60); do
		values+=("$(read_edu 0)")
	done
	wait "$writer_a" "$writer_b"
	# A value is a slot of one writer's feed, or the device's (dry).
	for v in "${values[@]}"; do
		case $v in
		0x1111000[0-3] | 0x2222000[0-3]) fed=$((fed + 1)) ;;
		0x10000ed) ;;
		*) mixed=$((mixed + 1)) ;;
		esac
	done
	assert_eq "reads with a value of neither feed nor the device" 0 "$mixed"
	[ "$fed" -gt 0 ] || { echo "no read took a fed value"; return 1; }
	assert_eq "feed" "values 4" "$(head -n 1 "$MMIOTRACE/feed")"
}

@test "fuzz: mmioctl override takes feed and random, refuses them outside the traced ranges, loads --from a file" {
	touch_dev map edu
	tracer_on
	mmioctl override "$(hex EDU)" 4 feed 0xff00
	mmioctl override "$(hex EDU+4)" 4 random 9 --count 2
	assert_eq "overrides" "$(hex EDU) 4 = feed 0xff00
$(hex EDU+4) 4 = random 0x9 0xffffffff count 2" "$(mmioctl overrides)"
	run mmioctl override 0x1000 4 feed
	assert_eq "status" 1 "$status"
	assert_eq "output" "mmioctl: 0x1000: outside the traced ranges: a feed rule there would never take a value (mmioctl add, add-pci)" "$output"
	run mmioctl override "$(hex EDU)" 4 random
	assert_eq "status" 2 "$status"
	assert_eq "first line" "mmioctl: random needs a SEED: decimal or 0x hex" "${lines[0]}"
	printf '%s\n' "# a comment" "$(hex EDU) 4 = feed" "" "feed 0x5 6" "$(hex EDU+4) 4 = 0x7 count 1" > /tmp/rules.txt
	mmioctl override --from /tmp/rules.txt
	assert_eq "overrides" "$(hex EDU) 4 = feed 0xffffffff
$(hex EDU+4) 4 = 0x7 0xffffffff count 1" "$(cat "$MMIOTRACE/overrides")"
	assert_eq "values" "0x5 0x7 0x6 0x10000ed" "$(read_edu 0 4 0 0)"
	printf '%s\n' "$(hex EDU) 4 = 0x1" "feed 0x5 banana" > /tmp/rules.txt
	run mmioctl override --from /tmp/rules.txt
	assert_eq "status" 2 "$status"
	assert_eq "first line" 'mmioctl: /tmp/rules.txt:2: a feed line is "feed VALUE...", decimal or 0x hex' "${lines[0]}"
	# Nothing was written.
	assert_eq "overrides" "$(hex EDU) 4 = feed 0xffffffff
$(hex EDU+4) 4 = 0x7 0xffffffff count 0" "$(cat "$MMIOTRACE/overrides")"
	rm -f /tmp/rules.txt
}

@test "fuzz: mmioctl fuzz finds fuzztarget's planted bug from a fixed seed and corpus in under 3 minutes; its reproducer replays it every time" {
	load_fuzztarget
	printf '%s\n' "0+0x0 4 0x10000ed" "0+0x40 4 0xffffffff" > /tmp/fuzz-seed.txt
	local start=$SECONDS took i
	run mmioctl fuzz --seed 1 --time 170 --stop-on-crash --corpus /tmp/fuzz-seed.txt -o "$FUZZ_DIR" \
		fuzztarget "$EDU_BDF"
	took=$((SECONDS - start))
	echo "$output"
	assert_eq "status" 0 "$status"
	[ "$took" -lt 180 ] || { echo "took $took s"; return 1; }
	local want='^crash 1: WARNING: at [^ ]*fuzztarget\.c:[0-9]+ fuzztarget_probe\+0x[0-9a-f]+/0x[0-9a-f]+ \[fuzztarget\]: /tmp/fuzz-test/crash-1\.txt \(replayed 3/3\)$'
	assert_eq "crash lines" 1 "$(echo "$output" | grep -c '^crash ')"
	[[ $(echo "$output" | grep '^crash ') =~ $want ]] ||
		{ echo "the crash line is not: $want"; return 1; }
	# The reproducer: the two magic values, nothing else the bug does
	# without (the length is the device's all ones).
	assert_eq "rules" "$(hex EDU+0x40) 4 = 0x4d4d494f count 1
$(hex EDU+0x44) 4 = 0x46555a5a count 1" "$(grep -v '^#' "$FUZZ_DIR/crash-1.txt")"
	# Found, minimized and replayed 3 times: one report each time.
	local reports
	reports=$(planted_reports)
	[ "$reports" -ge 4 ] || { echo "$reports planted reports while fuzzing, expected 4 or more"; return 1; }
	for i in 1 2 3; do
		dmesg_mark
		mmioctl override --from "$FUZZ_DIR/crash-1.txt"
		run sh -c "echo $EDU_BDF > $FUZZ_DRIVERS/bind"
		assert_eq "bind" 1 "$status"
		assert_eq "planted reports of replay $i" 1 "$(planted_reports)"
		assert_eq "the index" "fuzztarget: bad index 4294967295" \
			"$(dmesg | tail -n +"$((DMESG_LINES + 1))" | grep '^fuzztarget: bad index')"
	done
	assert_dmesg_clean_but_planted
}

@test "fuzz: without coverage, random values pass neither magic check in 300 runs" {
	load_fuzztarget
	run mmioctl fuzz --seed 1 --runs 300 --no-coverage -o "$FUZZ_DIR" fuzztarget "$EDU_BDF"
	echo "$output"
	assert_eq "status" 0 "$status"
	# Fed, all of it: the two registers of the probe's clean path and
	# more, yet neither magic value came up.
	assert_eq "summary" "300 execs registers 2 crashes 0" \
		"$(echo "$output" | tail -n 1 |
			sed -E 's/^fuzz: ([0-9]+) execs in .* registers ([0-9]+), crashes ([0-9]+)$/\1 execs registers \2 crashes \3/')"
	[ "$(stat_of overridden)" -gt 100 ] || { echo "overridden $(stat_of overridden)"; return 1; }
	assert_eq "planted reports" 0 "$(planted_reports)"
}

@test "fuzz: an input in flight when the guest died is kept as a crash on restart; the journal rebuilds the state" {
	load_fuzztarget
	mkdir -p "$FUZZ_DIR"
	printf '%s\n' "0+0x40 4 0x4d4d494f" "0+0x44 4 0x0" > "$FUZZ_DIR/current"
	: > /tmp/fuzz-journal
	run mmioctl fuzz --runs 20 --journal /tmp/fuzz-journal -o "$FUZZ_DIR" fuzztarget "$EDU_BDF"
	assert_eq "status" 0 "$status"
	assert_eq "first crash line" "crash 1: the previous run died during this input: $FUZZ_DIR/crash-1.input" \
		"$(echo "$output" | grep '^crash 1:')"
	assert_eq "kept input" "0+0x40 4 0x4d4d494f
0+0x44 4 0x0" "$(cat "$FUZZ_DIR/crash-1.input")"
	[ ! -e "$FUZZ_DIR/current" ]
	# Every file of the state is in the journal, as it was last written,
	# and a record cut short by a death is dropped, not the next one.
	printf '@@FILE current 40\n0+0x40 4 0x1\n' >> /tmp/fuzz-journal
	printf '@@FILE crash-9.input 13\n0+0x0 4 0x1\n@@END\n' >> /tmp/fuzz-journal
	echo "0+0x0 4 0x1" > "$FUZZ_DIR/crash-9.input"
	rm -rf /tmp/fuzz-rebuilt
	/opt/mmio/fuzz/journal.sh /tmp/fuzz-journal /tmp/fuzz-rebuilt
	run diff -r "$FUZZ_DIR" /tmp/fuzz-rebuilt
	assert_eq "diff" "" "$output"
	rm -rf /tmp/fuzz-rebuilt /tmp/fuzz-journal
}

@test "fuzz: mmioctl fuzz refuses bad arguments with a reason" {
	run mmioctl fuzz nosuchdriver "$EDU_BDF"
	assert_eq "status" 1 "$status"
	assert_eq "output" "mmioctl: /sys/bus/pci/drivers/nosuchdriver/bind: No such file or directory: is the driver nosuchdriver loaded?" "$output"
	load_fuzztarget
	run mmioctl fuzz fuzztarget 0000:00:1f.7
	assert_eq "status" 1 "$status"
	assert_eq "output" "mmioctl: /sys/bus/pci/devices/0000:00:1f.7/resource: No such file or directory" "$output"
	printf '%s\n' "0+0x0 4 0x1" "7+0x0 4 0x1" > /tmp/fuzz-seed.txt
	run mmioctl fuzz --corpus /tmp/fuzz-seed.txt -o "$FUZZ_DIR" fuzztarget "$EDU_BDF"
	assert_eq "status" 2 "$status"
	assert_eq "first line" "mmioctl: /tmp/fuzz-seed.txt:2: expected BAR+OFFSET WIDTH VALUE (0+0x40 4 0xffffffff) or a trace line, inside $EDU_BDF's BARs" "${lines[0]}"
	run mmioctl fuzz --runs 0 fuzztarget "$EDU_BDF"
	assert_eq "status" 2 "$status"
	rm -f /tmp/fuzz-seed.txt
}
