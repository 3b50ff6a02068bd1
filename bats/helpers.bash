# Shared helpers for the guest tests; every .bats file loads this.
# The tests run as root inside the QEMU guest built by initramfs/.

TRACING=/sys/kernel/tracing
MMIOTRACE=/sys/kernel/debug/mmiotrace
TOUCH=/sys/kernel/debug/mmiotouch
MODULES=/opt/mmio/modules
# Records for the device oracle, compared with QEMU's own log after the
# boot (bats/harness/oracle.py): x86's third UART, or what the kernel
# command line names (arm64: a virtio console, initramfs/run-qemu.sh).
ORACLE=${mmio_oracle:-/dev/ttyS2}
# The guest's architecture, as uname -m says (initramfs/init asks once).
ARCH=${MMIO_ARCH:-$(uname -m)}
# The in-tree Intel NIC driver that the tests trace, bound at boot: e1000
# on x86, e1000e (QEMU's 82574L) on arm64's virt; their registers that the
# tests count are at the same offsets.
# The page-table leaves of the mapped BARs: x86's page-table dump
# (PTDUMP_DEBUGFS), or on arm64, where that dump would make ioremap() map
# no block, the test module's walk; and how a kernel text address (a
# traced access's PC) begins.
if [ "$ARCH" = aarch64 ]; then
	NIC_DRIVER=e1000e NIC_DEVICE=0x10d3
	PAGE_TABLES=/sys/kernel/debug/mmiotouch/leaves
	KERNEL_PC=0xffff8000
else
	NIC_DRIVER=e1000 NIC_DEVICE=0x100e
	PAGE_TABLES=/sys/kernel/debug/page_tables/kernel
	KERNEL_PC=0xffffffff
fi

. /opt/mmio/pci.sh

# Every test starts from the defaults and puts them back afterwards. A file
# that needs more defines its own setup/teardown and calls these.
mmio_setup() {
	load_touch_module
	reset_state
	EDU=$(edu_bar0)
	VGA=$(vga_bar0)
}

mmio_teardown() {
	reset_state
}

setup() { mmio_setup; }
teardown() { mmio_teardown; }

# require_arch ARCH REASON: skip the test unless the guest is ARCH
# (x86_64 or aarch64, as uname -m says), saying why it needs it. Called
# first in a test, or in a file's setup_file() for every test of it.
require_arch() {
	[ "$ARCH" = "$1" ] || skip "$1 only: $2"
}

load_touch_module() {
	[ -d "$TOUCH" ] || insmod "$MODULES/mmiotouch.ko"
}

# touch_dev COMMAND...: one command to the test module (see mmiotouch.c).
touch_dev() {
	echo "$*" > "$TOUCH/ctl"
}

touch_value() {
	cat "$TOUCH/value"
}

# assert_value EXPECTED: the test module's last read gave EXPECTED.
assert_value() {
	assert_eq "value read" "$1" "$(touch_value)"
}

# touch_virt TARGET: the virtual address of the test module's mapping.
touch_virt() {
	awk -v target="$1" '$1 == target { print $2 }' "$TOUCH/mapped"
}

# mapping_id PHYS: the id of the newest live mapping of PHYS (mappings file).
mapping_id() {
	awk -v phys="$1" '$2 == phys { id = $1 } END { print id }' "$MMIOTRACE/mappings"
}

# The buffer size the guest booted with, to put back after a test; before
# any tracer expanded it, the file reads "7 (expanded: 1408)".
BUFFER_SIZE_FILE=/tmp/mmio-buffer_size_kb
[ -s "$BUFFER_SIZE_FILE" ] ||
	sed -E 's/.*expanded: ([0-9]+).*/\1/' "$TRACING/buffer_size_kb" > "$BUFFER_SIZE_FILE"

