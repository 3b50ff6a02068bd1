# A machine check during a traced process's emulated read: QEMU starts
# stopped, with its gdb stub on a socket that harness/inject-mce.sh drives;
# gdb stops the kernel at the read and injects the machine check through
# QEMU's monitor. The vCPU says GenuineIntel, for the kernel's Intel
# severity table (qemu64 is AMD's, whose needs SUCCOR); nokaslr, for
# vmlinux's addresses; mce=print_all, as the kernel logs no machine check
# it recovered from otherwise. boot/mce.bats judges the process and the
# kernel.
TIER=quick
TESTS="boot/mce.bats"
DEPS="bats/harness/inject-mce.sh bats/harness/inject-mce.py"
ARGS="nokaslr mce=print_all"
QEMU="-S -gdb unix:$HOST_DIR/gdb.sock,server=on,wait=off -cpu qemu64,+pdpe1gb,vendor=GenuineIntel"
HOST="inject-mce.sh"
TIMEOUT=120
EST=40
