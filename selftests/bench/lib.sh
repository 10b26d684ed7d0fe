#!/bin/bash
# Shared by the benchmark scenarios (run inside a guest by /init).
# Members are the guest's virtio disks /dev/vda...; figures come from
# /sys/block/*/stat and tracefs block:block_rq_issue, printed as MDBENCH lines
# that selftests/bench.sh turns into a side-by-side table.
MD_PATTERN=/kselftest/drivers/md/md_pattern
T=/sys/kernel/tracing
export MDADM_NO_UDEV=1
mkdir -p /run/mdadm

# bench_stat LABEL DEV...: the raw counters of each device.
bench_stat() {
	local label=$1 d
	shift
	for d in "$@"; do
		d=$(basename "$d")
		echo "MDBENCH-STAT $label $d $(awk '{print $1, $3, $5, $7}' "/sys/block/$d/stat")"
	done
}

bench_trace_start() {
	echo 0 >$T/tracing_on
	echo 16384 >$T/buffer_size_kb
	echo >$T/trace
	echo 1 >$T/events/block/block_rq_issue/enable
	echo 1 >$T/tracing_on
}

# bench_trace_stop DEV...: per member, issued writes, those that do not start
# where the previous write on that member ended, and the mean write size.
bench_trace_stop() {
	local majmin d
	echo 0 >$T/tracing_on
	echo 0 >$T/events/block/block_rq_issue/enable
	grep -q 'LOST\|lost' $T/trace && echo "MDBENCH-NOTE trace buffer overflowed"
	for d in "$@"; do
		d=$(basename "$d")
		majmin=$(cat "/sys/block/$d/dev" | tr : ,)
		awk -v mm="$majmin" -v dev="$d" '
			$0 ~ "block_rq_issue: " mm " " {
				for (i = 1; i <= NF; i++) if ($i == "block_rq_issue:") break
				rwbs = $(i + 2); sector = $(i + 5); n = $(i + 7)
				if (rwbs !~ /W/ || n == 0) next
				w++; sz += n
				if (seen && sector != next_s) disc++
				next_s = sector + n; seen = 1
			}
			END { printf "MDBENCH-TRACE %s %d %d %.1f\n", dev, w, disc, w ? sz / w : 0 }' $T/trace
	done
}

# bench_raid5_case NAME LAYOUT START LEN BS [direct]: a 3-member RAID5 (64K
# chunk, --assume-clean) on vda..vdc; the pattern written from START, with the
# figures around it; then read back and a parity check, which must find
# mismatch_cnt 0. Returns non-zero if data or parity is wrong.
bench_raid5_case() {
	local name=$1 layout=$2 start=$3 len=$4 bs=$5 direct=${6:-} seed=$RANDOM rc=0
	local devs=(/dev/vda /dev/vdb /dev/vdc)

	mdadm --create /dev/md0 --run --quiet --level=5 --layout="$layout" --chunk=64 \
		--raid-devices=3 --assume-clean --bitmap=none "${devs[@]}" || return 1
	echo "MDBENCH-CASE $name-$layout"
	bench_stat before "${devs[@]}" /dev/md0
	bench_trace_start
	$MD_PATTERN write /dev/md0 "$seed" "$start" "$len" "$bs" $direct || rc=1
	bench_trace_stop "${devs[@]}"
	bench_stat after "${devs[@]}" /dev/md0
	$MD_PATTERN verify /dev/md0 "$seed" "$start" "$len" 1048576 direct || rc=1
	bench_check_and_stop "${devs[@]}" || rc=1
	return $rc
}

# bench_check_and_stop MEMBER...: a parity check of /dev/md0, which must find
# mismatch_cnt 0 (non-zero return otherwise), then stop it and clear its
# members for the next case.
bench_check_and_stop() {
	local mm rc=0

	echo check >/sys/block/md0/md/sync_action
	sleep 1
	while ! grep -q idle /sys/block/md0/md/sync_action; do sleep 1; done
	mm=$(cat /sys/block/md0/md/mismatch_cnt)
	echo "MDBENCH-CHECK mismatch_cnt $mm"
	[ "$mm" = 0 ] || rc=1
	mdadm --stop /dev/md0 >/dev/null
	mdadm --zero-superblock "$@"
	return $rc
}