# Unmap whatever a test left mapped, turn the tracer and the events off
# and put every control back to its default.
reset_state() {
	local target
	for target in edu vga ivshmem isa cmb; do
		echo "unmap $target" > "$TOUCH/ctl" 2>/dev/null || true
	done
	echo vunmap > "$TOUCH/ctl" 2>/dev/null || true
	events_off
	echo nop > "$TRACING/current_tracer"
	# The events of the top-level buffer stay in it across tracers.
	: > "$TRACING/trace"
	echo 1 > "$TRACING/tracing_on"
	echo 1 > "$TRACING/options/overwrite"
	cat "$BUFFER_SIZE_FILE" > "$TRACING/buffer_size_kb"
	if [ -d "$MMIOTRACE" ]; then
		: > "$MMIOTRACE/ranges"
		# Port I/O tracing is x86's (CONFIG_MMIOTRACE_PORTS).
		[ ! -e "$MMIOTRACE/ports" ] || : > "$MMIOTRACE/ports"
		: > "$MMIOTRACE/overrides"
		: > "$MMIOTRACE/feed"
		echo 0 > "$MMIOTRACE/trace_pc"
		echo 1 > "$MMIOTRACE/trace_isa"
		echo 0 > "$MMIOTRACE/maps_only"
	fi
}

# hex EXPR: an address computed by the shell, printed as the trace prints it.
hex() {
	printf '0x%x\n' "$(($1))"
}

# set_ranges LINES / add_ranges LINES: one write of LINES to "ranges",
# through ">" (replace) or ">>" (add).
set_ranges() {
	printf '%s\n' "$1" > "$MMIOTRACE/ranges"
}

add_ranges() {
	printf '%s\n' "$1" >> "$MMIOTRACE/ranges"
}

# assert_ranges EXPECTED: the set reads back as exactly these lines.
assert_ranges() {
	local actual
	actual=$(cat "$MMIOTRACE/ranges")
	if [ "$actual" != "$1" ]; then
		printf 'expected ranges:\n%s\nactual ranges:\n%s\n' "$1" "$actual"
		return 1
	fi
}

# stat_of NAME: one counter from the stats file.
stat_of() {
	awk -v key="$1" '$1 == key { print $2; found = 1 } END { exit !found }' "$MMIOTRACE/stats"
}

# assert_eq WHAT EXPECTED ACTUAL: a failure names WHAT and shows both
# values, which a bare [ ... = ... ] leaves out of the test's output.
assert_eq() {
	[ "$2" = "$3" ] && return
	echo "$1: expected $2, actual $3"
	return 1
}

# assert_stat NAME EXPECTED: one counter has this value.
assert_stat() {
	local actual
	actual=$(stat_of "$1") || { echo "stats has no counter '$1'"; return 1; }
	assert_eq "stat $1" "$2" "$actual"
}

# assert_edu_read_traced: a read of edu's identification register, made
# now through the mapping the test module holds, shows in the trace.
assert_edu_read_traced() {
	touch_dev read edu 4 0x0
	if ! trace_events | grep -q "^R 4 [0-9]* $EDU 0x10000ed 0x0 0$"; then
		printf 'no trace line for the read of 0x10000ed at %s; last events:\n' "$EDU"
		trace_events | tail -n 5
		return 1
	fi
}

# errno_of MESSAGE: the errno name behind a shell's "write error: ..." text.
errno_of() {
	case $1 in
	*"Invalid argument"*) echo EINVAL ;;
	*"No space left on device"*) echo ENOSPC ;;
	*"No such device"*) echo ENODEV ;;
	*"Permission denied"*) echo EACCES ;;
	*"Cannot allocate memory"*) echo ENOMEM ;;
	*"Device or resource busy"*) echo EBUSY ;;
	*"Bad file descriptor"*) echo EBADF ;;
	*) echo "unknown($1)" ;;
	esac
}

# assert_write_fails ERRNO FILE DATA [>|>>]: one write() of DATA (escapes
# \n, \0, \xHH; see bats/tools/onewrite.c) fails with ERRNO, and FILE
# reads back as before. WRITE_FLAGS adds onewrite options (faults.bats).
assert_write_fails() {
	local want=$1 file=$2 data=$3 mode=${4:->>} before after out
	local -a flags=(${WRITE_FLAGS:-})
	[ "$mode" = ">" ] && flags+=(-t)
	before=$(cat "$file" 2>/dev/null) || true
	out=$(onewrite "${flags[@]}" "$file" "$data" 2>&1) &&
		{ echo "write of '$data' to $file succeeded"; return 1; }
	if [ "$(errno_of "$out")" != "$want" ]; then
		echo "write of '$data' to $file: expected $want, got: $out"
		return 1
	fi
	after=$(cat "$file" 2>/dev/null) || true
	if [ "$before" != "$after" ]; then
		printf 'write of %s changed %s:\n%s\n-> %s\n' "'$data'" "$file" "$before" "$after"
		return 1
	fi
}

