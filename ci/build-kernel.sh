#!/bin/bash
# Build a guest kernel: ci/build-kernel.sh ARCH OUTDIR [TREE]
#   ARCH: x86_64 (4K pages, bzImage) or arm64 (64K pages, Image)
#   TREE: kernel source (default: the base tree); OUTDIR: the O= build dir.
# tinyconfig + configs/{md-common,debug,<arch>,md-kunit}.config (+kasan with
# MDS_KASAN=1; + the fragments named in MDS_CONFIG_EXTRA, space-separated, as
# a benchmark scenario's SCENARIO.config). Fails if an option a fragment asks
# for is defined by the tree's Kconfig but did not land in .config. Warm
# builds come from ccache.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: build-kernel.sh ARCH OUTDIR [TREE]}
out=${2:?usage: build-kernel.sh ARCH OUTDIR [TREE]}
tree=${3:-$(kernel_tree)}
case "$arch" in
x86_64) karch=x86_64; cross=; image=arch/x86/boot/bzImage ;;
arm64) karch=arm64; cross=aarch64-linux-gnu-; image=arch/arm64/boot/Image ;;
*) die "unknown arch '$arch' (x86_64 or arm64)" ;;
esac
frags=("$MDS_ROOT/configs/md-common.config" "$MDS_ROOT/configs/debug.config")
case "$arch" in
x86_64) frags+=("$MDS_ROOT/configs/x86_64.config") ;;
arm64) frags+=("$MDS_ROOT/configs/arm64-64k.config") ;;
esac
frags+=("$MDS_ROOT/configs/md-kunit.config")
[ "${MDS_KASAN:-0}" = 1 ] && frags+=("$MDS_ROOT/configs/kasan.config")
for f in ${MDS_CONFIG_EXTRA:-}; do
	[ -f "$f" ] || die "MDS_CONFIG_EXTRA: no fragment $f"
	frags+=("$f")
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
export KBUILD_BUILD_TIMESTAMP="2026-01-01" KBUILD_BUILD_USER=md KBUILD_BUILD_HOST=md-series
mk=(make -s -C "$tree" O="$out" ARCH="$karch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" LOCALVERSION= -j"$(nproc)")

# Configure when the fragments or the tree's Kconfig files changed.
want=$( (cat "${frags[@]}"; git -C "$tree" ls-files -s -- "*Kconfig*" 2>/dev/null) | sha256sum | cut -c1-16)
if [ "$(cat "$out/.md-config-stamp" 2>/dev/null)" != "$want" ] || ! [ -f "$out/.config" ]; then
	"${mk[@]}" tinyconfig >/dev/null
	KCONFIG_CONFIG="$out/.config" ARCH="$karch" "$tree/scripts/kconfig/merge_config.sh" -m -O "$out" \
		"$out/.config" "${frags[@]}" >"$out/merge_config.log" 2>&1 ||
		{ cat "$out/merge_config.log" >&2; die "merge_config failed"; }
	"${mk[@]}" olddefconfig >/dev/null
	# Every requested option that the tree defines must be in .config as asked.
	defined=$(grep -rhoE '^[[:space:]]*(menu)?config [A-Za-z0-9_]+' --include='Kconfig*' "$tree" |
		awk '{print "CONFIG_" $2}' | sort -u)
	bad=0
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*}; want_line=$line ;;
		'# CONFIG_'*' is not set') sym=${line#\# }; sym=${sym%% *}; want_line=$line ;;
		*) continue ;;
		esac
		grep -qx "$sym" <<<"$defined" || continue
		if [[ $line == '#'* ]]; then
			grep -q "^$sym=" "$out/.config" && { echo "config: $sym wanted off, is $(grep "^$sym=" "$out/.config")" >&2; bad=1; }
		else
			got=$(grep -E "^$sym=|^# $sym is not set" "$out/.config" || echo "$sym missing")
			[ "$got" = "$want_line" ] || { echo "config: wanted $want_line, got: $got" >&2; bad=1; }
		fi
	done < <(cat "${frags[@]}")
	[ $bad = 0 ] || die "$arch: options asked for by configs/ did not land in .config (unmet dependencies?)"
	echo "$want" >"$out/.md-config-stamp"
fi
if ! "${mk[@]}" "$(basename "$image")" >"$out/build.log" 2>&1; then
	grep -E 'error|warning' "$out/build.log" | head -n 40 >&2 || tail -n 40 "$out/build.log" >&2
	die "$arch kernel build failed in $out (log: $out/build.log)"
fi
# the guest's modules (scsi_debug), for selftests/mkinitramfs.sh
rm -rf "$out/modroot"
if grep -q '^CONFIG_MODULES=y' "$out/.config"; then
	"${mk[@]}" modules >>"$out/build.log" 2>&1 &&
		"${mk[@]}" INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
			modules_install >>"$out/build.log" 2>&1 ||
		die "$arch modules build failed in $out (log: $out/build.log)"
	rm -f "$out"/modroot/lib/modules/*/build
fi
cp "$out/$image" "$out/kernel.img"
printf '%s\n' "$out/kernel.img"
