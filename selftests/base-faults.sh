#!/bin/bash
# The fault kselftests on the 7.3.4 base kernel:
#   selftests/base-faults.sh ARCH [BASE_TREE]
# Builds the guest kernel of the base commit (md-series-base, checked out in a
# worktree at $MDS_OUT/base-tree, or BASE_TREE if given: a checkout of that
# commit) with today's config fragments into $MDS_OUT/build/ARCH-base, and
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
# Not images/ARCH-base.img: that one is left by the last per-patch check and
# may predate a change of the config fragments (SYSVIPC, dm-dust, sysrq).
base=$(git -C "$tree" rev-parse md-series-base^{commit}) || die "run ci/apply.sh first"
btree=${2:-$MDS_OUT/base-tree}
if [ -n "${2:-}" ]; then
	[ "$(git -C "$btree" rev-parse HEAD 2>/dev/null)" = "$base" ] || die "$btree is not at $base"
elif [ "$(git -C "$btree" rev-parse HEAD 2>/dev/null)" != "$base" ]; then
	git -C "$tree" worktree remove -f "$btree" 2>/dev/null
	rm -rf "$btree"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$btree" "$base" || die "worktree at $btree"
fi
img=$(nice -n 10 "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$MDS_OUT/build/$arch-base" "$btree") ||
	die "base kernel build failed"
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
