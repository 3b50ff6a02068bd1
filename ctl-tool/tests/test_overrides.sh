#!/bin/bash
# Host tests of the override commands against a fake tree (--root): override,
# drop, del-override, del-drop, clear-overrides and overrides, BAR-relative
# addresses from the fake sysfs, and the overrides file in status and reset.
# The fake overrides file is a plain file: it holds exactly what was
# written. fakefail.so makes the "kernel" refuse a write.
# usage: test_overrides.sh MMIOCTL FAKEFAIL_SO   (prints ok/not ok lines)
set -u
mmioctl=$1 fakefail=$2
failures=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. "$(dirname "$0")/fake_tree.sh"

# holds FILE TEXT: FILE is TEXT byte for byte (trailing newlines included),
# read without the failures fakefail.so makes.
holds() {
	local got want
	got=$(LD_PRELOAD= cat "$1"; printf .)
	want=$(printf '%s.' "$2")
	[ "$got" = "$want" ] || { echo "# expected '$2', got '${got%.}'"; false; }
}

# refused NAME STATUS MESSAGE -- ARGS...: the output is exactly MESSAGE,
# for a usage error (status 2) after "mmioctl: " and before the hint to
# --help, unless it is the command's usage; and the overrides file is as
# it was.
refused() {
	local name=$1 want_status=$2 want=$3 before
	shift 4
	before=$(LD_PRELOAD= cat "$ctl/overrides"; printf .)
	[ "$want_status" = 2 ] && [[ $want != usage:* ]] && want="mmioctl: $want
Try 'mmioctl --help'."
	check_exact "$name" "$want_status" "$want" -- "$@"
	expect "$name: nothing written" holds "$ctl/overrides" "${before%.}"
}

# Success: the lines written, appended one write each.
make_tree
check_exact "override writes a read rule" 0 "" -- override 0xfea00000 4 0x1
expect "override appended the normalized line" holds "$ctl/overrides" $'0xfea00000 4 = 0x1\n'
check_exact "override with MASK and --count" 0 "" -- override 0xfea0001c 4 0 0x1 --count 3
expect "MASK and count follow VALUE, and the first rule stays" holds "$ctl/overrides" \
	$'0xfea00000 4 = 0x1\n0xfea0001c 4 = 0x0 0x1 count 3\n'
make_tree
check_exact "override takes decimal and --count=N" 0 "" -- override 4096 2 65535 --count=0
expect "written in hex, count 0 kept" holds "$ctl/overrides" $'0x1000 2 = 0xffff count 0\n'
make_tree
check_exact "override of 8 bytes takes a 64-bit value" 0 "" \
	-- override 0xfea00008 8 0xffffffffffffffff 0x8000000000000001
expect "the 8-byte rule" holds "$ctl/overrides" \
	$'0xfea00008 8 = 0xffffffffffffffff 0x8000000000000001\n'
make_tree
check_exact "--count may come first" 0 "" -- override --count 2147483647 0xfea00001 1 0xff
expect "the largest count" holds "$ctl/overrides" $'0xfea00001 1 = 0xff count 2147483647\n'
make_tree
check_exact "drop writes a write-drop rule" 0 "" -- drop 0xfea00004 4
check_exact "drop --count" 0 "" -- drop 0xfea00008 2 --count 1
expect "drop appended both" holds "$ctl/overrides" $'0xfea00004 4 drop\n0xfea00008 2 drop count 1\n'

# feed and random, and override --from: the rules replace the set, the
# feed line is the feed, little-endian u64s in one write.
make_tree
check_exact "override takes feed and a mask" 0 "" -- override 0x1000 4 feed 0xff00
check_exact "override takes random SEED, a count" 0 "" -- override 0x1004 2 random 9 --count 3
expect "feed and random written as the kernel reads them" holds "$ctl/overrides" \
	$'0x1000 4 = feed 0xff00\n0x1004 2 = random 0x9 count 3\n'
printf '%s\n' "# a reproducer" "0x2000 4 = 0x4d4d494f count 1  # magic" "" "0x2004 1 = feed" \
	"feed 0x5 6" "feed 0x100000000" > "$work/rules"
