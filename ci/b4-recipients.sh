#!/bin/bash
# To: or Cc: for one patch (on stdin), as b4 asks for them with
# --auto-to-cc: the kernel tree's get_maintainer.pl, as b4 runs it by
# default, less the DEVICE-MAPPER entry (its maintainers and dm-devel)
# unless the patch touches device-mapper's own files. MAINTAINERS gives
# that entry drivers/md/Kconfig and drivers/md/Makefile, which md's
# patches touch for md's own options.
#   ci/b4-recipients.sh to|cc      (run from the kernel tree's top)
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
mode=${1:?usage: b4-recipients.sh to|cc}
case "$mode" in
to) role=--nol ;;
cc) role=--nom ;;
*) echo "usage: b4-recipients.sh to|cc" >&2; exit 2 ;;
esac
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.dm"' EXIT
cat >"$tmp"
gm=(scripts/get_maintainer.pl --nogit --nogit-fallback --nogit-chief-penguins --norolestats)
if grep -qE "$MDS_DM_FILES_ERE" "$tmp"; then
	"${gm[@]}" "$role" "$tmp" 2>/dev/null
	exit
fi
# the DEVICE-MAPPER entry's maintainers (M:) and list (L:), as
# get_maintainer.pl prints them
awk '/^DEVICE-MAPPER  \(LVM\)$/ { e = 1; next } e && /^$/ { exit }
     e && /^[ML]:\t/ { sub(/^[ML]:\t/, ""); sub(/ \(.*$/, ""); print }' MAINTAINERS >"$tmp.dm"
[ -s "$tmp.dm" ] || { echo "b4-recipients.sh: no DEVICE-MAPPER entry in MAINTAINERS" >&2; exit 1; }
"${gm[@]}" "$role" "$tmp" 2>/dev/null | grep -vxF -f "$tmp.dm" || true
