#!/usr/bin/env python3
"""Host side of "make bench": turn the guests' RESULT lines into a table
(results.md) and a plot (results.png, via gnuplot).
usage: report.py OUTDIR OURS_LOG [STOCK_LOG]"""
import statistics
import subprocess
import sys


def load(path):
    values = {}
    for line in open(path, errors="replace"):
        parts = line.split()
        if len(parts) == 3 and parts[0] == "RESULT":
            values.setdefault(parts[1], []).append(int(parts[2]))
    return values


def summary(values, name):
    v = values.get(name)
    if not v:
        return None
    return statistics.median(v), min(v), max(v)


def cell(values, name):
    s = summary(values, name)
    return "-" if s is None else "%g (%g..%g)" % s


def ratio(a_values, a, b_values, b):
    sa, sb = summary(a_values, a), summary(b_values, b)
    if not sa or not sb or not sb[0]:
        return None
    return sa[0] / sb[0]


ACCESSES = [
    ("off_read", "4-byte read, tracer off (edu)"),
    ("off_write", "4-byte write, tracer off (edu)"),
    ("traced_read", "read, in the range set (traced)"),
    ("traced_write", "write, in the range set (traced)"),
    ("off_vga_read", "read, tracer off (VGA)"),
    ("outside_vga_read", "read, mapping outside the set (VGA)"),
    ("subpage_outside_read", "read, armed page, outside a 16-byte range"),
    ("range4_4k_traced_read", "4-byte range, 4K page (edu): read in it"),
    ("range4_4k_untraced_read", "4-byte range, 4K page (edu): read beside it"),
    ("range4_pmd_traced_read", "4-byte range, 2M page (16M VGA BAR): read in it"),
    ("range4_pmd_untraced_read", "4-byte range, 2M page (16M VGA BAR): read beside it"),
    ("remap_off_ns", "ioremap()+iounmap() of 4K, tracer off"),
    ("remap_outside_ns", "ioremap()+iounmap() of 4K, tracer on, outside the set"),
    ("ranges1_read", "traced read, 1 range"),
    ("ranges16_read", "traced read, 16 ranges"),
    ("ranges256_read", "traced read, 256 ranges"),
    ("ranges1024_read", "traced read, 1024 ranges"),
]
OTHERS = [
    ("enable_us", "enable the tracer (us)"),
    ("disable_us", "disable the tracer (us)"),
    ("rewrite_ranges_us", "rewrite ranges while tracing (us)"),
    ("events_per_s", "events per second, nobody reading"),
    ("events_per_s_1cpu", "traced reads per second, one CPU"),
    ("events_per_s_2cpu", "traced reads per second, two CPUs at once"),
    ("events_unaccounted_1cpu", "reads neither in the buffer nor lost, one CPU"),
    ("events_unaccounted_2cpu", "reads neither in the buffer nor lost, two CPUs"),
    ("events_until_loss", "events before the buffer lost some"),
    ("lost_events", "events lost in that run"),
    ("buffer_size_kb", "buffer_size_kb"),
]


def main():
    outdir, ours = sys.argv[1], load(sys.argv[2])
    stock = load(sys.argv[3]) if len(sys.argv) > 3 else {}
    cols = "| what | ours: median (min..max) |" + (" stock |" if stock else "")
    sep = "|---|---|" + ("---|" if stock else "")
    out = ["# mmiotrace benchmark", "",
           "ns per access unless noted; medians of repeated runs in one boot per kernel "
           "(TCG, so absolute times are only comparable within a column).", "", cols, sep]
    for name, label in ACCESSES + OTHERS:
        row = "| %s | %s |" % (label, cell(ours, name))
        if stock:
            row += " %s |" % cell(stock, name)
        out.append(row)
    out += ["", "## Ratios (same boot unless noted)", "", "| ratio | value | target |", "|---|---|---|"]
    checks = [
        ("outside the set / tracer off (VGA read)", ratio(ours, "outside_vga_read", ours, "off_vga_read"), 1.05),
        ("1024 ranges / 1 range (traced read)", ratio(ours, "ranges1024_read", ours, "ranges1_read"), 1.1),
        ("traced / tracer off (edu read)", ratio(ours, "traced_read", ours, "off_read"), None),
        ("armed page, outside sub-page range / traced", ratio(ours, "subpage_outside_read", ours, "traced_read"), None),
        ("4-byte range traced read: 2M page / 4K page",
         ratio(ours, "range4_pmd_traced_read", ours, "range4_4k_traced_read"), None),
        ("4-byte range, read beside it: 2M page / 4K page",
         ratio(ours, "range4_pmd_untraced_read", ours, "range4_4k_untraced_read"), None),
        ("traced reads per second: two CPUs / one", ratio(ours, "events_per_s_2cpu", ours, "events_per_s_1cpu"), None),
    ]
    if stock:
        checks += [
            ("traced write: ours / stock (two boots)", ratio(ours, "traced_write", stock, "traced_write"), 1.05),
            ("traced/off, ours over stock's (each in its boot)",
             (ratio(ours, "traced_read", ours, "off_read") or 0) /
             (ratio(stock, "traced_read", stock, "off_read") or 1), 1.05),
            ("untraced VGA read: ours / stock", ratio(ours, "outside_vga_read", stock, "outside_vga_read"), None),
            ("traced read: ours / stock, target of the emulation issue",
             ratio(ours, "traced_read", stock, "traced_read"), 0.6),
            ("ioremap+iounmap, tracer off: ours / stock (registry cost)",
             ratio(ours, "remap_off_ns", stock, "remap_off_ns"), None),
            ("ioremap+iounmap, tracer on: ours / stock",
             ratio(ours, "remap_outside_ns", stock, "remap_outside_ns"), None),
            ("enable: ours / stock", ratio(ours, "enable_us", stock, "enable_us"), None),
            ("disable: ours / stock", ratio(ours, "disable_us", stock, "disable_us"), None),
        ]
    for label, value, target in checks:
        shown = "-" if value is None else "%.3f" % value
        verdict = "" if target is None or value is None else (
            "<= %g: %s" % (target, "holds" if value <= target else "does not hold"))
        out.append("| %s | %s | %s |" % (label, shown, verdict))
    open(outdir + "/results.md", "w").write("\n".join(out) + "\n")

    with open(outdir + "/results.dat", "w") as dat:
        for i, (name, label) in enumerate(ACCESSES):
            o, s = summary(ours, name), summary(stock, name)
            dat.write('%d "%s" %s %s\n' % (i, name, o[0] if o else "NaN", s[0] if s else "NaN"))
    plot = """set terminal png size 1100,600 noenhanced
set output '%s/results.png'
set title 'mmiotrace: ns per MMIO access (median)'
set style data histogram
set style histogram cluster gap 1
set style fill solid border -1
set logscale y
set yrange [1:*]
set ylabel 'ns per access (log)'
set xtics rotate by -35
plot '%s/results.dat' using 3:xtic(2) title 'ours'%s
""" % (outdir, outdir, ", '' using 4 title 'stock'" if stock else "")
    subprocess.run(["gnuplot"], input=plot, text=True, check=True)
    print("\n".join(out))


main()
