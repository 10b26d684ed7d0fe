#!/bin/bash
# Boot a guest under QEMU (TCG) and judge it:
#   ci/run-guest.sh ARCH KERNEL INITRD LOG MODE [NDISKS [DISK_MB]]
# MODE is passed as mdtest=MODE (see ci/guest/init). NDISKS virtio-blk
# members (sparse files, default 0) appear as /dev/vda... Fails on a QEMU
# error, a hang (MDS_GUEST_TIMEOUT seconds, default 1800), a missing or
# non-zero MDTEST-EXIT, a panic, or any WARN/BUG/lockdep/KASAN/RCU splat in
# the console log (the blktests dmesg gate, over the whole boot).
# MDS_DISKS="SIZE[,OPTS] ..." adds one member per word after the NDISKS plain
# ones: a sparse file of SIZE (truncate's units) and virtio-blk OPTS such as
# logical_block_size=512,physical_block_size=4096,opt_io_size=65536 (512e
# with a 64K optimal I/O size). Their serial is mdgeomN, the opt-in the
# geometry kselftests look for; MDS_DISK_SERIAL=mdcrash names them mdcrashN
# (md_unclean_stop.sh).
# MDS_DRIVE_OPTS adds QEMU -drive options to the NDISKS plain members, e.g.
# throttling.iops-total=150,throttling.bps-total=125000000 for a member
# that queues up like a disk (benchmarks only).
# MDS_KEEP_DISKS=DIR keeps the member images in DIR, so a second boot sees
# what the first wrote. MDS_EXPECT_RESET=1: the guest must reset itself
# (sysrq-b) after printing the md_unclean_stop.sh marker, not power off.
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: run-guest.sh ARCH KERNEL INITRD LOG MODE [NDISKS [DISK_MB]]}
kernel=${2:?}; initrd=${3:?}; logf=${4:?}; mode=${5:?}
ndisks=${6:-0}; disk_mb=${7:-256}
timeout_s=${MDS_GUEST_TIMEOUT:-1800}
mkdir -p "$(dirname "$logf")"
if [ -n "${MDS_KEEP_DISKS:-}" ]; then
	disks=$MDS_KEEP_DISKS
	mkdir -p "$disks"
else
	disks=$(mktemp -d "$MDS_OUT/disks.XXXXXX")
	trap 'rm -rf "$disks"' EXIT
fi

cmdline="panic=-1 oops=panic loglevel=6 mdtest=$mode ${MDS_CMDLINE:-}"
drives=()
vblk=virtio-blk-device
[ "$arch" = x86_64 ] && vblk=virtio-blk-pci
# add_disk SIZE ID SERIAL[,OPTS] [,DRIVE_OPTS]: a sparse member file behind a
# virtio-blk device
add_disk() {
	truncate -s "$1" "$disks/$2.img"
	drives+=(-drive "file=$disks/$2.img,format=raw,if=none,id=$2,cache=unsafe${4:-}")
	drives+=(-device "$vblk,drive=$2,serial=$3")
}
for ((i = 0; i < ndisks; i++)); do
	add_disk "${disk_mb}M" "d$i" "md$i" "${MDS_DRIVE_OPTS:+,$MDS_DRIVE_OPTS}"
done
g=0
for spec in ${MDS_DISKS:-}; do
	opts=; [ "$spec" != "${spec#*,}" ] && opts=,${spec#*,}
	add_disk "${spec%%,*}" "g$g" "${MDS_DISK_SERIAL:-mdgeom}$g$opts"
	g=$((g + 1))
done
case "$arch" in
x86_64)
	qemu=(qemu-system-x86_64 -accel tcg -M pc -cpu max -append "console=ttyS0 $cmdline")
	;;
arm64)
	qemu=(qemu-system-aarch64 -accel tcg -M virt -cpu max,pauth-impdef=on -append "console=ttyAMA0 $cmdline")
	;;
*) die "unknown arch '$arch'" ;;
esac
start=$(date +%s)
timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" -m "${MDS_GUEST_MEM:-2048}" -smp 2 \
	-nographic -no-reboot -kernel "$kernel" -initrd "$initrd" "${drives[@]}" </dev/null >"$logf" 2>&1
qrc=$?
secs=$(( $(date +%s) - start ))
fail=
if [ $qrc = 124 ] || [ $qrc = 137 ]; then
	fail="hang: no power-off within ${timeout_s}s"
elif [ $qrc != 0 ]; then
	fail="qemu exited with $qrc"
fi
# blktests' dmesg gate, plus panics, KASAN and lockdep reports.
# Only kernel lines (printk timestamps), so test output cannot trip it.
splat=$(grep -n -a -E '^\[ *[0-9]+\.[0-9]+\] .*(kernel BUG at|WARNING:|BUG:|Oops|Internal error|Kernel panic|general protection fault|possible recursive locking|possible circular locking|INFO: suspicious RCU usage|inconsistent lock state|KASAN:|UBSAN:|INFO: task .* blocked for more than|Call Trace:|Unable to handle kernel)' "$logf" | head -n 5)
[ -n "$splat" ] && fail="${fail:+$fail; }kernel splat in the console:
$splat"
exitline=$(grep -a -m1 -o 'MDTEST-EXIT: [0-9]*' "$logf" | tr -d '\r')
if [ "${MDS_EXPECT_RESET:-0}" = 1 ]; then
	[ -z "$exitline" ] || fail="${fail:+$fail; }the guest powered off instead of resetting"
	grep -a -q 'md-kselftest: unclean stop: resetting' "$logf" ||
		fail="${fail:+$fail; }no reset marker in the console"
elif [ -z "$exitline" ]; then
	fail="${fail:+$fail; }the guest never reported MDTEST-EXIT"
elif [ "${exitline#MDTEST-EXIT: }" != 0 ]; then
	fail="${fail:+$fail; }guest exit status ${exitline#MDTEST-EXIT: }"
fi
if [ -n "$fail" ]; then
	printf 'guest %s %s FAILED after %ss (log %s): %s\n' "$arch" "$mode" "$secs" "$logf" "$fail" >&2
	tail -n 25 "$logf" >&2
	exit 1
fi
log "guest $arch $mode passed in ${secs}s"
