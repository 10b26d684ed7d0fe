#!/bin/bash
# Plain RAID5 sequential write: 3 virtio members, 64K chunk, --assume-clean,
# 96 MiB buffered write of the seeded pattern. Then the data is read back
# (O_DIRECT) and checked, and parity must show mismatch_cnt 0.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc)
rc=0
for layout in left-symmetric left-asymmetric; do
	mdadm --create /dev/md0 --run --quiet --level=5 --layout=$layout --chunk=64 \
		--raid-devices=3 --assume-clean --bitmap=none "${devs[@]}" || exit 1
	echo "MDBENCH-CASE raid5-seqwrite-$layout"
	bench_stat before "${devs[@]}" /dev/md0
	seed=$RANDOM
	bench_trace_start
	$MD_PATTERN write /dev/md0 $seed 0 100663296 1048576 || rc=1
	bench_trace_stop "${devs[@]}"
	bench_stat after "${devs[@]}" /dev/md0
	# nothing lost: read back, then a parity check
	$MD_PATTERN verify /dev/md0 $seed 0 100663296 1048576 direct || rc=1
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
