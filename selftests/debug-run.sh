#!/bin/bash
# The debug-kernel run: selftests/debug-run.sh ARCH [TREE]
# Builds the guest kernel of TREE (default: the applied series) with
# configs/kasan.config on top of the usual fragments (generic KASAN, plus
# debug.config's lockdep, sleep-in-atomic and list checks and its hung-task
# detector with panic after 120 s), boots it over every md kselftest (KUnit
# included) and over the unclean-stop pair, and judges it like CI: any
# splat, hang or failed case fails. Results: $MDS_OUT/debug-run-ARCH.txt.
# About 10 minutes of build (cold) and 15 to 25 of TCG run per arch.
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: debug-run.sh x86_64|arm64 [TREE]}
tree=${2:-$(kernel_tree)}
out=$MDS_OUT/build/$arch-debug
res=$MDS_OUT/debug-run-$arch.txt
initrd=$MDS_OUT/images/$arch-debug-initramfs.cpio
t0=$(date +%s)
img=$(MDS_KASAN=1 "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$out" "$tree") || die "debug kernel build failed"
grep -q '^CONFIG_KASAN=y' "$out/.config" && grep -q '^CONFIG_BOOTPARAM_HUNG_TASK_PANIC=1' "$out/.config" &&
	grep -q '^CONFIG_PROVE_LOCKING=y' "$out/.config" || die "$out/.config lacks the debug options"
"$MDS_ROOT/selftests/mkinitramfs.sh" "$arch" "$tree" "$initrd" "$out/modroot" >/dev/null ||
	die "initramfs"
log "debug kernel built in $(( $(date +%s) - t0 ))s"
{
	echo "debug-kernel run, $arch, $(date -u '+%Y-%m-%d %H:%M UTC'), tree $(git -C "$tree" describe --always --dirty 2>/dev/null)"
	logf=$MDS_OUT/logs/$arch-debug-kselftest.log
	if MDS_GUEST_TIMEOUT=5400 \
		"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "$logf" kselftest; then
		echo "PASS guest-$arch-debug boot, no splat, clean power-off"
	else
		echo "FAIL guest-$arch-debug boot, no splat, clean power-off (log $logf)"
	fi
	"$MDS_ROOT/selftests/count.py" "$arch-debug" "$logf" "$tree"
	MDS_GUEST_TIMEOUT=3600 "$MDS_ROOT/selftests/unclean-stop.sh" "$arch" "$img" "$initrd" \
		"$arch-debug" "$tree"
} | tee "$res"
p=$(grep -c '^PASS' "$res"); f=$(grep -c '^FAIL' "$res")
echo "$p passed, $f failed, in $(( $(date +%s) - t0 ))s" | tee -a "$res"
[ "$f" = 0 ] && [ "$p" -gt 0 ]
