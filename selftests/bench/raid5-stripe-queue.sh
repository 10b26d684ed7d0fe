#!/bin/bash
# Where does RAID5 read what it need not read? The measurement of issue 12
# (stripe_queue), before any patch: 4 virtio members, RAID5, 64K chunk (a row
# is 192K of data), --assume-clean, no bitmap (one configuration with an
# internal bitmap), at stripe_cache_size 32 and 256 and group_thread_cnt 0 and
# 4. Workloads, each on a freshly created array, so that no stripe_head keeps
# pages of an earlier one:
#   A   8 jobs, each writing its own region in 48K steps (not row-aligned),
#       buffered pwrite + sync_file_range(SYNC_FILE_RANGE_WRITE) after each
#   B1  the same with O_DIRECT, libaio, queue depth 4, one iocb per io_submit
#   B4  the same, four iocbs per io_submit
#   C48 control: one job, 48K O_DIRECT at queue depth 1
#   C4k control: one job, 4K random O_DIRECT at queue depth 1
#   R1, R4, R16, R32  random writers: 8 jobs, each its own region, random
#       O_DIRECT writes of 4K to 64K (libaio), at queue depth 1, 4, 16, 32
#       (not in the default set: sq.wl=R1,R4,R16,R32)
#   CFR control: one job, 1536K (full rows) O_DIRECT at queue depth 1
#   D   the 2007 stripe-queue cover letter's own: buffered dd bs=1M (as
#       md_pattern's buffered 1 MiB writes, to be checked afterwards)
#   F   as A, but fsync() after each 48K write (fio fsync=1): what a
#       synchronous writer waits for, REQ_SYNC writeback included
#   EF  F on ext4 (mke2fs -t ext4 with its defaults, data=ordered): eight
#       files of F's region size, 48K buffered writes, fsync() after each;
#       fsync() is ext4's commit: the data, then jbd2's log (REQ_META) and
#       its commit block (REQ_FUA | REQ_PREFLUSH)
#   EJ  journal-heavy ext4: eight files of an eighth of sq.mib / 2 each,
#       random 4K buffered writes, fsync() after each (a commit per 4K)
#   XF, XJ  the same on XFS (mkfs.xfs defaults; its log writes are REQ_META)
#       The file system workloads run where the kernel has ext4 and XFS
#       (raid5-stripe-queue-fs.sh: the same script, with its kernel fragment
#       raid5-stripe-queue-fs.config); each is made on the new array before
#       the counters start, and its files are read back and the file system
#       unmounted before the parity check.
#   FD  F while D's writer, on the region after F's, writes its 128 MiB
#       (sq.dd) into the page cache and fsync()s it: small fsync()s next
#       to a large writeback that someone also waits for; latency is F's
# Figures per MiB written, summed over the members (/sys/block/*/stat):
# sectors read (every row of A, B and D is fully overwritten in the end, so 0
# is possible), sectors written (the floor on 4 members is 2048 * 4 / 3 =
# 2731), write requests; and the real number of stripe_heads (kmem_cache
# allocations minus frees of raid5-md0, counted by tracefs from the array's
# creation: stripe_cache_size is only the minimum, the cache grows by
# itself). Every fio write carries a crc32c header that fio --verify_only reads
# back; D writes md_pattern's seeded data and reads it back; every array then passes a
# parity check (mismatch_cnt 0).
# Besides: MiB/s (MiB written over the workload's seconds, the final sync
# included); fio's write completion latency, p50, p99 and p99.9 in ms (all
# jobs together), and for F the fsync latency at the same percentiles; CPU
# per MiB written, in ms: the array's raid5d thread (utime + stime from
# /proc/PID/stat; with group_thread_cnt > 0 the stripes are handled by
# kworkers instead) and all CPUs' busy time from /proc/stat.
# Sizes (MiB) may be lowered for a quick look with sq.mib=N and sq.dd=N on the
# kernel command line; sq.confs=SCS:GTC:BITMAP[:SQS+SQS...],... and
# sq.wl=A,B1,... choose configurations and workloads (a configuration's own
# SQS values replace sq.sqs for it: 4096:0:none:0 runs the knobs off only).
# On a kernel with md/stripe_queue_size, each configuration runs once per
# value of sq.sqs=N[h],... (default 0,1024h):
# N is stripe_queue_size, and a trailing h sets md/preread_hold to 1 (the
# O_DIRECT hold, a knob of its own). Rows are named CONF for 0, CONF-hold
# for 0h, CONF-sqN and CONF-sqNh otherwise. A kernel without the knobs runs
# each configuration once, as 7.3.4. sq.sched=NAME sets the members'
# I/O scheduler first (none, mq-deadline): request counts depend on it, since
# a scheduler merges requests queued together after they leave md's plug.
. /bench/lib.sh
devs=(/dev/vda /dev/vdb /dev/vdc /dev/vdd)
mib=$(sed -n 's/.*sq\.mib=\([0-9]*\).*/\1/p' /proc/cmdline)
mib=${mib:-32}		# per A/B workload, split over 8 jobs
dd_mib=$(sed -n 's/.*sq\.dd=\([0-9]*\).*/\1/p' /proc/cmdline)
dd_mib=${dd_mib:-512}
member_kib=$(( (dd_mib + 3 * mib) * 1024 / 3 + 65536 ))	# room for D and more
member_kib=$(( member_kib / 64 * 64 ))
rc=0
cmdarg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline | tr , ' '; }
confs=$(cmdarg 'sq\.confs')
confs=${confs:-32:0:none 32:4:none 256:0:none 256:4:none 256:0:internal}
wls=$(cmdarg 'sq\.wl')
wls=${wls:-${SQ_DEFAULT_WL:-A B1 B4 C48 C4k CFR D F}}
sqs_list=$(cmdarg 'sq\.sqs')
sqs_list=${sqs_list:-0 1024h}
# has this kernel md/stripe_queue_size, md/preread_hold? (an array shows
# them) A kernel with the hold but not the queues (the series at its
# patch 37) runs the values 0 and 0h only.
have_sqs=0 have_hold=0
if mdadm --create /dev/md0 --run --quiet --level=5 --raid-devices=4 --assume-clean \
	--size=65536 --bitmap=none "${devs[@]}" >/dev/null 2>&1; then
	[ -e /sys/block/md0/md/stripe_queue_size ] && have_sqs=1
	[ -e /sys/block/md0/md/preread_hold ] && have_hold=1
