#!/usr/bin/env bats
# arm64: every A64 load and store form, one instruction each (the test
# module's insn forms, module/mmiotouch.c), on one register of a device
# that takes every width: the controller memory buffer of QEMU's nvme (the
# cmb target, BAR2), which reads back what was written and whose every
# access QEMU logs. Each form runs with the tracer off, then on, in a
# window of its own: the device's record (bats/harness/oracle.py, mode
# exact) must be the same accesses both ways, with width, value and
# direction; the trace, exactly those accesses (or, for what the tracer
# steps, one UNKNOWN line each); the registers the form leaves (value,
# value2, base), the same both ways. x86's forms: emulate.bats.

load helpers

setup() {
	require_arch aarch64 "A64 instruction forms (x86's: emulate.bats)"
	mmio_setup
	CMB=$(pci_bar 0x1b36 0x0010 2)
	# One CPU: the oracle compares each vCPU's accesses with the trace's.
	taskset -p -c 0 "$BASHPID" > /dev/null
}

# Where in the CMB the windows start: past what other tests use (the
# oracle's exact mode takes every access the device saw in a window).
WINDOWS=0x10000
# What each slot of 32 bytes holds before its form runs: two words whose
# byte, halfword, word and doubleword all have their sign bit set.
W0=0xf1e2d3c4b5a69788
W1=0xe1d2c3b4a5968778
# What the stores store; a pair's second register holds ~V.
V=0x123456789abcdef

# The forms that the tracer emulates, one per line:
#   NAME|VALUE|REGISTER|VALUE2|BASE|ACCESSES|WORD0|WORD1[|TRACED]
# VALUE: the insn command's value ("-": none); REGISTER, VALUE2, BASE: what
# the form leaves in "value", "value2" and "base" ("-": not asked);
# ACCESSES: what reaches the device, "R|W WIDTH OFFSET VALUE", comma
# separated; WORD0, WORD1: the slot's words afterwards ("-": as before).
EMULATED="ldrb|-|0x88|-|-|R 1 0 0x88|-|-
ldrh|-|0x9788|-|-|R 2 0 0x9788|-|-
ldr_w|-|0xb5a69788|-|-|R 4 0 0xb5a69788|-|-
ldr_x|-|$W0|-|-|R 8 0 $W0|-|-
ldrsb_w|-|0xffffff88|-|-|R 1 0 0x88|-|-
ldrsb_x|-|0xffffffffffffff88|-|-|R 1 0 0x88|-|-
ldrsh_w|-|0xffff9788|-|-|R 2 0 0x9788|-|-
ldrsh_x|-|0xffffffffffff9788|-|-|R 2 0 0x9788|-|-
ldrsw|-|0xffffffffb5a69788|-|-|R 4 0 0xb5a69788|-|-
ldr_x_imm|-|$W0|-|-|R 8 0 $W0|-|-
ldur_w|-|0xb5a69788|-|-|R 4 0 0xb5a69788|-|-
ldur_x|-|$W0|-|-|R 8 0 $W0|-|-
ldr_x_lsl|-|$W0|-|-|R 8 0 $W0|-|-
ldr_w_uxtw|-|0xb5a69788|-|-|R 4 0 0xb5a69788|-|-
ldrh_sxtw|-|0x9788|-|-|R 2 0 0x9788|-|-
ldrb_reg|-|0x88|-|-|R 1 0 0x88|-|-
ldr_x_pre|-|$W0|-|0|R 8 0 $W0|-|-
ldr_w_post|-|0xb5a69788|-|4|R 4 0 0xb5a69788|-|-
ldp_w|-|0xb5a69788|0xf1e2d3c4|-|R 4 0 0xb5a69788,R 4 4 0xf1e2d3c4|-|-
ldp_x|-|$W0|$W1|-|R 8 0 $W0,R 8 8 $W1|-|-
ldpsw|-|0xffffffffb5a69788|0xfffffffff1e2d3c4|-|R 4 0 0xb5a69788,R 4 4 0xf1e2d3c4|-|-
ldar_w|-|0xb5a69788|-|-|R 4 0 0xb5a69788|-|-
ldar_x|-|$W0|-|-|R 8 0 $W0|-|-
strb|$V|0xef|-|-|W 1 0 0xef|0xf1e2d3c4b5a697ef|-
strh|$V|0xcdef|-|-|W 2 0 0xcdef|0xf1e2d3c4b5a6cdef|-
str_w|$V|0x89abcdef|-|-|W 4 0 0x89abcdef|0xf1e2d3c489abcdef|-
str_x|$V|$V|-|-|W 8 0 $V|$V|-
str_xzr|$V|0x0|-|-|W 8 0 0x0|0x0|-
stur_w|$V|0x89abcdef|-|-|W 4 0 0x89abcdef|0xf1e2d3c489abcdef|-
str_w_sxtw|$V|0x89abcdef|-|-|W 4 0 0x89abcdef|0xf1e2d3c489abcdef|-
str_x_pre|$V|$V|-|0|W 8 0 $V|$V|-
strb_post|$V|0xef|-|-1|W 1 0 0xef|0xf1e2d3c4b5a697ef|-
stp_w|$V|0x89abcdef|0x76543210|-|W 4 0 0x89abcdef,W 4 4 0x76543210|0x7654321089abcdef|-
stp_x|$V|$V|0xfedcba9876543210|-|W 8 0 $V,W 8 8 0xfedcba9876543210|$V|0xfedcba9876543210
stlr_w|$V|0x89abcdef|-|-|W 4 0 0x89abcdef|0xf1e2d3c489abcdef|-
stlr_x|$V|$V|-|-|W 8 0 $V|$V|-"

