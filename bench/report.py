#!/usr/bin/env python3
"""Host side of "make bench": turn the guests' RESULT lines into a table
(results.md) and a plot (results.png, via gnuplot).
usage: report.py OUTDIR OURS_LOG [STOCK_LOG]
Each guest's console.log, next to its output log, is searched for the
kernel-log patterns that fail a test run (bats/splats.ere). With a stock
log, the short boots in OUTDIR/pairs/ (oursN/output.log, stockN/output.log)
join the comparison of ioremap()+iounmap()."""
import os
import re
import statistics
import subprocess
import sys

SPLATS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bats", "splats.ere")


def load(path):
    values = {}
    for line in open(path, errors="replace"):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "RESULT":
            try:
                values.setdefault(parts[1], []).append(int(parts[2]))
            except ValueError:
                pass
    return values


def summary(values, name):
    v = values.get(name)
    if not v:
        return None
    return statistics.median(v), min(v), max(v)


def med(values, name):
    s = summary(values, name)
    return None if s is None else s[0]


def cell(values, name, scale=1):
    s = summary(values, name)
    if s is None:
        return "-"
    if len(values[name]) == 1:
        return "%g" % round(s[0] / scale, 3)
    return "%g (%g..%g)" % tuple(round(x / scale, 3) for x in s)


def ratio(a, b):
    return None if a is None or not b else a / b


def paired(values, a, b):
    """a/b for figures measured once per round of the same boot: the
    median of the rounds' ratios, so that the emulator's drift between
    rounds cancels; the ratio of the medians otherwise."""
    va, vb = values.get(a), values.get(b)
    if not va or not vb:
        return None
    if len(va) == len(vb) and all(vb):
        return statistics.median(x / y for x, y in zip(va, vb))
    return ratio(statistics.median(va), statistics.median(vb))


