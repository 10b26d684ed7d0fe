#!/usr/bin/env python3
"""Side-by-side table from the MDBENCH lines of benchmark guest logs.

usage: bench-table.py ARCH SCENARIO REPS LOGDIR
For every case and device: deltas of /sys/block/<dev>/stat (reads, sectors
read, writes, sectors written) and, where traced, issued writes, writes not
contiguous with the previous one on that member, and the mean write size in
sectors. With REPS > 1, the median and the range over the runs.
"""
import re
import statistics
import sys

arch, scen, reps, logdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
data = {}  # (case, dev, metric) -> {kernel: [values]}
totals = {}  # (kernel, run, case) -> [issued writes, discontiguous writes] over all members
units = {}  # case -> (count, unit name, minimum member sectors read+written per unit, md device)
fio = {}  # (kernel, case) -> [(iops, KiB/s, clat us)] per run
per = {}  # (kernel, case) -> {"rd": [], "wr": [], "md_w": [], "md_s": []} per unit, one value per run
order = []
for k in ("base", "patched"):
    for r in range(1, reps + 1):
        try:
            text = open(f"{logdir}/bench-{scen}-{arch}-{k}-{r}.log", errors="replace").read()
        except OSError:
            continue
        case, before = None, {}
        for l in text.replace("\r", "").split("\n"):
            l = re.sub(r"^\[ *\d+\.\d+\] ", "", l)
            f = l.split()
            if not f or not f[0].startswith("MDBENCH"):
                continue
            if f[0] == "MDBENCH-CASE":
                case = f[1]
            elif f[0] == "MDBENCH-UNITS":
                # MDBENCH-UNITS COUNT UNIT MINIMUM MDDEV: normalise this case per unit
                units[case] = (int(f[1]), f[2], float(f[3]), f[4])
            elif f[0] == "MDBENCH-STAT":
                vals = list(map(int, f[3:7]))
                if f[1] == "before":
                    before[f[2]] = vals
                else:
                    d = [a - b for a, b in zip(vals, before.get(f[2], [0] * 4))]
                    if case in units:
                        n, _, _, md = units[case]
                        pu = per.setdefault((k, case), {}).setdefault(r, [0, 0, 0, 0])
                        if f[2] == md:
                            pu[2] += d[2] / n
                            pu[3] += d[3] / n
                        else:
                            pu[0] += d[1] / n
                            pu[1] += d[3] / n
                    for m, v in zip(("reads", "sect_rd", "writes", "sect_wr"), d):
                        key = (case, f[2], m)
                        if key not in data:
                            order.append(key)
                        data.setdefault(key, {}).setdefault(k, []).append(v)
            elif f[0] == "MDBENCH-FIO":
                # MDBENCH-FIO CASE IOPS KIB/S CLAT_US: fio's own figures
                fio.setdefault((k, f[1]), []).append(tuple(map(float, f[2:5])))
            elif f[0] == "MDBENCH-TRACE":
                for m, v in zip(("issued_w", "discontig_w", "mean_w_sect"), map(float, f[2:5])):
                    key = (case, f[1], m)
                    if key not in data:
                        order.append(key)
                    data.setdefault(key, {}).setdefault(k, []).append(v)
                tot = totals.setdefault((k, r, case), [0, 0])
                tot[0] += float(f[2])
                tot[1] += float(f[3])


def fmt(vs):
    if not vs:
        return "-"
    med = statistics.median(vs)
    s = f"{med:.1f}" if med != int(med) else f"{int(med)}"
    if len(vs) > 1:
        s += f" [{min(vs):g}..{max(vs):g}]"
    return s


print(f"benchmark {scen} on {arch}: base vs patched, {reps} run(s) each"
      + (" (median [min..max])" if reps > 1 else ""))
print(f"{'case':34} {'dev':5} {'metric':12} {'base':>22} {'patched':>22}")
for key in order:
    case, dev, m = key
    print(f"{case or '-':34} {dev:5} {m:12} {fmt(data[key].get('base', [])):>22} "
          f"{fmt(data[key].get('patched', [])):>22}")

# One line per case: the share of member writes that did not continue the
# previous write on their member, over all members.
cases = sorted({c for (_, _, c) in totals})
if cases:
    print()
    print(f"{'case':34} {'discontiguous member writes, % of issued':>44}")
    for case in cases:
        row = []
        for k in ("base", "patched"):
            pct = [100 * d / w for (kk, _, c), (w, d) in totals.items() if kk == k and c == case and w]
            row.append(fmt(pct))
        print(f"{case:34} {'base ' + row[0]:>22} {'patched ' + row[1]:>22}")

# Per unit of work (one write, one MiB): member sectors read and written,
# against the minimum; and what reached the md device itself.
if units:
    print()
    print(f"{'case':26} {'per':6} {'minimum':>8} {'kernel':8} {'member rd':>14} {'member wr':>14}"
          f" {'rd+wr/min':>10} {'md writes':>10} {'md sect':>10}")
    for case, (n, unit, mn, md) in units.items():
        for k in ("base", "patched"):
            runs = per.get((k, case), {})
            if not runs:
                continue
            col = list(zip(*runs.values()))
            rd, wr, mw, ms = (statistics.median(c) for c in col)
            print(f"{case:26} {unit:6} {mn:8.0f} {k:8} {fmt(list(col[0])):>14} {fmt(list(col[1])):>14}"
                  f" {(rd + wr) / mn if mn else 0:10.2f} {mw:10.2f} {ms:10.1f}")

# fio's own figures, beside the counters above (under TCG only the ratio of
# base to patched means anything)
if fio:
    print()
    print(f"{'case':26} {'kernel':8} {'fio IOPS':>12} {'fio KiB/s':>12} {'clat mean us':>14}")
    for case in dict.fromkeys(c for (_, c) in fio):
        for k in ("base", "patched"):
            runs = fio.get((k, case))
            if runs:
                col = list(zip(*runs))
                print(f"{case:26} {k:8} {fmt(list(col[0])):>12} {fmt(list(col[1])):>12} "
                      f"{fmt(list(col[2])):>14}")