# as_nobody COMMAND: run a shell command as user nobody.
as_nobody() {
	su -s /bin/sh nobody -c "$1"
}

tracer_on() {
	echo mmiotrace > "$TRACING/current_tracer"
}

tracer_off() {
	echo nop > "$TRACING/current_tracer"
}

# strip_timestamps: trace lines with their timestamps removed, so that
# they compare exactly: "R 4 1 0xfebf0000 0x10000ed 0x0 0",
# "MAP 1 0x... 0x... 0x1000 0x0 0", "IN 1 0x71 0x21 0x0 0".
strip_timestamps() {
	grep -E '^(R|W|UNKNOWN|MAP|UNMAP|MARK|IN|OUT) ' |
		sed -E -e 's/^([RW]|IN|OUT) ([0-9]+) [0-9]+\.[0-9]{6} /\1 \2 /' \
			-e 's/^(UNKNOWN|MAP|UNMAP|MARK) [0-9]+\.[0-9]{6} /\1 /'
}

# The events in the trace buffer, without timestamps.
trace_events() {
	strip_timestamps < "$TRACING/trace"
}

# read_map PHYS: sets ID and VIRT from the newest MAP event of that
# physical address; fails if there is none. The expected MAP line is then
# "MAP $ID $PHYS $VIRT LEN 0x0 0": length and the rest stay asserted.
read_map() {
	local map
	map=$(trace_events | awk -v phys="$1" '$1 == "MAP" && $3 == phys { line = $2 " " $4 } END { print line }')
	if [ -z "$map" ]; then
		echo "no MAP event of $1"
		return 1
	fi
	read -r ID VIRT <<< "$map"
}

# assert_events EXPECTED: the trace holds exactly these events, in order.
assert_events() {
	local actual
	actual=$(trace_events)
	if [ "$actual" != "$1" ]; then
		printf 'expected events:\n%s\nactual events:\n%s\n' "$1" "$actual"
		return 1
	fi
}

# The patterns of kernel messages that fail a run, one extended regular
# expression per line; verdict.sh uses the same file for the whole boot.
SPLATS=/opt/mmio/bats/splats.ere

# dmesg_mark, then assert_dmesg_clean: no splat in what the kernel logged since.
dmesg_mark() {
	DMESG_LINES=$(dmesg | wc -l)
}

assert_dmesg_clean() {
	if dmesg | tail -n +"$((DMESG_LINES + 1))" | grep -E -f "$SPLATS"; then
		echo "the kernel log shows a splat"
		return 1
	fi
}

# oracle_record NAME PHYS SIZE MIN_WIDTH: hand the R/W events of each CPU's
# buffer inside [PHYS, PHYS + SIZE) to the device oracle, which compares
# them with QEMU's record of the accesses that reached the device. Events
# narrower than MIN_WIDTH are left out: the device refuses them, so QEMU
# records none. So are the accesses an override kept from the device (the
# MARK line after them says so), and a read whose bits an override mixed
# goes with what the device gave. Call it while the buffer still holds the
# events.
oracle_record() {
	local name=$1 phys=$2 size=$3 min_width=$4 cpu
	{
		echo "ORACLE BEGIN $name $phys $size $min_width"
		for cpu in "$TRACING"/per_cpu/cpu*; do
			echo "CPU ${cpu##*cpu}"
			strip_timestamps < "$cpu/trace" | device_accesses "$phys" "$size" "$min_width" |
				oracle_runs
		done
		echo "ORACLE END $name"
	} > "$ORACLE"
}

# device_accesses PHYS SIZE MIN_WIDTH: of the stripped trace lines on stdin,
# the accesses that reached the device in [PHYS, PHYS + SIZE), as
# "R|W WIDTH PHYS VALUE" with the value the device saw.
device_accesses() {
	awk -v lo="$(($1))" -v hi="$(($1 + $2))" -v min="$3" '
		function flush() {
			if (pending != "") print pending
			pending = ""
		}
		$1 == "MARK" && $2 == "override" {
			if (pending == "" || $5 != pending_phys ":") next
			if ($0 ~ /: the device was not read$/ || $0 ~ /: the write was dropped$/)
				pending = ""
			else if ($0 ~ /: the device gave 0x[0-9a-f]+$/)
				pending = pending_head " " $NF
			next
		}
		{ flush() }
		($1 == "R" || $1 == "W") && $2 >= min && $4 + 0 >= lo && $4 + 0 < hi {
			pending_head = $1 " " $2 " " $4
			pending_phys = $4
			pending = pending_head " " $5
		}
		END { flush() }'
}

