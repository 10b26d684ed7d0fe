#!/bin/bash
# ci/resign.sh as a submitter runs it, on a scratch copy of the applied tree:
#   ci/resign-check.sh
# A cheap clone (git clone --shared, sparse) of branch md-series of the kernel
# tree (KERNEL_SRC, or the cached Debian tree) under $TMPDIR; the tree itself
# and its branches are only read.
#   1. A submitter who forgets ci/resign.sh: ci/b4-prep.sh under their own
#      git identity on the series as applied (the placeholder's), their SMTP
#      server in git config; a real 'b4 send' must then be refused by
#      ci/b4-send-guard.sh, before any network access (no SMTP connection, no
#      web endpoint) and before b4 tags or rerolls anything.
#   2. ci/resign.sh "Test Submitter" submitter@example.org with git config
#      giving that identity everywhere (as on a submitter's machine, not this
#      repository's identity); then every commit has the submitter as author
#      and committer, the same tree, the same message but for the
#      placeholder's Signed-off-by (now the submitter's; every other trailer
#      unchanged) and the same note (the md-linear patch's changelog, "v1: ..."); the b4
#      branch and the mails b4 wrote carry no trace of the placeholder, the
#      mails are from the submitter and the md-linear patch's carries its note; the send
#      guard is gone but for b4/md-series, the whole series in one posting,
#      whose real 'b4 send' is still refused (it is never sent).
#   3. The per-topic postings: a b4/topic-* branch left from before (as
#      ci/prepare.sh leaves them) makes ci/resign.sh prepare every topic
#      again; each b4/topic-* branch and every mail of every posting then
#      carries the submitter and no trace of the placeholder. Also, no
#      script leaves sendemail.smtpserver in the tree's git config.
# Prints a PASS/FAIL line for each part, with '  | ' lines under a FAIL saying
# why; exits non-zero on a failure. MDS_KEEP_SCRATCH=1 keeps the scratch dir.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
B4=$MDS_CACHE/venv/bin/b4
S_NAME="Test Submitter"
S_EMAIL=submitter@example.org
NEW="$S_NAME <$S_EMAIL>"
P_SOB="Signed-off-by: $MDS_PLACEHOLDER_NAME <$MDS_PLACEHOLDER_EMAIL>"
N_SOB="Signed-off-by: $NEW"
NOTE_SUBJECT='md/md-linear: scan the last few members in which_dev()'

