#!/bin/bash
# Side-by-side benchmark: selftests/bench.sh ARCH SCENARIO
# Boots the base kernel and the patched kernel (same config, same initramfs),
# each REPS times (default 1; KERNELS=base boots only the base), running
# selftests/bench/SCENARIO.sh on fresh virtio members, and prints one table of
# per-member figures. A scenario with a table of its own (SCENARIO-table.py)
# gets every log, base first, each kernel's in rep order. Reported, not
# asserted; the run fails only if a guest fails (splat, data check, hang).
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"
arch=${1:?usage: bench.sh ARCH SCENARIO}
scen=${2:?usage: bench.sh ARCH SCENARIO}
reps=${REPS:-1}
initrd=$MDS_OUT/images/$arch-initramfs.cpio
[ -f "$initrd" ] || die "$initrd missing: run ci/test.sh (or selftests/mkinitramfs.sh) first"
# A scenario may name its members' geometry (SCENARIO.disks: one
# run-guest.sh MDS_DISKS word per line); otherwise four plain 512 MiB disks.
nd=(4 512)
if [ -f "$MDS_ROOT/selftests/bench/$scen.disks" ]; then
	MDS_DISKS=$(disk_specs "$MDS_ROOT/selftests/bench/$scen.disks")
	export MDS_DISKS
	nd=(0)
fi
# MODEL=hdd|ssd: members throttled by QEMU, so that the members, not the
# emulated CPU, bound what the array does: hdd about 150 requests/s and
# 150 MB/s per member (a 7200 rpm disk: no seek-distance model, each request
# costs the same), ssd about 20000 requests/s and 500 MB/s (a SATA SSD).
# Logs and the table are named after the model.
model=${MODEL:-none}
case $model in
none) ;;
hdd) export MDS_DRIVE_OPTS="throttling.iops-total=150,throttling.bps-total=150000000" ;;
ssd) export MDS_DRIVE_OPTS="throttling.iops-total=20000,throttling.bps-total=500000000" ;;
*) die "MODEL: none, hdd or ssd, not '$model'" ;;
esac
msfx=
[ "$model" = none ] || msfx=-$model
kernels=${KERNELS:-base patched}
for k in $kernels; do
	case $k in base|patched) ;; *) die "KERNELS: base and/or patched, not '$k'" ;; esac
done
# The base kernel is built with today's fragments (BASE_TREE: a checkout of
# md-series-base, else a worktree); the patched one is CI's guest kernel. A
# scenario with a config fragment of its own (SCENARIO.config: file systems)
# gets both kernels built with it too, in build dirs named after it, and an
# initramfs of its own with mke2fs and mkfs.xfs (MDS_GUEST_FS=1).
xcfg=$MDS_ROOT/selftests/bench/$scen.config
if [ -f "$xcfg" ]; then
	export MDS_CONFIG_EXTRA=$xcfg
	sfx=-$scen
	initrd=$MDS_OUT/images/$arch-initramfs$sfx.cpio
	MDS_GUEST_FS=1 "$MDS_ROOT/selftests/mkinitramfs.sh" "$arch" "$(kernel_tree)" "$initrd" >/dev/null ||
		die "initramfs with mkfs tools failed"
else
	sfx=
fi
case " $kernels " in
*" base "*)
	base_img=$(MDS_BUILD_SUFFIX=$sfx "$MDS_ROOT/ci/build-base-kernel.sh" "$arch" ${BASE_TREE:+"$BASE_TREE"}) ||
		die "base kernel build failed" ;;
esac
rc=0
logs=()
for k in $kernels; do
	if [ $k = base ]; then
		img=$base_img
	elif [ -n "$sfx" ]; then
		img=$("$MDS_ROOT/ci/build-kernel.sh" "$arch" "$MDS_OUT/build/$arch$sfx") ||
			die "patched kernel build with $xcfg failed"
	else
		img=$MDS_OUT/build/$arch/kernel.img
	fi
	[ -f "$img" ] || die "$img missing"
	for ((r = 1; r <= reps; r++)); do
		logs+=("$MDS_OUT/logs/bench-$scen-$arch$msfx-$k-$r.log")
		"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "${logs[-1]}" \
			"bench:$scen" "${nd[@]}" || rc=1
	done
done
{
	echo "host CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sort -u | head -n 1)," \
		"$(nproc) CPUs; guest $arch (QEMU TCG); member model: $model${MDS_DRIVE_OPTS:+ ($MDS_DRIVE_OPTS)}"
	if [ -f "$MDS_ROOT/selftests/bench/$scen-table.py" ]; then	# a table of its own
		python3 "$MDS_ROOT/selftests/bench/$scen-table.py" "${logs[@]}"
	else
		python3 "$MDS_ROOT/selftests/bench-table.py" "$arch$msfx" "$scen" "$reps" "$MDS_OUT/logs"
	fi
} | tee "$MDS_OUT/bench-$scen-$arch$msfx.txt"
exit $rc
