#!/usr/bin/env python3
"""The raid5-stripe-queue table: BASE_LOG PATCHED_LOG (either may be missing).

One row per configuration and workload, the MDBENCH-SQ figures of each kernel
side by side: member sectors read, member sectors written and member write
requests per MiB written, and the stripe_heads that existed at the end.
"""
import re
import sys

FIELDS = ("rd/MiB", "wr/MiB", "wreq/MiB", "stripe_heads")


def parse(path):
    rows = {}
    try:
        with open(path, errors="replace") as f:
            for line in f:
                m = re.search(r"MDBENCH-SQ (\S+) (\S+) (.*)", line)
                if not m:
                    continue
                w = m.group(3).split()
                rows[(m.group(1), m.group(2))] = dict(zip(w[0::2], w[1::2]))
    except OSError:
        pass
    return rows


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    base, patched = parse(sys.argv[1]), parse(sys.argv[2])
    keys = list(base) + [k for k in patched if k not in base]
    if not keys:
        sys.exit("no MDBENCH-SQ lines in either log")
    head = ["config", "wl"] + [f"{f} {k}" for f in FIELDS for k in ("base", "patched")]
    print(" | ".join(head))
    for k in keys:
        row = list(k)
        for f in FIELDS:
            for side in (base, patched):
                row.append(side.get(k, {}).get(f, "-"))
        print(" | ".join(row))


if __name__ == "__main__":
    main()
