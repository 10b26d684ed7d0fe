#!/bin/bash
# Install everything the scripts need on a Debian bookworm host (run as root).
# Idempotent: a second run only checks. Adds the project's apt sources
# (trixie-backports and sid, pinned to priority 1) and the arm64 architecture.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stamp=$MDS_CACHE/setup-host.stamp
want=$(cat "$MDS_ROOT/ci/apt/"* "$0" | sha256sum | cut -c1-16)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$MDS_CACHE/sparse/bin/sparse" ] \
	&& [ -x "$MDS_CACHE/venv/bin/b4" ]; then
	exit 0
fi
[ "$(id -u)" = 0 ] || die "setup-host.sh installs packages: run it as root"
mkdir -p "$MDS_CACHE"

export DEBIAN_FRONTEND=noninteractive
install -m 0644 "$MDS_ROOT/ci/apt/md-series.sources" /etc/apt/sources.list.d/md-series.sources
install -m 0644 "$MDS_ROOT/ci/apt/md-series.pref" /etc/apt/preferences.d/md-series.pref
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
log "apt-get update"
apt-get update -qq
log "installing host packages"
apt-get install -y -qq --no-install-recommends \
	build-essential bc bison flex libelf-dev libssl-dev cpio kmod ccache xz-utils zstd \
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	qemu-system-x86 qemu-system-arm ipxe-qemu \
	git quilt codespell coccinelle ocaml-nox dpkg-dev python3-venv python3-ply python3-git \
	libxml2-dev pkg-config file rsync >/dev/null

# sparse >= 0.6.5: bookworm's 0.6.4 cannot parse __typeof_unqual__ and the
# kernel then silently skips the check. Build sid's source package.
if ! [ -x "$MDS_CACHE/sparse/bin/sparse" ]; then
	log "building sparse 0.6.5 from sid's source package"
	rm -rf "$MDS_CACHE/sparse-src" && mkdir -p "$MDS_CACHE/sparse-src"
	( cd "$MDS_CACHE/sparse-src" && apt-get source -qq -t sid sparse >/dev/null 2>&1 ) ||
		die "apt-get source sparse from sid failed"
	d=$(find "$MDS_CACHE/sparse-src" -mindepth 1 -maxdepth 1 -type d -name 'sparse-*' | head -n1)
	make -C "$d" -s -j2 CC=gcc HAVE_LLVM=no HAVE_GTK=no PREFIX="$MDS_CACHE/sparse" install >/dev/null
fi

# b4 (0.14 or newer) and git-filter-repo, from PyPI, in a venv of our own.
if ! [ -x "$MDS_CACHE/venv/bin/b4" ]; then
	log "installing b4 into $MDS_CACHE/venv"
	/usr/bin/python3 -m venv "$MDS_CACHE/venv"
	"$MDS_CACHE/venv/bin/pip" install -q 'b4>=0.14' git-filter-repo
fi
echo "$want" >"$stamp"
log "host ready"