check_exact "override --from loads a file" 0 "" -- override --from "$work/rules"
expect "override --from replaced the set" holds "$ctl/overrides" \
	$'0x2000 4 = 0x4d4d494f count 1\n0x2004 1 = feed\n'
expect "override --from wrote the feed" same "$(od -An -v -tx1 "$ctl/feed" | tr -s ' \n' ' ')" \
	" 05 00 00 00 00 00 00 00 06 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 "
printf '%s\n' "0x2000 4 = 0x1" "0x2002 4 = 0x1" > "$work/rules"
refused "override --from names a bad line" 2 "$work/rules:2: not a rule: '0x2002 4 = 0x1'" \
	-- override --from "$work/rules"
refused "override --from takes one file" 2 "override --from takes one FILE (- for standard input)" \
	-- override --from "$work/rules" extra
refused "override --from a missing file" 1 "mmioctl: $work/nothing: No such file or directory" \
	-- override --from "$work/nothing"

# BAR-relative addresses, from the fake sysfs (edu BAR0 at 0xfea00000, 1 MiB).
make_tree
check_exact "override BDF:BAR+OFFSET resolves the BAR's start" 0 "" \
	-- override 0000:00:03.0:0+0x1c 4 0x1
check_exact "lspci's short form and a decimal offset" 0 "" -- drop 3.0:0+16 4
check_exact "the last bytes of a BAR" 0 "" -- override 00:03.0:0+0xffff8 8 0
check_exact "a BAR other than 0" 0 "" -- drop 2.0:2+0xffc 4
check_exact "a domain above 0xffff" 0 "" -- override 10000:00:03.0:0+0x3ffe 2 0x5
expect "the physical addresses were written" holds "$ctl/overrides" \
	$'0xfea0001c 4 = 0x1\n0xfea00010 4 drop\n0xfeaffff8 8 = 0x0\n0xfeb10ffc 4 drop\n0xf0003ffe 2 = 0x5\n'

# Removal and clearing.
make_tree
check_exact "del-override writes a removal of the read rule" 0 "" -- del-override 0xfea0001c 4
check_exact "del-drop takes a BAR-relative address" 0 "" -- del-drop 3.0:0+4 2
expect "the removal lines" holds "$ctl/overrides" $'!0xfea0001c 4 =\n!0xfea00004 2 drop\n'
refused "del-override takes no VALUE" 2 "usage: mmioctl del-override ADDR WIDTH
  remove the override of reads at ADDR" -- del-override 0xfea0001c 4 0x1
refused "del-drop checks the alignment" 2 "address '0xfea00002' is not aligned to the width 4" \
	-- del-drop 0xfea00002 4
printf '0x1000 4 drop\n' > "$ctl/overrides"
check_exact "clear-overrides empties the set" 0 "" -- clear-overrides
expect "clear-overrides truncated the file" holds "$ctl/overrides" ""

# Bad input: the message, the status, and nothing written.
make_tree
printf '0x1000 4 drop\n' > "$ctl/overrides"
refused "a missing VALUE" 2 "override needs ADDR WIDTH VALUE" -- override 0x1000 4
refused "--count does not stand for VALUE" 2 "override needs ADDR WIDTH VALUE" \
	-- override 0x1000 4 --count 2
refused "a fifth argument" 2 "override: unexpected argument '3'" -- override 0x1000 4 1 2 3
refused "drop takes no VALUE" 2 "drop: unexpected argument '5'" -- drop 0x1000 4 5
refused "an unknown option" 2 "override: unknown or incomplete option '-x'" -- override 0x1000 4 1 -x
refused "an invalid address" 2 \
	"invalid address '0xfg': expected decimal or 0x hex, or BDF:BAR+OFFSET" -- override 0xfg 4 1
refused "an octal-looking address" 2 \
	"invalid address '010': expected decimal or 0x hex, or BDF:BAR+OFFSET" -- drop 010 4
refused "a BAR address without an offset" 2 \
	"invalid address '3.0:0': expected BDF:BAR+OFFSET as in 0000:00:04.0:0+0x1c ([[DOMAIN:]BUS:]DEV.FN, BAR 0 to 5, OFFSET decimal or 0x hex)" \
	-- override 3.0:0 4 1
