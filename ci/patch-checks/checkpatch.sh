#!/bin/bash
# scripts/checkpatch.pl --strict --codespell on the patch: any ERROR,
# WARNING or CHECK fails it. On a base without history (the Debian tarball)
# checkpatch cannot resolve upstream commit ids and asks of every new file
# whether MAINTAINERS needs updating: those two types are ignored, and
# checked here instead against ci/known-commits and get_maintainer.pl -f.
. "$(dirname "$0")/lib.sh"

cited_commits() { # ERROR lines for ids or subjects not in ci/known-commits
	# the message as one line: a reference may wrap, as checkpatch allows
	sed -n '/^---$/q;p' "$PATCH" | tr '\n' ' ' | tr -s ' ' |
		grep -oE '\b[0-9a-f]{12,40} \("[^"]+"\)' |
	while read -r id subj; do
		subj=${subj#(\"}; subj=${subj%\")}
		grep -qE "^$id[0-9a-f]* $(printf '%s' "$subj" | sed 's/[][\.*^$/]/\\&/g')\$" \
			"$MDS_ROOT/ci/known-commits" ||
			echo "ERROR: commit $id (\"$subj\") is not in ci/known-commits"
	done
}
new_files_maintained() {
	local f
	git -C "$TREE" diff --diff-filter=A --name-only "$PARENT" "$COMMIT" | while read -r f; do
		(cd "$TREE" && scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
			--no-l --no-r -f "$f" 2>/dev/null) | grep -qv "^Linus Torvalds" ||
			echo "WARNING: new file $f is not covered by any MAINTAINERS entry"
	done
}
# CamelCase: a patch that uses an identifier the tree already has (md's
# MaxSector) is not adding one; judged as a delta, as NIPA does. Such
# CHECK lines are kept in the report, marked, and do not fail the patch.
existing_camelcase() {
	local f=$1 id
	grep -oE 'CHECK: Avoid CamelCase: <[A-Za-z0-9_]+>' "$f" | sed 's/.*<\(.*\)>/\1/' | sort -u |
	while read -r id; do
		git -C "$TREE" grep -q -w -e "$id" "$PARENT" -- drivers/md include ||
			continue
		sed -i "s/^\([^ ]*:[0-9]*: \)\?CHECK\(: Avoid CamelCase: <$id>\)\$/\1check\2  [in the tree before this patch: not counted]/" "$f"
	done
}
# Cc: stable with no Fixes: (MISSING_FIXES_TAG): stable-kernel-rules.rst
# takes a fix whose cause has no commit to name. Not counted only where the
# message itself says so ("no ... commit is named"), marked in the report.
stable_without_fixes() {
	local f=$1
	sed -n '/^---$/q;p' "$PATCH" | tr '\n' ' ' | grep -qiE 'no (single )?commit is named' || return 0
	sed -i "s/^\([^ ]*:[0-9]*: \)\?WARNING\(: The commit message has 'stable@', perhaps it also needs a 'Fixes:' tag?\)\$/\1warning\2  [the message says why no commit is named: not counted]/" "$f"
}
judge() {
	local out=$OUT/$CHECK.txt ignore=()
	[ -f "$DICT" ] || { echo "codespell dictionary $DICT missing" >>"$out"; return 1; }
	base_has_history "$TREE" md-series-base || ignore=(--ignore "$CHECKPATCH_HISTORYLESS_IGNORE")
	(cd "$TREE" && scripts/checkpatch.pl --strict --codespell --codespellfile="$DICT" \
		--no-summary --showfile -q "${ignore[@]}" "$PATCH") >>"$out" 2>&1
	existing_camelcase "$out"
	stable_without_fixes "$out"
	if [ ${#ignore[@]} != 0 ]; then
		cited_commits >>"$out"
		new_files_maintained >>"$out"
	fi
	! grep -qE '^[^ ]*:[0-9]+: (ERROR|WARNING|CHECK):|^(ERROR|WARNING|CHECK):|Traceback|No such file' "$out"
}
run_check "$@"
