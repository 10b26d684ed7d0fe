#!/bin/bash
# RAID5 sequential O_DIRECT write in 64 KiB requests starting 32 KiB into the
# array: 3 virtio members, 64K chunk, --assume-clean, 48 MiB. In every stripe
# row one request starts in the middle of the first data chunk and crosses into
# the second: the case raid5_make_request()'s lowest-chunk pivot is for
# (buffered writes to the raw md device reach md as 4K bios, which never cross
# a chunk; the block layer splits bios at stripe-row boundaries). Then the data
# is read back and parity must show mismatch_cnt 0.
. /bench/lib.sh
rc=0
for layout in left-symmetric left-asymmetric; do
	bench_raid5_case raid5-dio64k@32k "$layout" 32768 50331648 65536 direct || rc=1
done
exit $rc
