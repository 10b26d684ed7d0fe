#!/bin/bash
# Pack a guest initramfs: selftests/mkinitramfs.sh ARCH TREE OUT.cpio [MODROOT]
# Debian userspace (selftests/guest-rootfs.sh), /init (selftests/init), the md
# kselftests installed from TREE (static helpers), and selftests/bench/ scenarios;
# with MODROOT (ci/build-kernel.sh's OUTDIR/modroot), the kernel's modules
# (scsi_debug, which md_bitmap_io.sh loads once per member geometry). With
# MDS_GUEST_FS=1 (selftests/bench.sh, for a scenario with a file system),
# also mke2fs and mkfs.xfs from sid with only the shared objects they need
# (ci/deb-closure.sh); CI's initramfs has neither.
set -euo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: mkinitramfs.sh ARCH TREE OUT.cpio [MODROOT]}
tree=${2:?}
cpio_out=${3:?}
modroot=${4:-}
case "$arch" in
x86_64) karch=x86_64; cross= ;;
arm64) karch=arm64; cross=aarch64-linux-gnu- ;;
*) die "unknown arch '$arch'" ;;
esac
root=$("$MDS_ROOT/selftests/guest-rootfs.sh" "$arch")
stage=$(mktemp -d "$MDS_OUT/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -a "$root/." "$stage/"
if [ "${MDS_GUEST_FS:-0}" = 1 ]; then
	case "$arch" in x86_64) da=amd64 ;; arm64) da=arm64 ;; esac
	for t in e2fsprogs:usr/sbin/mke2fs xfsprogs:usr/sbin/mkfs.xfs; do
		"$MDS_ROOT/ci/deb-closure.sh" -x busybox-static -x bash-static -x mdadm -x libc6 \
			-x libudev1 -x libcap2 "$da" sid "${t%%:*}" "$MDS_CACHE/guest/$da-fs/${t%%:*}" \
			"$stage" "${t#*:}" >&2 || die "${t#*:} for $arch: ci/deb-closure.sh failed"
		[ -x "$stage/${t#*:}" ] || die "${t#*:} missing from the $arch initramfs"
	done
fi
install -m 0755 "$MDS_ROOT/selftests/init" "$stage/init"
install -m 0755 "$MDS_ROOT"/selftests/guest-bin/* "$stage/usr/bin/"
if [ -n "$modroot" ]; then
	[ -d "$modroot/lib/modules" ] || die "$modroot has no lib/modules"
	mkdir -p "$stage/usr/lib/modules"
	cp -a "$modroot/lib/modules/." "$stage/usr/lib/modules/"
fi
mkdir -p "$stage/bench"
cp "$MDS_ROOT"/selftests/bench/*.sh "$stage/bench/" 2>/dev/null || true
# the benchmarks' own random-write tool (not part of the upstream test)
"${cross}gcc" -O2 -Wall -static -o "$stage/usr/bin/md_randio" "$MDS_ROOT/selftests/bench/md_randio.c" ||
	die "md_randio for $arch does not build"

if [ -d "$tree/tools/testing/selftests/drivers/md" ]; then
	ks=$MDS_OUT/kselftest-$arch
	rm -rf "$ks"
	make -s -C "$tree/tools/testing/selftests" ARCH="$karch" CROSS_COMPILE="$cross" \
		TARGETS=drivers/md O="$ks/build" INSTALL_PATH="$stage/kselftest" \
		LDFLAGS=-static install >"$MDS_OUT/kselftest-$arch.log" 2>&1 ||
		{ tail -n 30 "$MDS_OUT/kselftest-$arch.log" >&2; die "kselftest install for $arch failed"; }
	file "$stage/kselftest/drivers/md/md_pattern" | grep -q 'statically linked' ||
		die "md_pattern for $arch is not statically linked"
fi
mkdir -p "$(dirname "$cpio_out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$cpio_out"
printf '%s\n' "$cpio_out"
