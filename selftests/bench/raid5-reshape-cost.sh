#!/bin/bash
# What patch 12 ("md/raid5: checkpoint a reshape that moves the data by
# two chunks or less") costs a reshape that moves the data by two
# chunks: a RAID5 of four members, 512K chunk, data_offset 4096 sectors,
# filled with random data, then 'mdadm --grow --chunk=256' (mdadm moves
# the data offset to 2048 sectors, no backup file) at full speed, to the
# end. Per run: the reshape's wall time, superblock updates (the Events
# count of the first member), member reads and writes (requests and MiB,
# /sys/block/*/stat), the data compared with what was written, and
# mismatch_cnt after a check. Reported, never asserted.
#
# Members: null_blk devices /dev/nullb0..3 when the guest has four (a
# device model chosen on the kernel command line, printed below), else
# loop devices on tmpfs. In the harness:
#   MDS_CMDLINE="RESHAPE_COST_REPS=3 null_blk.nr_devices=4 null_blk.gb=1
#     null_blk.memory_backed=1 null_blk.irqmode=2
#     null_blk.completion_nsec=6000000 null_blk.hw_queue_depth=1
#     null_blk.mbps=150"   (an HDD-like model: about 160 requests/s,
#     150 MB/s; an SSD-like one: completion_nsec=50000
#     hw_queue_depth=32 mbps=500)
#   selftests/run-guest.sh ARCH KERNEL CPIO LOG bench:raid5-reshape-cost
# Knobs: RESHAPE_COST_REPS (runs, default 3), RESHAPE_COST_MB (the size of
# each member in MiB, default 32, as in md_reshape.sh; a null_blk member
# is cut to it with dm-linear).
set -u
reps=${RESHAPE_COST_REPS:-3} mb=${RESHAPE_COST_MB:-32}
cd /tmp || exit 1
# without udev, mdadm and dmsetup make the device nodes themselves
[ -S /run/udev/control ] || export MDADM_NO_UDEV=1 DM_DISABLE_UDEV=1
echo "kernel $(uname -r), $(mdadm --version 2>&1)"
M=()
if [ -b /dev/nullb3 ]; then
	p=/sys/module/null_blk/parameters
	echo "members: null_blk cut to $mb MiB, completion_nsec $(cat $p/completion_nsec)" \
		"irqmode $(cat $p/irqmode) hw_queue_depth $(cat $p/hw_queue_depth)" \
		"mbps $(cat $p/mbps) memory_backed $(cat $p/memory_backed)"
	# dm-linear cuts each to the member size, so that mdadm has no room
	# after the data to move it to
	for i in 0 1 2 3; do
		dmsetup create "cost$i" --table "0 $((mb * 2048)) linear /dev/nullb$i 0" || exit 1
		M+=("/dev/mapper/cost$i")
	done
else
	echo "members: loop devices on tmpfs"
	for i in 0 1 2 3; do
		truncate -s "${mb}M" "cost$i.img"
		l=$(losetup -f) && losetup "$l" "cost$i.img" || exit 1
		M+=("$l")
	done
fi
# kname DEV: the kernel's name of block device DEV (dm-0 for a node that
# dmsetup made in /dev/mapper without udev)
kname() {
	local mm

	mm=$(stat -L -c '%t %T' "$1") || return 1
	basename "$(readlink "/sys/dev/block/$(printf '%d:%d' "0x${mm% *}" "0x${mm#* }")")"
}
# stat_sum FIELD: the sum over the members of field FIELD of their stat
stat_sum() {
	local m t=0 f

	for m in "${M[@]}"; do
		f=$(awk -v n="$1" '{ print $n }' "/sys/block/$(kname "$m")/stat")
		t=$((t + f))
	done
	echo $t
}
events() { mdadm -E "${M[0]}" | awk '/Events :/ { print $3 }'; }
md=/dev/md/cost
for ((r = 1; r <= reps; r++)); do
	for m in "${M[@]}"; do dd if=/dev/zero of="$m" bs=1M count=1 status=none; done
	mdadm --create "$md" --run --quiet --level=5 --raid-devices=4 --chunk=512 \
		--data-offset=2M --assume-clean --bitmap=none \
		"${M[@]}" || exit 1
	sys=/sys/block/$(basename "$(readlink -f "$md")")/md
	size=$(blockdev --getsize64 "$md")
	head -c "$size" /dev/urandom >cost.ref
	dd if=cost.ref of="$md" bs=1M oflag=direct status=none
	echo system >"$sys/sync_speed_max"
	e0=$(events) r0=$(stat_sum 1) rs0=$(stat_sum 3) w0=$(stat_sum 5) ws0=$(stat_sum 7)
	t0=$(date +%s.%N)
	mdadm --grow "$md" --chunk=256 >grow.log 2>&1 || { cat grow.log; exit 1; }
	m0=$(kname "${M[0]}")
	off="$(cat "$sys/dev-$m0/offset") -> $(cat "$sys/dev-$m0/new_offset")"
	sleep 0.2
	while [ "$(cat "$sys/sync_action")" != idle ] ||
		[ "$(cat "$sys/reshape_position")" != none ]; do sleep 0.2; done
	t1=$(date +%s.%N)
	e1=$(events) r1=$(stat_sum 1) rs1=$(stat_sum 3) w1=$(stat_sum 5) ws1=$(stat_sum 7)
	same=differs
	cmp -s cost.ref "$md" && same=identical
	echo check >"$sys/sync_action"
	sleep 0.5
	while [ "$(cat "$sys/sync_action")" != idle ]; do sleep 0.5; done
	printf 'run %d: %d MiB, data_offset %s, reshape %.1f s, superblock updates %d, member reads %d (%d MiB), writes %d (%d MiB), data %s, mismatch_cnt %s, chunk_size %s\n' \
		"$r" $((size >> 20)) "$off" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" $((e1 - e0)) \
		$((r1 - r0)) $(((rs1 - rs0) >> 11)) $((w1 - w0)) $(((ws1 - ws0) >> 11)) \
		"$same" "$(cat "$sys/mismatch_cnt")" "$(cat "$sys/chunk_size")"
	mdadm --stop "$md" >/dev/null 2>&1
	rm -f cost.ref
done
if [ -b /dev/nullb3 ]; then
	for i in 0 1 2 3; do dmsetup remove "cost$i"; done
else
	for l in "${M[@]}"; do losetup -d "$l"; done
	rm -f cost?.img
fi