refused "a BAR address with BAR 6" 2 \
	"invalid address '3.0:6+0': expected BDF:BAR+OFFSET as in 0000:00:04.0:0+0x1c ([[DOMAIN:]BUS:]DEV.FN, BAR 0 to 5, OFFSET decimal or 0x hex)" \
	-- drop 3.0:6+0 4
refused "width 3" 2 "invalid width '3': expected 1, 2, 4 or 8" -- override 0x1000 3 1
refused "width 16" 2 "invalid width '16': expected 1, 2, 4 or 8" -- drop 0x1000 16
refused "width 0" 2 "invalid width '0': expected 1, 2, 4 or 8" -- del-override 0x1000 0
refused "an invalid value" 2 "invalid value 'on': expected decimal or 0x hex, feed or random SEED" -- override 0x1000 4 on
refused "a negative value" 2 "invalid value '-1': expected decimal or 0x hex, feed or random SEED" -- override 0x1000 4 -1
refused "random without a SEED" 2 "random needs a SEED: decimal or 0x hex" -- override 0x1000 4 random
refused "random with a bad SEED" 2 "random needs a SEED: decimal or 0x hex" -- override 0x1000 4 random x
refused "feed, a mask and more" 2 "override: unexpected argument '7'" -- override 0x1000 4 feed 0xff 7
refused "an invalid mask" 2 "invalid mask '0xz': expected decimal or 0x hex" -- override 0x1000 4 1 0xz
refused "a value wider than 1 byte" 2 "value '0x100' does not fit in 1 byte" -- override 0x1000 1 0x100
refused "a value wider than 4 bytes" 2 "value '4294967296' does not fit in 4 bytes" \
	-- override 0x1000 4 4294967296
refused "a mask wider than 2 bytes" 2 "mask '0x1ffff' does not fit in 2 bytes" \
	-- override 0x1000 2 1 0x1ffff
refused "mask 0" 2 "mask '0' selects no bit: leave MASK out for the whole value" \
	-- override 0x1000 4 1 0
refused "an address not aligned to the width" 2 "address '0xfea00002' is not aligned to the width 4" \
	-- override 0xfea00002 4 1
refused "an 8-byte rule on a 4-byte boundary" 2 "address '0xfea00004' is not aligned to the width 8" \
	-- drop 0xfea00004 8
refused "a BAR-relative address not aligned" 2 \
	"address '3.0:0+0x1e' (0xfea0001e) is not aligned to the width 4" -- override 3.0:0+0x1e 4 1
refused "count -1" 2 "invalid count '-1': expected 0 to 2147483647" -- override 0x1000 4 1 --count -1
refused "count past INT_MAX" 2 "invalid count '2147483648': expected 0 to 2147483647" \
	-- drop 0x1000 4 --count 2147483648
refused "count not a number" 2 "invalid count 'twice': expected 0 to 2147483647" \
	-- drop 0x1000 4 --count twice
refused "--count without N" 2 "--count needs a number N" -- override 0x1000 4 1 --count
refused "--count twice" 2 "--count is given more than once" -- drop 0x1000 4 --count 1 --count 2
refused "del-drop takes no --count" 2 "usage: mmioctl del-drop ADDR WIDTH
  remove the drop of writes at ADDR" -- del-drop 0x1000 4 --count 1
refused "an offset past the end of the BAR" 1 \
	"mmioctl: 3.0:0+0x100000: 1 byte at offset 0x100000 run past the end of 0000:00:03.0 BAR 0 (0x100000 bytes)" \
	-- override 3.0:0+0x100000 1 0
refused "a rule that runs past the end of the BAR" 1 \
	"mmioctl: 3.0:0+0xffffc: 8 bytes at offset 0xffffc run past the end of 0000:00:03.0 BAR 0 (0x100000 bytes)" \
	-- drop 3.0:0+0xffffc 8
refused "an absent device" 1 \
	"mmioctl: no PCI device 0000:00:07.0 ($root/sys/bus/pci/devices/0000:00:07.0/resource)" \
	-- override 7.0:0+0 4 1
refused "an I/O-port BAR" 1 "mmioctl: 0000:00:02.0 BAR 4 is an I/O port BAR, not memory" \
	-- drop 2.0:4+0 4
