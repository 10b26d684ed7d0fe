#!/bin/bash
# Prepare the applied series for 'b4 send': a b4/md-series branch copied from
# md-series, enrolled with 'b4 prep -e', the cover letter from
# cover-letter.txt, To/Cc from the tree's get_maintainer.pl (--auto-to-cc),
# 'b4 prep --check' clean, no failing preflight check, and the mails written
# by 'b4 send --no-sign -o' to $MDS_OUT/b4-mails.
#
# While the b4 branch carries this repository's placeholder identity, a real
# 'b4 send' is refused: the tree's sendemail.sendmailCmd is
# ci/b4-send-guard.sh (b4 has no pre-send hook; see that script). Once the
# branch is re-signed (ci/resign.sh runs this again), the guard is taken away
# and the tree's own sendemail.sendmailCmd, if it had one, is put back.
#
# MDS_B4_CHECK=0 leaves out 'b4 prep --check' (checkpatch on every patch,
# about two minutes) and the pre-flight check that asks for it: for
# ci/resign-check.sh, which is about identities; the b4 step of ci/test.sh
# runs it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
B4=$MDS_CACHE/venv/bin/b4
[ -x "$B4" ] || die "b4 not installed: run ci/setup-host.sh"
tree=$(kernel_tree)
cd "$tree"
# who sends: the submitter (ci/resign.sh sets these) or this repository's identity
name=${MDS_SIGNER_NAME:-$(git -C "$MDS_ROOT" config user.name || echo md-series)}
email=${MDS_SIGNER_EMAIL:-$(git -C "$MDS_ROOT" config user.email || echo md-series@localhost)}
git config user.name "$name"
git config user.email "$email"
git config b4.prep-cover-strategy commit
# On a base without history (the Debian tarball) checkpatch cannot resolve
# upstream commit ids, and asks of every new file whether MAINTAINERS needs
# updating; ci/check-series.sh answers both (ci/known-commits, get_maintainer.pl).
if ! base_has_history "$tree" md-series-base; then
	git config b4.prep-perpatch-check-cmd "./scripts/checkpatch.pl -q --terse --no-summary --mailback --showfile --ignore $CHECKPATCH_HISTORYLESS_IGNORE"
else
	git config --unset b4.prep-perpatch-check-cmd || true
fi

mkdir -p "$MDS_OUT/b4"
b4_cover_template "$tree" "$MDS_OUT/b4/cover-template"
git checkout -q -f "$SERIES_BRANCH"
git branch -D b4/md-series >/dev/null 2>&1 || true
# b4 builds each mail with 'git show', which leaves git notes out. A
# patch's note is its changelog for below '---' (ci/apply.sh keeps it
# there): on the b4 branch, append it to the commit message after a '---'
# line, where b4 and git am both treat it as below the cut.
git checkout -q -b b4/md-series md-series-base
for c in $(git rev-list --reverse "md-series-base..$SERIES_BRANCH"); do
	git cherry-pick --allow-empty "$c" >/dev/null || die "cherry-pick of $c onto b4/md-series failed"
	if n=$(git notes show "$c" 2>/dev/null) && [ -n "$n" ]; then
		printf '%s\n---\n%s\n' "$(git log -1 --format=%B "$c")" "$n" |
			git commit -q --amend --cleanup=verbatim -F -
	fi
done
"$B4" -q prep -e md-series-base >/dev/null

# The cover letter: b4 opens it in the editor; our editor copies cover-letter.txt.
ed=$(mktemp)
printf '#!/bin/sh\ncat "%s" >"$1"\n' "$MDS_ROOT/cover-letter.txt" >"$ed"
chmod +x "$ed"
GIT_EDITOR=$ed EDITOR=$ed "$B4" -q prep --edit-cover >/dev/null
rm -f "$ed"
b4_auto_to_cc "$B4" -q >/dev/null

