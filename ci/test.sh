#!/bin/bash
# The README's test command: every check and test of the series, from nothing.
#   1. host tools (ci/setup-host.sh), the base tree (ci/get-base.sh)
#   2. git am of the series; the export round-trips byte for byte; quilt applies it
#   3. per-patch checks (ci/check-series.sh over ci/patch-checks/*): checkpatch,
#      trailers, fixes first, kernel-doc, the test kernels, the build bots'
#      configs with W=1 and modpost (i386 allmodconfig and arm64-64K
#      defconfig with KUnit off at every patch, x86_64 allmodconfig and
#      defconfig at each posting's last), sparse, coccicheck
#   4. b4: prep --check clean, preflight checks pass, send -o writes the mails;
#      one posting per topic (ci/b4-topics.sh), each applying with git am
#      after its declared prerequisites;
#      ci/resign.sh as a submitter, in a scratch clone of the tree
#      (ci/resign-check.sh): a real 'b4 send' is refused before it, and after
#      it no trace of the placeholder identity is left, other trailers and
#      the notes unchanged
#   5. kunit.py config accepts drivers/md/.kunitconfig (the suites run in the
#      guests; the UML run with the md-linear benchmark is in step 7)
#   6. x86_64 and arm64-64K guests: KUnit (built in) and the md kselftests,
#      then md_unclean_stop.sh over two boots (the first resets itself).
#      The fault cases on the 7.3.4 base: selftests/base-faults.sh (not in
#      CI, for time; results in the issue notes)
#   7. KUnit on UML with the md-linear lookup benchmark, and the side-by-side
#      benchmarks (reported, not asserted; MDS_BENCH=0 skips)
# Ends with 'N passed, N failed'; exits non-zero if anything failed.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

mkdir -p "$MDS_OUT"
SUMMARY=$MDS_OUT/summary.txt
: >"$SUMMARY"
rm -f "$MDS_OUT/check-times.txt"
t0=$(date +%s)
pass() { echo "PASS $*" | tee -a "$SUMMARY"; }
fail() { echo "FAIL $*" | tee -a "$SUMMARY"; }
STAGES=$MDS_OUT/stages.txt
: >"$STAGES"
stage_name=
stage_t=$t0
# step NAME: a new stage; the time of the one before goes to the summary
step() {
	local now
	now=$(date +%s)
	[ -n "$stage_name" ] && printf '%6ds  %s\n' $((now - stage_t)) "$stage_name" >>"$STAGES"
	stage_name=$*
	stage_t=$now
	echo; echo "=== $* ($((now - t0))s)"
}
finish() {
	local p f
	step end
	p=$(grep -c '^PASS' "$SUMMARY"); f=$(grep -c '^FAIL' "$SUMMARY")
	echo
	echo "=== summary ($(( $(date +%s) - t0 ))s)"
	echo "time per stage:"
	cat "$STAGES"
	if [ -s "$MDS_OUT/check-times.txt" ]; then
		echo "time per check of the per-patch stage (summed over the patches; the arm64 build and checkpatch run beside the others):"
		cat "$MDS_OUT/check-times.txt"
	fi
	echo "skipped (not counted): $(grep -c '^SKIP' "$SUMMARY")"
	echo "expected failures, known on v7.3.4 too (not counted): $(grep -c '^XFAIL' "$SUMMARY")"
	grep '^XFAIL' "$SUMMARY"
	# each failure with the lines count.py put under it ("  | ": why)
	awk '/^FAIL/ { f = 1; print; next } /^  \| / { if (f) print; next } { f = 0 }' "$SUMMARY"
	echo "$p passed, $f failed"
	[ "$f" = 0 ] && [ "$p" -gt 0 ]
	exit $?
}

step "host tools"
if [ "$(id -u)" = 0 ]; then
	"$MDS_ROOT/ci/setup-host.sh" && pass setup-host || { fail setup-host; finish; }
fi

step "base tree and series"
if tree=$("$MDS_ROOT/ci/apply.sh"); then pass "git-am ($(wc -l <"$MDS_ROOT/series") patches)"; else fail git-am; finish; fi
if "$MDS_ROOT/ci/export.sh" --check; then pass export-round-trip; else fail export-round-trip; fi
"$MDS_ROOT/ci/quilt-check.sh" && pass quilt-push || fail quilt-push

