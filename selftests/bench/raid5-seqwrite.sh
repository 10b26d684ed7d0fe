#!/bin/bash
# Plain RAID5 sequential write: 3 virtio members, 64K chunk, --assume-clean,
# 96 MiB buffered write of the seeded pattern. Then the data is read back
# (O_DIRECT) and checked, and parity must show mismatch_cnt 0.
. /bench/lib.sh
rc=0
for layout in left-symmetric left-asymmetric; do
	bench_raid5_case raid5-seqwrite "$layout" 0 100663296 1048576 || rc=1
done
exit $rc
