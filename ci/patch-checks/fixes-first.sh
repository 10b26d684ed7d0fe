#!/bin/bash
# A maintainer takes fixes (md-fixes, and from there stable) apart from
# features (md-next): a patch with a Fixes: trailer must come before every
# patch that is no fix, so the fixes apply on the base alone, and the build
# checks of those first patches show that they build without the rest. A
# fix is a patch with a Fixes: or a "Cc: stable@vger.kernel.org" trailer,
# or one of the fixes posting (ci/postings/topics): some fixes name no
# commit, and some are not for stable.
. "$(dirname "$0")/lib.sh"
judge() {
	local out=$OUT/$CHECK.txt c n=0 last
	git -C "$TREE" log -1 --format=%B "$COMMIT" | git interpret-trailers --parse |
		grep -q '^Fixes: ' || { echo "not a fix" >>"$out"; return 2; }
	# the fixes posting's last patch, 0 if there is none
	last=$(awk '$1 == "fixes" { print $3 }' "$MDS_ROOT/ci/postings/topics")
	for c in $(git -C "$TREE" rev-list --reverse "md-series-base..$PARENT"); do
		n=$((n + 1))
		[ "$n" -le "${last:-0}" ] && continue
		git -C "$TREE" log -1 --format=%B "$c" | git interpret-trailers --parse |
			grep -qE '^(Fixes: |Cc: stable@vger\.kernel\.org)' && continue
		echo "a fix after a patch that fixes nothing: $(git -C "$TREE" log -1 --format='%h %s' "$c")" >>"$out"
	done
	[ ! -s "$out" ]
}
run_check "$@"