step "per-patch checks"
"$MDS_ROOT/ci/check-series.sh" | tee -a "$SUMMARY"
git -C "$tree" checkout -q -f "$SERIES_BRANCH"

step "b4"
"$MDS_ROOT/ci/b4-prep.sh" && pass b4 || fail b4
# one posting per topic (ci/postings/topics), each applied after its
# prerequisites as 'b4 shazam' would; its own PASS/FAIL lines
"$MDS_ROOT/ci/b4-topics.sh" | tee -a "$SUMMARY" ||
	grep -q '^FAIL b4-topics' "$SUMMARY" || fail "b4-topics (stopped early, see the log)"
# its own PASS/FAIL lines; a FAIL here only if it stopped before printing one
"$MDS_ROOT/ci/resign-check.sh" | tee -a "$SUMMARY" ||
	grep -q '^FAIL resign' "$SUMMARY" || fail "resign-check (stopped early, see the log)"

step "KUnit: kunit.py config"
# The guests run the md KUnit suites (built in, both page sizes). Here only
# what a maintainer types is checked: kunit.py accepts
# drivers/md/.kunitconfig and every option in it lands in UML's .config.
# The full UML run, with the md-linear lookup benchmark, is in the
# benchmark stage (MDS_BENCH=1).
"$MDS_ROOT/kunit/run-uml.sh" config >"$MDS_OUT/kunit-config.log" 2>&1 &&
	pass "kunit-config uml (drivers/md/.kunitconfig)" ||
	{ tail -n 20 "$MDS_OUT/kunit-config.log"; fail "kunit-config uml (drivers/md/.kunitconfig)"; }

# programs the CI guests have everything for: a whole-program skip fails.
# Every TEST_PROGS of the series' Makefile, so that a new test is one too,
# md_unclean_stop.sh is TEST_PROGS_EXTENDED (it resets the machine): it runs
# over two boots of its own (selftests/unclean-stop.sh).
MUST_RUN=$(md_must_run "$tree")
[ -n "$MUST_RUN" ] || fail "no TEST_PROGS in tools/testing/selftests/drivers/md/Makefile"

# CI's share of the guest tests, for its time on two cores (TCG only; the
# full set is MDS_FULL=1, a documented command whose last result is in the
# issue notes):
#  - arm64 (64K pages, 16K stripe_size) runs the scripts whose subject
#    depends on the page or stripe size; the others (every level and
#    layout, read errors, a member failing under a writer, fio's verify,
#    md-linear's mapping) run on x86_64 only, and four of the former on
#    arm64 only, where they reach further: bad sysfs input (stripe_size
#    is writable there), the bitmap on members of a terabyte and bitmaps
#    older mdadm laid over the bad-block log (a bitmap page is 128
#    sectors), and the reshapes (at stripe_size 4K, x86_64's, and 16K).
#  - md_bitmap_io.sh's scsi_debug geometries are split (MD_BITMAP_GEOMS):
#    512e with io_opt 64K (an io_opt above the page) and 512e aligned at
#    sector 7 on x86_64; 4Kn of 2 TiB and 16K physical blocks of 1 GiB (a
#    skip on 4K pages) on arm64. MDS_FULL only: 512e with io_opt 64K on
#    arm64 (io_opt at the page), 512e of 1 TiB (members of a terabyte are
#    the 4Kn of 2 TiB here, and md_bitmap_sizes.sh's lockless 1 TiB on
#    both), 4Kn and plain 512e of 64 MiB, 512-byte blocks with io_opt
#    128K (of 64 MiB and 4 TiB).
#  - the repeat-heavy cases run fewer times, through the tests' own knobs
#    (kernel command-line words without a dot reach /init's environment):
#    one stripe_queue grow of three, four bursts of twelve, the member
#    failures with an internal bitmap only (x86_64), md_reshape.sh at
#    stripe_size 4K and 16K of 4K, 16K and 64K (arm64).
SKIP_arm64="md_member_fail.sh md_fio_verify.sh md_linear.sh md_levels.sh md_layouts.sh md_read_errors.sh"
SKIP_x86_64="md_bad_input.sh md_bitmap_sizes.sh md_bitmap_legacy.sh md_reshape.sh"
# (the knobs: ksft_knobs in ci/lib.sh, shared with selftests/udev-run.sh)
KSFT_ENV_x86_64=$(ksft_knobs x86_64)
KSFT_ENV_arm64=$(ksft_knobs arm64)
if [ "${MDS_FULL:-0}" = 1 ]; then
	SKIP_arm64= SKIP_x86_64=
