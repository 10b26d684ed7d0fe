#!/bin/bash
# The two test kernels (ci/build-kernel.sh: x86_64 4K pages, arm64 64K
# pages, md built in, the md KUnit suites built in) build at this patch:
# the series bisects. The kernel of each state is kept in its state dir.
. "$(dirname "$0")/lib.sh"
state() {
	local sd=$1 arch
	for arch in x86_64 arm64; do
		if "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$MDS_OUT/build/$arch" "$TREE" >/dev/null 2>"$sd/$arch.log"; then
			cp "$MDS_OUT/build/$arch/kernel.img" "$sd/$arch.img"
			rm -rf "$sd/$arch.modroot"
			[ -d "$MDS_OUT/build/$arch/modroot" ] &&
				cp -a "$MDS_OUT/build/$arch/modroot" "$sd/$arch.modroot"
		fi
	done
}
# only the commit's kernels are judged: the parent's would be a build for nothing
STATE_COMMIT_ONLY=1
judge() {
	local out=$OUT/$CHECK.txt arch bad=0
	for arch in x86_64 arm64; do
		if [ -f "$2/$arch.img" ]; then
			echo "$arch: ok" >>"$out"
		else
			{ echo "$arch: build failed"; grep -E 'error|Error' "$2/$arch.log" | head -n 20; } >>"$out"
			bad=1
		fi
	done
	return $bad
}
run_check "$@"