# ns per operation: the rows of the plot, in its order, and of the table.
ACCESSES = [
    ("off_read", "read, tracer off (edu)"),
    ("off_write", "write, tracer off (edu)"),
    ("fault_off_ns", "the floor: a kernel page fault ended by its fixup, tracer off"),
    ("fault_traced_ns", "the same fault while tracing (kmmio looks at every fault)"),
    ("user_anon_fault_off_ns", "a process's fault on a fresh anonymous page, tracer off"),
    ("user_anon_fault_traced_ns", "the same while tracing, another process's mapping traced"),
    ("user_file_fault_off_ns", "a process's fault on a page-cache page, tracer off"),
    ("user_file_fault_traced_ns", "the same while tracing, another process's mapping traced"),
    ("traced_read", "read in the range set, tracer (edu)"),
    ("traced_write", "write in the range set, tracer (edu)"),
    ("user_off_read", "read by a process through sysfs resource0, tracer off (edu)"),
    ("user_traced_read", "read by a process, in the range set, tracer (edu)"),
    ("events_read", "read in the range set, events in an instance (edu)"),
    ("events_write", "write in the range set, events in an instance (edu)"),
    ("filtered_read", "read, events in an instance, a filter rejects it"),
    ("filtered_write", "write, events in an instance, a filter rejects it"),
    ("subpage_outside_read", "read, armed page, outside a 16-byte range (no event)"),
    ("off_vga_read", "read, tracer off (VGA)"),
    ("outside_vga_read", "read, mapping outside the set (VGA)"),
    ("range4_4k_traced_read", "4-byte range, 4K page (edu): read in it"),
    ("range4_4k_untraced_read", "4-byte range, 4K page (edu): read beside it"),
    ("range4_pmd_traced_read", "4-byte range, 2M page (16M VGA BAR): read in it"),
    ("range4_pmd_untraced_read", "4-byte range, 2M page (16M VGA BAR): read beside it"),
    ("ranges1_read", "read in a 4-byte range, 1 range, 1 armed page (ivshmem)"),
    ("ranges1024_read", "the same read, 1024 ranges on 1024 armed pages"),
    ("port_off_read", "port read (inb 0x71, CMOS), tracer off"),
    ("port_other_off_read", "port read (inb 0x511, fw_cfg), tracer off"),
    ("port_traced_read", "port read (inb 0x71), its port traced, tracer"),
    ("port_outside_read", "port read (inb 0x511), outside the port set, ports traced"),
    ("remap_off_ns", "ioremap()+iounmap() of 4 KiB, tracer off"),
    ("remap_outside_ns", "ioremap()+iounmap() of 4 KiB, tracer on, outside the set"),
    ("remap_floor_ns", "the floor again, in the rounds of ioremap()+iounmap()"),
]
# Milliseconds (the guest prints microseconds).
TIMES = [
    ("enable_us", "enable the tracer, empty set"),
    ("disable_us", "disable the tracer, empty set"),
    ("enable_live_us", "enable the tracer, a range on a live mapping"),
    ("disable_live_us", "disable the tracer, a range on a live mapping"),
    ("events_enable_us", "enable the events of an instance, empty set"),
    ("events_disable_us", "disable the events of an instance, empty set"),
    ("events_enable_live_us", "enable the events of an instance, a range on a live mapping"),
    ("events_disable_live_us", "disable the events of an instance, a range on a live mapping"),
    ("events_nocmd_enable_us", "enable the events of an instance, empty set, its record-cmd off"),
    ("events_nocmd_disable_us", "disable the events of an instance, empty set, its record-cmd off"),
    ("port_enable_us", "write the port set (0x70 2) while tracing: a breakpoint on every CPU"),
    ("port_disable_us", "empty the port set while tracing"),
    ("rewrite_same_ns", "rewrite the set unchanged while tracing a live mapping: "
     "open, write, close"),
    ("rewrite_tmpfs_ns", "the same open, write, close of a file in tmpfs"),
    ("attr.rewrite_same.edit_ranges", "the unchanged rewrite's mmio_edit_ranges() "
     "(function graph)"),
]
SCALE = [("4k", 1), ("16m", 4096), ("64m", 16384), ("256m", 65536)]
SCALE_LABEL = {"4k": "4 KiB", "16m": "16 MiB", "64m": "64 MiB", "256m": "256 MiB"}
for size, leaves in SCALE:
    TIMES.append(("arm_%s_us" % size, "arm %s of 4k leaves (%d)" % (SCALE_LABEL[size], leaves)))
    TIMES.append(("disarm_%s_us" % size,
                  "disarm %s of 4k leaves (%d)" % (SCALE_LABEL[size], leaves)))
OTHERS = [
    ("events_per_s", "events per second, nobody reading"),
    ("events_per_s_1cpu", "traced reads per second, one CPU"),
    ("events_per_s_2cpu", "traced reads per second, two CPUs at once"),
    ("events_unaccounted_1cpu", "reads neither in the buffer nor lost, one CPU"),
    ("events_unaccounted_2cpu", "reads neither in the buffer nor lost, two CPUs"),
    ("events_until_loss", "events before the buffer lost some"),
    ("lost_events", "events lost in that run"),
    ("buffer_size_kb", "buffer_size_kb"),
    ("cpus", "CPUs"),
    ("cpus_online_tracing", "CPUs online while tracing"),
    ("loss_accesses", "1-in-100 run: reads made"),
    ("loss_accesses_per_s", "1-in-100 run: reads per second"),
    ("loss_tracer_lost", "1-in-100 run: events the tracer lost (stats: lost)"),
    ("loss_instance_lost", "1-in-100 run: events the instance lost (overrun + dropped events)"),
    ("loss_instance_kept", "1-in-100 run: events the instance kept"),
    ("loss_instance_buffer_kb", "1-in-100 run: the instance's buffer_size_kb"),
    ("ranges1_armed_leaves", "armed_leaves with 1 range"),
    ("ranges1024_armed_leaves", "armed_leaves with 1024 ranges"),
] + [("scale_%s_leaves" % s, "armed_leaves, %s window" % SCALE_LABEL[s]) for s, _ in SCALE] \
  + [("scale_%s_pte" % s, "%s window mapped with 4k leaves (1 = yes)" % SCALE_LABEL[s])
     for s, _ in SCALE]

