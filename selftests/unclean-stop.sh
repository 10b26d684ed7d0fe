#!/bin/bash
# md_unclean_stop.sh over two boots of the same six member images:
#   selftests/unclean-stop.sh ARCH KERNEL INITRD LABEL TREE
# The first boot must reset itself (sysrq-b) under writes; the second
# assembles, resyncs and verifies. Prints PASS/FAIL lines labelled LABEL
# (selftests/count.py for the second boot's results); exits non-zero if
# any failed.
set -uo pipefail
. "$(dirname "$0")/../ci/lib.sh"

arch=${1:?usage: unclean-stop.sh ARCH KERNEL INITRD LABEL TREE}
img=${2:?}; initrd=${3:?}; label=${4:?}; tree=${5:?}
d=$MDS_OUT/disks-unclean-$label
l1=$MDS_OUT/logs/$label-unclean-1.log
l2=$MDS_OUT/logs/$label-unclean-2.log
env=(MDS_KEEP_DISKS="$d" MDS_DISK_SERIAL=mdcrash MDS_DISKS="64M 64M 64M 64M 64M 64M"
	MDS_CMDLINE="mdtest.extended=drivers/md:md_unclean_stop.sh ${MDS_CMDLINE:-}")
rm -rf "$d"
trap 'rm -rf "$d"' EXIT
if env "${env[@]}" MDS_EXPECT_RESET=1 "$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" \
	"$l1" kselftest; then
	echo "PASS guest-$label unclean stop: first boot reset itself under writes"
else
	echo "FAIL guest-$label unclean stop: first boot reset itself under writes"
	exit 1
fi
rc=0
if env "${env[@]}" "$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "$l2" kselftest; then
	echo "PASS guest-$label unclean stop: second boot, no splat, clean power-off"
else
	echo "FAIL guest-$label unclean stop: second boot, no splat, clean power-off"
	rc=1
fi
out=$("$MDS_ROOT/selftests/count.py" "$label" "$l2" "$tree" --no-kunit \
	--must-run drivers/md/md_unclean_stop.sh)
printf '%s\n' "$out"
grep -q '^FAIL' <<<"$out" && rc=1
exit $rc