refused "an empty BAR" 1 "mmioctl: 0000:00:02.0 BAR 1 is empty" -- override 2.0:1+0 4 1
refused "a BAR without an address" 1 "mmioctl: 0000:00:05.0 BAR 0 has no address assigned" \
	-- del-override 5.0:0+0 4

# The kernel's refusals.
make_tree
printf '0x1000 4 drop\n' > "$ctl/overrides"
export LD_PRELOAD=$fakefail
FAKEFAIL="write:mmiotrace/overrides:22" refused "EINVAL from the kernel is reported" 1 \
	"mmioctl: $ctl/overrides: Invalid argument" -- override 0x2000 4 1
FAKEFAIL="write:mmiotrace/overrides:28" refused "ENOSPC says how many rules fit" 1 \
	"mmioctl: $ctl/overrides: No space left on device: at most 64 rules, expired ones included (del-override, del-drop, clear-overrides)" \
	-- drop 0x2000 4
FAKEFAIL="open:mmiotrace/overrides:13" refused "EACCES names the file" 1 \
	"mmioctl: $ctl/overrides: Permission denied" -- clear-overrides
unset LD_PRELOAD FAKEFAIL
rm "$ctl/overrides"
check_exact "a kernel without overrides is named" 1 \
	"mmioctl: $ctl/overrides not found: this kernel has no MMIO overrides" -- override 0x2000 4 1
expect "and nothing was made in its place" test ! -e "$ctl/overrides"
check_exact "overrides without the file names it" 1 \
	"mmioctl: $ctl/overrides: No such file or directory" -- overrides

# A rule where nothing is traced is taken, with a note.
make_tree
echo "0xfea00000 0x1000" > "$ctl/ranges"
check_exact "a rule outside the ranges is written, with a note" 0 \
	"mmioctl: note: the rule at 0xfeb00000 is inert for now: outside the traced ranges" \
	-- override 0xfeb00000 4 1
check_exact "a rule that meets the ranges gets no note" 0 "" -- drop 0xfea00ff8 8
expect "both were written" holds "$ctl/overrides" $'0xfeb00000 4 = 0x1\n0xfea00ff8 8 drop\n'
make_tree
check_exact "a rule with tracing off and an empty set gets no note" 0 "" -- override 0xfeb00000 4 1

# overrides: the kernel's lines, each inert one noted.
rules='0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0
0xfeb00004 2 drop'
make_tree
check_exact "overrides of an empty set prints nothing" 0 "" -- overrides
echo "$rules" > "$ctl/overrides"
echo "0xfea00000 0x1000" > "$ctl/ranges"
check_exact "overrides with tracing off notes every rule" 0 \
	"0xfea00000 4 = 0x1 0xffffffff  # inert: tracing is off
0xfea0001c 4 = 0x0 0x1 count 3  # inert: tracing is off
0xfea00ff8 8 drop count 0  # inert: tracing is off
0xfeb00004 2 drop  # inert: tracing is off, outside the traced ranges" -- overrides
echo mmiotrace > "$tracing/current_tracer"
check_exact "overrides under the tracer notes the rules outside the ranges" 0 \
	"0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0
0xfeb00004 2 drop  # inert: outside the traced ranges" -- overrides
echo "0xfea00000 0x10" > "$ctl/ranges"
check_exact "one byte of the rule in the set is enough" 0 \
	"0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3  # inert: outside the traced ranges
0xfea00ff8 8 drop count 0  # inert: outside the traced ranges
0xfeb00004 2 drop  # inert: outside the traced ranges" -- overrides
printf '0xfea0001c 0x1\n0xfeb00000 0x4\n' > "$ctl/ranges"
check_exact "each range of the set counts" 0 \
	"0xfea00000 4 = 0x1 0xffffffff  # inert: outside the traced ranges
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0  # inert: outside the traced ranges
0xfeb00004 2 drop  # inert: outside the traced ranges" -- overrides
: > "$ctl/ranges"
check_exact "with an empty set, the traced mappings decide" 0 \
	"0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0
