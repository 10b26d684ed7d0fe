#!/bin/bash
# Re-sign the applied series as its submitter before 'b4 send':
#   ci/resign.sh [--old "Old Name <old@example.org>"] "Your Name" you@example.org
# On branch md-series of the kernel tree, every commit of the identity being
# replaced gets you as author, and that identity's Signed-off-by becomes
# yours; you are the committer of every commit. Everything else stays as it
# was: the trees, the author dates, every other line of the messages (other
# trailers included), and each commit's git note (its changelog below '---').
# Then the b4 branch is prepared again under your name. Only do this for work
# you can certify under the DCO.
#
# The identity to replace is read from the commits themselves, not from any
# git config, so it works whatever your local git identity is: the author
# (other than you) who signs off every commit between md-series-base and
# md-series. Commits of other authors keep their author and their own
# Signed-off-by. If more than one identity fits, nothing is changed until
# --old names the one to replace. Run again, it finds nothing to replace.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
usage="usage: resign.sh [--old 'Old Name <old@example.org>'] NAME EMAIL"
old=
while [ $# -gt 0 ]; do
	case "$1" in
	--old) [ $# -ge 2 ] || die "$usage"; old=$2; shift 2 ;;
	--old=*) old=${1#--old=}; shift ;;
	--) shift; break ;;
	-*) die "$usage" ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || die "$usage"
name=$1
email=$2
case "$email" in *@*) ;; *) die "'$email' is not an e-mail address" ;; esac
case "$email$name" in *'<'* | *'>'* | *$'\n'*) die "give the name and the address without '<', '>' or newlines" ;; esac
[ -n "$name" ] || die "$usage"
new="$name <$email>"
lc() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]'; }
[ "$(lc "$email")" != "$(lc "$MDS_PLACEHOLDER_EMAIL")" ] ||
	die "$email is this repository's placeholder address, not a submitter's"

tree=$(kernel_tree)
cd "$tree"
git rev-parse -q --verify refs/tags/md-series-base >/dev/null || die "no tag md-series-base in $tree: run ci/apply.sh first"
tip=$(git rev-parse -q --verify "refs/heads/$SERIES_BRANCH^{commit}") || die "no branch $SERIES_BRANCH in $tree: run ci/apply.sh first"
base=$(git rev-parse "md-series-base^{commit}")
git merge-base --is-ancestor "$base" "$tip" || die "$SERIES_BRANCH is not based on md-series-base"
[ -z "$(git rev-list --merges "$base..$tip")" ] || die "$SERIES_BRANCH has merge commits: re-sign by hand"
commits=$(git rev-list --reverse "$base..$tip")
[ -n "$commits" ] || die "no commits between md-series-base and $SERIES_BRANCH"

# The identity to replace, from the commits themselves: the author, other
# than you, who signs off every commit, as whoever prepared the series does
# (here the placeholder). An author of some commits who does not sign off
# the others is a patch's original author: those commits keep their author
# and that Signed-off-by (yours replaces the preparer's).
if [ -z "$old" ]; then
	total=$(printf '%s\n' "$commits" | grep -c .)
	cands=
	others=
	while read -r cnt ident; do
		ae=${ident##*<}
		ae=${ae%>}
		[ "$(lc "$ae")" != "$(lc "$email")" ] || continue
		signed=$(git log --format='%x01%n%B' "$base..$tip" | awk -v e="<$(lc "$ae")>" '
			/^\001$/ { n++; next }
			tolower($0) ~ /^signed-off-by:/ && index(tolower($0), e) { s[n] = 1 }
			END { for (k in s) c++; print c + 0 }')
		others+=$(printf '%6d  %s (signs off %d of the %d commits)' "$cnt" "$ident" "$signed" "$total")$'\n'
		[ "$signed" != "$total" ] || cands+=$ident$'\n'
	done < <(git log --format='%an <%ae>' "$base..$tip" | sort | uniq -c | sort -rn | sed 's/^ *//')
	case "$(printf '%s' "$cands" | grep -c .)" in
	1)
		old=${cands%$'\n'}
		if [ "$(printf '%s' "$others" | grep -c .)" -gt 1 ]; then
			log "commits by other authors keep their author (commits, author):"
			printf '%s' "$others" | grep -vF "  $old (" >&2 || true
		fi
		;;
	0)
		if [ -z "$others" ]; then
			log "every commit is already authored by $new: nothing to re-sign"
		else
			log "no author other than $new signs off every commit: nothing to re-sign (commits, author):"
			printf '%s' "$others" >&2
		fi
		;;
	*) die "more than one author other than $new signs off every commit between md-series-base and $SERIES_BRANCH
(commits, author):
${others%$'\n'}
name the identity to replace: ci/resign.sh --old 'Name <address>' \"$name\" $email" ;;
	esac
