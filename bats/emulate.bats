#!/usr/bin/env bats
# Traced accesses are emulated in the fault handler: each instruction form
# gives exact R/W lines (width and value) and leaves in its register what
# the CPU would; string instructions give one line per element. The other
# instructions are single-stepped with their memory operand moved off the
# armed page: onto a buffer, for the general purpose ones, whose values
# are logged; onto the alias for SSE, logged as UNKNOWN; and only when the
# address register is an operand too, with the page present, counted.
# The VGA framebuffer takes every width; edu's accesses of 4 and 8 bytes go
# to the device oracle too.

load helpers

# arm64's instruction forms: emulate-a64.bats.
setup() {
	require_arch x86_64 "x86 instruction forms"
	mmio_setup
}

# assert_insn_result NAME OFFSET EXPECTED: run one instruction form of the
# test module on vga at OFFSET; it left EXPECTED in its register.
assert_insn_result() {
	touch_dev insn "$1" vga "$2"
	assert_eq "$1 register" "$3" "$(touch_value)"
}

@test "emulate: MOV reads and writes of 1, 2, 4 and 8 bytes give exact lines" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev write vga 1 0x10 0xa1
	touch_dev write vga 2 0x12 0xb2b2
	touch_dev write vga 4 0x14 0xc3c3c3c3
	touch_dev write vga 8 0x18 0xd4d4d4d4d4d4d4d4
	touch_dev read vga 8 0x10
	# Byte 0x11 holds whatever it held.
	[ "$(($(touch_value) & 0xffffffffffff00ff))" = "$((0xc3c3c3c3b2b200a1))" ]
	touch_dev read vga 1 0x10
	touch_dev read vga 2 0x12
	touch_dev read vga 4 0x14
	touch_dev read vga 8 0x18
	read_map "$VGA"
	value8=$(trace_events | awk '$1 == "R" && $2 == 8 && NR == 6 { print $5 }')
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
W 1 $ID $(hex VGA+0x10) 0xa1 0x0 0
W 2 $ID $(hex VGA+0x12) 0xb2b2 0x0 0
W 4 $ID $(hex VGA+0x14) 0xc3c3c3c3 0x0 0
W 8 $ID $(hex VGA+0x18) 0xd4d4d4d4d4d4d4d4 0x0 0
R 8 $ID $(hex VGA+0x10) $value8 0x0 0
R 1 $ID $(hex VGA+0x10) 0xa1 0x0 0
R 2 $ID $(hex VGA+0x12) 0xb2b2 0x0 0
R 4 $ID $(hex VGA+0x14) 0xc3c3c3c3 0x0 0
R 8 $ID $(hex VGA+0x18) 0xd4d4d4d4d4d4d4d4 0x0 0"
	assert_stat stepped 0
}

@test "emulate: partial register writes keep or clear the rest as the CPU does" {
	set_ranges "$VGA 4k"
	touch_dev map vga
	touch_dev write vga 8 0x100 0x8182838485868788
	tracer_on
	# The register held 0x1122334455667788 before each of these.
	assert_insn_result movb_ah 0x100 0x1122334455668888
	assert_insn_result movw_keep 0x100 0x1122334455668788
	assert_insn_result movl_zext 0x100 0x85868788
	assert_insn_result movzbq 0x100 0x88
	assert_insn_result movzwq 0x100 0x8788
	assert_insn_result movzbw_keep 0x100 0x1122334455660088
	assert_insn_result movsbq 0x100 0xffffffffffffff88
	assert_insn_result movswq 0x100 0xffffffffffff8788
	assert_insn_result movsbl_zext 0x100 0xffffff88
	read_map "$VGA"
	at="$ID $(hex VGA+0x100)"
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
R 1 $at 0x88 0x0 0
R 2 $at 0x8788 0x0 0
R 4 $at 0x85868788 0x0 0
R 1 $at 0x88 0x0 0
R 2 $at 0x8788 0x0 0
R 1 $at 0x88 0x0 0
R 1 $at 0x88 0x0 0
R 2 $at 0x8788 0x0 0
R 1 $at 0x88 0x0 0"
	assert_stat stepped 0
}

@test "emulate: immediates and AH are written with the value the CPU would store" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev insn movb_imm vga 0x200
	touch_dev insn movw_imm vga 0x210
	touch_dev insn movl_imm vga 0x220
	touch_dev insn movq_imm vga 0x230
	touch_dev insn movb_from_ah vga 0x240 0x99
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
W 1 $ID $(hex VGA+0x200) 0x5a 0x0 0
W 2 $ID $(hex VGA+0x210) 0x1234 0x0 0
W 4 $ID $(hex VGA+0x220) 0x12345678 0x0 0
W 8 $ID $(hex VGA+0x230) 0xfffffffffffffffe 0x0 0
W 1 $ID $(hex VGA+0x240) 0x99 0x0 0"
	tracer_off
	touch_dev read vga 8 0x230
	assert_value 0xfffffffffffffffe
	touch_dev read vga 1 0x240
	assert_value 0x99
}

