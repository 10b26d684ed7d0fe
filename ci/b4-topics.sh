#!/bin/bash
# One b4 posting per topic, prepared from the one ordered series (CI applies
# and checks that whole): ci/postings/topics names each topic's patches,
# ci/postings/NAME.txt its cover letter. For each topic, a branch
# b4/topic-NAME that forks from v7.3.4 with exactly the postings it
# declares (their commits of the series, picked in order: so its mails'
# index lines and line numbers are those of the tree a maintainer applies
# them to), enrolled with 'b4 prep -e' there, with the topic's patches (and
# their notes below '---', as ci/b4-prep.sh does), its cover letter, its
# subject prefix, To/Cc from get_maintainer.pl for its own patches
# (--auto-to-cc through ci/b4-recipients.sh: device-mapper's entry only
# where a patch touches device-mapper), and its prerequisites declared with 'b4 prep
# --edit-deps': the postings the topics file names for it (DEPS), each by its
# b4 change-id ('change-id: ID:v1', which stays valid across versions), and
# every patch of them as 'patch-id:' (git patch-id --stable, what 'b4 send'
# writes as prerequisite-patch-id once it has sent them), and, on the
# Debian base, 'base-commit: v7.3.4', the release a maintainer can fetch, instead of the local import (b4_cover_template). The mails go to
# $MDS_OUT/b4-topics/NAME (b4 send --no-sign -o; nothing is sent).
#
# Then the checks a maintainer's 'b4 shazam' makes: in a scratch worktree at
# the base, 'git am' the mails of each posting after those of exactly its
# declared prerequisites: each must apply. And all postings in the order of
# the series: the tree after each must be the series' tree at the topic's
# last patch (so the per-patch build checks of those commits hold for the
# postings). Also: no mail names the local base commit, every cover letter
# names v7.3.4, one prerequisite-change-id line per prerequisite posting and
# as many prerequisite-patch-id lines as those postings have patches.
# Prints PASS/FAIL lines; exits non-zero on a FAIL.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
B4=$MDS_CACHE/venv/bin/b4
[ -x "$B4" ] || die "b4 not installed: run ci/setup-host.sh"
PUBLIC_BASE=$MDS_PUBLIC_BASE
TOPICS=${MDS_TOPICS:-$MDS_ROOT/ci/postings/topics}
tree=$(kernel_tree)
out=$MDS_OUT/b4-topics
rm -rf "$out"
mkdir -p "$out"
cd "$tree" || exit 1
rc=0
pass() { echo "PASS b4-topics $*"; }
fail() { echo "FAIL b4-topics $*"; rc=1; }

name=${MDS_SIGNER_NAME:-$(git -C "$MDS_ROOT" config user.name || echo md-series)}
email=${MDS_SIGNER_EMAIL:-$(git -C "$MDS_ROOT" config user.email || echo md-series@localhost)}
git config user.name "$name"
git config user.email "$email"
git config b4.prep-cover-strategy commit
if ! base_has_history "$tree" md-series-base; then
	git config b4.prep-perpatch-check-cmd "./scripts/checkpatch.pl -q --terse --no-summary --mailback --showfile --ignore $CHECKPATCH_HISTORYLESS_IGNORE"
fi
# the per-topic cover letters are made from cover-letter.txt
if stale=$(cd "$MDS_ROOT" && python3 ci/postings/make.py --check); then
	pass "cover letters: ci/postings/*.txt match cover-letter.txt"
else
	fail "cover letters: $stale"
fi
b4_cover_template "$tree" "$out/cover-template"
base=$(git rev-parse md-series-base) || die "no md-series-base in $tree"
mapfile -t commits < <(git rev-list --reverse "md-series-base..$SERIES_BRANCH")

# an editor for b4 that writes FILE over what b4 gives it
editor() { printf '#!/bin/sh\ncat "%s" >"$1"\n' "$1" >"$out/editor"; chmod +x "$out/editor"; }

