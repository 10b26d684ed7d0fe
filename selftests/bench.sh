#!/bin/bash
# Side-by-side benchmark: selftests/bench.sh ARCH SCENARIO
# Boots the base kernel and the patched kernel (same config, same initramfs),
# each REPS times (default 1), running selftests/bench/SCENARIO.sh on fresh
# virtio members, and prints one table of per-member figures. Reported, not
# asserted; the run fails only if a guest fails (splat, data check, hang).
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"
arch=${1:?usage: bench.sh ARCH SCENARIO}
scen=${2:?usage: bench.sh ARCH SCENARIO}
reps=${REPS:-1}
initrd=$MDS_OUT/images/$arch-initramfs.cpio
[ -f "$initrd" ] || die "$initrd missing: run ci/test.sh (or selftests/mkinitramfs.sh) first"
rc=0
for k in base patched; do
	if [ $k = base ]; then img=$MDS_OUT/images/$arch-base.img; else img=$MDS_OUT/build/$arch/kernel.img; fi
	[ -f "$img" ] || die "$img missing"
	for ((r = 1; r <= reps; r++)); do
		"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" \
			"$MDS_OUT/logs/bench-$scen-$arch-$k-$r.log" "bench:$scen" 4 512 || rc=1
	done
done
python3 "$MDS_ROOT/selftests/bench-table.py" "$arch" "$scen" "$reps" "$MDS_OUT/logs" | tee "$MDS_OUT/bench-$scen-$arch.txt"
exit $rc