# The forms that it steps onto the alias of the page, reporting each as
# one UNKNOWN line: the LSE atomics (QEMU performs each as a read, then a
# write; CAS writes its new value, as it compares equal) and 16-byte SIMD
# accesses (QEMU: two 8-byte accesses). A CAS's value is its comparand
# (high half) and its new value (low half).
STEPPED="ldadd_w|$V|0xb5a69788|-|-|R 4 0 0xb5a69788,W 4 0 0x3f526577|0xf1e2d3c43f526577|-
swp_x|$V|$W0|-|-|R 8 0 $W0,W 8 0 $V|$V|-
cas_w|0xb5a6978812345678|0xb5a69788|-|-|R 4 0 0xb5a69788,W 4 0 0x12345678|0xf1e2d3c412345678|-
ldr_q|-|$W0|$W1|-|R 8 0 $W0,R 8 8 $W1|-|-
str_q|$V|$V|0xfedcba9876543210|-|W 8 0 $V,W 8 8 0xfedcba9876543210|$V|0xfedcba9876543210"

# The exclusives, which run on the page made valid (exposed) and are
# reported as one UNKNOWN line each: LDXR alone, its monitor cleared
# after; and the loop of LDXR and STXR of one register, retried until
# the STXR's status is 0 (stored), the LDXR having read the old word
# (value2). QEMU performs STXR as a compare-and-swap, a read and then
# the write.
EXCLUSIVE="ldxr_x|-|$W0|-|-|R 8 0 $W0|-|-
stxr_w|$V|0x0|0xb5a69788|-|R 4 0 0xb5a69788,R 4 0 0xb5a69788,W 4 0 0x89abcdef|0xf1e2d3c489abcdef|-"

