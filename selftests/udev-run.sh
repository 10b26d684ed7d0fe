#!/bin/bash
# The md kselftests as a distribution runs them: systemd-udevd running with
# udev's, dmsetup's and mdadm's rules (mdadm's 64-md-raid-assembly.rules
# runs 'mdadm --incremental' on every member that appears), so mdadm and
# dmsetup wait for udev instead of making device nodes themselves
# (md_common.sh sets MDADM_NO_UDEV only when /run/udev/control is absent).
#   selftests/udev-run.sh ARCH [TREE]
# Builds the guest kernel with configs/udev.config too (netlink for the
# uevents, unix sockets: $MDS_OUT/build/ARCH-udev), boots it with
# mdtest.udev=1 and runs every TEST_PROGS of drivers/md through the
# installed runner (run_kselftest.sh, what 'make run_tests' runs), with
# CI's knobs for that arch unless MDS_FULL=1, then md_unclean_stop.sh over
# its two boots. Prints PASS/FAIL lines (selftests/count.py) and exits
# non-zero on any failure. Not part of CI (its time); the last result is
# in the issue notes.
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: udev-run.sh x86_64|arm64 [TREE]}
tree=${2:-$(kernel_tree)}
out=$MDS_OUT/build/$arch-udev
img=$(MDS_CONFIG_EXTRA="$MDS_ROOT/configs/udev.config" "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$out" "$tree") ||
	die "$arch kernel with configs/udev.config failed"
initrd=$MDS_OUT/images/$arch-initramfs.cpio
"$MDS_ROOT/selftests/mkinitramfs.sh" "$arch" "$tree" "$initrd" "$out/modroot" >/dev/null ||
	die "initramfs failed"
must=$(md_must_run "$tree")
knobs=$(ksft_knobs "$arch")
logf=$MDS_OUT/logs/$arch-udev-kselftest.log
rc=0
if MDS_GUEST_TIMEOUT=${MDS_GUEST_TIMEOUT:-5400} MDS_CMDLINE="mdtest.udev=1 $knobs" \
	"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "$logf" kselftest; then
	echo "PASS guest-$arch-udev boot, no splat, clean power-off"
else
	echo "FAIL guest-$arch-udev boot, no splat, clean power-off"
	rc=1
fi
grep -m1 '^MDTEST-UDEV: systemd-udevd .* running: yes' "$logf" ||
	{ echo "FAIL guest-$arch-udev: systemd-udevd was not running"; rc=1; }
"$MDS_ROOT/selftests/count.py" "$arch-udev" "$logf" "$tree" --must-run "$must" | tee "$logf.count"
grep -q '^FAIL' "$logf.count" && rc=1
MDS_CMDLINE="mdtest.udev=1" "$MDS_ROOT/selftests/unclean-stop.sh" "$arch" "$img" "$initrd" "$arch-udev" "$tree" || rc=1
exit $rc