fi
mdadm --stop /dev/md0 >/dev/null 2>&1
if [ $have_sqs = 0 ] && [ $have_hold = 1 ]; then
	sqs_list=$(for s in $sqs_list; do case $s in 0|0h) echo "$s" ;; esac; done)
	sqs_list=${sqs_list:-0}
elif [ $have_sqs = 0 ]; then
	sqs_list=-
fi

sq_trace_start() {
	echo 0 >$T/tracing_on
	echo 4096 >$T/buffer_size_kb
	echo >$T/trace
	for e in kmem_cache_alloc kmem_cache_free; do
		echo 'name == "raid5-md0"' >$T/events/kmem/$e/filter
		echo 1 >$T/events/kmem/$e/enable
	done
	echo 1 >$T/tracing_on
}

# sq_stripe_heads: raid5-md0 objects allocated and not freed so far, and
# the size of one (bytes_alloc of the first allocation; empty if none)
sq_stripe_heads() {
	grep -q 'LOST' $T/trace && echo "MDBENCH-NOTE kmem trace overflowed" >&2
	awk '/kmem_cache_alloc: / { n++
		if (o == "" && match($0, /bytes_alloc=[0-9]+/)) o = substr($0, RSTART + 12, RLENGTH - 12) }
	     /kmem_cache_free: / { n-- } END { print n + 0, o }' $T/trace
}

