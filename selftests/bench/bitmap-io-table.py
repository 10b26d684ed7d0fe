#!/usr/bin/env python3
"""Table of selftests/bench/bitmap-io.sh: base and patched side by side.

usage: bitmap-io-table.py BASE.log PATCHED.log

Per case (geometry, level, superblock, bitmap), on the first member: the
bitmap's writes (those starting in its space, or in what its superblock
says is reserved), their sizes in sectors, how many are smaller than the
physical block, how many reach outside the bitmap's space (over the
superblock, the bad-block log or the data, or past its end), and the
bitmap sectors written per 4K data write (/4K); the
superblock writes and their size; and whether both members came back
after stop and assemble with the recorded bad block.
"""
import re
import sys


def parse(path):
    cases = {}
    order = []
    first = {}
    for line in open(path, errors="replace"):
        f = line.split()
        if not f or not f[0].startswith("MDBITMAP-"):
            continue
        tag, name = f[0], f[1] if len(f) > 1 else ""
        c = cases.setdefault(name, {"bm": 0, "sizes": set(), "sub": 0, "out": 0,
                                    "sb": 0, "sbsz": set(), "res": "?",
                                    "sect": 0, "data": 0})
        if name not in order and tag != "MDBITMAP-NOTE":
            order.append(name)
        if tag == "MDBITMAP-HIST":
            dev, kind, _rng, n, cnt, flags = f[2], f[3], f[4], int(f[5]), int(f[6]), f[7]
            first.setdefault(name, dev)
            if dev != first[name]:
                continue
            if kind in ("bitmap", "other"):
                c["bm"] += cnt
                c["sect"] += n * cnt
                c["sizes"].add(n)
                if "subpbs" in flags:
                    c["sub"] += cnt
                if re.search(r"over-|past-reserved", flags):
                    c["out"] += cnt
            elif kind == "sb":
                c["sb"] += cnt
                c["sbsz"].add(n)
        elif tag == "MDBITMAP-DATA" and f[2] == first.get(name, f[2]):
            c["data"] = int(f[3])
        elif tag == "MDBITMAP-RESULT":
            rest = " ".join(f[2:])
            if rest.startswith("create-refused"):
                c["res"] = "refused by mdadm"
            else:
                m = dict(re.findall(r"(\w+)=(\S+)", rest))
                c["res"] = "%s/2 members, bad block %s" % (m.get("members", "?"),
                                                         "kept" if m.get("badblock") == "yes" else "LOST")
    return order, cases


def cell(c):
    if c["res"] == "refused by mdadm":
        return "-"
    per = c["sect"] / c["data"] if c["data"] else 0
    return "%d w, %s sect, %d small, %d out, %.2f/4K" % (
        c["bm"], ",".join(str(x) for x in sorted(c["sizes"])) or "-", c["sub"], c["out"], per)


def main():
    base_order, base = parse(sys.argv[1])
    _, pat = parse(sys.argv[2])
    rows = [("case", "7.3.4 bitmap writes", "7.3.4 after assemble",
             "patched bitmap writes", "patched after assemble")]
    for name in base_order:
        b, p = base[name], pat.get(name)
        if b["res"] == "refused by mdadm":
            continue
        rows.append((name, cell(b), b["res"], cell(p) if p else "?", p["res"] if p else "?"))
    w = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print(" | ".join(x.ljust(w[i]) for i, x in enumerate(r)).rstrip())


main()
