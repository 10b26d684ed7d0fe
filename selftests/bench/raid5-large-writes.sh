#!/bin/bash
# RAID5 large sequential writes and md's request size limit: 4 virtio
# members, 64K chunk, --assume-clean, stripe_size as the array starts
# (the kernel's default). 64 MiB of O_DIRECT writes in 16 MiB requests,
# once with the array's default max_sectors_kb and once with max_sectors_kb
# raised to max_hw_sectors_kb (what a user may do). Reports the limits, the
# requests md received and the member sectors read and written per MiB;
# the data are read back and parity must show mismatch_cnt 0.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
rc=0
for lim in default max; do
	seed=$RANDOM
	mdadm --create /dev/md0 --run --quiet --level=5 --chunk=64 --raid-devices=4 \
		--assume-clean --bitmap=none "${devs[@]}" || { rc=1; continue; }
	q=/sys/block/md0/queue
	[ $lim = max ] && cat $q/max_hw_sectors_kb >$q/max_sectors_kb
	echo "MDBENCH-NOTE $lim: stripe_size $(cat /sys/block/md0/md/stripe_size)" \
		"max_hw_sectors_kb $(cat $q/max_hw_sectors_kb) max_sectors_kb $(cat $q/max_sectors_kb)"
	echo "MDBENCH-CASE seq16m-$lim"
	echo "MDBENCH-UNITS 64 MiB $((2048 * 4 / 3)) md0"
	bench_stat before "${devs[@]}" /dev/md0
	bench_trace_start
	$MD_PATTERN write /dev/md0 "$seed" 0 $((64 << 20)) $((16 << 20)) direct || rc=1
	bench_trace_stop "${devs[@]}"
	bench_stat after "${devs[@]}" /dev/md0
	$MD_PATTERN verify /dev/md0 "$seed" 0 $((64 << 20)) 1048576 direct || rc=1
	bench_check_and_stop "${devs[@]}" || rc=1
done
exit $rc
