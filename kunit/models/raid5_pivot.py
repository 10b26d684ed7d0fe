#!/usr/bin/env python3
# Patch 11 (pivot) message figures: the mainline helper raid5_bio_lowest_chunk_sector()
# modelled against a brute force (lowest member sector of the bio's stripes).
# Run: python3 kunit/models/raid5_pivot.py  (about 20 s)
U = 8            # 4K in sectors (stripe size)
CH = 128         # 64K chunk in sectors
def layout(n, row, sym):
    p = n - 1 - (row % n)                 # left-*: parity rotates down
    if sym:
        disks = [(p + 1 + k) % n for k in range(n - 1)]
    else:
        disks = [d for d in range(n) if d != p]
    return p, disks
def member(n, sym, lsec):
    dd = n - 1
    chunk = lsec // CH; off = lsec % CH
    row = chunk // dd; col = chunk % dd
    p, disks = layout(n, row, sym)
    return disks[col], row * CH + off, p
def old_helper(n, sym, start, length):
    r = start - start % U
    d, msec, p = member(n, sym, r)
    off = msec % CH
    if CH - off >= length:
        return r
    d += 1
    while d == p:
        d += 1
    if d >= n:
        return r
    return r + CH - off
def brute(n, sym, start, length):
    best = None
    s = start - start % U
    while s < start + length:
        d, msec, p = member(n, sym, s)
        if best is None or msec < best[0]:
            best = (msec, s)
        s += U
    return best[1]
for sym in (True, False):
    for n in (3, 4, 6):
        dd = n - 1; rowlen = CH * dd
        tot = {'all': [0, 0], 'within': [0, 0], 'cross': [0, 0]}
        for size in range(U, 512 * 2 + 1, U):         # 4K..512K, every 4K
            for start in range(0, 2 * n * rowlen, U):  # two parity rotations
                if start // CH == (start + size - 1) // CH:
                    continue                           # does not cross a chunk
                rowcross = start // rowlen != (start + size - 1) // rowlen
                w = member(n, sym, old_helper(n, sym, start, size))[1] != member(n, sym, brute(n, sym, start, size))[1]
                for k in ('all', 'cross' if rowcross else 'within'):
                    tot[k][0] += 1; tot[k][1] += w
        wraps = sum(1 for row in range(n) if layout(n, row, sym)[1] != sorted(layout(n, row, sym)[1]))
        print("%s n=%d wrapping rows %d/%d  wrong: all chunk-crossing %.1f%% (%d/%d)  within a row %.1f%% (%d/%d)  row-crossing %.1f%%" % (
            'left-symmetric ' if sym else 'left-asymmetric', n, wraps, n,
            100.0 * tot['all'][1] / tot['all'][0], tot['all'][1], tot['all'][0],
            100.0 * tot['within'][1] / tot['within'][0], tot['within'][1], tot['within'][0],
            100.0 * tot['cross'][1] / max(1, tot['cross'][0])))
