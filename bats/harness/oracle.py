#!/usr/bin/env python3
"""The device oracle: compare the R/W events that guest tests recorded
(oracle_record in bats/helpers.bash, OUTDIR/oracle.log) with what QEMU
logged of the accesses that reached its device models (-trace
memory_region_ops_*, OUTDIR/qemu-trace.log).

For each recorded scenario and each CPU, the traced accesses to the
scenario's physical range must appear in QEMU's log of that vCPU, for that
range, as one unbroken run: the same accesses in the same order with the
same type, size, address and value. Unbroken, because from the first
traced access to the last every access to the range goes through an armed
page. Events narrower than the scenario's minimum width were left out by
the guest: the device refuses them and QEMU logs nothing for them.

A scenario may ask for more (a last word on its ORACLE BEGIN line):
"first", the run starts at the first access QEMU logged for the range (a
boot-time trace missed nothing); "exact", each CPU's accesses are all that
QEMU logged of that CPU for the range, from the first to the last (a
flight recorder kept everything up to the end).

usage: oracle.py OUTDIR
Prints one TAP line per scenario ("ok - oracle: NAME ..." or "not ok"),
with the first mismatching pair on failure; exits 1 if any failed.
"""
import re
import sys

QEMU_LINE = re.compile(
    r"memory_region_ops_(read|write) cpu (-?\d+) mr \S+ addr (0x[0-9a-f]+) "
    r"value (0x[0-9a-f]+) size (\d+)")


def scenarios(path):
    """Yield (name, phys, size, mode, {cpu: [(type, width, addr, value)]})."""
    current = None
    for line in open(path, errors="replace"):
        words = line.split()
        if not words:
            continue
        if words[:2] == ["ORACLE", "BEGIN"]:
            name, phys, size = words[2], int(words[3], 0), int(words[4], 0)
            mode = words[6] if len(words) > 6 else "run"
            current, events, cpu = (name, phys, size, mode), {}, None
        elif words[:2] == ["ORACLE", "END"] and current:
            yield current + (events,)
            current = None
        elif current and words[0] == "CPU":
            cpu = int(words[1])
            events.setdefault(cpu, [])
        elif current and cpu is not None and words[0] in ("R", "W"):
            # "xN" after an access: N of them in a row (the serial port
            # that carries these is slow).
            repeat = int(words[4][1:]) if len(words) > 4 else 1
            events[cpu].extend([(words[0], int(words[1]), int(words[2], 0),
                                 int(words[3], 0))] * repeat)


def device_log(path, ranges):
    """QEMU's accesses to any of the ranges, as {(lo, hi): {cpu: [...]}}."""
    log = {r: {} for r in ranges}
    for line in open(path, errors="replace"):
        m = QEMU_LINE.search(line)
        if not m:
            continue
        kind, cpu, addr, value, size = m.groups()
        addr, size = int(addr, 16), int(size)
        # QEMU logs what the device model returned, in 64 bits: the
        # access only has its size's worth of it.
        value = int(value, 16) & ((1 << (8 * size)) - 1)
        for lo, hi in ranges:
            if lo <= addr < hi:
                event = ("R" if kind == "read" else "W", size, addr, value)
                log[(lo, hi)].setdefault(int(cpu), []).append(event)
    return log


def fmt(event):
    return "%s %d 0x%x 0x%x" % event if event else "(none)"


def find_run(traced, device):
    """Where traced is an unbroken run of device, or the best miss:
    (True, start) or (False, (index, traced_event, device_event))."""
    best = (-1, None, None)
    for start in range(len(device) - len(traced) + 1):
        for i, event in enumerate(traced):
            if device[start + i] != event:
                if i > best[0]:
                    best = (i, event, device[start + i])
                break
        else:
            return True, start
    if best[0] < 0:
        best = (0, traced[0], None)
    return False, best


def check_bounds(name, mode, cpu, traced, device, start):
    """The mode's demand on where the run lies, or None if it holds."""
    if mode in ("first", "exact") and start != 0:
        return ("%s: cpu %d: the device saw %d accesses before the trace's "
                "first, the first %s" % (name, cpu, start, fmt(device[0])))
    if mode == "exact" and start + len(traced) != len(device):
        return ("%s: cpu %d: the device saw %d accesses after the trace's "
                "last, the first %s" % (name, cpu,
                                        len(device) - start - len(traced),
                                        fmt(device[start + len(traced)])))
    return None


def check(name, phys, size, mode, events, log):
    device = log[(phys, phys + size)]
    total = sum(len(e) for e in events.values())
    if not total:
        return False, "%s: the trace holds no access to check" % name
    if mode == "exact":
        for cpu in sorted(set(device) - {c for c, e in events.items() if e}):
            return False, ("%s: cpu %d: the device saw %d accesses, the trace "
                           "none" % (name, cpu, len(device[cpu])))
    for cpu, traced in sorted(events.items()):
        if not traced:
            continue
        ok, where = find_run(traced, device.get(cpu, []))
        if not ok:
            i, ours, theirs = where
            return False, ("%s: cpu %d: access %d of %d differs: trace %s, "
                           "device %s" % (name, cpu, i + 1, len(traced),
                                          fmt(ours), fmt(theirs)))
        wrong = check_bounds(name, mode, cpu, traced, device[cpu], where)
        if wrong:
            return False, wrong
    cpus = ", ".join("cpu %d: %d" % (cpu, len(e))
                     for cpu, e in sorted(events.items()) if e)
    whole = {"first": ", from its first", "exact": ", all of it"}
    return True, "%s: %d accesses match the device's record%s (%s)" % (
        name, total, whole.get(mode, ""), cpus)


def main(outdir):
    recorded = list(scenarios(outdir + "/oracle.log"))
    if not recorded:
        print("not ok - oracle: no scenario recorded (%s/oracle.log)" % outdir)
        return 1
    log = device_log(outdir + "/qemu-trace.log",
                     {(phys, phys + size) for _, phys, size, _, _ in recorded})
    failed = 0
    for name, phys, size, mode, events in recorded:
        ok, text = check(name, phys, size, mode, events, log)
        print("%s - oracle: %s" % ("ok" if ok else "not ok", text))
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