# Where enabling, disabling and a rewrite spend their time (attr.*).
ATTR_VARIANTS = [
    ("enable", "enable the tracer, empty set"),
    ("disable", "disable the tracer, empty set"),
    ("enable_live", "enable the tracer, live range"),
    ("disable_live", "disable the tracer, live range"),
    ("events_enable", "enable events, empty set"),
    ("events_disable", "disable events, empty set"),
    ("events_enable_live", "enable events, live range"),
    ("events_disable_live", "disable events, live range"),
    ("rewrite_same", "unchanged rewrite"),
]
ATTR_CATEGORIES = [
    ("buffer_reset", "ring-buffer reset",
     "tracer_init() resetting the tracer's buffer: the synchronize_rcu() of "
     "ring_buffer_reset_online_cpus(), none when nothing was written to the buffer since its "
     "last reset (patch 75: mostly on enable); stock waits for two on enable and on disable"),
    ("probe_sync", "probe unregister sync",
     "synchronize_rcu_expedited() in disable_mmiotrace() after the tracer's seven probes are "
     "out (patch 76; it was tracepoint_synchronize_unregister(): SRCU, then a normal grace "
     "period), none since patch 87 when stopping's disarm grace period came after them"),
    ("srcu_start", "start: SRCU",
     "start_tracing(): synchronize_srcu_expedited() for the ioremap()/iounmap() calls that "
     "saw tracing off"),
    ("patching", "code patching",
     "text_poke_bp_batch(): the static keys and static calls of the tracepoints whose first "
     "probe comes or last goes (two batches per tracepoint, seven tracepoints); under TCG "
     "patching code also throws away translated code"),
    ("walk", "walk + plan",
     "apply_settings() less arming: the walk of vmalloc's VM_IOREMAP areas, planning"),
    ("arm", "arm", "kmmio_arm(): fault pages, clearing present bits, TLB flushes"),
    ("disarm", "disarm", "kmmio_disarm()"),
    ("disarm_gp", "disarm grace period",
     "kmmio_synchronize(): synchronize_rcu_expedited() after something was disarmed"),
    ("tp_reuse_gp", "tracepoint 1-0-1 wait",
     "cond_synchronize_rcu() of a tracepoint enabled again soon after its disabling"),
    ("other_gp", "other grace periods", "any other synchronize_rcu()/synchronize_srcu() of ours"),
    ("other", "the rest",
     "the write itself (shell, VFS, tracefs), event-file bookkeeping and what the function "
     "graph does not see, incl. its own cost; = wall - the columns before"),
]
# Per-call durations (attr.access.GROUP.FUNCTION, ns) and calls per
# operation (attr.calls.GROUP.FUNCTION, hundredths), one function traced
# at a time.
ACCESS_GROUPS = [
    ("read", "a traced read of edu's id register (tracer on, a 4k range)", [
        ("kmmio_handler", "the whole handler: lookups, decode, emulation, report"),
        ("get_kmmio_fault_page", "lookup_address() + xa_load() of the leaf's fault page"),
        ("lookup_address", "the page-table walk"),
        ("rcu_read_lock_held", "an RCU-lockdep check (CONFIG_PROVE_RCU), as in each "
         "level of an xarray lookup"),
        ("kmmio_decode", "the per-CPU cache of decoded instructions (patch 86): a hit compares "
         "the bytes and copies the entry"),
        ("insn_decode", "decoding the instruction: only on a miss of that cache"),
        ("kmmio_emulate", "emulation: alias access, register, report"),
        ("kmmio_alias_read", "the read through the alias (the device access)"),
        ("mmio_access", "range check, stats, trace_mmio_read() and its consumers"),
        ("probe_read", "the tracer's probe: its ring-buffer entry"),
        ("mmio_ranges_meet", "a one-range lookup: about what the graph adds to any call"),
    ]),
    ("fault", "the floor's fault while tracing (kmmio armed elsewhere)", [
        ("kmmio_handler", "kmmio's look at a fault that is not its own"),
        ("get_kmmio_fault_page", "of which the lookup"),
        ("do_kern_addr_fault", "the fault handler proper, ending in the fixup"),
    ]),
    ("floor", "the floor's fault, nothing tracing", [
        ("do_kern_addr_fault", "the fault handler proper, ending in the fixup"),
    ]),
    ("remap_on", "ioremap()+iounmap() of 4 KiB, tracer on, the mapping outside the set", [
        ("mmiotrace_ioremap_begin", "the hook before the vmalloc area: SRCU, mapping mutex"),
        ("mmiotrace_ioremap_end", "after it: the mapping's record, its index, planning"),
        ("mmiotrace_iounmap_begin", "before the unmap: finding and dropping the record"),
        ("mmiotrace_iounmap_end", "after it"),
        ("kmem_cache_alloc_lru_noprof", "slab allocations with an LRU: xarray nodes"),
        ("call_rcu", "RCU callbacks queued: xarray nodes freed"),
    ]),
    ("remap_off", "ioremap()+iounmap() of 4 KiB, nothing tracing", [
        ("ioremap", "ioremap() whole"),
        ("iounmap", "iounmap() whole"),
        ("mmiotrace_ioremap_begin", "ours: the hook before the area, an SRCU read section "
         "begins"),
        ("mmiotrace_ioremap_end", "ours: and ends"),
        ("mmiotrace_iounmap_begin", "ours: the same for iounmap()"),
        ("mmiotrace_iounmap_end", "ours: and ends"),
        ("mmiotrace_ioremap", "stock: its hook, is the tracer on?"),
        ("mmiotrace_iounmap", "stock: the same for iounmap()"),
        ("kmem_cache_alloc_lru_noprof", "slab allocations with an LRU"),
        ("call_rcu", "RCU callbacks queued"),
    ]),
]


