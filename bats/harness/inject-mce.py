# gdb's script of the mce boot (inject-mce.sh runs it): stop the guest's
# kernel at a read of kmmio_alias_read_mc(), the read of a traced process's
# emulated access, inject a machine check there through QEMU's monitor, as
# a device that answers with poisoned data raises one, and let the guest
# go on. The guest (boot/mce.bats) judges what became of the process and
# of the kernel; this says, as TAP, whether the injection happened there.
import os
import re

import gdb

FUNCTION = os.environ.get("MCE_FUNCTION", "kmmio_alias_read_mc")
# A data load error that software may recover from (SRAR), as the kernel's
# severity table names it: VAL UC EN MISCV ADDRV S AR, MCACOD 0x134; the
# restart and error IPs valid, in progress; a physical address (MISC 0x86).
STATUS = 0xBD80000000000134
MCG_STATUS = 0x7
MISC = 0x86
ADDR = int(os.environ.get("MCE_ADDR", "0"), 0)
BANK = 1


def run(command):
    return gdb.execute(command, to_string=True)


def tap(ok, what):
    print(("ok" if ok else "not ok") + " - " + what, flush=True)


def load_addresses(function):
    """The MOVs of FUNCTION that load from memory through a register."""
    listing = run("disassemble " + function)
    return [int(m.group(1), 16) for m in re.finditer(
        r"^\s*(?:=>\s*)?(0x[0-9a-f]+) <\+\d+>:\s+mov\w*\s+\(%r\w+\),",
        listing, re.M)]


def main():
    run("set pagination off")
    run("set confirm off")
    # The kernel's text from vmlinux: the guest has not mapped it yet.
    run("set trust-readonly-sections on")
    run("target remote " + os.environ["MCE_SOCKET"])
    loads = load_addresses(FUNCTION)
    if not loads:
        tap(False, "no load from memory in %s to stop at" % FUNCTION)
        return
    for address in loads:
        run("hbreak *%#x" % address)
    run("continue")
    pc = int(gdb.parse_and_eval("$pc")) & (2**64 - 1)
    cpu = gdb.selected_thread().num - 1
    run("delete")
    if pc not in loads:
        tap(False, "the guest stopped at %#x, not at a read of %s" % (pc, FUNCTION))
        return
    start = int(gdb.parse_and_eval("(long)&" + FUNCTION)) & (2**64 - 1)
    answer = run("monitor mce -b %d %d %#x %#x %#x %#x" %
                 (cpu, BANK, STATUS, MCG_STATUS, ADDR, MISC)).strip()
    where = "CPU %d at %s+%#x" % (cpu, FUNCTION, pc - start)
    if answer:
        tap(False, "QEMU refused the machine check on %s: %s" % (where, answer))
    else:
        tap(True, "machine check injected on " + where)
    run("detach")


try:
    main()
except gdb.error as error:
    tap(False, "gdb: %s" % error)
