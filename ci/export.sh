#!/bin/bash
# Export the md-series branch back into patches/ and series with fixed
# 'git format-patch' options, so that apply + export round-trips byte for byte.
#   ci/export.sh            rewrite patches/ and series from the branch
#   ci/export.sh --check    only compare; fail if patches/ would change
set -euo pipefail
. "$(dirname "$0")/lib.sh"

check=0
[ "${1:-}" = --check ] && check=1
tree=$(kernel_tree)
git -C "$tree" rev-parse -q --verify "refs/heads/$SERIES_BRANCH" >/dev/null ||
	die "no $SERIES_BRANCH branch in $tree: run ci/apply.sh first"
base=$(git -C "$tree" rev-parse md-series-base)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every option that changes the output is fixed here, whatever the user's config.
git -C "$tree" -c core.abbrev=12 -c diff.renames=true -c diff.algorithm=myers \
	-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.context=3 \
	-c diff.interHunkContext=0 -c diff.orderFile=/dev/null -c format.signature= \
	-c format.coverLetter=false -c format.numbered=false \
	-c format.signOff=false -c format.thread=false \
	-c notes.displayRef=refs/notes/commits \
	format-patch -q --zero-commit --no-signature --no-numbered --no-cover-letter --notes \
	--subject-prefix=PATCH --stat=80 -o "$tmp/patches" "$base..$SERIES_BRANCH"
mkdir -p "$tmp/patches"
(cd "$tmp/patches" && ls -1 -- *.patch 2>/dev/null) >"$tmp/series" || true

if [ $check = 1 ]; then
	if ! diff -ru "$MDS_ROOT/patches" "$tmp/patches" >"$tmp/diff" || ! diff -u "$MDS_ROOT/series" "$tmp/series" >>"$tmp/diff"; then
		head -n 60 "$tmp/diff" >&2
		die "patches/ and series do not round-trip through git am + git format-patch"
	fi
	log "export round-trips: $(wc -l <"$tmp/series") patches identical"
	exit 0
fi
rm -rf "$MDS_ROOT/patches"
mkdir -p "$MDS_ROOT/patches"
cp "$tmp/patches/"*.patch "$MDS_ROOT/patches/" 2>/dev/null || true
cp "$tmp/series" "$MDS_ROOT/series"
log "exported $(wc -l <"$MDS_ROOT/series") patches to patches/"