# The send guard: on while any commit of the b4 branch (the cover letter's
# included) carries the placeholder identity, off otherwise.
guard="'$MDS_ROOT/ci/b4-send-guard.sh'"
guard_keys=sendemail.sendmailcmd
id=$(git config b4.sendemail-identity || git config sendemail.identity || true)
[ -z "$id" ] || guard_keys="$guard_keys sendemail.$id.sendmailcmd"
# a guard of this or of another checkout of this repository
is_guard() { case "$1" in *"/ci/b4-send-guard.sh'" | */ci/b4-send-guard.sh) true ;; *) false ;; esac; }
left=$(placeholder_commits md-series-base..b4/md-series)
# and the per-topic postings' branches (ci/b4-topics.sh), whichever exist
for b in $(git for-each-ref --format='%(refname:short)' 'refs/heads/b4/topic-*'); do
	left=$(printf '%s\n%s\n' "$left" "$(placeholder_commits "md-series-base..$b")" | grep . || true)
done
for k in $guard_keys; do
	cur=$(git config --local "$k" || true)
	if [ -n "$left" ]; then
		# keep the tree's own value, to put back when the guard goes
		[ -z "$cur" ] || is_guard "$cur" || git config --local "mdseries-guard.$k.saved" "$cur"
		git config --local "$k" "$guard"
	elif is_guard "$cur"; then
		if saved=$(git config --local "mdseries-guard.$k.saved"); then
			git config --local "$k" "$saved"
			git config --local --remove-section "mdseries-guard.$k"
		else
			git config --local --unset "$k"
		fi
	fi
done
# b4/md-series is the whole series as one posting, prepared for the checks
# below; it is never sent, whoever signed it. On that branch the tree's
# sendmailCmd is the guard in its --whole-series mode, which always refuses
# (git's includeIf "onbranch:", read by b4 through git config; kept last in
# the config, so that it overrides the values above). The postings go out
# one per topic, from the b4/topic-* branches (README, re-signing).
whole=$(cd "$(git rev-parse --git-common-dir)" && pwd)/md-series-whole-send.cfg
{
	printf '[sendemail]\n\tsendmailCmd = %s --whole-series\n' "$guard"
	[ -z "$id" ] || printf '[sendemail "%s"]\n\tsendmailCmd = %s --whole-series\n' "$id" "$guard"
} >"$whole"
git config --local --remove-section 'includeIf.onbranch:b4/md-series' 2>/dev/null || true
git config --local 'includeIf.onbranch:b4/md-series.path' "$whole"
if [ -n "$left" ]; then
	log "b4: $(printf '%s\n' "$left" | grep -c .) commits carry the placeholder identity $MDS_PLACEHOLDER_NAME <$MDS_PLACEHOLDER_EMAIL>: a real 'b4 send' is refused (ci/b4-send-guard.sh) until ci/resign.sh"
fi

out=$MDS_OUT/b4
mkdir -p "$out"
if [ "${MDS_B4_CHECK:-1}" != 0 ]; then
	"$B4" prep --check >"$out/check.log" 2>&1 || { cat "$out/check.log" >&2; die "b4 prep --check failed"; }
	# its closing line: "Success: N, Warning: N, Error: N"
	if ! grep -qE 'Success: [0-9]+, Warning: 0, Error: 0' "$out/check.log"; then
		cat "$out/check.log" >&2
		die "b4 prep --check reported problems"
	fi
	"$B4" prep --show-info >"$out/info.txt" 2>&1 || die "b4 prep --show-info failed"
	if grep -qE '^preflight-checks-failing: *(yes|True|true|[1-9])' "$out/info.txt"; then
		cat "$out/info.txt" >&2
		die "b4 reports failing preflight checks"
	fi
fi
rm -rf "$out/mails"
b4_write_mails "$B4" --no-sign -o "$out/mails" >"$out/send.log" 2>&1 || { cat "$out/send.log" >&2; die "b4 send -o failed"; }
n=$(ls "$out/mails" | wc -l)
[ "$n" -gt 0 ] || die "b4 send -o wrote no mail"
grep -qi '^To:.*linux-raid@vger.kernel.org\|^Cc:.*linux-raid@vger.kernel.org' "$out/mails/"* ||
	grep -qi 'linux-raid@vger.kernel.org' "$out/mails/"* || die "the mails are not addressed to linux-raid"
git checkout -q -f "$SERIES_BRANCH"
log "b4: $n mails in $out/mails"