# run_forms FORMS WINDOW [on [stepped]]: map the cmb's page at WINDOW (an
# offset into the BAR), then
# for each form a slot of its own: its two words written, the form, the
# words read back; each register and word checked. What the device must
# see goes to $BATS_TEST_TMPDIR/device ("R|W WIDTH PHYS VALUE": the
# traced accesses with "on"), the trace lines expected with the tracer on
# to $BATS_TEST_TMPDIR/traced ("@" for the mapping's id): the accesses, or
# with "stepped" one UNKNOWN line per form, its opcode "OPCODE".
run_forms() {
	local forms=$1 window=$2 on=${3:-} stepped=${4:-} slot=$2
	local name value reg value2 base accesses word0 word1 traced type width offset data
	: > "$BATS_TEST_TMPDIR/device"
	: > "$BATS_TEST_TMPDIR/traced"
	touch_dev map cmb "$window" 0x1000
	while IFS='|' read -r name value reg value2 base accesses word0 word1 traced; do
		[ "$word0" != - ] || word0=$W0
		[ "$word1" != - ] || word1=$W1
		[ -n "$traced" ] || traced=$accesses
		touch_dev write cmb 8 "$(hex slot-window)" "$W0"
		touch_dev write cmb 8 "$(hex slot-window+8)" "$W1"
		if [ "$value" = - ]; then
			touch_dev insn "$name" cmb "$(hex slot-window)"
		else
			touch_dev insn "$name" cmb "$(hex slot-window)" "$value"
		fi
		assert_eq "$name: its register" "$reg" "$(touch_value)"
		[ "$value2" = - ] || assert_eq "$name: its second register" "$value2" "$(cat "$TOUCH/value2")"
		[ "$base" = - ] || assert_eq "$name: its base register, from the access" "$base" "$(cat "$TOUCH/base")"
		touch_dev read cmb 8 "$(hex slot-window)"
		assert_eq "$name: the word at its register" "$word0" "$(touch_value)"
		touch_dev read cmb 8 "$(hex slot-window+8)"
		assert_eq "$name: the word after it" "$word1" "$(touch_value)"
		[ -z "$on" ] || accesses=$traced
		{
			printf 'W 8 %s %s\nW 8 %s %s\n' "$(hex CMB+slot)" "$W0" "$(hex CMB+slot+8)" "$W1"
			while read -r type width offset data; do
				echo "$type $width $(hex CMB+slot+offset) $data"
			done <<< "${accesses//,/$'\n'}"
			printf 'R 8 %s %s\nR 8 %s %s\n' "$(hex CMB+slot)" "$word0" "$(hex CMB+slot+8)" "$word1"
		} > "$BATS_TEST_TMPDIR/form"
		cat "$BATS_TEST_TMPDIR/form" >> "$BATS_TEST_TMPDIR/device"
		if [ -n "$stepped" ]; then
			sed -n '1,2p' "$BATS_TEST_TMPDIR/form"
			echo "UNKNOWN $(hex CMB+slot) OPCODE"
			tail -n 2 "$BATS_TEST_TMPDIR/form"
		else
			cat "$BATS_TEST_TMPDIR/form"
		fi | awk '$1 == "UNKNOWN" { print $1, "@", $2, $3, "0x0", 0; next }
			{ print $1, $2, "@", $3, $4, "0x0", 0 }' >> "$BATS_TEST_TMPDIR/traced"
		slot=$((slot + 0x20))
	done <<< "$forms"
	touch_dev unmap cmb
}

# oracle_expect NAME PHYS SIZE: the device must have seen exactly the
# accesses in $BATS_TEST_TMPDIR/device in [PHYS, PHYS + SIZE), on CPU 0,
# and nothing else there.
oracle_expect() {
	{
		echo "ORACLE BEGIN $1 $2 $3 1 exact"
		echo "CPU 0"
		oracle_runs < "$BATS_TEST_TMPDIR/device"
		echo "ORACLE END $1"
	} > "$ORACLE"
}

# assert_forms_both_ways NAME FORMS WINDOW [stepped]: FORMS with the
# tracer off at WINDOW, then on at WINDOW + 0x1000: the same registers
# and words, the device's record as run_forms says both times, the trace
# exactly the accesses (an UNKNOWN opcode is the instruction's low three
# bytes).
assert_forms_both_ways() {
	local name=$1 forms=$2 off=$3 on=$(($3 + 0x1000)) expected
	run_forms "$forms" "$off"
	oracle_expect "$name-off" "$(hex CMB+off)" 0x1000
	set_ranges "$(hex CMB+on) 4k"
	tracer_on
	run_forms "$forms" "$on" on ${4:-}
	oracle_expect "$name-on" "$(hex CMB+on)" 0x1000
	read_map "$(hex CMB+on)"
	expected=$(sed "s/ @ / $ID /" "$BATS_TEST_TMPDIR/traced")
	assert_eq "trace" "MAP $ID $(hex CMB+on) $VIRT 0x1000 0x0 0
$expected
UNMAP $ID 0x0 0" "$(trace_events | sed -E 's/^(UNKNOWN [0-9]+ 0x[0-9a-f]+) [0-9a-f]{2},[0-9a-f]{2},[0-9a-f]{2} /\1 OPCODE /')"
}

