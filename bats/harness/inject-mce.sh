#!/bin/bash
# The host side of the mce boot: QEMU waits, stopped (-S), with its gdb
# stub on HOST_DIR/gdb.sock; gdb (inject-mce.py) stops the kernel at the
# read of a traced process's emulated access and injects a machine check
# there. TAP on stdout, gdb's log in HOST_DIR/gdb.log.
# usage: inject-mce.sh KERNEL HOST_DIR   (KERNEL: the bzImage; its vmlinux
# is at the top of the build directory). The machine check reports edu's
# BAR as its address (pci.env, beside HOST_DIR); MCE_FUNCTION: where to
# stop instead (the kernel before the fix: kmmio_alias_read).
set -u
kernel=$1 dir=$2
EDU_BAR0=0
[ ! -f "$dir/../pci.env" ] || . "$dir/../pci.env"
here=$(cd "$(dirname "$0")" && pwd)
vmlinux=${kernel%/arch/x86/boot/bzImage}/vmlinux
[ -f "$vmlinux" ] || { echo "not ok - no vmlinux beside $kernel"; exit 1; }
for _ in $(seq 300); do
	[ -S "$dir/gdb.sock" ] && break
	sleep 0.1
done
[ -S "$dir/gdb.sock" ] || { echo "not ok - QEMU's gdb stub did not come up ($dir/gdb.sock)"; exit 1; }
# Until the guest reaches the read, or its boot's time is up.
MCE_SOCKET=$dir/gdb.sock MCE_ADDR=$EDU_BAR0 timeout "${MCE_TIMEOUT:-300}" \
	gdb -q -nx -batch -iex "set auto-load off" -x "$here/inject-mce.py" "$vmlinux" \
	2> "$dir/gdb.log" | grep -E '^(not )?ok '
[ "${PIPESTATUS[0]}" = 0 ] || echo "not ok - gdb failed or timed out (log: $dir/gdb.log)"
