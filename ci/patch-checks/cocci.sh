#!/bin/bash
# New 'make coccicheck MODE=report' reports on the drivers/md C files the
# patch touches, run through the x86_64 allmodconfig build dir. Reports are
# cached per file content in $MDS_CACHE/cocci-v2.
#
# One raid5.c takes about 3.5 minutes on two cores, and most patches of the
# series touch raid5.c: to stay within CI's time, a file is judged at the
# last patch of the series that touches it, against the series base (the
# patches before it say SKIP for it). MDS_COCCI_EVERY=1 judges every patch
# against its parent, as NIPA does.
. "$(dirname "$0")/lib.sh"
# reports per file content; cocci-v2: those of the first version, which ran
# make -s and so never saw a report, are not reused
CC_CACHE=$MDS_CACHE/cocci-v2
# the files to judge at this patch: all it touches, or (by default) those
# no later patch of the series touches
cocci_files() {
	local f
	touched | while IFS= read -r f; do
		case "$f" in drivers/md/*.c) ;; *) continue ;; esac
		if [ "${MDS_COCCI_EVERY:-0}" != 1 ] &&
		   [ -n "$(git -C "$TREE" rev-list "$COMMIT..$SERIES_BRANCH" -- "$f")" ]; then
			continue
		fi
		echo "$f"
	done
}
cocci_of() { # cocci_of STATE OUTFILE FILES...
	local f blob raw st=$1 of=$2 a mk=()
	shift 2
	for a in "${BOT_MK[@]}"; do [ "$a" = -s ] || mk+=("$a"); done
	: >"$of"
	for f in "$@"; do
		blob=$(git -C "$TREE" rev-parse -q --verify "$st:$f" 2>/dev/null) || continue
		if ! [ -f "$CC_CACHE/$blob" ]; then
			git -C "$TREE" checkout -q -f "$st" || return 1
			raw=$OUT/cocci.raw
			# not 'make -s': kbuild then sends a checker's stdout, where
			# coccicheck prints its reports, to /dev/null (silent_redirect)
			(cd "$TREE" && "${mk[@]}" C=2 CHECK="$TREE/scripts/coccicheck" MODE=report \
				J="$(nproc)" "${f%.c}.o" 2>&1) >"$raw"
			# the kernel skips an unusable checker with only this line
			if grep -q 'not available or not up to date' "$raw"; then
				echo "coccicheck did not run: $(head -n 1 "$raw")" >>"$of"
				continue
			fi
			# coccilib's reports: FILE:LINE:COL-COL: MESSAGE (the
			# compiler's warnings are the build checks' business)
			grep -E "$(basename "$f"):[0-9]+:[0-9]+-[0-9]+: " "$raw" >"$CC_CACHE/$blob.tmp" || true
			mv "$CC_CACHE/$blob.tmp" "$CC_CACHE/$blob"
		fi
		sed "s|^.*$(basename "$f"):|$f:|" "$CC_CACHE/$blob" >>"$of"
	done
}
judge() {
	local out=$OUT/$CHECK.txt sd from=$PARENT files f
	mapfile -t files < <(cocci_files)
	[ ${#files[@]} = 0 ] && return 2
	[ "${MDS_COCCI_EVERY:-0}" = 1 ] || from=$(git -C "$TREE" rev-parse md-series-base)
	echo "judged: ${files[*]} against $(git -C "$TREE" log -1 --format=%h "$from")" >>"$out"
	mkdir -p "$CC_CACHE"
	sd=$(mktemp -d)
	# the kbuild environment coccicheck runs in: x86_64 allmodconfig, which
	# builds every md file, the KUnit suites too
	bot_config x86_64 allmodconfig bot-allmod.config "$sd" "$MDS_OUT/build/bot-build-x86_64-allmodconfig" ||
		{ cat "$sd/config.log" >>"$out"; rm -rf "$sd"; return 1; }
	rm -rf "$sd"
	# the patch's own state first, file by file: a checker that did not
	# run fails, and a file with no report cannot have added one, so the
	# base's version of a file is run only when the patch's reports
	# something (of the series' files, md.c, md-bitmap.c and raid5.c have
	# reports in 7.3.4 too)
	: >"$OUT/cocci.self"
	: >"$OUT/cocci.parent"
	for f in "${files[@]}"; do
		cocci_of "$COMMIT" "$OUT/cocci.f" "$f"
		cat "$OUT/cocci.f" >>"$OUT/cocci.self"
		if grep -q 'coccicheck did not run' "$OUT/cocci.f"; then
			cat "$OUT/cocci.f" >>"$out"
			git -C "$TREE" checkout -q -f "$COMMIT"
			return 1
		fi
		if [ -s "$OUT/cocci.f" ]; then
			cocci_of "$from" "$OUT/cocci.f" "$f"
			cat "$OUT/cocci.f" >>"$OUT/cocci.parent"
		fi
	done
	git -C "$TREE" checkout -q -f "$COMMIT"
	added "$OUT/cocci.parent" "$OUT/cocci.self" >"$OUT/cocci.new"
	[ -s "$OUT/cocci.new" ] && { echo "new reports:"; cat "$OUT/cocci.new"; } >>"$out"
	[ ! -s "$OUT/cocci.new" ]
}
run_check "$@"
