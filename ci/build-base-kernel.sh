#!/bin/bash
# The 7.3.4 guest kernel with today's config fragments:
#   ci/build-base-kernel.sh ARCH [BASE_TREE]
# Builds md-series-base (checked out in a worktree at $MDS_OUT/base-tree, or
# BASE_TREE if given: a checkout of that commit) into $MDS_OUT/build/ARCH-base
# and prints the image's path. For the documented runs against the base
# (selftests/base-faults.sh, selftests/bench.sh). They once booted the base
# image the per-patch checks had left, which predated a change of the
# fragments: without SYSVIPC, dm-dust and sysrq, fio and the unclean stop
# failed for that reason alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: build-base-kernel.sh x86_64|arm64 [BASE_TREE]}
tree=$(kernel_tree)
base=$(git -C "$tree" rev-parse md-series-base^{commit}) || die "run ci/apply.sh first"
btree=${2:-$MDS_OUT/base-tree}
if [ -n "${2:-}" ]; then
	[ "$(git -C "$btree" rev-parse HEAD 2>/dev/null)" = "$base" ] || die "$btree is not at $base"
elif [ "$(git -C "$btree" rev-parse HEAD 2>/dev/null)" != "$base" ]; then
	git -C "$tree" worktree remove -f "$btree" 2>/dev/null || true
	rm -rf "$btree"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$btree" "$base" >&2 || die "worktree at $btree"
fi
nice -n 10 "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$MDS_OUT/build/$arch-base${MDS_BUILD_SUFFIX:-}" "$btree"
