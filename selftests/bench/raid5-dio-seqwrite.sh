#!/bin/bash
# RAID5 sequential O_DIRECT write in 64 KiB requests starting 32 KiB into the
# array: 3 virtio members, 64K chunk, --assume-clean, 48 MiB. In every stripe
# row one request starts in the middle of the first data chunk and crosses into
# the second: the case raid5_make_request()'s lowest-chunk pivot is for
# (buffered writes to the raw md device reach md as 4K bios, which never cross
# a chunk; the block layer splits bios at stripe-row boundaries). Then the data
# is read back and parity must show mismatch_cnt 0.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc)
rc=0
for layout in left-symmetric left-asymmetric; do
	mdadm --create /dev/md0 --run --quiet --level=5 --layout=$layout --chunk=64 \
		--raid-devices=3 --assume-clean --bitmap=none "${devs[@]}" || exit 1
	echo "MDBENCH-CASE raid5-dio64k@32k-$layout"
	seed=$RANDOM
	bench_stat before "${devs[@]}" /dev/md0
	bench_trace_start
	$MD_PATTERN write /dev/md0 $seed 32768 50331648 65536 direct || rc=1
	bench_trace_stop "${devs[@]}"
	bench_stat after "${devs[@]}" /dev/md0
	$MD_PATTERN verify /dev/md0 $seed 32768 50331648 1048576 direct || rc=1
	echo check >/sys/block/md0/md/sync_action
	sleep 1
	while ! grep -q idle /sys/block/md0/md/sync_action; do sleep 1; done
	mm=$(cat /sys/block/md0/md/mismatch_cnt)
	echo "MDBENCH-CHECK mismatch_cnt $mm"
	[ "$mm" = 0 ] || rc=1
	mdadm --stop /dev/md0 >/dev/null
	mdadm --zero-superblock "${devs[@]}"
done
exit $rc
