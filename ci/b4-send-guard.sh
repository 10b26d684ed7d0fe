#!/bin/bash
# The kernel tree's mail transport (sendemail.sendmailCmd) while its b4
# branch carries this repository's placeholder identity; ci/b4-prep.sh puts
# it there and takes it away again once the branch is re-signed
# (ci/resign.sh).
#
# b4 (0.16) has no pre-send hook. The transport is the one program b4 runs
# on a real 'b4 send' and never for 'b4 send -o DIR' or '--dry-run': b4 calls
# it with each message on stdin, after its prompts and before any mail
# leaves, and no network is touched on the way (a configured sendmailCmd
# takes precedence over sendemail.smtpServer and over b4's web endpoint,
# unless 'b4 send --send-web' is given). A failure here stops the send; b4
# prints "Error running <this script> ...: <what it printed>".
#
# It refuses while any commit between md-series-base and the branch being
# sent carries the placeholder as author or in a Signed-off-by, or the
# message itself names it; and it refuses after re-signing too, since it is
# not a transport: ci/b4-prep.sh (which ci/resign.sh runs) hands sending
# back to the submitter's own configuration.
#
# With --whole-series (the sendmailCmd of branch b4/md-series only, set by
# ci/b4-prep.sh) it always refuses: that branch is the whole series as one
# posting, for the checks; the postings are sent one per topic.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
whole=0
[ "${1:-}" = --whole-series ] && whole=1
msg=$(cat)
placeholder="$MDS_PLACEHOLDER_NAME <$MDS_PLACEHOLDER_EMAIL>"
why=
if git rev-parse -q --verify refs/tags/md-series-base >/dev/null 2>&1; then
	left=$(placeholder_commits md-series-base..HEAD)
	[ -z "$left" ] || why="$(printf '%s\n' "$left" | grep -c .) commits between md-series-base and $(git symbolic-ref -q --short HEAD || echo HEAD) carry it (author or Signed-off-by), such as
$(sed -n 1,3p <<<"$left")"
fi
# (grep reads a here-string: under pipefail, a writer cut off by 'grep -q'
# would make the test false)
if grep -qiF -e "$MDS_PLACEHOLDER_EMAIL" -e "$MDS_PLACEHOLDER_NAME" <<<"$msg"; then
	why="${why:+$why
}the message itself names it ($(sed -n '/^Subject: /{s///p;q}' <<<"$msg"))"
fi
if [ -n "$why" ]; then
	printf '%s\n' "md-series send guard: refusing to send: this is the placeholder identity $placeholder," \
		"not a person's. $why" \
		"Re-sign the series as yourself first: ci/resign.sh \"Your Name\" you@example.org" >&2
	[ $whole = 0 ] && exit 1
fi
if [ $whole = 1 ]; then
	printf '%s\n' "md-series send guard: refusing to send b4/md-series: it is the whole series as one posting," \
		"prepared for the checks, and is never sent. Send the per-topic postings," \
		"from the b4/topic-* branches in the order of ci/postings/topics (README, re-signing)." >&2
	exit 1
fi
printf '%s\n' "md-series send guard: refusing to send: the branch no longer carries the placeholder identity," \
	"but this tree's sendemail.sendmailCmd is still this guard, not a transport." \
	"Run ci/b4-prep.sh (ci/resign.sh runs it) to hand sending back to your own configuration." >&2
exit 1
