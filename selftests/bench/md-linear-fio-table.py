#!/usr/bin/env python3
"""Table of selftests/bench/md-linear-fio.sh: LOG... (base logs first, as
selftests/bench.sh passes them; a log's kernel is read from its name).
Per member count and kernel: reads/s, completion latency p50 and p99 (us)
and CPU per read (us), medians over every timed run of every boot, with
[min-max]; the change is the patched median against the base's."""
import re
import statistics
import sys

runs = {}   # (kernel, n) -> list of (iops, p50, p99, cpu)
boots = {}
for path in sys.argv[1:]:
    k = "base" if "-base-" in path else "patched"
    boots[k] = boots.get(k, 0) + 1
    for line in open(path, errors="replace"):
        m = re.search(r"MDBENCH-LIN (\d+) (\d+) (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)", line)
        if m:
            n = int(m.group(1))
            runs.setdefault((k, n), []).append(tuple(float(m.group(i)) for i in (4, 5, 6, 7)))


def cell(v, fmt):
    if not v:
        return "-"
    return (fmt + " [" + fmt + "-" + fmt + "]") % (statistics.median(v), min(v), max(v))


cols = (("reads/s", "%.0f"), ("p50 us", "%.1f"), ("p99 us", "%.1f"), ("CPU us/read", "%.2f"))
print("md-linear, fio 4K random reads, O_DIRECT, psync, one job; boots: %s"
      % ", ".join("%s %d" % kv for kv in sorted(boots.items())))
print("medians [min-max] over every timed run; change = patched median / base median - 1")
for ci, (name, fmt) in enumerate(cols):
    print()
    print("%-8s %-26s %-26s %s" % ("members", "base " + name, "patched " + name, "change"))
    for n in sorted({n for (_, n) in runs}):
        b = [r[ci] for r in runs.get(("base", n), [])]
        p = [r[ci] for r in runs.get(("patched", n), [])]
        ch = "-"
        if b and p and statistics.median(b):
            ch = "%+.1f%%" % (100 * (statistics.median(p) / statistics.median(b) - 1))
        print("%-8d %-26s %-26s %s" % (n, cell(b, fmt), cell(p, fmt), ch))