def load_pairs(outdir):
    """[(ours, stock)] of the short boots of make bench STOCK=1 that take
    turns (OUTDIR/pairs/oursN and stockN), in order."""
    found = []
    while True:
        logs = [os.path.join(outdir, "pairs", "%s%d" % (k, len(found) + 1), "output.log")
                for k in ("ours", "stock")]
        if not all(os.path.exists(log) for log in logs):
            return found
        found.append(tuple(load(log) for log in logs))


def verdict(value, target, fmt="%.3f", better="le"):
    if value is None:
        return "-", "not measured"
    shown = fmt % value
    ok = value <= target if better == "le" else value >= target
    return shown, "holds" if ok else "does not hold"


def splats(log):
    """Lines of a console log that match bats/splats.ere."""
    if not os.path.exists(log):
        return None
    patterns = [re.compile(p.strip()) for p in open(SPLATS) if p.strip()]
    found = []
    for line in open(log, errors="replace"):
        if any(p.search(line) for p in patterns):
            found.append(line.strip())
    return found


def targets(ours, stock, pairs, ours_log):
    """Rows: (what, value, target, verdict)."""
    rows = []

    def add(label, value, target_text, target, fmt="%.3f", better="le"):
        shown, v = verdict(value, target, fmt, better)
        rows.append((label, shown, target_text, v))

    # 1. ioremap()+iounmap(): the main boots and the short ones, a pair at
    # a time.
    if stock:
        boots = [(ours, stock)] + pairs
        raw = [ratio(med(o, "remap_off_ns"), med(s, "remap_off_ns")) for o, s in boots]
        norm = [ratio(paired(o, "remap_off_ns", "remap_floor_ns"),
                      paired(s, "remap_off_ns", "remap_floor_ns")) for o, s in boots]
        raw = [r for r in raw if r is not None]
        norm = [r for r in norm if r is not None]
        add("ioremap()+iounmap() of 4 KiB, tracer off: ours / stock, the median over %d pairs "
            "of boots (%s; in the main boots: %s / %s ns)"
            % (len(raw), ", ".join("%.3f" % r for r in raw), cell(ours, "remap_off_ns"),
               cell(stock, "remap_off_ns")),
            statistics.median(raw) if raw else None, "<= 1.05", 1.05)
        rows.append(("the same, each kernel's in units of its floor fault, measured in the same "
                     "rounds (the same code in both: leaves out the emulator's speed in each "
                     "boot); median over the pairs (%s)" % ", ".join("%.3f" % r for r in norm),
                     "%.3f" % statistics.median(norm) if norm else "-", "cross-check", "-"))
    else:
        rows.append(("ioremap()+iounmap() of 4 KiB, tracer off: ours / stock", "-",
                     "<= 1.05", "needs STOCK=1"))
    rows.append(("ioremap()+iounmap() of 4 KiB, tracer on, mapping outside the set (ns)",
                 cell(ours, "remap_outside_ns"), "none", "-"))

    # 2. Arming at scale.
    fixed = {k: med(ours, "%s_4k_us" % k) for k in ("arm", "disarm")}
    per_leaf = {}
    for kind in ("arm", "disarm"):
        for size, leaves in SCALE[1:]:
            t = med(ours, "%s_%s_us" % (kind, size))
            if t is None or fixed[kind] is None:
                per_leaf[kind, size] = None
                continue
            per_leaf[kind, size] = (t - fixed[kind]) * 1000 / (leaves - 1)
            rows.append(("%s %s of 4k leaves: ms, and ns per leaf beyond one leaf's %.1f ms"
                         % (kind, SCALE_LABEL[size], fixed[kind] / 1000),
                         "%.1f ms, %.0f ns/leaf" % (t / 1000, per_leaf[kind, size]),
                         "linear", "-"))
        a, b = per_leaf.get((kind, "256m")), per_leaf.get((kind, "16m"))
        add("%s: ns per leaf, 256 MiB / 16 MiB" % kind, ratio(a, b), "<= 1.5", 1.5)
    pte = [med(ours, "scale_%s_pte" % s) for s, _ in SCALE]
    leaves_ok = [med(ours, "scale_%s_leaves" % s) == n for s, n in SCALE]
    if None in pte:
        rows.append(("the windows are 4k leaves (page-table dump), armed_leaves as expected",
                     "-", "yes", "not measured"))
    else:
        rows.append(("the windows are 4k leaves (page-table dump), armed_leaves as expected",
                     "yes" if all(pte) and all(leaves_ok) else "no", "yes",
                     "holds" if all(pte) and all(leaves_ok) else "does not hold"))
    found = splats(os.path.join(os.path.dirname(ours_log), "console.log"))
    if found is None:
        rows.append(("no lockup, stall or other splat in the guest's console.log", "-", "none",
                     "not measured"))
    else:
        rows.append(("no lockup, stall or other splat in the guest's console.log",
                     "none" if not found else "%d: %s" % (len(found), found[0]), "none",
                     "holds" if not found else "does not hold"))

    # 3. 1024 ranges.
    add("traced read, 1024 ranges on 1024 armed pages of one mapping / 1 range (%s / %s ns)"
        % (cell(ours, "ranges1024_read"), cell(ours, "ranges1_read")),
        paired(ours, "ranges1024_read", "ranges1_read"), "<= 1.1", 1.1)

    # 4. Enable and disable.
    online, cpus = med(ours, "cpus_online_tracing"), med(ours, "cpus")
    if online is not None and cpus is not None:
        rows.append(("CPUs online while tracing (stock: %s)" % cell(stock, "cpus_online_tracing"),
                     "%d of %d" % (online, cpus), "all",
                     "holds" if online == cpus else "does not hold"))
    for name, label in TIMES[:10]:
        v = med(ours, name)
        add(label + ", every CPU online (ms)", None if v is None else v / 1000,
            "<= 10 ms", 10, "%.1f")

    # 5. Unchanged rewrite.
    v = med(ours, "rewrite_same_ns")
    add("unchanged ranges rewrite while tracing: open, write, close (ms; of a tmpfs file: "
        "%s ms; in mmio_edit_ranges(): %s ms)" % (cell(ours, "rewrite_tmpfs_ns", 1e6),
                                                 cell(ours, "attr.rewrite_same.edit_ranges", 1000)),
        None if v is None else v / 1e6, "<= 1 ms", 1, "%.3f")

    # 6. The floor.
    add("the floor's fault while tracing, a range elsewhere / tracer off (%s / %s ns)"
        % (cell(ours, "fault_traced_ns"), cell(ours, "fault_off_ns")),
        paired(ours, "fault_traced_ns", "fault_off_ns"), "<= 1.1", 1.1)
    for kind, what in (("anon", "a fresh anonymous page"), ("file", "a page-cache page")):
        add("a process's fault on %s while tracing (another process's mapping traced) / off "
            "(%s / %s ns)" % (what, cell(ours, "user_%s_fault_traced_ns" % kind),
                              cell(ours, "user_%s_fault_off_ns" % kind)),
            paired(ours, "user_%s_fault_traced_ns" % kind, "user_%s_fault_off_ns" % kind),
            "<= 1.05", 1.05)
    # Issue 34's target for the production kernel; the first performance
    # issue asked for 1.2 on the debug one.
    for what in ("read", "write"):
        add("traced %s (tracer) / the floor (%s / %s ns)"
            % (what, cell(ours, "traced_" + what), cell(ours, "fault_off_ns")),
            paired(ours, "traced_" + what, "fault_off_ns"), "<= 3", 3)
        add("traced %s (events) / the floor" % what,
            paired(ours, "events_" + what, "fault_off_ns"), "<= 3", 3)
    for name, label in (("fault_traced_ns", "the floor's fault while tracing"),
                        ("subpage_outside_read", "armed page, outside the set (no event)"),
                        ("filtered_read", "events, a filter rejects it"),
                        ("events_read", "events, recorded"),
                        ("traced_read", "the tracer, recorded")):
        v = paired(ours, name, "fault_off_ns")
        rows.append(("where a read above the floor goes: %s / the floor" % label,
                     "-" if v is None else "%.3f" % v, "none", "-"))

    # 8. Events against the text tracer.
    for what in ("read", "write"):
        add("%s through the events / through the text tracer" % what,
            paired(ours, "events_" + what, "traced_" + what), "<= 1.1", 1.1)
        add("%s, events, a filter rejects it / recorded (filtered / unfiltered)" % what,
            paired(ours, "filtered_" + what, "events_" + what), "<= 1", 1.0)

    # 9. Loss.
    t_lost, i_lost = med(ours, "loss_tracer_lost"), med(ours, "loss_instance_lost")
    if t_lost is None or i_lost is None:
        rows.append(("an instance keeping 1 access in 100 loses none where the tracer loses some",
                     "-", "instance 0, tracer > 0", "not measured"))
    else:
        rows.append(("an instance keeping 1 access in 100 loses none where the tracer loses some "
                     "(%d reads at %d/s; the instance kept %d)"
                     % (med(ours, "loss_accesses"), med(ours, "loss_accesses_per_s"),
                        med(ours, "loss_instance_kept")),
                     "tracer lost %d, instance lost %d" % (t_lost, i_lost),
                     "instance 0, tracer > 0",
                     "holds" if i_lost == 0 and t_lost > 0 else "does not hold"))

    # User-space MMIO: a process's traced read against the kernel's, in
    # each round; its untraced read against stock's.
    add("user: traced read by a process / by the kernel",
        paired(ours, "user_traced_read", "traced_read"), "<= 1.5", 1.5)
    if stock:
        add("user: untraced read by a process, ours / stock (two boots)",
            ratio(med(ours, "user_off_read"), med(stock, "user_off_read")), "<= 1.05", 1.05)

    # Issue 36: ports. Debug registers trap only the selected ports, so a
    # port outside the set costs what it costs with nothing traced.
    add("ports: traced port read / traced MMIO read (same rounds)",
        paired(ours, "port_traced_read", "traced_read"), "<= 1.5", 1.5)
    add("ports: port read outside the set, ports traced / tracer off",
        paired(ours, "port_outside_read", "port_other_off_read"), "<= 1.1", 1.1)
    v = med(ours, "port_enable_us")
    add("ports: enabling port tracing (ms)", None if v is None else v / 1000, "<= 10", 10)

    # Issue 34's untraced access, then earlier issues' targets, kept so
    # that they stay watched.
    add("untraced access: read outside the set while tracing / tracer off (VGA read)",
        paired(ours, "outside_vga_read", "off_vga_read"), "<= 1.01", 1.01)
    if stock:
        add("earlier: traced write, ours / stock (two boots)",
            ratio(med(ours, "traced_write"), med(stock, "traced_write")), "<= 1.05", 1.05)
        a = paired(ours, "traced_read", "off_read")
        b = paired(stock, "traced_read", "off_read")
        add("earlier: traced/off, ours over stock's (each in its boot)", ratio(a, b),
            "<= 1.05", 1.05)
        add("earlier: traced read, ours / stock (emulation issue)",
            ratio(med(ours, "traced_read"), med(stock, "traced_read")), "<= 0.6", 0.6)
    return rows