# element_lines TYPE WIDTH ID FIRST STEP COUNT VALUE...: the lines of a
# string instruction's elements, from FIRST by STEP (negative: backward).
element_lines() {
	local type=$1 width=$2 id=$3 addr=$(($4)) step=$5 count=$6 i
	shift 6
	for i in $(seq 1 "$count"); do
		echo "$type $width $id $(hex addr) $1 0x0 0"
		addr=$((addr + step))
		shift
	done
}

@test "emulate: REP MOVS and STOS, forward and backward, give one line per element" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev fill 0x40
	touch_dev string movs_out 4 fwd vga 0x300 4
	touch_dev string movs_in 4 fwd vga 0x300 4
	assert_eq "buffer" "40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f" "$(cat "$TOUCH/buffer")"
	touch_dev fill 0x1234
	touch_dev string stos 2 back vga 0x406 4
	touch_dev string stos 8 fwd vga 0x500 2
	touch_dev fill 0x60
	touch_dev string movs_out 1 back vga 0x603 4
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
$(element_lines W 4 "$ID" VGA+0x300 4 4 0x43424140 0x47464544 0x4b4a4948 0x4f4e4d4c)
$(element_lines R 4 "$ID" VGA+0x300 4 4 0x43424140 0x47464544 0x4b4a4948 0x4f4e4d4c)
$(element_lines W 2 "$ID" VGA+0x406 -2 4 0x1234 0x1234 0x1234 0x1234)
$(element_lines W 8 "$ID" VGA+0x500 8 2 0x1234 0x1234)
$(element_lines W 1 "$ID" VGA+0x603 -1 4 0x63 0x62 0x61 0x60)"
	tracer_off
	touch_dev read vga 4 0x600
	assert_value 0x63626160
}

@test "emulate: MOVS and STOS without REP move one element" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev fill 0x70
	touch_dev string movs_out 2 fwd vga 0x700 0
	touch_dev string stos 4 back vga 0x710 0
	touch_dev string movs_in 8 fwd vga 0x700 0
	read_map "$VGA"
	value=$(trace_events | awk '$1 == "R" { print $5 }')
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
W 2 $ID $(hex VGA+0x700) 0x7170 0x0 0
W 4 $ID $(hex VGA+0x710) 0x70 0x0 0
R 8 $ID $(hex VGA+0x700) $value 0x0 0"
	[ "$((value & 0xffff))" = "$((0x7170))" ]
}

@test "emulate: memcpy_fromio, memcpy_toio and memset_io log every element with its value" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev fill 0x10
	touch_dev toio vga 0x800 8
	touch_dev fromio vga 0x800 8
	assert_eq "buffer" "10 11 12 13 14 15 16 17" "$(cat "$TOUCH/buffer")"
	touch_dev setio vga 0x900 4 0xee
	touch_dev read vga 4 0x900
	assert_value 0xeeeeeeee
	read_map "$VGA"
	# Each is logged element by element, in whatever widths the helpers
	# use: the bytes, put together, are what was copied or set.
	bytes_of() {
		trace_events | awk -v type="$1" -v lo="$(($2))" -v hi="$(($3))" '
			$1 == type && $4 + 0 >= lo && $4 + 0 < hi {
				v = $5 + 0
				for (i = 0; i < $2; i++) { printf "%02x ", v % 256; v = int(v / 256) }
			}'
	}
	assert_eq "W bytes VGA+0x800..VGA+0x808" "10 11 12 13 14 15 16 17 " \
		"$(bytes_of W VGA+0x800 VGA+0x808)"
	assert_eq "R bytes VGA+0x800..VGA+0x808" "10 11 12 13 14 15 16 17 " \
		"$(bytes_of R VGA+0x800 VGA+0x808)"
	assert_eq "W bytes VGA+0x900..VGA+0x904" "ee ee ee ee " \
		"$(bytes_of W VGA+0x900 VGA+0x904)"
	! trace_events | grep -q '^UNKNOWN' || false
	assert_stat stepped 0
}

@test "emulate: a string leaving the traced page goes on untraced" {
	# Two 4k pages, only the first one in the set.
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga 0x0 0x2000
	touch_dev fill 0xabcd
	touch_dev string stos 4 fwd vga 0xff8 4
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x2000 0x0 0
$(element_lines W 4 "$ID" VGA+0xff8 4 2 0xabcd 0xabcd)"
	touch_dev read vga 8 0x1000
	assert_value 0xabcd0000abcd
}

