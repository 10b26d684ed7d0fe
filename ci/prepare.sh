#!/bin/bash
# The main job: install what is needed, apply the series onto the base (the
# Debian 7.3.4 tree, or KERNEL_SRC=/path/to/linux), and prepare it for b4.
# Prints the tree; the mails 'b4 send' would send are in out/b4/mails.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" = 0 ]; then
	"$MDS_ROOT/ci/setup-host.sh"
fi
tree=$("$MDS_ROOT/ci/apply.sh")
"$MDS_ROOT/ci/b4-prep.sh"
log "series applied in $tree on branch $SERIES_BRANCH; b4 branch b4/md-series; mails in $MDS_OUT/b4/mails"
printf '%s\n' "$tree"