def main():
    outdir, ours_log = sys.argv[1], sys.argv[2]
    ours = load(ours_log)
    stock = load(sys.argv[3]) if len(sys.argv) > 3 else {}
    out = ["# mmiotrace benchmark", "",
           "Medians of repeated runs in one boot per kernel, (min..max) where there are several; "
           "TCG, so absolute times compare only within a column. A ratio of two figures "
           "measured in every round of one boot is the median of the rounds' ratios; "
           "any other ratio is of medians.", "",
           "## Targets", "", "| what | value | target | verdict |", "|---|---|---|---|"]
    for row in targets(ours, stock, load_pairs(outdir), ours_log):
        out.append("| %s | %s | %s | %s |" % row)

    stock_col = " stock |" if stock else ""
    stock_sep = "---|" if stock else ""
    sections = [("ns per operation", ACCESSES, 1), ("milliseconds", TIMES, 1000),
                ("other figures", OTHERS, 1)]
    for title, rows, scale in sections:
        out += ["", "## Figures: " + title, "",
                "| what | ours |" + stock_col, "|---|---|" + stock_sep]
        for name, label in rows:
            # The guest gives times in us, or ns where the name says.
            k = scale * 1000 if name.endswith("_ns") and scale != 1 else scale
            row = "| %s | %s |" % (label, cell(ours, name, k))
            if stock:
                row += " %s |" % cell(stock, name, k)
            out.append(row)

    if any(k.startswith("attr.") for k in ours):
        out += ["", "## Where enabling and disabling spend their time (ms)", "",
                "The function graph of the writing shell (function_graph in an instance of its "
                "own, filtered to the functions that wait or patch code), each function's time "
                "less that of the traced functions it called; medians over the rounds. While "
                "a function tracer runs, the probes that record command names (sched_switch, "
                "sched_wakeup) are registered already: enabling events here does not register "
                "them, as it does without the graph unless the instance's record-cmd is off "
                "(the record-cmd rows above show their share).", "",
                "| variant | wall | " + " | ".join(c[1] for c in ATTR_CATEGORIES) + " |",
                "|---|---|" + "---|" * len(ATTR_CATEGORIES)]
        for variant, label in ATTR_VARIANTS:
            cells = [cell(ours, "attr.%s.wall" % variant, 1000)]
            for cat, _, _ in ATTR_CATEGORIES:
                v = med(ours, "attr.%s.%s" % (variant, cat))
                cells.append("-" if v is None else "%.2f" % (v / 1000))
            out.append("| %s | %s |" % (label, " | ".join(cells)))
        out += [""] + ["- **%s**: %s." % (short, text) for _, short, text in ATTR_CATEGORIES]
        out += ["", "## Where an operation goes (function graph, ns per call)", "",
                "One function traced at a time, its median duration over the calls that a few "
                "hundred operations make, and its calls per operation; each call includes what "
                "the graph adds to it (see mmio_ranges_meet, a one-range lookup).", "",
                "| operation | function | what | ns per call | calls per operation |"
                + (" stock: ns per call | stock: calls |" if stock else ""),
                "|---|---|---|---|---|" + ("---|---|" if stock else "")]
        for group, op, funcs in ACCESS_GROUPS:
            for fn, what in funcs:
                row = "| %s | %s | %s |" % (op, fn, what)
                for values in (ours, stock) if stock else (ours,):
                    calls = med(values, "attr.calls.%s.%s" % (group, fn))
                    row += " %s | %s |" % (cell(values, "attr.access.%s.%s" % (group, fn)),
                                          "-" if calls is None else "%.2f" % (calls / 100))
                out.append(row)
    open(os.path.join(outdir, "results.md"), "w").write("\n".join(out) + "\n")
    plot(outdir, ours, stock)
    print("\n".join(out))


