#!/bin/bash
# A maintainer takes fixes (md-fixes, and from there stable) apart from
# features (md-next): a patch with a Fixes: trailer must come before every
# patch without one, so the fixes apply on the base alone, and the build
# checks of those first patches show that they build without the rest.
. "$(dirname "$0")/lib.sh"
judge() {
	local out=$OUT/$CHECK.txt base c
	git -C "$TREE" log -1 --format=%B "$COMMIT" | git interpret-trailers --parse |
		grep -q '^Fixes: ' || { echo "not a fix" >>"$out"; return 2; }
	base=$(git -C "$TREE" rev-parse md-series-base)
	for c in $(git -C "$TREE" rev-list "$base..$PARENT"); do
		git -C "$TREE" log -1 --format=%B "$c" | git interpret-trailers --parse | grep -q '^Fixes: ' ||
			echo "a fix after a patch that fixes nothing: $(git -C "$TREE" log -1 --format='%h %s' "$c")" >>"$out"
	done
	[ ! -s "$out" ]
}
run_check "$@"
