#!/usr/bin/env python3
"""The raid5-stripe-queue table: LOG... (bench-...-base-N.log, -patched-N.log).

One row per configuration and workload, the MDBENCH-SQ figures of each kernel
side by side: member sectors read, the part of them md0 itself read (the
page cache filling a partly written page), member sectors written and member
write requests per MiB written, the stripe_heads that existed at the end, and
the workload's seconds (under TCG: compare only side by side). With
several logs of one kernel (REPS), each figure is their median, followed by
the range [min-max] and the number of runs; a kernel without a log of a row
shows "-". A patched row CONF-sqN (md/stripe_queue_size N) faces the base's
CONF row, which 7.3.4 runs without the knob. With logs of the patched kernel
only (KERNELS=patched), each CONF row (the knobs at 0) faces its variants
instead, each in a column of its own named by its suffix: "off" beside
"hold" (preread_hold 1 only), "sqN" (stripe_queue_size N) and "sqNh" (both).

Also per row: MiB/s, fio's write completion latency p50/p99/p99.9 and, for
F, fsync latency (ms), CPU ms per MiB written: raid5d's and all CPUs', and
the stripe cache's memory at the end (cache-KiB: stripe_heads times their
slab object and a stripe_size buffer per member).
"""
import re
import statistics
import sys

FIELDS = ("rd/MiB", "md0rd/MiB", "wr/MiB", "wreq/MiB", "stripe_heads", "s",
          "MiB/s", "p50", "p99", "p99.9", "fsync-p50", "fsync-p99",
          "fsync-p99.9", "r5d-ms/MiB", "cpu-ms/MiB", "cache-KiB")


def parse(path, rows, order):
    try:
        with open(path, errors="replace") as f:
            for line in f:
                m = re.search(r"MDBENCH-SQ (\S+) (\S+) (.*)", line)
                if not m:
                    continue
                key = (m.group(1), m.group(2))
                if key not in order:
                    order.append(key)
                w = m.group(3).split()
                for k, v in zip(w[0::2], w[1::2]):
                    try:
                        val = float(v)
                    except ValueError:
                        continue
                    rows.setdefault(key, {}).setdefault(k, []).append(val)
    except OSError:
        pass


def fmt(vals):
    if not vals:
        return "-"
    med = statistics.median(vals)
    g = lambda v: f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}"
    if len(vals) == 1:
        return g(med)
    return f"{g(med)} [{g(min(vals))}-{g(max(vals))}] n{len(vals)}"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sides = {"base": {}, "patched": {}}
    order = []
    for p in sys.argv[1:]:
        side = "patched" if "-patched-" in p else "base"
        parse(p, sides[side], order)
    if not order:
        sys.exit("no MDBENCH-SQ lines in any log")
    used = [s for s in sides if sides[s]]
    knob = used == ["patched"]
    suffix = re.compile(r"-(hold|sq\d+h?)$")
    if knob:
        # the knobs off (CONF) beside each variant (CONF-SUFFIX), all from
        # the series
        variants, on = [], {}
        for k in order:
            m = suffix.search(k[0])
            if m:
                if m.group(1) not in variants:
                    variants.append(m.group(1))
                on[(k[0][:m.start()], k[1], m.group(1))] = k
        order = [k for k in order if not suffix.search(k[0])]
        used = ["off"] + variants
    head = ["config", "wl"] + [f"{f} {s}" for f in FIELDS for s in used]
    print(" | ".join(head))
    for k in order:
        row = list(k)
        for f in FIELDS:
            for s in used:
                key, side = k, s
                if knob:
                    side = "patched"
                    if s != "off":
                        key = on.get((k[0], k[1], s), ("-", "-"))
                elif s == "base" and k not in sides[s]:
                    key = suffix.sub("", k[0]), k[1]
                row.append(fmt(sides[side].get(key, {}).get(f, [])))
        print(" | ".join(row))


if __name__ == "__main__":
    main()
