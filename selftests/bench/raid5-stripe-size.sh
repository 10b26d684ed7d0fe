#!/bin/bash
# RAID5 stripe_size: member sectors read and written per O_DIRECT 4K random
# write and per MiB of 1 MiB sequential O_DIRECT writes, at stripe_size 4K,
# 16K and 64K (those the page size allows): 4 virtio members, 64K chunk,
# --assume-clean, idle. The read-modify-write minimum of a 4K write is
# 4 * S / 512 sectors (old data and parity read, new data and parity
# written); a full-stripe write of 1 MiB over 3 data members reads nothing
# and writes 2048 * 4 / 3 sectors. The md device's own counters show that
# 4K writes reached md as 4K. Data are read back and parity must show
# mismatch_cnt 0.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
page=$(awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps)
n_rand=2000
rc=0
echo "MDBENCH-NOTE default stripe_size: $(zcat /proc/config.gz 2>/dev/null | sed -n 's/^CONFIG_MD_RAID456_STRIPE_SIZE=//p' | grep . || echo 4096)"
for s in 4096 16384 65536; do
	[ "$s" -le "$page" ] || continue
	seed=$RANDOM
	mdadm --create /dev/md0 --run --quiet --level=5 --chunk=64 --raid-devices=4 \
		--assume-clean --bitmap=none "${devs[@]}" || { rc=1; continue; }
	echo "MDBENCH-NOTE S=$s: new array starts at stripe_size $(cat /sys/block/md0/md/stripe_size)"
	if [ "$(cat /sys/block/md0/md/stripe_size)" != "$s" ]; then
		echo "$s" >/sys/block/md0/md/stripe_size || rc=1
	fi
	[ "$(cat /sys/block/md0/md/stripe_size)" = "$s" ] || rc=1
	size=$(blockdev --getsize64 /dev/md0)

	echo "MDBENCH-CASE seq1m-S$s"
	echo "MDBENCH-UNITS 32 MiB $((2048 * 4 / 3)) md0"
	bench_stat before "${devs[@]}" /dev/md0
	$MD_PATTERN write /dev/md0 "$seed" 0 $((32 << 20)) 1048576 direct || rc=1
	bench_stat after "${devs[@]}" /dev/md0

	# random 4K writes over the rest of the array: the stripe cache (256
	# stripes) holds a negligible part of it, so each write pays its reads
	echo "MDBENCH-CASE rand4k-S$s"
	echo "MDBENCH-UNITS $n_rand write $((4 * s / 512)) md0"
	bench_stat before "${devs[@]}" /dev/md0
	md_randio write /dev/md0 "$((seed + 1))" $((32 << 20)) $((size - (32 << 20))) 4096 \
		"$n_rand" || rc=1
	bench_stat after "${devs[@]}" /dev/md0

	$MD_PATTERN verify /dev/md0 "$seed" 0 $((32 << 20)) 1048576 direct || rc=1
	md_randio verify /dev/md0 "$((seed + 1))" $((32 << 20)) $((size - (32 << 20))) 4096 \
		"$n_rand" || rc=1
	bench_check_and_stop "${devs[@]}" || rc=1
done
exit $rc
