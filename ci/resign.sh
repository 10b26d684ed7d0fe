#!/bin/bash
# Re-sign the applied series as its submitter before 'b4 send':
#   ci/resign.sh "Your Name" you@example.org
# On branch md-series of the kernel tree, every commit gets you as author and
# committer, and the Signed-off-by of this repository's identity becomes
# yours (other trailers stay). Then the b4 branch is prepared again under your
# name. Only do this for work you can certify under the DCO.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
name=${1:?usage: resign.sh NAME EMAIL}
email=${2:?usage: resign.sh NAME EMAIL}
case "$email" in *@*) ;; *) die "'$email' is not an e-mail address" ;; esac
old_name=$(git -C "$MDS_ROOT" config user.name)
old_email=$(git -C "$MDS_ROOT" config user.email)
tree=$(kernel_tree)
cd "$tree"
git checkout -q -f "$SERIES_BRANCH"
export GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email
export OLD_SOB="Signed-off-by: $old_name <$old_email>" NEW_SOB="Signed-off-by: $name <$email>"
# shellcheck disable=SC2016
git rebase -q md-series-base --exec '
	git log -1 --format=%B | awk -v o="$OLD_SOB" -v n="$NEW_SOB" "\$0 == o { \$0 = n } { print }" >.git/resign-msg &&
	git commit -q --amend --reset-author -F .git/resign-msg && rm -f .git/resign-msg'
git log --format='%h %an <%ae> %s' md-series-base..
MDS_SIGNER_NAME=$name MDS_SIGNER_EMAIL=$email "$MDS_ROOT/ci/b4-prep.sh"