fi
old_name=
old_email=
if [ -n "$old" ]; then
	case "$old" in *' <'*@*'>') ;; *) die "--old '$old': give it as 'Name <address>'" ;; esac
	old_name=${old% <*}
	old_email=${old##*<}
	old_email=${old_email%>}
	[ "$(lc "$old_email")" != "$(lc "$email")" ] || die "--old '$old' is the new identity"
	log "replacing $old with $new"
fi

# Each commit again, on the same tree and parent chain, with git commit-tree:
# no checkout, no rebase. (A 'git rebase --exec "git commit --amend"' loses the
# notes even with notes.rewriteRef set: the amend copies the note of the commit
# the rebase just picked, which has none yet; the rebase copies it afterwards
# onto that picked commit, which the amend has replaced.) The notes are copied
# explicitly instead.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
# resign_commit COMMIT PARENT: COMMIT again on PARENT, re-signed; prints its id
resign_commit() {
	local c=$1 an ae ad
	# the message byte for byte: everything after the header's blank line
	git cat-file commit "$c" | sed '1,/^$/d' >"$tmp/msg"
	# the old identity's Signed-off-by becomes the new one's (once)
	awk -v oe="<$(lc "$old_email")>" -v ne="<$(lc "$email")>" -v sob="Signed-off-by: $new" '
		{ line[++n] = $0; l = tolower($0) }
		l ~ /^signed-off-by:/ && index(l, ne) { have = 1 }
		END {
			for (i = 1; i <= n; i++) {
				l = tolower(line[i])
				if (l ~ /^signed-off-by:/ && index(l, oe)) {
					if (have) continue
					line[i] = sob
					have = 1
				}
				print line[i]
			}
		}' "$tmp/msg" >"$tmp/msg.new"
	# awk ends the last line with a newline: keep the original ending
	if [ -n "$(tail -c1 "$tmp/msg")" ]; then
		head -c -1 "$tmp/msg.new" >"$tmp/msg"
	else
		mv "$tmp/msg.new" "$tmp/msg"
	fi
	{ read -r an; read -r ae; read -r ad; } < <(git show -s --date=raw --format='%an%n%ae%n%ad' "$c")
	if [ "$(lc "$ae")" = "$(lc "$old_email")" ]; then
		an=$name
		ae=$email
	fi
	GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
		git commit-tree "$c^{tree}" -p "$2" -F "$tmp/msg"
}
newtip=$tip
if [ -n "$old" ]; then
	newtip=$base
	for c in $commits; do
		newtip=$(resign_commit "$c" "$newtip")
		if git notes --ref=refs/notes/commits list "$c" >/dev/null 2>&1; then
			git notes --ref=refs/notes/commits copy -f "$c" "$newtip"
		fi
	done
fi

# Check the result before the branch moves to it.
if [ -n "$old" ]; then
	left=$(identity_commits "$old_name" "$old_email" "$base..$newtip")
	[ -z "$left" ] || die "commits that still carry $old as author or in a Signed-off-by (branch not changed):
$left"
fi
left=$(placeholder_commits "$base..$newtip")
[ -z "$left" ] || die "commits that still carry the placeholder identity $MDS_PLACEHOLDER_NAME <$MDS_PLACEHOLDER_EMAIL> (branch not changed):
$left
re-sign them as well (--old), or by hand"
n_old=$(git notes --ref=refs/notes/commits list | awk '{ print $2 }' | grep -cxF -f <(git rev-list "$base..$tip") || true)
n_new=$(git notes --ref=refs/notes/commits list | awk '{ print $2 }' | grep -cxF -f <(git rev-list "$base..$newtip") || true)
[ "$n_old" = "$n_new" ] || die "$n_old commits had a note, $n_new have one now (branch not changed)"

if [ "$newtip" != "$tip" ]; then
	git update-ref -m "ci/resign.sh: re-signed as $new" "refs/heads/$SERIES_BRANCH" "$newtip" "$tip"
	log "$SERIES_BRANCH re-signed as $new (was $(git rev-parse --short "$tip"); $n_new notes kept)"
else
	log "$SERIES_BRANCH unchanged"
fi
git log --format='%h %an <%ae> %s' "$base..$SERIES_BRANCH"
# the per-topic postings first: b4-prep.sh's send guard looks at them too
if [ -n "$(git for-each-ref --count=1 --format=x 'refs/heads/b4/topic-*')" ] ||
	[ "${MDS_B4_TOPICS:-0}" = 1 ]; then
	MDS_SIGNER_NAME=$name MDS_SIGNER_EMAIL=$email "$MDS_ROOT/ci/b4-topics.sh" >&2 ||
		die "ci/b4-topics.sh failed on the re-signed series"
fi
MDS_SIGNER_NAME=$name MDS_SIGNER_EMAIL=$email "$MDS_ROOT/ci/b4-prep.sh"
