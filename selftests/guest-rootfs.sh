#!/bin/bash
# Guest userspace from Debian's packages, unpacked (no chroot): busybox-static
# and bash-static from bookworm; mdadm 4.6 (for --bitmap=lockless) with the
# libc and libudev it needs from sid; fio from sid with just the shared objects
# it needs (ci/deb-closure.sh: of its library packages only the DT_NEEDED
# closure of usr/bin/fio is copied, on top of this sid libc; no python3);
# dmsetup from sid the same way; udevadm (systemd-udevd) from sid the same
# way, with udev's and dmsetup's rules (mdadm's come with mdadm), for the
# run with udev (selftests/udev-run.sh; /init starts udevd only when asked).
# selftests/guest-rootfs.sh ARCH prints the staging root
# ($MDS_CACHE/guest/<debarch>/root), laid out merged-/usr. It is rebuilt when
# the package list, this script or ci/deb-closure.sh change ($g/stamp);
# $g/versions lists the .deb files used, fio/debs/ those of fio's closure.
set -euo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: guest-rootfs.sh x86_64|arm64}
case "$arch" in
x86_64) da=amd64; ld=lib64/ld-linux-x86-64.so.2 ;;
arm64) da=arm64; ld=lib/ld-linux-aarch64.so.1 ;;
*) die "unknown arch '$arch'" ;;
esac
# package[/suite]: what the guest needs
pkgs=(busybox-static bash-static mdadm/sid libc6/sid libudev1/sid libcap2/sid)
# package/suite and its files that go in with only the libraries they need
fio=(fio/sid usr/bin/fio)
dms=(dmsetup/sid usr/sbin/dmsetup)
udv=(udev/sid usr/bin/udevadm usr/lib/udev/scsi_id usr/lib/udev/ata_id usr/lib/udev/iocost)
closure=$MDS_ROOT/ci/deb-closure.sh
g=$MDS_CACHE/guest/$da
want=$({ printf '%s\n' "${pkgs[@]}" "${fio[@]}" "${dms[@]}" "${udv[@]}"; cat "$0" "$closure"; } |
	sha256sum | cut -c1-16)
if [ "$(cat "$g/stamp" 2>/dev/null)" = "$want" ] && [ -x "$g/root/usr/sbin/mdadm" ] &&
	[ -x "$g/root/${fio[1]}" ] && [ -x "$g/root/${dms[1]}" ] && [ -x "$g/root/${udv[1]}" ]; then
	printf '%s\n' "$g/root"
	exit 0
fi
log "guest userspace for $da: ${pkgs[*]} ${fio[0]} ${dms[0]} ${udv[0]}"
rm -rf "$g" && mkdir -p "$g/debs" "$g/root"
get=() skip=()
for p in "${pkgs[@]}"; do
	n=${p%%/*}; s=${p#*/}; [ "$s" = "$p" ] && s=
	get+=("$n:$da${s:+/$s}") skip+=(-x "$n")
done
( cd "$g/debs" && apt-get download -qq "${get[@]}" 2>/dev/null ) ||
	die "apt-get download of the $da guest packages failed (run ci/setup-host.sh)"
compgen -G "$g/debs/*_$da.deb" >/dev/null || die "no $da packages downloaded"
for d in "$g"/debs/*.deb; do
	dpkg-deb -x "$d" "$g/root"
done

# merged-/usr: move /bin, /sbin, /lib, /lib64 into /usr and link them back.
r=$g/root
for d in bin sbin lib lib64; do
	if [ -d "$r/$d" ] && ! [ -L "$r/$d" ]; then
		mkdir -p "$r/usr/$d"
		cp -a "$r/$d/." "$r/usr/$d/"
		rm -rf "${r:?}/$d"
	fi
	mkdir -p "$r/usr/$d"
	ln -sfn "usr/$d" "$r/$d"
done
[ -e "$r/usr/bin/busybox" ] || die "busybox missing from the $da staging root"
[ -e "$r/$ld" ] || die "$ld missing from the $da staging root"
# fio and its shared objects (into the merged root, next to the libc above)
"$closure" "${skip[@]}" "$da" "${fio[0]#*/}" "${fio[0]%%/*}" "$g/fio" "$r" "${fio[@]:1}" >&2
[ -x "$r/${fio[1]}" ] || die "${fio[1]} missing from the $da staging root"
# dmsetup (the fault kselftests put dm-dust under a member)
"$closure" "${skip[@]}" "$da" "${dms[0]#*/}" "${dms[0]%%/*}" "$g/dmsetup" "$r" "${dms[@]:1}" >&2
[ -x "$r/${dms[1]}" ] || die "${dms[1]} missing from the $da staging root"
# udevadm, which is systemd-udevd when called by that name, and the rules
# a distribution installs with udev and dmsetup
"$closure" "${skip[@]}" "$da" "${udv[0]#*/}" "${udv[0]%%/*}" "$g/udev" "$r" "${udv[@]:1}" >&2
[ -x "$r/${udv[1]}" ] || die "${udv[1]} missing from the $da staging root"
mkdir -p "$r/usr/lib/systemd"
ln -sf ../../bin/udevadm "$r/usr/lib/systemd/systemd-udevd"
for d in "$g"/udev/debs/udev_*.deb "$g"/dmsetup/debs/dmsetup_*.deb; do
	dpkg-deb --fsys-tarfile "$d" | tar -x -C "$r" --wildcards './usr/lib/udev/rules.d/*'
done
(cd "$g" && ls debs/*.deb fio/debs/*.deb dmsetup/debs/*.deb udev/debs/*.deb) >"$g/versions"
ln -sf bash-static "$r/usr/bin/bash"
[ -x "$r/usr/sbin/mdadm" ] ||
	{ [ -x "$r/sbin/mdadm" ] && ln -sf ../../sbin/mdadm "$r/usr/sbin/mdadm"; }
echo "$want" >"$g/stamp"
printf '%s\n' "$r"
