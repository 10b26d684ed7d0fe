#!/bin/bash
# Was patch 18 (md/md-linear: scan the last few members in which_dev())
# worth it end to end? fio 4K random reads, O_DIRECT, on linear arrays of
# 2, 4, 7, 8, 16 and 64 null_blk members (configfs, 8 MiB each, memory
# backed, irqmode 0: completed in the submitter's context, so that md's
# and the block layer's CPU time is most of each read; no device model:
# the lookup can only show where nothing else waits). Each array is filled
# by fio with crc32c-headed blocks first; the timed runs read random 4K
# blocks over the whole array (each read lands on a random member, which
# is where the binary search mispredicts), and fio --verify_only reads
# everything back at the end. Per case: reads per second, completion
# latency p50/p99 (us), and CPU per read (us: all CPUs' busy time from
# /proc/stat, in USER_HZ ticks of 10 ms, over the reads); each member
# count runs LINFIO_REPS times (default 3). Run beside the base with
#   REPS=3 MDS_CMDLINE="LINFIO_REPS=2 LINFIO_SECS=5" \
#     selftests/bench.sh x86_64 md-linear-fio
# (md-linear-fio-table.py: medians and ranges over every run of a kernel).
# LINFIO_SECS (default 8) is the length of each timed run.
. /bench/lib.sh
reps=${LINFIO_REPS:-3} secs=${LINFIO_SECS:-8} mb=8
rc=0
C=/sys/kernel/config
grep -qs " $C configfs " /proc/mounts || mount -t configfs configfs $C || exit 1
[ -d $C/nullb ] || { echo "MDBENCH-NOTE no null_blk configfs"; exit 1; }
echo "MDBENCH-NOTE kernel $(uname -r), $(fio --version), $(nproc) CPUs"

# members N: N null_blk devices /dev/mdl0..mdl(N-1) (configfs names the
# disk after its directory)
members() {
	local n=$1 i d
	for ((i = 0; i < n; i++)); do
		d=$C/nullb/mdl$i
		mkdir "$d" || return 1
		echo "$mb" >"$d/size"
		echo 1 >"$d/memory_backed"
		echo 0 >"$d/irqmode"
		echo 1 >"$d/power" || return 1
		[ -b /dev/mdl$i ] || return 1
		echo /dev/mdl$i
	done
}

drop_members() {
	local d
	for d in $C/nullb/mdl*; do
		[ -d "$d" ] || continue
		echo 0 >"$d/power"
		rmdir "$d"
	done
}

busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

# one timed run of random 4K reads; prints a MDBENCH-LIN line
timed() {
	local n=$1 r=$2 b0 b1 out
	b0=$(busy)
	out=$(fio --name=rr --filename=/dev/md0 --direct=1 --rw=randread --bs=4k \
		--ioengine=psync --numjobs=1 --time_based --runtime="$secs" --randrepeat=0 \
		--output-format=terse --terse-version=3 2>&1) || { echo "$out" | tail -n 5; return 1; }
	b1=$(busy)
	# terse v3, read: field 6 KiB, 8 IOPS, 18-37 completion latency
	# percentiles ("P%=usec")
	echo "$out" | awk -F';' -v n="$n" -v r="$r" -v t="$((b1 - b0))" -v hz=100 '
		$1 == 3 {
			ios = $6 / 4
			for (i = 18; i <= 37; i++) {
				split($i, kv, "%=")
				if (kv[1] + 0 == 50) p50 = kv[2]
				if (kv[1] + 0 == 99) p99 = kv[2]
			}
			printf "MDBENCH-LIN %s %s %d %d %.1f %.1f %.2f\n", n, r, ios, $8, p50, p99,
				ios ? t * 1e6 / hz / ios : 0
		}' 
}

counts="2 4 7 8 16 64"
for n in $counts; do
	mapfile -t M < <(members "$n") || { rc=1; drop_members; continue; }
	mdadm --create /dev/md0 --run --quiet --level=linear --raid-devices="$n" "${M[@]}" ||
		{ rc=1; drop_members; continue; }
	size=$(blockdev --getsize64 /dev/md0)
	echo "MDBENCH-NOTE $n members: $(cat /sys/block/md0/md/level), $((size / 1048576)) MiB, members ${M[*]:0:2} ..."
	fill=(--name=fill --filename=/dev/md0 --direct=1 --rw=write --bs=64k --ioengine=psync
		--verify=crc32c --size="$size")
	fio "${fill[@]}" --do_verify=0 >/tmp/fill.log 2>&1 ||
		{ echo "MDBENCH-NOTE fill failed"; tail -n 5 /tmp/fill.log; rc=1; }
	for ((r = 1; r <= reps; r++)); do
		timed "$n" "$r" || rc=1
	done
	# md0's reads beside its members': each read of md0 went through
	# md-linear to one member (the members' count adds the fill's none)
	echo "MDBENCH-NOTE $n members: md0 reads $(awk '{print $1}' /sys/block/md0/stat)," \
		"member reads $(for d in "${M[@]}"; do cat "/sys/block/$(basename "$d")/stat"; done |
			awk '{ s += $1 } END { print s }')"
	fio "${fill[@]}" --verify_only >/tmp/verify.log 2>&1 ||
		{ echo "MDBENCH-NOTE $n members: fio verify failed"; tail -n 5 /tmp/verify.log; rc=1; }
	mdadm --stop /dev/md0 >/dev/null || rc=1
	drop_members
done
exit $rc
