#!/bin/bash
# Upstream's checks on every patch of the applied series, each judged as a
# delta against the patch's parent (the way netdev's NIPA judges): a patch
# fails only on what it adds.
#   checkpatch   scripts/checkpatch.pl --strict --codespell (the patch itself)
#   build        x86_64 and arm64-64K kernels build at this patch (bisectability)
#   w1           new 'make W=1 drivers/md/' warnings
#   sparse       new sparse (>= 0.6.5) warnings on drivers/md/
#   kdoc         new 'scripts/kernel-doc -none -Wall' warnings on touched files
#   cocci        new 'coccicheck MODE=report' reports on touched .c files
# Prints one "PASS|FAIL <check> <patch>" line per check and patch to stdout
# (details to stderr) and exits non-zero if any failed. The last state's
# kernels are left in $MDS_OUT/build/<arch>/kernel.img, the base's copied to
# $MDS_OUT/images/<arch>-base.img.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

tree=$(kernel_tree)
base=$(git -C "$tree" rev-parse md-series-base) || die "run ci/apply.sh first"
mapfile -t commits < <(git -C "$tree" rev-list --reverse "$base..$SERIES_BRANCH")
mapfile -t pfiles < <(series_patches)
[ ${#commits[@]} = ${#pfiles[@]} ] || die "branch has ${#commits[@]} commits, series ${#pfiles[@]} patches: run ci/apply.sh"
SPARSE=$MDS_CACHE/sparse/bin/sparse
DICT=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
R=$MDS_OUT/checks
mkdir -p "$R" "$MDS_OUT/images" "$MDS_CACHE/cocci"
W1=$MDS_OUT/build/x86_64-w1
failed=0

result() { # result PASS|FAIL check patch [detail-file]
	echo "$1 $2 $3"
	if [ "$1" = FAIL ]; then
		failed=1
		[ -n "${4:-}" ] && [ -s "$4" ] && sed "s/^/    $2: /" "$4" | head -n 25 >&2
	fi
}

# Normalize warnings for comparing states: drop line and column numbers.
norm() { sed -E 's/:[0-9]+(:[0-9]+(-[0-9]+)?)?([: ])/:\3/; s/ at line [0-9]+//' | sort; }
# added OLD NEW: lines of NEW (normalized) beyond their count in OLD.
added() { comm -13 <(norm <"$1") <(norm <"$2"); }

# Per state: builds, W=1, sparse. Results in $R/<state>/.
state_checks() {
	local s=$1 d=$R/$1 arch
	mkdir -p "$d"
	git -C "$tree" checkout -q -f "$s" || return 1
	for arch in x86_64 arm64; do
		if "$MDS_ROOT/ci/build-kernel.sh" "$arch" "$MDS_OUT/build/$arch" "$tree" >/dev/null 2>"$d/build-$arch.log"; then
			echo ok >"$d/build-$arch"
		else
			echo fail >"$d/build-$arch"
		fi
	done
	# W=1 and sparse in their own build dir, so the guest builds keep their flags.
	mkdir -p "$W1"
	cp "$MDS_OUT/build/x86_64/.config" "$W1/.config"
	local mk=(make -s -C "$tree" O="$W1" LOCALVERSION= CC="ccache gcc" -j"$(nproc)")
	"${mk[@]}" olddefconfig >/dev/null 2>&1
	find "$W1/drivers/md" -maxdepth 1 -name '*.o' -delete 2>/dev/null
	"${mk[@]}" W=1 drivers/md/ >"$d/w1.raw" 2>&1
	echo $? >"$d/w1.rc"
	grep -E '(warning|error):' "$d/w1.raw" | grep -v '^make' >"$d/w1" || true
	"${mk[@]}" C=2 CHECK="$SPARSE" drivers/md/ >"$d/sparse.raw" 2>&1
	grep -q 'sparse is not available or not up to date' "$d/sparse.raw" &&
		echo "sparse is not available or not up to date: $SPARSE" >"$d/sparse.broken"
	grep -E '^[^ ]+:[0-9]+:[0-9]+: (warning|error):' "$d/sparse.raw" | grep -v '\[-W' >"$d/sparse" || true
}

# Files a commit touches, and their reports at a state (kernel-doc, coccinelle).
file_checks() { # file_checks STATE OUTDIR FILES...
	local s=$1 o=$2 f blob
	shift 2
	: >"$o/kdoc"; : >"$o/cocci"
	for f in "$@"; do
		blob=$(git -C "$tree" rev-parse -q --verify "$s:$f" 2>/dev/null) || continue
		case "$f" in
		*.c|*.h)
			git -C "$tree" show "$blob" >"$o/kdoc.in"
			(cd "$tree" && scripts/kernel-doc -none -Wall "$o/kdoc.in" 2>&1) |
				sed "s|$o/kdoc.in|$f|g" >>"$o/kdoc"
			;;
		esac
		case "$f" in
		drivers/md/*.c)
			if ! [ -f "$MDS_CACHE/cocci/$blob" ]; then
				(cd "$tree" && git checkout -q -f "$s" &&
					make -s O="$W1" C=2 CHECK="$tree/scripts/coccicheck" MODE=report \
						J="$(nproc)" "${f%.c}.o" 2>&1) >"$o/cocci.raw"
				# the kernel skips an unusable checker with only this line
				if grep -q 'not available or not up to date' "$o/cocci.raw"; then
					echo "coccicheck did not run: $(head -n 1 "$o/cocci.raw")" >>"$o/cocci"
					continue
				fi
				grep -E "$(basename "$f"):[0-9]" "$o/cocci.raw" >"$MDS_CACHE/cocci/$blob.tmp" || true
				mv "$MDS_CACHE/cocci/$blob.tmp" "$MDS_CACHE/cocci/$blob"
			fi
			sed "s|^.*$(basename "$f"):|$f:|" "$MDS_CACHE/cocci/$blob" >>"$o/cocci"
			;;
		esac
	done
}

# A base without history (the Debian tarball) cannot resolve upstream commit
# ids, and checkpatch asks "does MAINTAINERS need updating?" of every new
# file. Both are answered here instead: cited ids and subjects must match
# ci/known-commits, and every new file must fall under a MAINTAINERS entry.
cp_ignore=()
base_has_history "$tree" "$base" || cp_ignore=(--ignore "$CHECKPATCH_HISTORYLESS_IGNORE")
cited_commits() { # cited_commits PATCH: ERROR lines for unknown ids or subjects
	sed -n '/^---$/q;p' "$1" | grep -oE '\b[0-9a-f]{12,40} \("[^"]+"\)' |
	while read -r id subj; do
		subj=${subj#(\"}; subj=${subj%\")}
		grep -qE "^$id[0-9a-f]* $(printf '%s' "$subj" | sed 's/[][\.*^$/]/\\&/g')\$" \
			"$MDS_ROOT/ci/known-commits" ||
			echo "ERROR: commit $id (\"$subj\") is not in ci/known-commits"
	done
}
new_files_maintained() { # new_files_maintained COMMIT (checked out)
	local f
	git -C "$tree" diff --diff-filter=A --name-only "$1~1" "$1" | while read -r f; do
		(cd "$tree" && scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
			--no-l --no-r -f "$f" 2>/dev/null) | grep -qv "^Linus Torvalds" ||
			echo "WARNING: new file $f is not covered by any MAINTAINERS entry"
	done
}

[ -x "$SPARSE" ] || die "sparse not built: run ci/setup-host.sh"
[ -f "$DICT" ] || die "codespell dictionary $DICT missing: checkpatch --codespell would check nothing"

log "state: base $(git -C "$tree" log -1 --format=%h "$base")"
state_checks "$base"
for arch in x86_64 arm64; do
	[ "$(cat "$R/$base/build-$arch")" = ok ] || die "the base does not build for $arch: $(tail -n 5 "$R/$base/build-$arch.log")"
	cp "$MDS_OUT/build/$arch/kernel.img" "$MDS_OUT/images/$arch-base.img"
done
[ -f "$R/$base/sparse.broken" ] && die "$(cat "$R/$base/sparse.broken")"

prev=$base
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	p=$(basename "${pfiles[$i]}")
	log "patch $((i + 1))/${#commits[@]}: $p"

	cp_out=$R/$c.checkpatch
	(cd "$tree" && scripts/checkpatch.pl --strict --codespell --codespellfile="$DICT" \
		--no-summary --showfile -q "${cp_ignore[@]}" "${pfiles[$i]}") >"$cp_out" 2>&1
	state_checks "$c"
	# What the ignored types stood for, checked here instead.
	if ! [ ${#cp_ignore[@]} = 0 ]; then
		cited_commits "${pfiles[$i]}" >>"$cp_out"
		new_files_maintained "$c" >>"$cp_out"
	fi
	if grep -qE '^[^ ]*:[0-9]+: (ERROR|WARNING|CHECK):|^(ERROR|WARNING|CHECK):|Traceback|No such file' "$cp_out"; then
		result FAIL checkpatch "$p" "$cp_out"
	else
		result PASS checkpatch "$p"
	fi

	for arch in x86_64 arm64; do
		if [ "$(cat "$R/$c/build-$arch")" = ok ]; then
			result PASS "build-$arch" "$p"
		else
			grep -E 'error|Error' "$R/$c/build-$arch.log" >"$R/$c/build-$arch.err" || cp "$R/$c/build-$arch.log" "$R/$c/build-$arch.err"
			result FAIL "build-$arch" "$p" "$R/$c/build-$arch.err"
		fi
	done
	added "$R/$prev/w1" "$R/$c/w1" >"$R/$c/w1.new"
	if [ -s "$R/$c/w1.new" ]; then result FAIL w1 "$p" "$R/$c/w1.new"; else result PASS w1 "$p"; fi
	if [ -f "$R/$c/sparse.broken" ]; then
		result FAIL sparse "$p" "$R/$c/sparse.broken"
	else
		added "$R/$prev/sparse" "$R/$c/sparse" >"$R/$c/sparse.new"
		if [ -s "$R/$c/sparse.new" ]; then result FAIL sparse "$p" "$R/$c/sparse.new"; else result PASS sparse "$p"; fi
	fi

	mapfile -t files < <(git -C "$tree" diff --name-only "$prev" "$c")
	mkdir -p "$R/$c/parent" "$R/$c/self"
	file_checks "$prev" "$R/$c/parent" "${files[@]}"
	file_checks "$c" "$R/$c/self" "${files[@]}"
	git -C "$tree" checkout -q -f "$c"
	for k in kdoc cocci; do
		added "$R/$c/parent/$k" "$R/$c/self/$k" >"$R/$c/$k.new"
		if [ -s "$R/$c/$k.new" ]; then result FAIL "$k" "$p" "$R/$c/$k.new"; else result PASS "$k" "$p"; fi
	done
	prev=$c
done
git -C "$tree" checkout -q -f "$SERIES_BRANCH"
exit $failed
