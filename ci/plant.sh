#!/bin/bash
# ci/plant.sh NAME...: plant a defect in the series and check that the test
# meant to catch it does. ci/plants/NAME.diff is a diff against the series'
# last patch, after a header of '# key: value' lines:
#   # plant: what the defect is (one line)
#   # arch: x86_64 or arm64 (the guest it runs in)
#   # test: the kselftest script (tools/testing/selftests/drivers/md/)
#   # env: words for the guest's command line (the test's knobs), optional
#   # expect: an extended regex the guest log must match (one per line, all)
# For each NAME: a worktree of the series (KERNEL_SRC, a checkout of the
# series, or the tree ci/apply.sh prepares) with the diff applied, the
# guest kernel of that arch built into $MDS_OUT/build/plant-ARCH (one dir
# per arch, so a second plant rebuilds only what differs), its initramfs,
# and one guest run of the test alone. CAUGHT when the test fails ("not
# ok ... selftests: drivers/md: TEST") and the guest log (KTAP nested
# under the runner: a case is "# not ok N", a message "# # ...") matches
# every expect line; MISSED
# otherwise. Exit 1 if any plant was missed or could not be run.
# Not part of CI's run (a kernel build and a guest run per plant: on two
# cores 5 to 10 minutes for an arch's first build, 1 to 5 for a plant after
# it); the cover letter's "planted" results come from it:
#   ci/plant.sh $(ls ci/plants | sed 's/\.diff$//')
set -uo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: ci/plant.sh NAME... (ci/plants/NAME.diff)"
if [ -n "${KERNEL_SRC:-}" ]; then
	src=$KERNEL_SRC
else
	src=$("$MDS_ROOT/ci/apply.sh") || die "cannot prepare the series' tree"
fi
head=$(git -C "$src" rev-parse HEAD) || die "$src is not a git tree"
# field KEY: the value(s) of '# KEY: ' in the header of $diff
field() { sed -n "s/^# $1: //p" "$diff"; }
missed=0
for name in "$@"; do
	diff=$MDS_ROOT/ci/plants/$name.diff
	[ -f "$diff" ] || { echo "MISSED $name: no $diff"; missed=1; continue; }
	arch=$(field arch); test=$(field test); env=$(field env)
	mapfile -t expects < <(field expect)
	[ -n "$arch" ] && [ -n "$test" ] && [ ${#expects[@]} -gt 0 ] ||
		{ echo "MISSED $name: the header needs arch, test and expect"; missed=1; continue; }
	wt=$MDS_OUT/plant-tree
	git -C "$src" worktree remove -f "$wt" >/dev/null 2>&1
	rm -rf "$wt"
	git -C "$src" worktree add -q --detach "$wt" "$head" || die "git worktree add"
	if ! git -C "$wt" apply "$diff"; then
		echo "MISSED $name: the diff does not apply to the series"
		missed=1
		continue
	fi
	bdir=$MDS_OUT/build/plant-$arch
	log "plant $name: building the $arch guest kernel"
	if ! "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$bdir" "$wt" >"$MDS_OUT/plant-$name.build.log" 2>&1; then
		echo "MISSED $name: the build failed ($MDS_OUT/plant-$name.build.log)"
		missed=1
		continue
	fi
	initrd=$MDS_OUT/images/plant-$arch.cpio
	mkdir -p "$MDS_OUT/images" "$MDS_OUT/logs"
	"$MDS_ROOT/selftests/mkinitramfs.sh" "$arch" "$wt" "$initrd" "$bdir/modroot" >/dev/null ||
		{ echo "MISSED $name: no initramfs"; missed=1; continue; }
	logf=$MDS_OUT/logs/plant-$name.log
	log "plant $name: $test in the $arch guest"
	MDS_CMDLINE="mdtest.only=drivers/md:$test${env:+ $env}" \
		"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$bdir/kernel.img" "$initrd" "$logf" kselftest \
		>"$MDS_OUT/plant-$name.run" 2>&1
	guest=$?
	ok=1
	grep -aqE "^not ok [0-9]+ selftests: drivers/md: $test" "$logf" ||
		{ echo "  $name: $test did not fail"; ok=0; }
	for e in "${expects[@]}"; do
		grep -aEq -- "$e" "$logf" || { echo "  $name: no line matches: $e"; ok=0; }
	done
	# a failing test fails the guest run as well; say how it ended
	[ $guest = 0 ] || echo "  $name: guest: $(head -n 1 "$MDS_OUT/plant-$name.run")"
	if [ $ok = 1 ]; then
		echo "CAUGHT $name: $(field plant)"
		grep -aE '^(# )?not ok ' "$logf" | sed 's/^/  /'
	else
		echo "MISSED $name: $(field plant) ($logf)"
		missed=1
	fi
done
git -C "$src" worktree remove -f "$MDS_OUT/plant-tree" >/dev/null 2>&1
exit $missed
