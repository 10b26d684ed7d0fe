#!/bin/bash
# Guest userspace from Debian's packages, unpacked (no chroot): busybox-static
# and bash-static from bookworm; mdadm 4.6 (for --bitmap=lockless) with the
# libc and libudev it needs from sid. ci/guest-rootfs.sh ARCH prints the
# staging root ($MDS_CACHE/guest/<debarch>/root), laid out merged-/usr.
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
g=$MDS_CACHE/guest/$da
want=$(printf '%s\n' "${pkgs[@]}" "$0" | sha256sum | cut -c1-16)
if [ "$(cat "$g/stamp" 2>/dev/null)" = "$want" ] && [ -x "$g/root/usr/sbin/mdadm" ]; then
	printf '%s\n' "$g/root"
	exit 0
fi
log "guest userspace for $da: ${pkgs[*]}"
rm -rf "$g" && mkdir -p "$g/debs" "$g/root"
( cd "$g/debs" && for p in "${pkgs[@]}"; do
	n=${p%%/*}; s=${p#*/}; [ "$s" = "$p" ] && s=
	apt-get download -qq "$n:$da${s:+/$s}" 2>/dev/null || exit 1
done ) || die "apt-get download of the $da guest packages failed (run ci/setup-host.sh)"
ls "$g/debs" | grep -q "_$da.deb" || die "no $da packages downloaded"
for d in "$g"/debs/*.deb; do
	dpkg-deb -x "$d" "$g/root"
done
ls "$g/debs" >"$g/versions"

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
ln -sf bash-static "$r/usr/bin/bash"
[ -x "$r/usr/sbin/mdadm" ] || { [ -x "$r/sbin/mdadm" ] && ln -sf ../../sbin/mdadm "$r/usr/sbin/mdadm"; }
echo "$want" >"$g/stamp"
printf '%s\n' "$r"
