# Shared helpers for the guest tests; every .bats file loads this.
# The tests run as root inside the QEMU guest built by initramfs/.

TRACING=/sys/kernel/tracing
MMIOTRACE=/sys/kernel/debug/mmiotrace
TOUCH=/sys/kernel/debug/mmiotouch
MODULES=/opt/mmio/modules

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

# Unmap whatever a test left mapped, turn the tracer off and put every
# control back to its default.
reset_state() {
	local target
	for target in edu vga isa; do
		echo "unmap $target" > "$TOUCH/ctl" 2>/dev/null || true
	done
	echo nop > "$TRACING/current_tracer"
	if [ -d "$MMIOTRACE" ]; then
		: > "$MMIOTRACE/ranges"
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

# stat_of NAME: one counter from the stats file.
stat_of() {
	awk -v key="$1" '$1 == key { print $2; found = 1 } END { exit !found }' "$MMIOTRACE/stats"
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

# pci_bar0 VENDOR DEVICE: physical start of the device's BAR0, as 0x%x.
pci_bar0() {
	local dev
	for dev in /sys/bus/pci/devices/*; do
		if [ "$(cat "$dev/vendor")" = "$1" ] && [ "$(cat "$dev/device")" = "$2" ]; then
			printf '0x%x\n' "$(head -n 1 "$dev/resource" | cut -d' ' -f1)"
			return 0
		fi
	done
	return 1
}

edu_bar0() { pci_bar0 0x1234 0x11e8; }
vga_bar0() { pci_bar0 0x1234 0x1111; }

tracer_on() {
	echo mmiotrace > "$TRACING/current_tracer"
}

tracer_off() {
	echo nop > "$TRACING/current_tracer"
}

# The events in the trace buffer, timestamps removed so that lines compare
# exactly: "R 4 1 0xfebf0000 0x10000ed 0x0 0", "MAP 1 0x... 0x... 0x1000 0x0 0".
trace_events() {
	grep -E '^(R|W|UNKNOWN|MAP|UNMAP|MARK) ' "$TRACING/trace" |
		sed -E -e 's/^([RW]) ([0-9]+) [0-9]+\.[0-9]{6} /\1 \2 /' \
			-e 's/^(UNKNOWN|MAP|UNMAP|MARK) [0-9]+\.[0-9]{6} /\1 /'
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

SPLATS='WARNING:|BUG:|Oops|Call Trace|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context'

# dmesg_mark, then assert_dmesg_clean: no splat in what the kernel logged since.
dmesg_mark() {
	DMESG_LINES=$(dmesg | wc -l)
}

assert_dmesg_clean() {
	if dmesg | tail -n +"$((DMESG_LINES + 1))" | grep -E "$SPLATS"; then
		echo "the kernel log shows a splat"
		return 1
	fi
}
