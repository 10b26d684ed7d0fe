#!/bin/bash
# Reproducer for "md/raid5: recompute min_offset_diff when a reshape
# starts" (patch 11; v7.3.4 misplaces data): a RAID5 chunk-size change
# (128 KiB -> 64 KiB) stopped with mdadm --stop and assembled again; no
# other I/O. Needs root, mdadm, losetup and 4 x 32 MiB of /tmp. Prints
# the reshape positions, the first byte that differs from what was
# written, how many MiB differ, mismatch_cnt after a check, mdadm -D and
# -E before the stop, after the assembly and after the reshape, and the
# kernel's md messages. In the harness's guest: 'selftests/run-guest.sh
# ARCH KERNEL CPIO LOG bench:raid5-chunk-reshape-repro' (mkinitramfs.sh
# copies it into the initramfs). REPRO_CHUNK and REPRO_NEW_CHUNK (KiB,
# default 128 and 64) choose the two chunk sizes.
set -u
chunk=${REPRO_CHUNK:-128} new_chunk=${REPRO_NEW_CHUNK:-64}
cd /tmp || exit 1
# udev runs where its control socket is (as the md kselftests judge it)
udevd=none
[ -S /run/udev/control ] && udevd=running
echo "kernel $(uname -r), $(mdadm --version 2>&1), udev: $udevd, PID 1: $(cat /proc/1/comm)"
# show STAGE: mdadm's view of the array and of its first member
show() {
	echo "--- mdadm -D, $1 ---"; mdadm -D "$md"
	echo "--- mdadm -E ${L[0]}, $1 ---"; mdadm -E "${L[0]}"
}
# mdadm_procs: the mdadm processes running (from /proc: no pgrep needed)
mdadm_procs() {
	local c
	for c in /proc/[0-9]*/cmdline; do
		tr '\0' ' ' <"$c" 2>/dev/null && echo
	done | grep '^[^ ]*mdadm ' | sed 's/ $//' | paste -sd';' -
}
# state STAGE: the reshape as sysfs has it, the mdadm processes running,
# then show STAGE
state() {
	echo "$1: sync_action $(cat "$sys/sync_action"), reshape_position $(cat "$sys/reshape_position")," \
		"$m0 offset $(cat "$sys/dev-$m0/offset") new_offset $(cat "$sys/dev-$m0/new_offset")," \
		"mdadm processes: $(mdadm_procs)"
	show "$1"
}
L=()
for i in 0 1 2 3; do
	truncate -s 32M "repro$i.img"
	l=$(losetup -f) && losetup "$l" "repro$i.img" || exit 1
	L+=("$l")
done
md=/dev/md/repro
mdadm --create "$md" --run --quiet --level=5 --raid-devices=4 --chunk="$chunk" \
	--assume-clean --bitmap=none "${L[@]}" || exit 1
sys=/sys/block/$(basename "$(readlink -f "$md")")/md
size=$(blockdev --getsize64 "$md")
head -c "$size" /dev/urandom >repro.ref
dd if=repro.ref of="$md" bs=1M oflag=direct status=none
echo 1000 >"$sys/sync_speed_max"
mdadm --grow "$md" --chunk="$new_chunk" || exit 1
sleep 5
m0=$(basename "${L[0]}")
state "before the stop"
mdadm --stop "$md" || exit 1
mdadm --assemble "$md" --run --quiet "${L[@]}" || exit 1
sys=/sys/block/$(basename "$(readlink -f "$md")")/md
state "after the assembly"
echo system >"$sys/sync_speed_max"
while [ "$(cat "$sys/sync_action")" != idle ]; do sleep 1; done
echo "reshape done: chunk_size $(cat "$sys/chunk_size"), reshape_position $(cat "$sys/reshape_position")"
show "after the reshape"
cmp repro.ref "$md" && echo "data: identical"
bad=0
for ((m = 0; m < size / 1048576; m++)); do
	cmp -s <(dd if=repro.ref bs=1M skip=$m count=1 status=none) \
		<(dd if="$md" bs=1M skip=$m count=1 iflag=direct status=none) || bad=$((bad + 1))
done
echo "MiB that differ: $bad of $((size / 1048576))"
echo check >"$sys/sync_action"
sleep 1
while [ "$(cat "$sys/sync_action")" != idle ]; do sleep 1; done
echo "check: mismatch_cnt $(cat "$sys/mismatch_cnt")"
echo "--- the kernel's md messages ---"
dmesg | grep -E 'md[0-9]*:|md/raid|raid6:|async_tx|reshape' | grep -viE 'command line|mdtest='
mdadm --stop "$md"
for l in "${L[@]}"; do losetup -d "$l"; done
rm -f repro?.img repro.ref
