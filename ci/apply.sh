#!/bin/bash
# Apply the series (series + patches/) as commits onto the base tree with
# 'git am', on branch md-series. Prints the tree's path.
#
# Fails, naming the patch and the hunk, on any reject or whitespace error
# (git am never fuzzes). Base: the Debian tree's tag md-base-7.3.4, or with
# KERNEL_SRC=..., that tree's HEAD (KERNEL_BASE=<rev> to choose another).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=$("$MDS_ROOT/ci/get-base.sh")
cd "$tree"
git am --abort >/dev/null 2>&1 || true

if [ -n "${KERNEL_SRC:-}" ]; then
	if [ -n "${KERNEL_BASE:-}" ]; then
		base=$(git rev-parse --verify "$KERNEL_BASE^{commit}") || die "KERNEL_BASE=$KERNEL_BASE: no such revision"
	elif [ "$(git symbolic-ref -q --short HEAD || true)" = "$SERIES_BRANCH" ] &&
		git rev-parse -q --verify refs/tags/md-series-base >/dev/null; then
		# re-applying in a tree we applied to before: same base as then
		base=$(git rev-parse md-series-base^{commit})
	else
		base=$(git rev-parse HEAD)
	fi
	git tag -f md-series-base "$base" >/dev/null
else
	base=$(git rev-parse "$BASE_TAG^{commit}")
	git tag -f md-series-base "$base" >/dev/null
fi

# Committer identity for git am: the project's own, as the Signed-off-by lines.
name=$(git -C "$MDS_ROOT" config user.name || true)
email=$(git -C "$MDS_ROOT" config user.email || true)
export GIT_COMMITTER_NAME=${name:-md-series}
export GIT_COMMITTER_EMAIL=${email:-md-series@localhost}

# patch_notes PATCH: the "Notes:" block between '---' and the diffstat.
patch_notes() {
	awk '
		!dash && /^---$/ { dash = 1; next }
		dash && !in_notes && /^Notes:$/ { in_notes = 1; next }
		in_notes && (/^    / || /^$/) { sub(/^    /, ""); buf[n++] = $0; next }
		in_notes { exit }
		dash && !in_notes && /^ / { exit }
		END { while (n > 0 && buf[n - 1] == "") n--; for (i = 0; i < n; i++) print buf[i] }
	' "$1"
}

git checkout -q -f -B "$SERIES_BRANCH" "$base"
git clean -q -fd -e out/ >/dev/null 2>&1 || true
n=0
while IFS= read -r p; do
	n=$((n + 1))
	[ -f "$p" ] || die "series names $(basename "$p"), which is not in patches/"
	if ! out=$(git am -q --whitespace=error-all "$p" 2>&1); then
		git am --abort >/dev/null 2>&1 || true
		printf '%s\n' "$out" | grep -E '^(error|warning)|patch failed|does not apply|whitespace' >&2 || printf '%s\n' "$out" >&2
		die "patch $n, $(basename "$p"), does not apply to $(git log -1 --format='%h %s' HEAD)"
	fi
	# A per-patch changelog below '---' (git format-patch --notes) is not
	# part of the commit: keep it as the commit's git note, so that
	# ci/export.sh writes it back and b4 sends it.
	notes=$(patch_notes "$p")
	[ -z "$notes" ] || printf '%s\n' "$notes" | git notes add -f -F - HEAD
done < <(series_patches)
log "applied $n patches onto $(git rev-parse --short "$base") in $tree (branch $SERIES_BRANCH)"
printf '%s\n' "$tree"