# deps_of DEPS: the topics file's DEPS column as a list ('-': none)
deps_of() { [ "${1:--}" = - ] || echo "${1//,/ }"; }
# the fork of each set of prerequisites, made once
declare -A t_cid t_ids t_first t_last fork_of
while read -r topic first last prefix cid deps; do
	case "$topic" in ''|'#'*) continue ;; esac
	prefix=${prefix//_/ }
	t_cid[$topic]=$cid t_first[$topic]=$first t_last[$topic]=$last
	key=${deps:--}
	deps=$(deps_of "$deps")
	prereq_ids=()
	ndeps=0
	for d in $deps; do
		[ -n "${t_ids[$d]:-}" ] || { fail "$topic: prerequisite $d is not a posting before it"; continue 2; }
		read -ra ids <<<"${t_ids[$d]}"
		prereq_ids+=("${ids[@]}")
		ndeps=$((ndeps + 1))
	done
	# the fork: v7.3.4 and the commits of the declared postings
	if [ -z "${fork_of[$key]:-}" ]; then
		git checkout -q -f --detach "$base" || { fail "$topic: no checkout of the base"; continue; }
		ok=1
		for d in $deps; do
			for ((i = ${t_first[$d]} - 1; i < ${t_last[$d]}; i++)); do
				git cherry-pick --allow-empty "${commits[$i]}" >/dev/null 2>&1 || { ok=0; break 2; }
			done
		done
		[ $ok = 1 ] || { git cherry-pick --abort 2>/dev/null; fail "$topic: its prerequisites do not pick onto the base"; continue; }
		fork_of[$key]=$(git rev-parse HEAD)
	fi
	fork=${fork_of[$key]}
	git checkout -q -f -B "b4/topic-$topic" "$fork" || { fail "$topic: no branch"; continue; }
	"$B4" -q prep -e "$fork" >"$out/$topic.prep.log" 2>&1 ||
		{ fail "$topic: b4 prep -e failed: $(tail -n 2 "$out/$topic.prep.log")"; continue; }
	# the posting's own change-id (b4 made a new one): in the tracking
	# data of the cover letter commit, which is the branch's tip here
	git log -1 --format=%B | sed -E "s/^(  *\"change-id\": )\"[^\"]*\"/\1\"$cid\"/" |
		git commit -q --amend --allow-empty --cleanup=verbatim -F -
	ok=1
	for ((i = first - 1; i < last; i++)); do
		c=${commits[$i]}
		git cherry-pick --allow-empty "$c" >/dev/null 2>&1 || { ok=0; break; }
		if n=$(git notes show "$c" 2>/dev/null) && [ -n "$n" ]; then
			printf '%s\n---\n%s\n' "$(git log -1 --format=%B "$c")" "$n" |
				git commit -q --amend --cleanup=verbatim -F -
		fi
	done
	[ $ok = 1 ] || { git cherry-pick --abort 2>/dev/null; fail "$topic: cherry-pick failed"; continue; }
	editor "$MDS_ROOT/ci/postings/$topic.txt"
	GIT_EDITOR=$out/editor EDITOR=$out/editor "$B4" -q prep --edit-cover >/dev/null 2>&1 ||
		{ fail "$topic: b4 prep --edit-cover failed"; continue; }
	{
		for d in $deps; do echo "change-id: ${t_cid[$d]}:v1"; done
		for p in "${prereq_ids[@]}"; do echo "patch-id: $p"; done
	} >"$out/$topic.deps"
	editor "$out/$topic.deps"
	GIT_EDITOR=$out/editor EDITOR=$out/editor "$B4" -q prep --edit-deps >/dev/null 2>&1 ||
		{ fail "$topic: b4 prep --edit-deps failed"; continue; }
	if [ "$prefix" != PATCH ]; then
		"$B4" -q prep --set-prefixes "${prefix% PATCH}" >/dev/null 2>&1 ||
			{ fail "$topic: b4 prep --set-prefixes failed"; continue; }
	fi
	b4_auto_to_cc "$B4" -q >"$out/$topic.cc.log" 2>&1 ||
		{ fail "$topic: b4 prep --auto-to-cc failed"; continue; }
	b4_write_mails "$B4" --no-sign -o "$out/$topic" >"$out/$topic.send.log" 2>&1 ||
		{ fail "$topic: b4 send -o failed: $(tail -n 3 "$out/$topic.send.log")"; continue; }
	npatch=$((last - first + 1))
	nmail=$(ls "$out/$topic" | wc -l)
	cover=$(ls "$out/$topic"/* | head -n 1)
	[ "$nmail" = $((npatch + 1)) ] || fail "$topic: $nmail mails for $npatch patches and a cover letter"
	grep -q "^base-commit: $PUBLIC_BASE\$" "$cover" || fail "$topic: the cover letter names no base-commit: $PUBLIC_BASE"
	want=${#prereq_ids[@]}
	got=$(grep -c '^prerequisite-patch-id: ' "$cover")
	[ "$got" = "$want" ] || fail "$topic: $got prerequisite-patch-id lines, $want prerequisite patches"
	got=$(grep -c '^prerequisite-change-id: ' "$cover")
	[ "$got" = "$ndeps" ] || fail "$topic: $got prerequisite-change-id lines, $ndeps prerequisite postings"
	! grep -lq "$base" "$out/$topic"/* || fail "$topic: a mail names the local base commit ${base:0:12}"
	! grep -lq "$fork" "$out/$topic"/* || fail "$topic: a mail names the local fork commit ${fork:0:12}"
	if [ "$prefix" != PATCH ]; then
		grep -qE "^Subject: \[[^]]*${prefix% PATCH}" "$cover" || fail "$topic: the subject has no ${prefix% PATCH}"
	fi
	grep -q "^change-id: $cid\$" "$cover" || fail "$topic: the cover letter's change-id is not $cid"
	grep -qi 'linux-raid@vger.kernel.org' "$cover" || fail "$topic: not addressed to linux-raid"
	# device-mapper's people only where a patch touches device-mapper
	if ! cat "$out/$topic"/* | grep -qE "$MDS_DM_FILES_ERE" &&
	   grep -qiE '^(To|Cc):.*(dm-devel@|snitzer@)|^ .*(dm-devel@|snitzer@)' "$out/$topic"/*; then
		fail "$topic: device-mapper's maintainers or list addressed, no device-mapper file touched"
	fi
	log "b4 topic $topic: $nmail mails, prerequisites ${deps:-none} ($want patches), Cc $(grep -m1 -i '^Cc:' "$cover" | cut -c1-100)"
	t_ids[$topic]=
	for ((i = first - 1; i < last; i++)); do
		t_ids[$topic]+="$(git show "${commits[$i]}" | git patch-id --stable | cut -d' ' -f1) "
	done
done <"$TOPICS"
git checkout -q -f "$SERIES_BRANCH"

# am_posting NAME: git am NAME's mails (not its cover letter) in $wt
am_posting() {
	local m
	[ -d "$out/$1" ] || { echo "no mails for $1" >"$out/$1.am.log"; return 1; }
	for m in $(ls "$out/$1"/* | tail -n +2); do
		git -C "$wt" am -q --keep-cr "$m" >"$out/$1.am.log" 2>&1 ||
			{ git -C "$wt" am --abort >/dev/null 2>&1; return 1; }
	done
}
# MDS_B4_APPLY_CHECK=0 leaves the apply checks out (ci/resign-check.sh,
# which is about identities; the b4 step of ci/test.sh runs them)
[ "${MDS_B4_APPLY_CHECK:-1}" = 0 ] && exit $rc
wt=$out/worktree
git worktree remove --force "$wt" >/dev/null 2>&1
git worktree add -q --detach "$wt" "$base" || die "no worktree at the base"
# each posting applies with git am on the base after exactly the postings
# it declares (the state after a set of prerequisites is kept for the
# postings that declare the same set)
declare -A after
nt=0 np=0
while read -r topic first last prefix cid deps; do
	case "$topic" in ''|'#'*) continue ;; esac
	nt=$((nt + 1))
	key=${deps:--}
	deps=$(deps_of "$deps")
	ok=1
	if [ -n "${after[$key]:-}" ]; then
		git -C "$wt" checkout -q -f --detach "${after[$key]}"
	else
		git -C "$wt" checkout -q -f --detach "$base"
		for d in $deps; do
			am_posting "$d" || { ok=0; break; }
		done
		[ $ok = 1 ] && after[$key]=$(git -C "$wt" rev-parse HEAD)
	fi
	[ $ok = 1 ] && { d=$topic; am_posting "$topic" || ok=0; }
	if [ $ok = 1 ]; then
		np=$((np + 1))
		pass "$topic: patches $first-$last apply on v7.3.4 after exactly its prerequisites (${deps:-none})"
	else
		fail "$topic: does not apply on v7.3.4 after its prerequisites (${deps:-none}): $d: $(tail -n 2 "$out/$d.am.log" | tr '\n' ' ')"
	fi
done <"$TOPICS"
[ "$np" -gt 0 ] && [ "$np" = "$nt" ] || fail "$np of $nt postings shown to apply after exactly their prerequisites"
# all postings in the order of the series give the series' tree at each
# posting's last patch
git -C "$wt" checkout -q -f --detach "$base"
applied=()
while read -r topic first last prefix cid deps; do
	case "$topic" in ''|'#'*) continue ;; esac
	ok=1
	am_posting "$topic" || ok=0
	if [ $ok = 0 ]; then
		fail "$topic: does not apply with git am after ${applied[*]:-nothing}: $(tail -n 2 "$out/$topic.am.log" | tr '\n' ' ')"
		break
	elif [ "$(git -C "$wt" rev-parse "HEAD^{tree}")" != "$(git rev-parse "${commits[$((last - 1))]}^{tree}")" ]; then
		fail "$topic: applied after ${applied[*]:-nothing}, the tree differs from the series at patch $last"
		break
	else
		pass "$topic: in the series' order, after ${applied[*]:-the base alone}, tree = series at patch $last"
	fi
	applied+=("$topic")
done <"$TOPICS"
git worktree remove --force "$wt" >/dev/null 2>&1
exit $rc