@test "emulate-a64: the kernel runs at the exception level of its boot" {
	# MMIO_EL: the boot's (bats/boots/arm64-el*.boot); EL2 is VHE's.
	[ -n "${MMIO_EL:-}" ] || skip "the boot names no exception level (MMIO_EL)"
	if [ "$MMIO_EL" = 2 ]; then
		dmesg | grep -q 'CPU features: detected: Virtualization Host Extensions$'
	else
		run ! sh -c "dmesg | grep -q 'Virtualization Host Extensions'"
	fi
}

@test "emulate-a64: every A64 load and store form gives the device the same accesses traced or not, and the trace holds exactly them" {
	assert_forms_both_ways emulate-a64 "$EMULATED" "$WINDOWS"
	assert_stat stepped 0
	assert_stat unknown 0
}

@test "emulate-a64: LSE atomics and 16-byte SIMD accesses are stepped on the alias, the device seeing them as untraced, each an UNKNOWN line" {
	grep -qw atomics /proc/cpuinfo || skip "the CPU has no LSE atomics"
	assert_forms_both_ways emulate-a64-stepped "$STEPPED" "$((WINDOWS + 0x2000))" stepped
	assert_stat stepped 5
	assert_stat exposed 0
	assert_stat unknown 5
}

@test "emulate-a64: exclusives run on the page made valid, a retried pair ending as untraced, each an UNKNOWN line" {
	assert_forms_both_ways emulate-a64-exclusive "$EXCLUSIVE" "$((WINDOWS + 0x4000))" stepped
	assert_stat stepped 2
	assert_stat exposed 2
	assert_stat unknown 2
	assert_stat read 4
	assert_stat write 4
}

@test "emulate-a64: exclusive loops end, each exposure ends and arms the leaf again, and the tracer stops among them on another CPU" {
	local window=$((WINDOWS + 0x6000)) unknown
	touch_dev map cmb "$window" 0x1000
	set_ranges "$(hex CMB+window) 4k"
	tracer_on
	dmesg_mark
	touch_dev repeat 1000 insn stxr_w cmb 0x0 0x11
	# How many faulted depends on the timer: the rest ran on the leaf
	# still valid. One UNKNOWN line each, counted as exposed.
	unknown=$(stat_of unknown)
	[ "$unknown" -ge 1 ]
	assert_stat exposed "$unknown"
	assert_stat stepped "$unknown"
	assert_eq "UNKNOWN lines" "$unknown" "$(trace_events | grep -c '^UNKNOWN ')"
	# Armed again: a read faults and is traced.
	touch_dev read cmb 4 0x0
	assert_value 0x11
	read_map "$(hex CMB+window)"
	assert_eq "last line" "R 4 $ID $(hex CMB+window) 0x11 0x0 0" "$(trace_events | tail -n 1)"
	# CPU 1 loops while CPU 0 stops the tracer: stopping waits for the
	# exposures of the leaves it drops.
	taskset -c 1 sh -c "echo 'repeat 20000 insn stxr_w cmb 0x0 0x22' > $TOUCH/ctl" &
	sleep 0.2
	tracer_off
	wait $!
	assert_stat armed_bytes 0
	touch_dev read cmb 4 0x0
	assert_value 0x22
	assert_dmesg_clean
}

@test "emulate-a64: the test module refuses an unknown form, an access past its mapping, and x86's string commands" {
	touch_dev map cmb
	run sh -c "echo 'insn nosuchform cmb 0x0' > $TOUCH/ctl"
	[[ "$output" == *"Invalid argument"* ]]
	run sh -c "echo 'insn ldp_x cmb 0xff8' > $TOUCH/ctl"
	[[ "$output" == *"Invalid argument"* ]]
	run sh -c "echo 'string stos 4 fwd cmb 0x0 1' > $TOUCH/ctl"
	[[ "$output" == *"not supported"* ]]
}