# oracle_record_ports NAME PORT SIZE: oracle_record for the IN and OUT lines
# of [PORT, PORT + SIZE): QEMU logs a port access as it logs an MMIO one,
# at the port's number.
oracle_record_ports() {
	local name=$1 port=$2 size=$3 cpu
	{
		echo "ORACLE BEGIN $name $port $size 1"
		for cpu in "$TRACING"/per_cpu/cpu*; do
			echo "CPU ${cpu##*cpu}"
			strip_timestamps < "$cpu/trace" |
				awk -v lo="$(($port))" -v hi="$(($port + $size))" '
					($1 == "IN" || $1 == "OUT") && $3 + 0 >= lo && $3 + 0 < hi {
						print ($1 == "IN" ? "R" : "W"), $2, $3, $4
					}' | oracle_runs
		done
		echo "ORACLE END $name"
	} > "$ORACLE"
}

# oracle_runs: "ACCESS" lines with a run of N equal ones as "ACCESS xN":
# the oracle's serial port is slow.
oracle_runs() {
	uniq -c | awk '{ print $2, $3, $4, $5 ($1 > 1 ? " x" $1 : "") }'
}

# The kernel's page-table dump prints addresses as 0x and 16 hex digits:
# printed so, addresses compare as strings, which awk can do exactly.
hex16() {
	printf '0x%016x\n' "$(($1))"
}

# page_level VIRT: the level of the page-table leaf that maps VIRT, as the
# kernel's page-table dump names it: "pte", "pmd" or "pud".
page_level() {
	awk -v va="$(hex16 "$1")" '
		$1 ~ /^0x/ {
			split($1, span, "-")
			# Concatenation makes them strings: no numeric comparison.
			if (span[1] "" <= va "" && va "" < span[2] "") { print $NF; exit }
		}' "$PAGE_TABLES"
}

# page_entries START END: the page-table dump's lines for [START, END), to
# compare before and after tracing (sizes, levels and flags).
page_entries() {
	awk -v lo="$(hex16 "$1")" -v hi="$(hex16 "$2")" '
		$1 ~ /^0x/ {
			split($1, span, "-")
			if (span[2] "" > lo "" && span[1] "" < hi "") print
		}' "$PAGE_TABLES"
}

# The mmiotrace events of the top-level buffer.
EVENTS=$TRACING/events/mmiotrace

# clear_triggers EVENT_DIR: remove every trigger of an event.
# (Read whole first, with builtins: every test's teardown gets here.)
clear_triggers() {
	local trigger triggers
	mapfile -t triggers < "$1/trigger"
	for trigger in "${triggers[@]}"; do
		case $trigger in "#"*) continue ;; esac
		trigger=${trigger% \[active\]}
		[[ $trigger =~ :size=[0-9]* ]] && trigger=${trigger/"${BASH_REMATCH[0]}"/}
		echo "!$trigger" > "$1/trigger"
	done
}

# events_off_in DIR: the mmiotrace events of one trace array (the top
# level, or an instance) disabled, their filters and triggers gone.
events_off_in() {
	local event
	echo 0 > "$1/events/mmiotrace/enable"
	for event in "$1"/events/mmiotrace/mmio_* "$1"/events/mmiotrace/pio_*; do
		clear_triggers "$event"
		echo 0 > "$event/filter"
	done
	clear_triggers "$1/events/ftrace/print"
	echo 0 > "$1/options/fields"
	echo 0 > "$1/snapshot" 2>/dev/null || true
}

