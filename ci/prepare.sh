#!/bin/bash
# The main job: install what is needed, apply the series onto the base (the
# Debian 7.3.4 tree, or KERNEL_SRC=/path/to/linux), and prepare it for b4.
# Prints the tree; the mails 'b4 send' would send are in out/b4/mails (the
# whole series) and out/b4-topics/NAME (one posting per topic).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" = 0 ]; then
	"$MDS_ROOT/ci/setup-host.sh"
fi
tree=$("$MDS_ROOT/ci/apply.sh")
"$MDS_ROOT/ci/b4-prep.sh"
"$MDS_ROOT/ci/b4-topics.sh" >&2
log "series applied in $tree on branch $SERIES_BRANCH; b4 branch b4/md-series; mails in $MDS_OUT/b4/mails"
log "one posting per topic: branches b4/topic-NAME, mails in $MDS_OUT/b4-topics/NAME (send each with 'b4 send' on its branch, in the order of ci/postings/topics)"
printf '%s\n' "$tree"
