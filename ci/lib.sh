# Shared settings and helpers for the md series scripts. Sourced, not run.
# shellcheck shell=bash

MDS_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Everything expensive and reusable lives outside the clone, so CI and the next
# session reuse it: the unpacked base tree, ccache, sparse, guest packages.
MDS_CACHE=${MDS_CACHE:-/var/cache/md-series}
# Build trees and run logs: inside the clone, ignored by git.
MDS_OUT=${MDS_OUT:-$MDS_ROOT/out}

BASE_PKG=linux-source-7.3
BASE_VER=7.3.4-1~bpo13+1
BASE_TAG=md-base-7.3.4
SERIES_BRANCH=md-series

export CCACHE_DIR=${CCACHE_DIR:-$MDS_CACHE/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Debian's tools first: scripts/spdxcheck.py (run by checkpatch) needs the
# python3-ply of Debian's python3, not whatever python3 comes first in PATH.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# Stable release string: a git tree would otherwise append '+' and rebuild version files.
export LOCALVERSION=

# The base tree: KERNEL_SRC if the user gave one, else the cached Debian tree.
kernel_tree() {
	if [ -n "${KERNEL_SRC:-}" ]; then
		printf '%s\n' "$KERNEL_SRC"
	else
		printf '%s\n' "$MDS_CACHE/linux"
	fi
}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The patch files in series order, as absolute paths.
series_patches() {
	local p
	while IFS= read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		printf '%s\n' "$MDS_ROOT/patches/$p"
	done <"$MDS_ROOT/series"
}
