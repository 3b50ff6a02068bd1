# Shared helpers for the guest tests; every .bats file loads this.
# The tests run as root inside the QEMU guest built by initramfs/.

TRACING=/sys/kernel/tracing
MMIOTRACE=/sys/kernel/debug/mmiotrace
TOUCH=/sys/kernel/debug/mmiotouch
MODULES=/opt/mmio/modules

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

# Unmap whatever a test left mapped and turn the tracer off.
reset_state() {
	local target
	for target in edu vga isa; do
		echo "unmap $target" > "$TOUCH/ctl" 2>/dev/null || true
	done
	echo nop > "$TRACING/current_tracer"
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

# map_id PHYS: the id of the newest MAP event of that physical address.
map_id() {
	trace_events | awk -v phys="$1" '$1 == "MAP" && $3 == phys { id = $2 } END { print id }'
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

assert_dmesg_clean() {
	if dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|lock|RCU'; then
		echo "the kernel log shows a splat"
		return 1
	fi
}