@test "emulate: a string from one mapping to another logs both sides" {
	IVSHMEM=$(ivshmem_bar2)
	set_ranges "$VGA 4k
$IVSHMEM 4k"
	tracer_on
	touch_dev map vga
	touch_dev map ivshmem
	touch_dev write vga 8 0x100 0x0807060504030201
	touch_dev copy 4 vga 0x100 ivshmem 0x200 2
	VGA_ID=$(mapping_id "$VGA")
	SHM_ID=$(mapping_id "$IVSHMEM")
	trace_events | grep -v '^MAP' > "$BATS_TEST_TMPDIR/events"
	[ "$(cat "$BATS_TEST_TMPDIR/events")" = "W 8 $VGA_ID $(hex VGA+0x100) 0x807060504030201 0x0 0
R 4 $VGA_ID $(hex VGA+0x100) 0x4030201 0x0 0
W 4 $SHM_ID $(hex IVSHMEM+0x200) 0x4030201 0x0 0
R 4 $VGA_ID $(hex VGA+0x104) 0x8070605 0x0 0
W 4 $SHM_ID $(hex IVSHMEM+0x204) 0x8070605 0x0 0" ]
	touch_dev read ivshmem 8 0x200
	assert_value 0x807060504030201
}

@test "emulate: a read-modify-write is stepped through a buffer, with its values" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev write vga 4 0x100 0x1
	touch_dev insn orl_stepped vga 0x100
	touch_dev insn xchgl vga 0x100 0xabcd
	assert_value 0x101
	touch_dev read vga 4 0x100
	assert_value 0xabcd
	read_map "$VGA"
	at="$ID $(hex VGA+0x100)"
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
W 4 $at 0x1 0x0 0
R 4 $at 0x1 0x0 0
W 4 $at 0x101 0x0 0
R 4 $at 0x101 0x0 0
W 4 $at 0xabcd 0x0 0
R 4 $at 0xabcd 0x0 0"
	assert_stat stepped 2
	assert_stat exposed 0
	assert_stat unknown 0
}

@test "emulate: MOVD and MOVQ of XMM and MMX registers and PUSH are stepped through a buffer, with their values" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev insn movq_xmm vga 0x100 0x1122334455667788
	touch_dev insn movd_xmm_load vga 0x104
	assert_value 0x11223344
	touch_dev insn pushq vga 0x100
	assert_value 0x1122334455667788
	touch_dev insn movq_mmx vga 0x108 0x0102030405060708
	assert_value 0x102030405060708
	read_map "$VGA"
	assert_events "MAP $ID $VGA $VIRT 0x1000 0x0 0
W 8 $ID $(hex VGA+0x100) 0x1122334455667788 0x0 0
R 4 $ID $(hex VGA+0x104) 0x11223344 0x0 0
R 8 $ID $(hex VGA+0x100) 0x1122334455667788 0x0 0
W 8 $ID $(hex VGA+0x108) 0x102030405060708 0x0 0
R 8 $ID $(hex VGA+0x108) 0x102030405060708 0x0 0"
	assert_stat stepped 5
	assert_stat exposed 0
	assert_stat unknown 0
}

@test "emulate: a 16-byte SSE store is stepped onto the alias and logged as UNKNOWN" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev insn movdqu_xmm vga 0x100 0x1122334455667788
	touch_dev read vga 8 0x108
	assert_value 0x1122334455667788
	read_map "$VGA"
	run trace_events
	assert_eq "events" 3 "${#lines[@]}"
	[[ "${lines[1]}" =~ ^UNKNOWN\ $ID\ $(hex VGA+0x100)\ [0-9a-f]{2},[0-9a-f]{2},[0-9a-f]{2}\ 0x0\ 0$ ]] ||
		{ echo "not the UNKNOWN line of movdqu: ${lines[1]}"; false; }
	assert_stat stepped 1
	assert_stat exposed 0
	assert_stat unknown 1
}

@test "emulate: with its address register as an operand, the page is made present, and counted" {
	set_ranges "$VGA 4k"
	tracer_on
	touch_dev map vga
	touch_dev write vga 4 0x100 0x1
	touch_dev insn orl_self vga 0x100
	touch_dev read vga 4 0x100
	# ORed with the low half of its own address.
	assert_value "$(hex "0x1 | ($(touch_virt vga) + 0x100) & 0xffffffff")"
	read_map "$VGA"
	run trace_events
	assert_eq "events" 4 "${#lines[@]}"
	[[ "${lines[2]}" =~ ^UNKNOWN\ $ID\ $(hex VGA+0x100)\ [0-9a-f]{2},[0-9a-f]{2},[0-9a-f]{2}\ 0x0\ 0$ ]] ||
		{ echo "not an UNKNOWN line: ${lines[2]}"; false; }
	assert_stat stepped 1
	assert_stat exposed 1
	# Armed again afterwards: the next access is traced.
	assert_stat armed_bytes 4096
}

@test "emulate: edu's registers through strings and helpers match the device's record" {
	set_ranges "$EDU 4k"
	tracer_on
	touch_dev map edu
	touch_dev fill 0x1a2b3c4d
	touch_dev string stos 4 fwd edu 0x200 4
	touch_dev string stos 8 back edu 0x248 3
	touch_dev string movs_out 4 fwd edu 0x300 4
	touch_dev string movs_in 4 back edu 0x30c 4
	touch_dev fromio edu 0x0 16
	touch_dev toio edu 0x400 16
	touch_dev write edu 4 0x4 0x12345678
	touch_dev read edu 8 0x0
	touch_dev insn movl_imm edu 0x500
	touch_dev insn movq_imm edu 0x508
	[ "$(trace_events | grep -c '^[RW] ')" = 27 ]
	oracle_record emulate-edu "$EDU" 0x1000 4
	assert_stat stepped 0
}
