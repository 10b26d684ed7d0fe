#!/bin/bash
# Upstream's checks on every patch of the applied series, each judged on its
# own patch, as a delta against the patch's parent where it compares (the
# way netdev's NIPA judges: a patch fails only on what it adds). Each check
# is one script in ci/patch-checks/ that runs alone on one patch:
#
#   ci/patch-checks/NAME.sh TREE PARENT COMMIT PATCHFILE OUTDIR
#
# This script only loops over patches and checks. It prints one
# "PASS|FAIL|SKIP <check> <patch>" line per check and patch to stdout
# (details of a failure to stderr), exits non-zero if any failed, and
# leaves the last patch's test kernel in $MDS_OUT/build/<arch>/kernel.img
# (the base's, for the runs against 7.3.4: ci/build-base-kernel.sh).
# MDS_CHECKS="checkpatch trailers" runs only those checks.
#
# For CI's time on two cores (a cold run is about 35 minutes of builds):
#  - every patch builds on i386 allmodconfig (32-bit, KUnit as modules,
#    sparse) and arm64 defconfig with 64K pages and KUnit off; the two
#    x86_64 configs build at the last patch of each posting
#    (ci/postings/topics), judged against the posting before it, which is
#    what a maintainer applies. MDS_X86_EVERY=1 builds them at every patch.
#  - the arm64 build and then checkpatch run beside the other checks, in a
#    worktree of their own ($tree.arm64): one patch's builds are mostly one
#    file (raid5.c), which one make cannot spread over two cores, and
#    checkpatch is one perl process.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

CHECKS=${MDS_CHECKS:-checkpatch trailers fixes-first kdoc build-guests build-x86_64-defconfig \
build-arm64-defconfig-64k build-x86_64-allmodconfig build-i386-allmodconfig sparse cocci}
tree=$(kernel_tree)
base=$(git -C "$tree" rev-parse md-series-base) || die "run ci/apply.sh first"
mapfile -t commits < <(git -C "$tree" rev-list --reverse "$base..$SERIES_BRANCH")
mapfile -t pfiles < <(series_patches)
[ ${#commits[@]} = ${#pfiles[@]} ] || die "branch has ${#commits[@]} commits, series ${#pfiles[@]} patches: run ci/apply.sh"
R=$MDS_OUT/checks
mkdir -p "$R" "$MDS_OUT/images"
failed=0
declare -A took

# the x86_64 builds: at each posting's last patch (or every patch)
TIP_CHECKS="build-x86_64-defconfig build-x86_64-allmodconfig"
declare -A tip
while read -r _ _ last _; do
	tip[$((last - 1))]=1
done < <(grep -v '^#' "$MDS_ROOT/ci/postings/topics")
tip[$((${#commits[@]} - 1))]=1
# the checks that run beside the others, one after the other, in a
# worktree of their own (each checks out the states it needs there)
BG_CHECKS=
for check in build-arm64-defconfig-64k checkpatch; do
	case " $CHECKS " in *" $check "*) BG_CHECKS="$BG_CHECKS $check" ;; esac
done
tree2=$tree.arm64
if [ -n "$BG_CHECKS" ] && ! [ -e "$tree2/.git" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q -f --detach "$tree2" "$base" || die "worktree $tree2"
fi
# report CHECK PATCH RC: the PASS/FAIL/SKIP line of one check
report() {
	local check=$1 p=$2 rc=$3 c=$4
	case $rc in
	0) echo "PASS $check $p" ;;
	2) echo "SKIP $check $p" ;;
	*)
		echo "FAIL $check $p"
		failed=1
		{ cat "$R/$c/$check.txt" 2>/dev/null; tail -n 5 "$R/$c.$check.log"; } |
			head -n 25 | sed "s/^/    $check: /" >&2
		;;
	esac
}

prev=$base
prev_tip=$base
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	p=$(basename "${pfiles[$i]}")
	log "patch $((i + 1))/${#commits[@]}: $p"
	bg=
	if [ -n "$BG_CHECKS" ]; then
		(
			for check in $BG_CHECKS; do
				t=$(date +%s)
				"$MDS_ROOT/ci/patch-checks/$check.sh" "$tree2" "$prev" "$c" \
					"${pfiles[$i]}" "$R/$c" >"$R/$c.$check.log" 2>&1
				echo "$? $(($(date +%s) - t))" >"$R/$c.$check.rc"
			done
		) &
		bg=$!
	fi
	for check in $CHECKS; do
		case " $BG_CHECKS " in *" $check "*) continue ;; esac
		# The test kernels are built where the guests need them, at the
		# last patch (the benchmarks build the base themselves with
		# ci/build-base-kernel.sh); every patch's kernel C is built by the
		# bots' configs, KUnit included (allmodconfig builds the md KUnit
		# suites as modules). A cold cache pays one build per arch.
		if [ "$check" = build-guests ] && [ "$i" != $((${#commits[@]} - 1)) ]; then
			echo "SKIP $check $p (test kernels: the last patch only)"
			continue
		fi
		from=$prev
		case " $TIP_CHECKS " in
		*" $check "*)
			if [ "${MDS_X86_EVERY:-0}" != 1 ]; then
				if [ -z "${tip[$i]:-}" ]; then
					echo "SKIP $check $p (x86_64: at each posting's last patch)"
					continue
				fi
				from=$prev_tip
			fi
			;;
		esac
		t=$(date +%s)
		"$MDS_ROOT/ci/patch-checks/$check.sh" "$tree" "$from" "$c" "${pfiles[$i]}" "$R/$c" \
			>"$R/$c.$check.log" 2>&1
		rc=$?
		took[$check]=$(( ${took[$check]:-0} + $(date +%s) - t ))
		report "$check" "$p" $rc "$c"
	done
	if [ -n "$bg" ]; then
		wait "$bg"
		for check in $BG_CHECKS; do
			read -r rc dt <"$R/$c.$check.rc" 2>/dev/null || { rc=1 dt=0; }
			took[$check]=$(( ${took[$check]:-0} + dt ))
			report "$check" "$p" "$rc" "$c"
		done
	fi
	[ -n "${tip[$i]:-}" ] && prev_tip=$c
	prev=$c
done
git -C "$tree" checkout -q -f "$SERIES_BRANCH"
for arch in x86_64 arm64; do
	img=$R/state/$prev/build-guests/$arch.img
	[ -f "$img" ] && mkdir -p "$MDS_OUT/build/$arch" && cp "$img" "$MDS_OUT/build/$arch/kernel.img"
	if [ -d "${img%.img}.modroot" ]; then
		rm -rf "$MDS_OUT/build/$arch/modroot"
		cp -a "${img%.img}.modroot" "$MDS_OUT/build/$arch/modroot"
	fi
done
# the time of each check, summed over the patches, for ci/test.sh's summary
: >"$MDS_OUT/check-times.txt"
for check in $CHECKS; do
	log "time in $check: ${took[$check]:-0}s"
	printf '%6ds  %s\n' "${took[$check]:-0}" "$check" >>"$MDS_OUT/check-times.txt"
done
exit $failed
