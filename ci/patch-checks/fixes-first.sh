#!/bin/bash
# A maintainer takes fixes (md-fixes, and from there stable) apart from
# features (md-next): a patch with a Fixes: trailer must come before every
# patch that is no fix, so the fixes apply on the base alone, and the build
# checks of those first patches show that they build without the rest. A
# fix is a patch with a Fixes: or a "Cc: stable@vger.kernel.org" trailer,
# or one of the fixes posting (ci/postings/topics): some fixes name no
# commit, and some are not for stable.
. "$(dirname "$0")/lib.sh"
# is_fix COMMIT: 0 if COMMIT is a fix, as above
is_fix() {
	local n last

	git -C "$TREE" log -1 --format=%B "$1" | git interpret-trailers --parse |
		grep -qE '^(Fixes: |Cc: stable@vger\.kernel\.org)' && return 0
	last=$(awk '$1 == "fixes" { print $3 }' "$MDS_ROOT/ci/postings/topics")
	n=$(git -C "$TREE" rev-list --count "md-series-base..$1")
	[ -n "$last" ] && [ "$n" -le "$last" ]
}
judge() {
	local out=$OUT/$CHECK.txt c
	git -C "$TREE" log -1 --format=%B "$COMMIT" | git interpret-trailers --parse |
		grep -q '^Fixes: ' || { echo "not a fix" >>"$out"; return 2; }
	for c in $(git -C "$TREE" rev-list "md-series-base..$PARENT"); do
		is_fix "$c" ||
			echo "a fix after a patch that fixes nothing: $(git -C "$TREE" log -1 --format='%h %s' "$c")" >>"$out"
	done
	[ ! -s "$out" ]
}
run_check "$@"