0xfeb00004 2 drop  # inert: the range set is empty and no traced mapping holds it" -- overrides
sed -i 's/^7 0xfea00000 0x1000 1 /7 0xfea00000 0x1000 0 /' "$ctl/mappings"
check_exact "a mapping that is not traced holds nothing" 0 \
	"0xfea00000 4 = 0x1 0xffffffff  # inert: the range set is empty and no traced mapping holds it
0xfea0001c 4 = 0x0 0x1 count 3  # inert: the range set is empty and no traced mapping holds it
0xfea00ff8 8 drop count 0  # inert: the range set is empty and no traced mapping holds it
0xfeb00004 2 drop  # inert: the range set is empty and no traced mapping holds it" -- overrides
"$mmioctl" --root "$root" overrides > /dev/null 2>&1
expect "overrides changes no file" holds "$ctl/overrides" "$rules
"

# Tracing on through the events, as status decides it.
make_events_tree
echo "$rules" > "$ctl/overrides"
echo "0xfea00000 0x1000" > "$ctl/ranges"
echo 1 > "$tracing/events/mmiotrace/mmio_read/enable"
check_exact "events on at the top level are tracing" 0 \
	"0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0
0xfeb00004 2 drop  # inert: outside the traced ranges" -- overrides
echo 0 > "$tracing/events/mmiotrace/mmio_read/enable"
make_instance probe
echo '0*' > "$tracing/instances/probe/events/mmiotrace/mmio_write/enable"
check_exact "an event a trigger keeps registered in an instance is tracing" 0 \
	"0xfea00000 4 = 0x1 0xffffffff
0xfea0001c 4 = 0x0 0x1 count 3
0xfea00ff8 8 drop count 0
0xfeb00004 2 drop  # inert: outside the traced ranges" -- overrides
echo 0 > "$tracing/instances/probe/events/mmiotrace/mmio_write/enable"
check_exact "events off everywhere and no tracer: tracing is off" 0 \
	"0xfea00000 4 = 0x1 0xffffffff  # inert: tracing is off
0xfea0001c 4 = 0x0 0x1 count 3  # inert: tracing is off
0xfea00ff8 8 drop count 0  # inert: tracing is off
0xfeb00004 2 drop  # inert: tracing is off, outside the traced ranges" -- overrides

make_tree
printf '0xfea00000 4 = 0x1 0xffffffff\n0xfea00000 3 drop\n' > "$ctl/overrides"
check_exact "a line mmioctl cannot read is an error" 1 \
	"mmioctl: $ctl/overrides: malformed line '0xfea00000 3 drop'" -- overrides

# status and reset.
make_tree
printf '0xfea00000 4 = 0x1 0xffffffff\n0xfea00004 4 drop\n' > "$ctl/overrides"
printf 'read 3\nwrite 1\nmaps_unrecorded 0\noverridden 5\ndropped 2\nlost 7\n' > "$ctl/stats"
check "status counts the rules" 0 "ranges: empty (every mapping made while tracing is traced)
overrides: 2
stats:" -- status
check "status shows the overridden and dropped counters" 0 "  maps_unrecorded 0
  overridden 5
  dropped 2
  lost 7" -- status
check_exact "status --json has the rules and the new counters" 0 \
	'{"tracer":"nop","mmiotrace":false,"tracing_on":true,"buffer_size_kb":1408,"trace_pc":false,"trace_isa":true,"maps_only":false,"ranges":[],"stats":{"read":3,"write":1,"maps_unrecorded":0,"overridden":5,"dropped":2,"lost":7},"events_top":false,"events_instances":[],"overrides":2}' \
	-- status --json
rm "$ctl/overrides"
check "status on a kernel without overrides leaves them out" 0 "ranges: empty" -- status
expect "no overrides line" lacks "$out" "overrides"
check "status --json too" 0 '"events_instances":[]}' -- status --json

make_tree
printf '0xfea00000 4 = 0x1 0xffffffff\n' > "$ctl/overrides"
check_exact "reset removes every rule" 0 "" -- reset
expect "the overrides file is empty" holds "$ctl/overrides" ""
rm "$ctl/overrides"
check_exact "reset on a kernel without overrides" 0 "" -- reset
expect "and makes no overrides file" test ! -e "$ctl/overrides"

[ "$failures" = 0 ]