# events_off: every trace array's mmiotrace events off, instances gone.
events_off() {
	local instance
	for instance in "$TRACING"/instances/*; do
		[ -d "$instance" ] || continue
		events_off_in "$instance"
		rmdir "$instance"
	done
	events_off_in "$TRACING"
}

# new_instance NAME: a trace instance; its directory.
new_instance() {
	mkdir "$TRACING/instances/$1"
	echo "$TRACING/instances/$1"
}

# event_accesses [FILE]: the R/W events of a trace file (default the
# top-level trace) as "R|W WIDTH PHYS VALUE", the fields the text tracer
# has too, so that both compare.
event_accesses() {
	sed -nE 's/.* mmio_(read|write): +phys=(0x[0-9a-f]+) value=(0x[0-9a-f]+) width=([0-9]+) .*/\1 \4 \2 \3/p' \
		"${1:-$TRACING/trace}" | sed -e 's/^read/R/' -e 's/^write/W/'
}

# event_lines [FILE]: the mmiotrace events of a trace file (default the
# top-level trace) as "mmio_EVENT FIELDS", without the columns that change
# from run to run.
event_lines() {
	sed -nE 's/^.*: (mmio_[a-z]+): /\1 /p' "${1:-$TRACING/trace}"
}

# tracer_accesses: the same of the text tracer's buffer.
tracer_accesses() {
	trace_events | awk '$1 == "R" || $1 == "W" { print $1, $2, $4, $5 }'
}

# oracle_record_events NAME PHYS SIZE MIN_WIDTH [DIR [MODE]]: oracle_record
# for the events of a trace array (default the top level). MODE "first":
# the trace holds the device's accesses from its first; "exact": all of
# them (bats/harness/oracle.py).
oracle_record_events() {
	local name=$1 phys=$2 size=$3 min_width=$4 dir=${5:-$TRACING} mode=${6:-} cpu
	{
		echo "ORACLE BEGIN $name $phys $size $min_width${mode:+ $mode}"
		for cpu in "$dir"/per_cpu/cpu*; do
			echo "CPU ${cpu##*cpu}"
			event_accesses "$cpu/trace" | awk -v lo="$(($phys))" -v hi="$(($phys + $size))" \
				-v min="$min_width" '$2 >= min && $3 + 0 >= lo && $3 + 0 < hi { print $1, $2, $3, $4 }' |
				oracle_runs
		done
		echo "ORACLE END $name"
	} > "$ORACLE"
}

# The flight recorder (bats/boot/crash.sh, crash.bats): the persistent
# instance the boot maps, and the accesses its first boot makes to edu
# before it dies: eight writes to the liveness register, each read back
# inverted, then a last write that nothing follows.
FLIGHT=$TRACING/instances/flight

flight_sequence() {
	local i
	echo "map edu"
	for i in 1 2 3 4 5 6 7 8; do
		echo "write edu 4 0x4 $((0x1000 * i + i))"
		echo "read edu 4 0x4"
	done
	echo "write edu 4 0x4 0xdeadbeef"
}

# flight_accesses PHYS: the accesses of flight_sequence, as event_accesses
# prints them, for edu's BAR0 at PHYS.
flight_accesses() {
	local i value reg
	reg=$(printf '0x%x' $(($1 + 4)))
	for i in 1 2 3 4 5 6 7 8; do
		value=$((0x1000 * i + i))
		printf 'W 4 %s 0x%x\n' "$reg" "$value"
		printf 'R 4 %s 0x%x\n' "$reg" $((~value & 0xffffffff))
	done
	printf 'W 4 %s 0xdeadbeef\n' "$reg"
}

# map_whole TARGET SIZE LEVEL (hugepages.bats, slow/hugepages.bats): map
# the first SIZE bytes of TARGET, check that its page-table leaves are at
# LEVEL, and keep them in BEFORE, with its virtual address in BASE.
map_whole() {
	local level
	touch_dev map "$1" 0x0 "$2"
	BASE=$(touch_virt "$1")
	level=$(page_level "$BASE")
	[ "$level" = "$3" ] || { echo "$1 mapped at level '$level', expected $3"; return 1; }
	BEFORE=$(page_entries "$BASE" "$((BASE + $2))")
}

# assert_page_tables_restored SIZE: the leaves of [BASE, BASE + SIZE) are
# as map_whole found them.
assert_page_tables_restored() {
	local after
	after=$(page_entries "$BASE" "$((BASE + $1))")
	if [ "$after" != "$BEFORE" ]; then
		printf 'page tables before tracing:\n%s\nafter:\n%s\n' "$BEFORE" "$after"
		return 1
	fi
}
