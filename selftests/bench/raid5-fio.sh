#!/bin/bash
# RAID5 under fio, the way the stripe_size thread measured it (4K random
# O_DIRECT writes, libaio, 2 jobs, iodepth 64), at each stripe_size the page
# size allows, plus 1 MiB sequential writes: 4 virtio members, 64K chunk,
# --assume-clean, idle. fio's own figures (IOPS, bandwidth, mean completion
# latency; under TCG only their ratios mean anything) beside the member
# sectors read and written per write from /sys/block. Every write carries a
# crc32c header: fio --verify_only reads all of it back afterwards, and
# parity must show mismatch_cnt 0.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
page=$(awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps)
n_ios=2000
rc=0

# fio_case NAME "COUNT UNIT MINIMUM" FIO-ARGS...: one fio run with the
# figures around it, per unit of work
fio_case() {
	local name=$1 units=$2 out
	shift 2

	echo "MDBENCH-CASE $name"
	echo "MDBENCH-UNITS $units md0"
	bench_stat before "${devs[@]}" /dev/md0
	out=$(fio --name="$name" --filename=/dev/md0 --direct=1 --verify=crc32c --do_verify=0 \
		--output-format=terse --terse-version=3 "$@" 2>&1) || { echo "$out"; return 1; }
	bench_stat after "${devs[@]}" /dev/md0
	# terse v3: field 48 write bandwidth KiB/s, 49 write IOPS, 57 write
	# completion latency mean (us)
	echo "$out" | awk -F';' -v c="$name" '$1 == 3 { bw += $48; iops += $49; lat += $57; n++ }
		END { if (n) printf "MDBENCH-FIO %s %d %d %.0f\n", c, iops, bw, lat / n }'
	fio --name="$name" --filename=/dev/md0 --direct=1 --verify=crc32c --verify_only "$@" \
		>/tmp/fio-verify.log 2>&1 || { echo "MDBENCH-NOTE $name: fio verify failed"; tail -n 5 /tmp/fio-verify.log; return 1; }
}

echo "MDBENCH-NOTE fio $(fio --version)"
for s in 4096 16384 65536; do
	[ "$s" -le "$page" ] || continue
	mdadm --create /dev/md0 --run --quiet --level=5 --chunk=64 --raid-devices=4 \
		--assume-clean --bitmap=none "${devs[@]}" || { rc=1; continue; }
	if [ "$(cat /sys/block/md0/md/stripe_size)" != "$s" ]; then
		echo "$s" >/sys/block/md0/md/stripe_size || rc=1
	fi
	[ "$(cat /sys/block/md0/md/stripe_size)" = "$s" ] || { rc=1; continue; }
	size=$(blockdev --getsize64 /dev/md0)
	fio_case "fio-rand4k-S$s" "$((2 * n_ios)) write $((4 * s / 512))" --rw=randwrite --bs=4k --ioengine=libaio --iodepth=64 \
		--numjobs=2 --group_reporting --offset_increment=$((size / 2 / 1048576 * 1048576)) \
		--size=$((size / 2 / 1048576 * 1048576)) --number_ios=$n_ios --randrepeat=1 || rc=1
	fio_case "fio-seq1m-S$s" "64 MiB $((2048 * 4 / 3))" --rw=write --bs=1m --ioengine=libaio --iodepth=4 \
		--size=64m --offset=$((size / 2 / 1048576 * 1048576)) || rc=1
	bench_check_and_stop "${devs[@]}" || rc=1
done
exit $rc
