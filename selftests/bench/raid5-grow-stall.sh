#!/bin/bash
# RAID5 grows under writers, counting stalls: the loop of patch 10 (a
# reshape destination handled again and again while its source's I/O sits
# in raid5d's plug). Each grow: RAID5 of four 16 MiB loop members (64K
# chunk, --assume-clean, no bitmap, stripe_cache_size 17), writers looping
# over the start of the array, where a grow's first batches have
# destinations whose same-numbered old stripe is a source of the same
# batch, then mdadm --grow to five members. A stall: reshape_position and
# md's write count unchanged for 60 s (sysrq l and w are printed, and the
# run ends there). Otherwise the writers stop, their data are read back and
# 'check' must find mismatch_cnt 0. Knobs, kernel command-line words:
#   grow_stall.n=GROWS (20)  grow_stall.w=WRITERS (1)
#   grow_stall.len=BYTES each writer loops over (786432: the first 768K,
#     old rows 0-3 of the 64K chunk), one after the other
#   grow_stall.bs=BYTES per write (4096: partial stripes)
#   grow_stall.buf=1: buffered writes, the page cache written back every
#     10 ms (no REQ_SYNC: partial stripes wait on delayed_list), else O_DIRECT
#   grow_stall.hold=0|1, grow_stall.sqs=N: md/preread_hold and
#     md/stripe_queue_size, where the kernel has them (the series)
#   grow_stall.ss=BYTES: md/stripe_size before the grow (the array's
#     default otherwise: 4096 on v7.3.4, the build's choice on the series)
# Prints "RESULT N grows, S stalls, F failures" (raid5-grow-stall-table.py).
# md_common.sh finds its helpers (md_pattern, ktap_helpers.sh) from $0:
# run this body again with $0 naming a file beside them
if [ "$0" != /kselftest/drivers/md/md_common.sh ]; then
	exec bash -c "$(cat "${BASH_SOURCE[0]}")" /kselftest/drivers/md/md_common.sh
fi
cd /kselftest/drivers/md || exit 2
. ./md_common.sh
knob() { sed -n "s/.*grow_stall\.$1=\([0-9]*\).*/\1/p" /proc/cmdline | grep . || echo "$2"; }
N=$(knob n 20) W=$(knob w 1) L=$(knob len 786432) BS=$(knob bs 4096) BUF=$(knob buf 0)
HOLD=$(knob hold '') SQS=$(knob sqs '') SS=$(knob ss '')
mode=direct
if [ "$BUF" = 1 ]; then
	mode=
	echo 1 >/proc/sys/vm/dirty_writeback_centisecs
	echo 1 >/proc/sys/vm/dirty_expire_centisecs
fi
md_require
echo "MDBENCH-NOTE $N grows, $W writer(s) of ${L}B each, ${BS}B writes, ${mode:-buffered}${HOLD:+, preread_hold $HOLD}${SQS:+, stripe_queue_size $SQS}${SS:+, stripe_size $SS}"
stalls=0 fails=0 it=0
for it in $(seq 1 "$N"); do
	md_make_members 5 16 || exit 1
	md_create 5 "${MD_MEMBERS[@]:0:4}" -- --assume-clean --chunk=64 --bitmap=none || exit 1
	f=$(md_sysfs)
	[ -z "$SS" ] || echo "$SS" >"$f/stripe_size" || exit 1
	echo 17 >"$f/stripe_cache_size"
	[ -n "$HOLD" ] && [ -e "$f/preread_hold" ] && echo "$HOLD" >"$f/preread_hold"
	[ -n "$SQS" ] && [ -e "$f/stripe_queue_size" ] && echo "$SQS" >"$f/stripe_queue_size"
	mdadm "$MD_DEV" --add "${MD_MEMBERS[4]}" >/dev/null 2>&1 || exit 1
	seed=$((RANDOM * 32768 + RANDOM)); pids=(); rm -f "$MD_TMP/stop"
	for k in $(seq 0 $((W - 1))); do
		( while ! [ -e "$MD_TMP/stop" ]; do
			md_write $((seed + k)) $((k * L)) "$L" "$BS" $mode || exit 1
		  done ) &
		pids+=($!)
	done
	sleep 0.5
	mdadm --grow "$MD_DEV" --raid-devices=5 >"$MD_TMP/grow.log" 2>&1 ||
		echo "grow $it: mdadm --grow failed: $(cat "$MD_TMP/grow.log")"
	last=; t=$SECONDS; stall=0
	while :; do
		p=$(cat "$f/reshape_position"); now="$p $(md_write_stat)"
		[ "$p" = none ] && [ "$(cat "$f/sync_action")" = idle ] && break
		if [ "$now" != "$last" ]; then last=$now t=$SECONDS
		elif [ $((SECONDS - t)) -ge 60 ]; then stall=1; break; fi
		sleep 0.5
	done
	if [ $stall = 1 ]; then
		echo "grow $it: STALL at reshape_position $p, sync_completed $(cat "$f/sync_completed")"
		for d in "${MD_MEMBERS[@]}"; do echo "$d inflight $(cat "/sys/block/${d#/dev/}/inflight")"; done
		echo l >/proc/sysrq-trigger; sleep 2
		echo w >/proc/sysrq-trigger; sleep 2
		stalls=1
		break
	fi
	touch "$MD_TMP/stop"
	for p in "${pids[@]}"; do wait "$p" || { echo "grow $it: a writer failed"; fails=$((fails + 1)); }; done
	md_wait_idle
	for k in $(seq 0 $((W - 1))); do
		md_verify $((seed + k)) $((k * L)) "$L" "$L" direct ||
			{ echo "grow $it: writer $k's data differ"; fails=$((fails + 1)); }
	done
	# md_check says why it failed (the mismatch_cnt, or a check that did not run)
	md_check || { echo "grow $it: check failed"; fails=$((fails + 1)); }
	echo "grow $it: done ($(cat "$f/raid_disks") members)"
	md_stop
	md_free_members
done
echo "RESULT $it grows, $stalls stalls, $fails failures"
[ $stalls = 0 ] && [ $fails = 0 ]
