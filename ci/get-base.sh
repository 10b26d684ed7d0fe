#!/bin/bash
# Provide the kernel base tree and print its path.
#
# Default: Debian's linux-source-7.3 (trixie-backports), downloaded once, checked
# against the sha256 pinned below, unpacked into $MDS_CACHE/linux and committed
# as the base commit tagged md-base-7.3.4.
# KERNEL_SRC=/path/to/linux: use that mainline git checkout instead; it must be a
# clean git work tree.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BASE_SHA256=703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -d "$KERNEL_SRC" ] || die "KERNEL_SRC=$KERNEL_SRC: no such directory"
	[ -f "$KERNEL_SRC/drivers/md/raid5.c" ] && [ -f "$KERNEL_SRC/Makefile" ] ||
		die "KERNEL_SRC=$KERNEL_SRC: not a Linux source tree (no drivers/md/raid5.c)"
	git -C "$KERNEL_SRC" rev-parse --git-dir >/dev/null 2>&1 ||
		die "KERNEL_SRC=$KERNEL_SRC: not a git work tree (git am needs one)"
	dirty=$(git -C "$KERNEL_SRC" status --porcelain --untracked-files=no | head -n 5)
	[ -z "$dirty" ] || die "KERNEL_SRC=$KERNEL_SRC: the work tree has uncommitted changes:
$dirty"
	printf '%s\n' "$KERNEL_SRC"
	exit 0
fi

tree=$MDS_CACHE/linux
if git -C "$tree" rev-parse -q --verify "refs/tags/$BASE_TAG" >/dev/null 2>&1; then
	printf '%s\n' "$tree"
	exit 0
fi

mkdir -p "$MDS_CACHE/dl"
deb=$MDS_CACHE/dl/${BASE_PKG}_${BASE_VER}_all.deb
deb=${deb/\~/%7e}
if ! [ -f "$deb" ]; then
	log "downloading $BASE_PKG=$BASE_VER"
	apt-cache show "$BASE_PKG=$BASE_VER" >/dev/null 2>&1 ||
		die "$BASE_PKG=$BASE_VER is not known to apt: run ci/setup-host.sh (adds trixie-backports)"
	( cd "$MDS_CACHE/dl" && apt-get download -qq "$BASE_PKG=$BASE_VER" 2>/dev/null ) ||
		die "apt-get download $BASE_PKG=$BASE_VER failed"
	deb=$(ls "$MDS_CACHE/dl/${BASE_PKG}_"*"_all.deb" | head -n1)
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$BASE_SHA256" ]; then
	rm -f "$deb"
	die "$deb: sha256 $got, expected $BASE_SHA256 (removed; run again)"
fi

log "unpacking $BASE_PKG into $tree"
tmp=$MDS_CACHE/linux.tmp
rm -rf "$tmp" && mkdir -p "$tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$BASE_PKG.tar.xz" | tar -xJ -C "$tmp" --strip-components=1

# Debian appends a packaging block to the top-level .gitignore that ignores
# everything at the top level ('/*'); mainline has no such lines.
n=$(grep -n '^# Debian packaging' "$tmp/.gitignore" | cut -d: -f1 || true)
[ -n "$n" ] || die "Debian's .gitignore block not found: has the package changed?"
head -n $((n - 2)) "$tmp/.gitignore" >"$tmp/.gitignore.new"
mv "$tmp/.gitignore.new" "$tmp/.gitignore"

log "committing the base"
git -C "$tmp" init -q -b base
git -C "$tmp" config gc.auto 0
# -f: the tarball is pristine source; files that match .gitignore (the .kunitconfig
# files, for one) are tracked upstream all the same.
git -C "$tmp" add -A -f .
# Fixed dates: the same package always gives the same base commit id.
GIT_AUTHOR_NAME="md-series base" GIT_AUTHOR_EMAIL=md-series@localhost \
GIT_COMMITTER_NAME="md-series base" GIT_COMMITTER_EMAIL=md-series@localhost \
GIT_AUTHOR_DATE="2026-11-15T22:30:00Z" GIT_COMMITTER_DATE="2026-11-15T22:30:00Z" \
	git -C "$tmp" commit -q -m "Linux 7.3.4 ($BASE_PKG $BASE_VER, drivers/md unpatched)"
git -C "$tmp" tag "$BASE_TAG"
rm -rf "$tree"
mv "$tmp" "$tree"
printf '%s\n' "$tree"
