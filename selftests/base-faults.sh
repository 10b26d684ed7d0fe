#!/bin/bash
# The fault kselftests on the 7.3.4 base kernel:
#   selftests/base-faults.sh ARCH [BASE_TREE]
# Builds the guest kernel of the base commit with today's config fragments
# (ci/build-base-kernel.sh; BASE_TREE: a checkout of md-series-base), and
# boots it with the series' initramfs over md_member_fail, md_read_errors,
# md_fio_verify, md_reshape and md_bad_input, then the md_unclean_stop pair,
# and prints the results as BASE-PASS/BASE-FAIL/BASE-XFAIL lines: a failure
# there is a finding about mainline, to report with its log
# ($MDS_OUT/logs/ARCH-base-*.log). Not part of CI (about 10 minutes per arch).
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: base-faults.sh x86_64|arm64 [BASE_TREE]}
tree=$(kernel_tree)
initrd=$MDS_OUT/images/$arch-initramfs.cpio
[ -f "$initrd" ] || die "$initrd missing: run ci/test.sh first"
img=$("$MDS_ROOT/ci/build-base-kernel.sh" "$arch" ${2:+"$2"}) || die "base kernel build failed"
logf=$MDS_OUT/logs/$arch-base-faults.log
only=
for t in md_member_fail.sh md_read_errors.sh md_fio_verify.sh md_reshape.sh md_bad_input.sh; do
	only="$only mdtest.only=drivers/md:$t"
done
MDS_CMDLINE=$only "$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "$logf" kselftest ||
	echo "BASE-FAIL guest-$arch-base: see $logf"
{
	"$MDS_ROOT/selftests/count.py" "$arch-base" "$logf" "$tree" --no-kunit
	"$MDS_ROOT/selftests/unclean-stop.sh" "$arch" "$img" "$initrd" "$arch-base" "$tree"
} | sed 's/^\(PASS\|FAIL\|SKIP\|XFAIL\) /BASE-\1 /'
