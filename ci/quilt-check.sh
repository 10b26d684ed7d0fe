#!/bin/bash
# quilt applies the series too: 'quilt push -a' with QUILT_PATCHES=patches and
# QUILT_SERIES=series (no fuzz), onto an export of the base holding the paths
# the series touches.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
tree=$(kernel_tree)
w=$MDS_OUT/quilt
rm -rf "$w" && mkdir -p "$w"
mapfile -t paths < <(series_patches | xargs grep -h '^diff --git a/' | awk '{print substr($3, 3)}' | sort -u)
exist=()
for p in "${paths[@]}"; do
	git -C "$tree" cat-file -e "md-series-base:$p" 2>/dev/null && exist+=("$p")
done
[ ${#exist[@]} = 0 ] || git -C "$tree" archive md-series-base -- "${exist[@]}" | tar -x -C "$w"
ln -s "$MDS_ROOT/patches" "$w/patches"
cp "$MDS_ROOT/series" "$w/series"
cd "$w"
QUILT_PATCHES=patches QUILT_SERIES=series QUILT_PC=.pc quilt push -a -q --fuzz=0 >"$MDS_OUT/quilt.log" 2>&1 ||
	{ cat "$MDS_OUT/quilt.log" >&2; die "quilt push -a failed"; }
log "quilt push -a: $(grep -c . series) patches applied"