def plot(outdir, ours, stock):
    """Horizontal bars, one row per ACCESSES entry, labelled as in the
    table; log scale."""
    rows = [(label, med(ours, name), med(stock, name)) for name, label in ACCESSES]
    rows = [r for r in rows if r[1] is not None or r[2] is not None]
    dat = os.path.join(outdir, "results.dat")
    with open(dat, "w") as f:
        for i, (label, o, s) in enumerate(rows):
            f.write('%d "%s" %s %s\n' % (i, label.replace('"', "'"),
                                          "NaN" if o is None else o,
                                          "NaN" if s is None else s))
    n = len(rows)
    top = max([v for r in rows for v in r[1:] if v is not None] + [10]) * 8
    bars = ["'%s' using (1):($1%s):(1):($3):($1%s):($1%s):ytic(2) with boxxyerror "
            "fc rgb '#4060c0' title 'this series'" % (dat, "-0.2" if stock else "",
                                                      "-0.4" if stock else "-0.35",
                                                      "" if stock else "+0.35"),
            "'%s' using ($3*1.1):($1%s):(sprintf('%%.0f', $3)) with labels left "
            "font ',9' notitle" % (dat, "-0.2" if stock else "")]
    if stock:
        bars += ["'%s' using (1):($1+0.2):(1):($4):($1):($1+0.4) with boxxyerror "
                 "fc rgb '#c06040' title 'stock 6.12'" % dat,
                 "'%s' using ($4*1.1):($1+0.2):(sprintf('%%.0f', $4)) with labels left "
                 "font ',9' notitle" % dat]
    script = """set terminal pngcairo size 1400,%d font ',10' noenhanced
set output '%s'
set title 'mmiotrace under QEMU TCG: ns per operation, median (log scale)'
set style fill solid 0.85 border -1
set logscale x
set xrange [1:%g]
set xlabel 'ns per operation'
set yrange [%f:-0.7]
set ytics scale 0
set grid xtics
set key outside bottom center horizontal
set lmargin 62
set rmargin 8
set bmargin 6
plot %s
""" % (160 + 34 * n, os.path.join(outdir, "results.png"), top, n - 0.3,
       ", \\\n     ".join(bars))
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    main()