fi

for arch in x86_64 arm64; do
	step "guest $arch: KUnit and kselftest"
	only=
	env_var=KSFT_ENV_$arch
	skip_var=SKIP_$arch
	if [ -n "${!skip_var}" ]; then
		for p in ${MUST_RUN//,/ }; do
			case " ${!skip_var} " in *" ${p#drivers/md/} "*) continue ;; esac
			only="$only mdtest.only=drivers/md:${p#drivers/md/}"
		done
	fi
	img=$MDS_OUT/build/$arch/kernel.img
	initrd=$MDS_OUT/images/$arch-initramfs.cpio
	if ! [ -f "$img" ] || ! "$MDS_ROOT/selftests/mkinitramfs.sh" "$arch" "$tree" "$initrd" \
		"$MDS_OUT/build/$arch/modroot" >/dev/null; then
		fail "guest-$arch (no kernel or initramfs)"
		continue
	fi
	logf=$MDS_OUT/logs/$arch-kselftest.log
	# each script has its own limit (the kselftest runner's, from
	# settings); the boot's is a backstop over all of them, which a slow
	# machine must not reach
	if MDS_GUEST_TIMEOUT=${MDS_GUEST_TIMEOUT:-3600} MDS_CMDLINE="${!env_var}$only" \
		"$MDS_ROOT/selftests/run-guest.sh" "$arch" "$img" "$initrd" "$logf" kselftest; then
		pass "guest-$arch boot, no splat, clean power-off"
	else
		fail "guest-$arch boot, no splat, clean power-off"
	fi
	"$MDS_ROOT/selftests/count.py" "$arch" "$logf" "$tree" --must-run "$MUST_RUN" | tee -a "$SUMMARY"
	step "guest $arch: unclean stop (two boots)"
	"$MDS_ROOT/selftests/unclean-stop.sh" "$arch" "$img" "$initrd" "$arch" "$tree" | tee -a "$SUMMARY"
done

if [ "${MDS_BENCH:-1}" != 0 ]; then
	step "KUnit on UML, with the md-linear lookup benchmark"
	"$MDS_ROOT/kunit/run-uml.sh" --kconfig_add CONFIG_MD_LINEAR_KUNIT_BENCHMARK=y >"$MDS_OUT/kunit-uml.log" 2>&1
	rc=$?
	tail -n 30 "$MDS_OUT/kunit-uml.log"
	"$MDS_ROOT/kunit/count.py" uml "$MDS_OUT/kunit-uml.log" $rc | tee -a "$SUMMARY"
	# the md-linear lookup benchmark: a KUnit case, native only on UML (reported, not asserted)
	mkdir -p "$MDS_OUT/bench"
	sed -n 's/.*md-linear bench: //p' "$MDS_OUT/kunit-uml/test.log" 2>/dev/null >"$MDS_OUT/bench/linear-lookup.txt"
	if [ "$(grep -cE '^(random|ascending) ' "$MDS_OUT/bench/linear-lookup.txt")" = 32 ]; then
		column -t "$MDS_OUT/bench/linear-lookup.txt" 2>/dev/null || cat "$MDS_OUT/bench/linear-lookup.txt"
		pass "bench linear-lookup uml reported"
	else
		fail "bench linear-lookup uml: no table in $MDS_OUT/kunit-uml/test.log"
	fi

	step "side-by-side benchmarks (reported, not asserted)"
	for s in $(cat "$MDS_ROOT/selftests/bench/scenarios" 2>/dev/null); do
		for arch in x86_64 arm64; do
			"$MDS_ROOT/selftests/bench.sh" "$arch" "$s" && pass "bench $s $arch ran" || fail "bench $s $arch ran"
		done
	done
fi
finish