failed=0
reasons=()
why() { reasons+=("$*"); }
# report NAME: the PASS/FAIL line of one part, from the reasons gathered
report() {
	if [ ${#reasons[@]} = 0 ]; then
		echo "PASS $1"
	else
		echo "FAIL $1"
		# (no '| head': under pipefail an early exit of the reader fails the writer)
		printf '  | %s\n' "${reasons[@]:0:30}"
		failed=1
	fi
	reasons=()
}
# as_submitter CMD...: git config gives the submitter's identity to every
# repository, this one included, as on a submitter's machine
as_submitter() {
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0="$S_NAME" \
		GIT_CONFIG_KEY_1=user.email GIT_CONFIG_VALUE_1="$S_EMAIL" "$@"
}

src=$(kernel_tree)
src_tip=$(git -C "$src" rev-parse -q --verify "refs/heads/$SERIES_BRANCH") || {
	why "no branch $SERIES_BRANCH in $src (run ci/apply.sh)"
	report resign
	exit 1
}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/md-resign-check.XXXXXX")
if [ "${MDS_KEEP_SCRATCH:-0}" = 1 ]; then
	log "resign-check: scratch kept in $scratch"
else
	trap 'rm -rf "$scratch"' EXIT
fi
tree=$scratch/linux
git clone -q --shared --no-checkout --branch "$SERIES_BRANCH" "$src" "$tree"
git -C "$tree" fetch -q origin '+refs/notes/commits:refs/notes/commits' 2>/dev/null || true
# What the scripts read (scripts/, MAINTAINERS for get_maintainer.pl, the
# top-level directories it looks for, the files the series touches), not the
# 1.3 GB of the whole tree.
git -C "$tree" sparse-checkout set --cone --sparse-index scripts drivers/md \
	tools/testing/selftests/drivers/md Documentation/admin-guide LICENSES \
	arch/um/include fs/ramfs include/uapi/linux/raid init ipc kernel/printk lib/math
git -C "$tree" reset -q --hard "$SERIES_BRANCH"
cd "$tree"
# To/Cc: linux-raid only. get_maintainer.pl on every patch costs a minute
# per b4-prep, and the addresses are not what this checks (the b4 step is).
git config b4.send-auto-to-cmd "sh -c 'cat >/dev/null; echo linux-raid@vger.kernel.org'"
git config b4.send-auto-cc-cmd "sh -c 'cat >/dev/null'"
git rev-parse -q --verify refs/tags/md-series-base >/dev/null || die "no tag md-series-base in $src"
base=$(git rev-parse md-series-base)

# The series before: trees, messages, notes
mkdir -p "$scratch/before" "$scratch/after"
# snapshot DIR REF: one file per commit (in order) of its message and note
snapshot() {
	local i=0 c
	for c in $(git rev-list --reverse "$base..$2"); do
		i=$((i + 1))
		git cat-file commit "$c" | sed '1,/^$/d' >"$1/$i.msg"
		git interpret-trailers --parse <"$1/$i.msg" >"$1/$i.trailers"
		git notes --ref=refs/notes/commits show "$c" >"$1/$i.note" 2>/dev/null || rm -f "$1/$i.note"
		printf '%s %s\n' "$c" "$(git rev-parse "$c^{tree}")" >>"$1/list"
	done
}
snapshot "$scratch/before" "$SERIES_BRANCH"
n=$(wc -l <"$scratch/before/list")
[ -n "$(placeholder_commits "$base..$SERIES_BRANCH")" ] || die "the applied series does not carry the placeholder identity $MDS_PLACEHOLDER_NAME <$MDS_PLACEHOLDER_EMAIL>: is ci/lib.sh's MDS_PLACEHOLDER_* stale?"

# 1. Not re-signed: a real 'b4 send' is refused, before any network access.
# A submitter who runs ci/prepare.sh and forgets ci/resign.sh: ci/b4-prep.sh
# under their own git identity, so that the b4 cover letter is theirs and b4
# has no objection of its own (it refuses to send a branch whose cover-letter
# commit another identity committed, until 'b4 prep --claim').
if ! KERNEL_SRC=$tree MDS_OUT=$scratch/out-unsigned MDS_B4_CHECK=0 \
	as_submitter "$MDS_ROOT/ci/b4-prep.sh" >"$scratch/b4-prep-unsigned.log" 2>&1; then
	why "ci/b4-prep.sh on the series as applied failed:"
	while IFS= read -r l; do why "$l"; done < <(tail -n 10 "$scratch/b4-prep-unsigned.log")
else
	# b4 needs an SMTP server named even to write mails to files: the
	# scripts name one for that command only, not in the tree's config
	v=$(git config --local sendemail.smtpserver || true)
	[ -z "$v" ] || why "ci/b4-prep.sh left sendemail.smtpserver $v in the tree's git config"
	git checkout -q b4/md-series
	# the submitter's own mail server: without the guard, b4 would connect to it
	git config sendemail.smtpserver smtp.example.org
	git config sendemail.smtpserverport 587
	git config sendemail.smtpencryption tls
	b4_tip=$(git rev-parse b4/md-series)
	# --no-sign: no patatt key here, and signing comes before the transport.
	# Enter at b4's prompts (pre-flight checks, "Press Enter to proceed").
	rc=0
	printf '\n\n\n\n\n' | as_submitter timeout 120 "$B4" send --no-sign >"$scratch/send.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		why "'b4 send' on the un-re-signed branch exited 0"
	fi
	if ! grep -q 'md-series send guard: refusing to send: this is the placeholder identity' "$scratch/send.log"; then
		why "'b4 send' (exit $rc) was not refused by ci/b4-send-guard.sh; it printed:"
		while IFS= read -r l; do why "$l"; done < <(grep -v '^ *$' "$scratch/send.log" | tail -n 8)
	fi
	if grep -qE 'Connecting to|web endpoint|Sent [0-9]+ messages|Reflected|Traceback' "$scratch/send.log"; then
		why "'b4 send' went past the guard: $(grep -m1 -E 'Connecting to|web endpoint|Sent [0-9]+ messages|Reflected|Traceback' "$scratch/send.log")"
	fi
	[ "$(git rev-parse b4/md-series)" = "$b4_tip" ] || why "'b4 send' rerolled b4/md-series"
	[ -z "$(git tag -l 'sent/*')" ] || why "'b4 send' tagged $(git tag -l 'sent/*' | paste -sd' ')"
	git checkout -q -f "$SERIES_BRANCH"
fi
report "resign-guard: a real 'b4 send' of the placeholder's series is refused before any network access"

# 2. ci/resign.sh as the submitter. A topic posting prepared before, as
# ci/prepare.sh leaves them, must make it prepare every topic again.
topics=$(grep -cv -e '^#' -e '^$' "$MDS_ROOT/ci/postings/topics")
git branch -f "b4/topic-$(awk '!/^#/ && NF { print $1; exit }' "$MDS_ROOT/ci/postings/topics")" "$SERIES_BRANCH"
if ! KERNEL_SRC=$tree MDS_OUT=$scratch/out MDS_B4_CHECK=0 MDS_B4_APPLY_CHECK=0 \
	as_submitter "$MDS_ROOT/ci/resign.sh" "$S_NAME" "$S_EMAIL" >"$scratch/resign.log" 2>&1; then
	why "ci/resign.sh failed:"
	while IFS= read -r l; do why "$l"; done < <(tail -n 10 "$scratch/resign.log")
	report "resign: ci/resign.sh as $NEW"
	exit 1
fi
snapshot "$scratch/after" "$SERIES_BRANCH"
m=$(wc -l <"$scratch/after/list")
[ "$m" = "$n" ] || why "$n commits before, $m after"
# per commit; each kind of problem once, with how many commits and the first
declare -A kcount=() kfirst=()
korder=()
bad() { # bad KIND EXAMPLE
	if [ -z "${kcount[$1]:-}" ]; then
		kcount[$1]=0
		kfirst[$1]=$2
		korder+=("$1")
	fi
	kcount[$1]=$((kcount[$1] + 1))
}
i=0
while read -r c t; do
	i=$((i + 1))
	read -r c2 t2 < <(sed -n "${i}p" "$scratch/after/list")
	[ -n "${c2:-}" ] || break
	subj=$(git log -1 --format=%s "$c")
	[ "$t2" = "$t" ] || bad "the tree changed" "$subj"
	a=$(git log -1 --format='%an <%ae>' "$c2")
	[ "$a" = "$NEW" ] || bad "author is not $NEW" "$subj: $a"
	a=$(git log -1 --format='%cn <%ce>' "$c2")
	[ "$a" = "$NEW" ] || bad "committer is not $NEW" "$subj: $a"
	# the message: the old one with the placeholder's Signed-off-by replaced
	awk -v o="$P_SOB" -v s="$N_SOB" '$0 == o { $0 = s } { print }' "$scratch/before/$i.msg" >"$scratch/expect.msg"
	if [ -n "$(tail -c1 "$scratch/before/$i.msg")" ]; then truncate -s -1 "$scratch/expect.msg"; fi
	cmp -s "$scratch/expect.msg" "$scratch/after/$i.msg" ||
		bad "the message is not the old one with the placeholder's Signed-off-by made the submitter's" \
			"$subj: $(diff "$scratch/expect.msg" "$scratch/after/$i.msg" | grep '^[<>]' | paste -sd' ' | cut -c1-160)"
	# the trailers (git interpret-trailers --parse): every other one unchanged
	if ! diff -q <(grep -vxF -e "$P_SOB" -e "$N_SOB" "$scratch/before/$i.trailers") \
		<(grep -vxF -e "$P_SOB" -e "$N_SOB" "$scratch/after/$i.trailers") >/dev/null; then
		bad "trailers other than the Signed-off-by changed" "$subj"
	fi
	! grep -qxF "$P_SOB" "$scratch/after/$i.trailers" || bad "the placeholder's Signed-off-by is still there" "$subj"
	[ "$(grep -cxF "$N_SOB" "$scratch/after/$i.trailers" || true)" = 1 ] || bad "not one '$N_SOB'" "$subj"
	# the note
	if [ -f "$scratch/before/$i.note" ] && ! cmp -s "$scratch/before/$i.note" "$scratch/after/$i.note" 2>/dev/null; then
		bad "the git note was lost or changed" "$subj"
	fi
done <"$scratch/before/list"
for k in "${korder[@]}"; do
	why "${kcount[$k]} of $n commits: $k (first: ${kfirst[$k]})"
done
# the md-linear patch's note, by name
p10=$(git log --max-count=1 --format=%H --fixed-strings --grep="$NOTE_SUBJECT" "$base..$SERIES_BRANCH")
if [ -z "$p10" ]; then
	why "no commit '$NOTE_SUBJECT'"
elif ! grep -q '^v1: ' <<<"$(git notes --ref=refs/notes/commits show "$p10" 2>/dev/null)"; then
	why "'$NOTE_SUBJECT' has no 'v1: ' note after ci/resign.sh"
fi
# no trace of the placeholder in md-series or the b4 branch (cover letter included)
for r in "$SERIES_BRANCH" b4/md-series; do
	left=$(git log --format='%h %an <%ae> / %cn <%ce>%n%B' "$base..$r" |
		grep -iF -e "$MDS_PLACEHOLDER_EMAIL" -e "$MDS_PLACEHOLDER_NAME" | sort | uniq -c | sed 's/^ *//; 3q' || true)
	[ -z "$left" ] || why "$r still names the placeholder (times, line): $(paste -sd';' <<<"$left")"
	bad=$(git log --format='%an <%ae>' "$base..$r" | grep -vxF "$NEW" | sort -u | paste -sd, || true)
	[ -z "$bad" ] || why "$r has commits by $bad"
done
# the mails b4 wrote
mails=$scratch/out/b4/mails
nm=$(find "$mails" -name '*.eml' 2>/dev/null | wc -l)
[ "$nm" = $((n + 1)) ] || why "$nm mails in $mails, not $((n + 1)) (cover letter and $n patches)"
if [ "$nm" -gt 0 ]; then
	left=$(grep -liF -e "$MDS_PLACEHOLDER_EMAIL" -e "$MDS_PLACEHOLDER_NAME" "$mails"/*.eml | xargs -r -n1 basename || true)
	[ -z "$left" ] || why "$(grep -c . <<<"$left") of $nm mails name the placeholder (first: $(sed -n 1p <<<"$left"))"
	for f in "$mails"/*.eml; do
		from=$(sed -n '/^From: /{s///p;q}' "$f")
		[ "$from" = "$NEW" ] || why "$(basename "$f"): From: $from"
	done
	# the md-linear patch's mail: its note below the '---'
	f=$(find "$mails" -name '*md-linear-scan-the-last-few-members*.eml' -print -quit)
	if [ -z "$f" ] || [ "$(sed -n '/^---$/,$p' "$f" | grep -c '^v1: ')" = 0 ]; then
		why "the mail of '$NOTE_SUBJECT' has no 'v1: ' note below '---'"
	fi
fi
# the send guard is gone, sending is the submitter's own again
g=$(git config --local sendemail.sendmailcmd || true)
case "$g" in *b4-send-guard.sh*) why "sendemail.sendmailCmd is still $g after ci/resign.sh" ;; esac
# b4/md-series is still never sent: a real 'b4 send' of it is refused by the
# guard's --whole-series mode, before any network access; a topic branch
# has no guard
git checkout -q b4/md-series
rc=0
printf '\n\n\n\n\n' | as_submitter timeout 120 "$B4" send --no-sign >"$scratch/send-whole.log" 2>&1 || rc=$?
[ "$rc" != 0 ] || why "'b4 send' of b4/md-series after ci/resign.sh exited 0"
if ! grep -q 'md-series send guard: refusing to send b4/md-series' "$scratch/send-whole.log"; then
	why "'b4 send' of b4/md-series after ci/resign.sh (exit $rc) was not refused as the whole series; it printed:"
	while IFS= read -r l; do why "$l"; done < <(grep -v '^ *$' "$scratch/send-whole.log" | tail -n 8)
fi
if grep -qE 'Connecting to|web endpoint|Sent [0-9]+ messages|Reflected|Traceback' "$scratch/send-whole.log"; then
	why "'b4 send' of b4/md-series went past the guard: $(grep -m1 -E 'Connecting to|web endpoint|Sent [0-9]+ messages|Reflected|Traceback' "$scratch/send-whole.log")"
fi
[ -z "$(git tag -l 'sent/*')" ] || why "'b4 send' of b4/md-series tagged $(git tag -l 'sent/*' | paste -sd' ')"
t1=$(awk '!/^#/ && NF { print $1; exit }' "$MDS_ROOT/ci/postings/topics")
git checkout -q "b4/topic-$t1"
g=$(git config sendemail.sendmailcmd || true)
case "$g" in *b4-send-guard.sh*) why "on b4/topic-$t1, sendemail.sendmailCmd is $g after ci/resign.sh" ;; esac
git checkout -q -f "$SERIES_BRANCH"
# the real branch was only read
[ "$(git -C "$src" rev-parse "refs/heads/$SERIES_BRANCH")" = "$src_tip" ] ||
	why "$SERIES_BRANCH of $src moved during the check"
report "resign: ci/resign.sh as $NEW ($n commits: author, Signed-off-by, trailers, notes, b4 mails; b4/md-series still refused, the topics not)"

# 3. every per-topic posting prepared again, under the submitter's name
nt=0
while read -r r; do
	nt=$((nt + 1))
	left=$(git log --format='%an <%ae> / %cn <%ce>%n%B' "$base..$r" |
		grep -ciF -e "$MDS_PLACEHOLDER_EMAIL" -e "$MDS_PLACEHOLDER_NAME" || true)
	[ "$left" = 0 ] || why "$r: $left lines name the placeholder"
	bad=$(git log --format='%an <%ae>' "$base..$r" | grep -vxF "$NEW" | sort -u | paste -sd, || true)
	[ -z "$bad" ] || why "$r has commits by $bad"
done < <(git for-each-ref --format='%(refname:short)' 'refs/heads/b4/topic-*')
[ "$nt" = "$topics" ] || why "$nt b4/topic-* branches, $topics topics"
nd=0
for d in "$scratch/out/b4-topics"/*/; do
	[ -d "$d" ] || continue
	nd=$((nd + 1))
	for f in "$d"*; do
		! grep -qiF -e "$MDS_PLACEHOLDER_EMAIL" -e "$MDS_PLACEHOLDER_NAME" "$f" ||
			why "$(basename "$d")/$(basename "$f") names the placeholder"
		from=$(sed -n '/^From: /{s///p;q}' "$f")
		[ "$from" = "$NEW" ] || why "$(basename "$d")/$(basename "$f"): From: $from"
	done
done
[ "$nd" = "$topics" ] || why "mails of $nd postings in $scratch/out/b4-topics, $topics topics"
report "resign-topics: all $topics b4/topic-* branches and their mails re-signed as $NEW"
exit "$failed"