sq_trace_stop() {
	echo 0 >$T/tracing_on
	for e in kmem_cache_alloc kmem_cache_free; do
		echo 0 >$T/events/kmem/$e/enable
		echo 0 >$T/events/kmem/$e/filter
	done
}

# sq_members: sectors read, sectors written, write requests, summed over
# the members; then md0's own sectors read (a buffered write that covers
# part of a page reads the rest through md0 first, as 48K steps do with 64K
# pages: that read is the page cache's, not raid5's)
sq_members() {
	local d
	for d in "${devs[@]}"; do cat "/sys/block/${d#/dev/}/stat"; done |
		awk '{ r += $3; w += $7; n += $5 } END { printf "%d %d %d ", r, w, n }'
	awk '{ print $3 }' /sys/block/md0/stat
}

# sq_cpu: raid5d's ticks (utime + stime), then all CPUs' busy ticks
sq_cpu() {
	local c n f r=0

	for c in /proc/[0-9]*/comm; do
		read -r n <"$c" 2>/dev/null || continue
		[ "$n" = md0_raid5 ] || continue
		read -r f <"${c%comm}stat" || continue
		set -- ${f#*) }
		r=$(( ${12} + ${13} ))
	done
	awk -v r=$r '/^cpu / { print r, $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# sq_fio_lat: from fio's JSON (all jobs reported as one group), the write
# completion latency and the fsync latency, p50 p99 p99.9, in ms ("-" where
# fio measured none)
sq_fio_lat() {
	[ -s /tmp/fio.json ] || { echo "- - - - - -"; return; }
	awk '
	/"(read|write|trim|sync)" : \{/ { match($0, /"[a-z]+"/); sec = substr($0, RSTART + 1, RLENGTH - 2) }
	/"percentile" : \{/ { inp = 1; next }
	inp && /\}/ { inp = 0 }
	inp { gsub(/[",]/, ""); p[sec, $1 + 0] = $3 }
	function ms(s, q) { return ((s, q) in p) ? sprintf("%.2f", p[s, q] / 1e6) : "-" }
	END { print ms("write", 50), ms("write", 99), ms("write", 99.9),
		    ms("sync", 50), ms("sync", 99), ms("sync", 99.9) }' /tmp/fio.json
}

# sq_case CONF WORKLOAD MIB COMMAND...: one workload on a new array
sq_case() {
	local conf=$1 wl=$2 m=$3 before after sh t0 t1 c0 c1 lat
	shift 3
	mdadm --create /dev/md0 --run --quiet --level=5 --chunk=64 --raid-devices=4 \
		--assume-clean --size="$member_kib" --bitmap="$bm" "${devs[@]}" 2>&1 || return 1
	echo "$scs" >/sys/block/md0/md/stripe_cache_size || return 1
	echo "$gtc" >/sys/block/md0/md/group_thread_cnt || return 1
	if [ "$sqs" != - ]; then
		[ $have_sqs = 0 ] ||
			echo "${sqs%h}" >/sys/block/md0/md/stripe_queue_size || return 1
		case $sqs in
		*h) echo 1 >/sys/block/md0/md/preread_hold || return 1 ;;
		*) [ $have_hold = 0 ] ||
			echo 0 >/sys/block/md0/md/preread_hold || return 1 ;;
		esac
	fi
	if declare -F "sq_prep_$wl" >/dev/null; then
		"sq_prep_$wl" || { echo "MDBENCH-NOTE $conf $wl: file system not made"; return 1; }
	fi
	sync
	rm -f /tmp/fio.json
	before=$(sq_members)
	c0=$(sq_cpu)
	t0=$(cut -d' ' -f1 /proc/uptime)
	"$@" || { echo "MDBENCH-NOTE $conf $wl: workload failed"; return 1; }
	sync
	t1=$(cut -d' ' -f1 /proc/uptime)
	c1=$(sq_cpu)
	after=$(sq_members)
	read -r sh obj <<<"$(sq_stripe_heads)"
	# the stripe cache's memory at the end, KiB: each stripe_head's slab
	# object and a stripe_size buffer per member
	mem=$(awk -v sh="$sh" -v n="${#devs[@]}" -v o="$obj" \
		-v ss="$(cat /sys/block/md0/md/stripe_size 2>/dev/null)" \
		'BEGIN { if (o == "" || ss == "") print "-"; else printf "%.0f", sh * (o + n * ss) / 1024 }')
	lat=$(sq_fio_lat)
	[ -e /sys/kernel/debug/raid456/md0/stripe_queue_stats ] &&
		echo "MDBENCH-NOTE $conf $wl stripe_queue_stats" \
			"$(tr '\n' ' ' </sys/kernel/debug/raid456/md0/stripe_queue_stats)"
	echo "$before $after $c0 $c1 $lat" | awk -v c="$conf" -v w="$wl" -v m="$m" -v sh="$sh" -v mem="$mem" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK 2>/dev/null || echo 100)" '
		{ printf "MDBENCH-SQ %s %s rd/MiB %.1f wr/MiB %.1f wreq/MiB %.2f stripe_heads %d md0rd/MiB %.1f MiB %g s %.2f",
		  c, w, ($5 - $1) / m, ($6 - $2) / m, ($7 - $3) / m, sh, ($8 - $4) / m, m, t1 - t0
		  printf " MiB/s %.2f r5d-ms/MiB %.2f cpu-ms/MiB %.1f",
		  m / (t1 - t0), ($11 - $9) * 1000 / hz / m, ($12 - $10) * 1000 / hz / m
		  printf " p50 %s p99 %s p99.9 %s fsync-p50 %s fsync-p99 %s fsync-p99.9 %s cache-KiB %s\n",
		  $13, $14, $15, $16, $17, $18, mem }'
}

# the array is made inside sq_case; the tracing around it counts the
# stripe_heads grow_stripes() allocates at creation
sq_run() {
	local conf=$1 wl=$2 m=$3 r=0
	shift 3
	sq_trace_start
	sq_case "$conf" "$wl" "$m" "$@" || r=1
	sq_trace_stop
	if [ -e /sys/block/md0/md ]; then
		sq_verify "$wl" || { echo "MDBENCH-NOTE $conf $wl: data verify failed"; r=1; }
		bench_check_and_stop "${devs[@]}" >/dev/null || { echo "MDBENCH-NOTE $conf $wl: mismatch_cnt"; r=1; }
	fi
	return $r
}

# 8 regions of whole rows (192K), one per job, back to back: their 48K steps
# cover every row completely, so every read on A and B could be avoided. (One
# job with numjobs=8 and a size that is not a multiple of 48K would write a
# 49th block into its neighbour's region.)
row=$((3 * 64 * 1024))
region=$((mib * 1048576 / 8 / row * row))
mib_ab=$(awk -v r=$region 'BEGIN { print 8 * r / 1048576 }')	# MiB written by A and B
fio_common=(--filename=/dev/md0 --size=$region --bs=48k --rw=write --verify=crc32c)
jobs8=()
for k in 0 1 2 3 4 5 6 7; do jobs8+=(--name=sq$k --offset=$((k * region))); done
fio_w() {
	fio --do_verify=0 --group_reporting --percentile_list=50:99:99.9 \
		--output-format=json --output=/tmp/fio.json "$@" >/tmp/fio.log 2>&1 ||
		{ tail -n 5 /tmp/fio.log; return 1; }
}
fio_v() {
	fio --verify_only "$@" >/tmp/fio-v.log 2>&1 ||
		{ grep -m 5 -iE 'verify|bad|crc|error' /tmp/fio-v.log; return 1; }
}
A=("${fio_common[@]}" --ioengine=psync --direct=0 --sync_file_range=write:1 --end_fsync=1
	"${jobs8[@]}")
B1=("${fio_common[@]}" --ioengine=libaio --direct=1 --iodepth=4 --iodepth_batch_submit=1 "${jobs8[@]}")
B4=("${fio_common[@]}" --ioengine=libaio --direct=1 --iodepth=4 --iodepth_batch_submit=4
	--iodepth_batch_complete_min=1 "${jobs8[@]}")
F=("${fio_common[@]}" --ioengine=psync --direct=0 --fsync=1 "${jobs8[@]}")
rnd_common=(--filename=/dev/md0 --size=$region --bsrange=4k-64k --rw=randwrite --randrepeat=1
	--verify=crc32c --ioengine=libaio --direct=1)
R1=("${rnd_common[@]}" --iodepth=1 "${jobs8[@]}")
R4=("${rnd_common[@]}" --iodepth=4 "${jobs8[@]}")
R16=("${rnd_common[@]}" --iodepth=16 "${jobs8[@]}")
R32=("${rnd_common[@]}" --iodepth=32 "${jobs8[@]}")
# on a file system: eight files, F's sizes (EF, XF) or a random 4K writer
# each, fsync() after every write (EJ, XJ)
fsjobs8=()
for k in 0 1 2 3 4 5 6 7; do fsjobs8+=(--name=sq$k --filename=f$k); done
fsF=(--directory=/mnt/sq --size=$region --bs=48k --rw=write --verify=crc32c
	--ioengine=psync --direct=0 --fsync=1 "${fsjobs8[@]}")
fsJ_kib=$((mib * 1024 / 16 / 4 * 4))
fsJ=(--directory=/mnt/sq --size=${fsJ_kib}k --bs=4k --rw=randwrite --randrepeat=1
	--verify=crc32c --ioengine=psync --direct=0 --fsync=1 "${fsjobs8[@]}")
EF=("${fsF[@]}") XF=("${fsF[@]}") EJ=("${fsJ[@]}") XJ=("${fsJ[@]}")
sq_mkfs() {
	mkdir -p /mnt/sq
	case $1 in
	ext4) mke2fs -q -F -t ext4 -E lazy_itable_init=0,lazy_journal_init=0 /dev/md0 ;;
	xfs) mkfs.xfs -q -f /dev/md0 ;;
	esac >/tmp/mkfs.log 2>&1 || { tail -n 3 /tmp/mkfs.log; return 1; }
	mount -t "$1" /dev/md0 /mnt/sq
}
sq_prep_EF() { sq_mkfs ext4; }
sq_prep_EJ() { sq_mkfs ext4; }
sq_prep_XF() { sq_mkfs xfs; }
sq_prep_XJ() { sq_mkfs xfs; }
fs_ok=0
grep -qw ext4 /proc/filesystems && grep -qw xfs /proc/filesystems &&
	command -v mke2fs >/dev/null && command -v mkfs.xfs >/dev/null && fs_ok=1
# the controls: one job, queue depth 1, O_DIRECT
ctl=(--name=sq --filename=/dev/md0 --ioengine=psync --direct=1 --verify=crc32c)
c4k_ios=$((mib * 32))
C48=("${ctl[@]}" --size=${mib}m --bs=48k --rw=write)
C4k=("${ctl[@]}" --size=${mib}m --bs=4k --rw=randwrite --number_ios=$c4k_ios --randrepeat=1)
CFR=("${ctl[@]}" --size=$(( mib / 3 * 3 ))m --bs=1536k --rw=write)
# D as dd bs=1M would do it (buffered 1 MiB write() calls), with a pattern
# that can be checked
run_D() { $MD_PATTERN write /dev/md0 4242 0 $((dd_mib * 1048576)) 1048576; }
# FD: D's writer on the first MiB after F's regions, F in the foreground
fd_off=$(( (8 * region + 1048575) / 1048576 * 1048576 ))
run_FD() {
	local p r=0

	$MD_PATTERN write /dev/md0 4243 $fd_off $((dd_mib * 1048576)) 1048576 &
	p=$!
	sq_fio F || r=1
	wait $p || r=1
	return $r
}

# sq_verify WORKLOAD: read back what it wrote (fio: the same job with
# --verify_only; D: the pattern)
sq_verify() {
	if [ "$1" = D ]; then
		$MD_PATTERN verify /dev/md0 4242 0 $((dd_mib * 1048576)) 1048576 direct
	elif [ "$1" = FD ]; then
		fio_v "${F[@]}" &&
			$MD_PATTERN verify /dev/md0 4243 $fd_off $((dd_mib * 1048576)) 1048576 direct
	else
		local -n args=$1
		local r=0
		fio_v "${args[@]}" || r=1
		# a file system workload's: unmounted before the parity check
		if grep -q ' /mnt/sq ' /proc/mounts; then umount /mnt/sq || r=1; fi
		return $r
	fi
}

echo "MDBENCH-NOTE fio $(fio --version), $(nproc) CPUs, A/B/C $mib MiB, D $dd_mib MiB, members $member_kib KiB"
# request counts depend on how the members' queues merge: record them
sched=$(cmdarg 'sq\.sched')
for d in "${devs[@]}"; do
	b=/sys/block/${d#/dev/}
	q=$b/queue
	if [ -n "$sched" ] && ! echo "$sched" > "$q/scheduler"; then
		echo "MDBENCH-NOTE cannot set scheduler $sched on $d"
		rc=1
	fi
	echo "MDBENCH-NOTE $d scheduler $(cat $q/scheduler) hw_queues $(ls -d $b/mq/* | wc -l) nr_requests $(cat $q/nr_requests) max_sectors_kb $(cat $q/max_sectors_kb)"
done
# sq_fio WORKLOAD: run the fio job of that name
sq_fio() { local -n job=$1; fio_w "${job[@]}"; }

for conf in $confs; do
	IFS=: read -r scs gtc bm csqs <<<"$conf"
	list=$sqs_list
	[ "$sqs_list" = - ] || [ -z "$csqs" ] || list=${csqs//+/ }
	for sqs in $list; do
		name=scs$scs-gtc$gtc-bm$bm
		case $sqs in -|0) ;; 0h) name=$name-hold ;; *) name=$name-sq$sqs ;; esac
		for wl in $wls; do
			case $wl in
			A|B1|B4|F|R1|R4|R16|R32) sq_run "$name" "$wl" "$mib_ab" sq_fio "$wl" || rc=1 ;;
			C48) sq_run "$name" C48 "$mib" sq_fio C48 || rc=1 ;;
			C4k) sq_run "$name" C4k "$(( c4k_ios * 4 / 1024 ))" sq_fio C4k || rc=1 ;;
			CFR) sq_run "$name" CFR "$(( mib / 3 * 3 ))" sq_fio CFR || rc=1 ;;
			D) sq_run "$name" D "$dd_mib" run_D || rc=1 ;;
			EF|XF|EJ|XJ)
				[ $fs_ok = 1 ] || { echo "MDBENCH-NOTE $wl: no ext4/xfs or mkfs in this guest"; rc=1; continue; }
				m=$mib_ab
				case $wl in ?J) m=$((fsJ_kib * 8 / 1024)) ;; esac
				sq_run "$name" "$wl" "$m" sq_fio "$wl" || rc=1 ;;
			FD) sq_run "$name" FD "$(awk -v a="$mib_ab" -v d="$dd_mib" 'BEGIN { print a + d }')" run_FD || rc=1 ;;
			*) echo "MDBENCH-NOTE unknown workload $wl"; rc=1 ;;
			esac
		done
	done
done
exit $rc
